import { describe, expect, it } from 'vitest';
import type { Condition } from '@dcs/domain';
import {
  aggregate,
  falseCondition,
  mirror,
  setCondition,
  setConditions,
  summary,
  trueCondition,
  unknownCondition,
} from './conditions';

const t0 = '2026-01-01T00:00:00Z';
const t1 = '2026-01-01T00:01:00Z';

describe('v1beta1 conditions', () => {
  it('keeps the last transition time while the state is unchanged, and sorts Ready first', () => {
    let c = setCondition([], falseCondition('B', 'Waiting', 'Info'), t0);
    c = setCondition(c, trueCondition('Ready'), t0);
    c = setCondition(c, falseCondition('B', 'Waiting', 'Info'), t1);
    expect(c.map((x) => x.type)).toEqual(['Ready', 'B']);
    expect(c[1]?.lastTransitionTime).toBe(t0);
    c = setCondition(c, trueCondition('B'), t1);
    expect(c[1]).toEqual({ type: 'B', status: 'True', lastTransitionTime: t1 });
  });

  it('the summary takes the most severe False, in the given priority order', () => {
    const conditions = [
      falseCondition('A', 'InfoReason', 'Info', 'a'),
      falseCondition('B', 'WarnReason', 'Warning', 'b'),
      falseCondition('C', 'WarnReason2', 'Warning', 'c'),
      trueCondition('D'),
    ];
    expect(summary(conditions, { conditions: ['A', 'C', 'B', 'D'] })).toEqual(
      falseCondition('Ready', 'WarnReason2', 'Warning', 'c'),
    );
  });

  it('True beats Unknown, and all True is True', () => {
    expect(
      summary([trueCondition('A'), unknownCondition('B', 'X')], { conditions: ['A', 'B'] })?.status,
    ).toBe('True');
    expect(summary([unknownCondition('B', 'X', 'm')], { conditions: ['B'] })).toEqual(
      unknownCondition('Ready', 'X', 'm'),
    );
  });

  it('the step counter counts True conditions of the listed ones', () => {
    const s = summary(
      [
        trueCondition('BootstrapReady'),
        falseCondition('InfrastructureReady', 'WaitingForInfrastructure', 'Info'),
      ],
      {
        conditions: ['InfrastructureReady', 'BootstrapReady'],
        stepCounterIf: true,
        stepCounterIfOnly: ['BootstrapReady', 'InfrastructureReady'],
      },
    );
    expect(s).toEqual(
      falseCondition('Ready', 'WaitingForInfrastructure', 'Info', '1 of 2 completed'),
    );
  });

  it("mirrors another object's Ready, or the fallback", () => {
    expect(
      mirror(
        [{ ...falseCondition('Ready', 'R', 'Error', 'm'), lastTransitionTime: t0 }],
        'InfrastructureReady',
        trueCondition('x'),
      ),
    ).toEqual(falseCondition('InfrastructureReady', 'R', 'Error', 'm'));
    expect(
      mirror(
        undefined,
        'InfrastructureReady',
        falseCondition('', 'WaitingForInfrastructure', 'Info'),
      ),
    ).toEqual(falseCondition('InfrastructureReady', 'WaitingForInfrastructure', 'Info'));
  });

  it('aggregates machines with the source in the reason', () => {
    const a = aggregate(
      [
        { kind: 'Machine', name: 'm1', conditions: [trueCondition('Ready')] },
        {
          kind: 'Machine',
          name: 'm2',
          conditions: [
            falseCondition('Ready', 'WaitingForInfrastructure', 'Info', '0 of 2 completed'),
          ],
        },
      ],
      'MachinesReady',
    );
    expect(a).toEqual(
      falseCondition(
        'MachinesReady',
        'WaitingForInfrastructure @ Machine/m2',
        'Info',
        '0 of 2 completed',
      ),
    );
  });

  it('setConditions gives what setCondition one after the other gives (one copy, one sort)', () => {
    const types = ['Ready', 'BootstrapReady', 'InfrastructureReady', 'NodeHealthy', 'A'];
    let seed = 7;
    const next = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const random = (): Condition => {
      const type = types[next(types.length)] ?? 'Ready';
      return next(2)
        ? trueCondition(type)
        : falseCondition(type, ['R1', 'R2'][next(2)] ?? 'R1', 'Info', next(2) ? 'm' : '');
    };
    for (let run = 0; run < 500; run++) {
      const start = Array.from({ length: next(4) }, random).reduce<Condition[]>(
        (acc, c) => setCondition(acc, c, t0),
        [],
      );
      const updates = Array.from({ length: next(5) }, () => (next(6) ? random() : undefined));
      const oneByOne = updates.reduce<Condition[]>((acc, c) => setCondition(acc, c, t1), start);
      expect(setConditions(start, updates, t1)).toEqual(oneByOne);
    }
  });
});
