import { describe, expect, it } from 'vitest';
import {
  aggregateV2,
  indentIfMultiline,
  pausedCondition,
  setV2Conditions,
  summaryV2,
  v2,
  type AggregateSource,
  type V2Condition,
} from './v1beta2';

/**
 * util/conditions of Cluster API v1.14.0 (setter.go, sort.go, merge_strategies.go, summary.go);
 * the aggregate cases are merge_strategies_test.go's TestAggregateMessages.
 */

const T0 = '2026-12-01T10:00:00Z';
const T1 = '2026-12-01T10:05:00Z';

describe('setV2Conditions (conditions.Set)', () => {
  it('stamps a new condition with the time and the generation', () => {
    expect(setV2Conditions(undefined, [v2('Ready', 'False', 'NotReady', 'x')], 3, T0)).toEqual([
      {
        type: 'Ready',
        status: 'False',
        reason: 'NotReady',
        message: 'x',
        lastTransitionTime: T0,
        observedGeneration: 3,
      },
    ]);
  });

  it('keeps the last transition time when only reason, message or generation change', () => {
    const before = setV2Conditions(undefined, [v2('Ready', 'False', 'NotReady', 'a')], 1, T0);
    const after = setV2Conditions(before, [v2('Ready', 'False', 'Other', 'b')], 2, T1);
    expect(after[0]).toMatchObject({ reason: 'Other', message: 'b', observedGeneration: 2 });
    expect(after[0]?.lastTransitionTime).toBe(T0);
    const flipped = setV2Conditions(after, [v2('Ready', 'True', 'Ready')], 2, T1);
    expect(flipped[0]?.lastTransitionTime).toBe(T1);
  });

  it('returns the same entries when nothing changes, and does not touch the input', () => {
    const before = setV2Conditions(undefined, [v2('Ready', 'True', 'Ready')], 1, T0);
    const again = setV2Conditions(before, [v2('Ready', 'True', 'Ready')], 1, T1);
    expect(again).toEqual(before);
    expect(again[0]).toBe(before[0]);
    setV2Conditions(before, [v2('Ready', 'False', 'NotReady')], 1, T1);
    expect(before[0]?.status).toBe('True');
  });

  it("keeps upstream's order: Available and Ready first, gates after the aggregates, Paused and Deleting last", () => {
    const list = setV2Conditions(
      undefined,
      [
        v2('Deleting', 'False', 'NotDeleting'),
        v2('Paused', 'False', 'NotPaused'),
        v2('MyGate', 'True', 'X'),
        v2('MachinesReady', 'True', 'Ready'),
        v2('NodeReady', 'True', 'NodeReady'),
        v2('NodeHealthy', 'True', 'NodeHealthy'),
        v2('Ready', 'True', 'Ready'),
        v2('Available', 'True', 'Available'),
      ],
      1,
      T0,
    );
    expect(list.map((c) => c.type)).toEqual([
      'Available',
      'Ready',
      'NodeHealthy',
      'NodeReady',
      'MachinesReady',
      'MyGate',
      'Paused',
      'Deleting',
    ]);
  });
});

describe('indentIfMultiline', () => {
  it('one line stays on the line; bullets and lines go below, indented', () => {
    expect(indentIfMultiline('Message-1')).toBe(' Message-1');
    expect(indentIfMultiline('* Message-2')).toBe('\n  * Message-2');
    expect(indentIfMultiline('* Message-3A\n* Message-3B')).toBe(
      '\n  * Message-3A\n  * Message-3B',
    );
    expect(indentIfMultiline('Message-4\n* More Message-4')).toBe(
      '\n  * Message-4\n    * More Message-4',
    );
  });
});

const cond = (status: V2Condition['status'], message: string): V2Condition[] => [
  { type: 'A', status, reason: 'R', message },
];
const src = (
  kind: string,
  name: string,
  c: V2Condition[],
  controlPlane = false,
): AggregateSource => ({
  kind,
  name,
  conditions: c,
  controlPlane,
});
const REASONS = ['Issues', 'Unknown', 'Info'] as const;

describe('aggregateV2 (NewAggregateCondition, TestAggregateMessages)', () => {
  it('at most three messages, three objects each, then how many more report issues per kind', () => {
    const F = (m: string) => cond('False', m);
    const sources = [
      src('MachineDeployment', 'obj02', F('Message-1')),
      src('MachineDeployment', 'obj01', F('Message-1')),
      src('MachineDeployment', 'obj04', F('* Message-2')),
      src('MachineDeployment', 'obj03', F('* Message-2')),
      src('MachineDeployment', 'obj06', F('* Message-3A\n* Message-3B')),
      src('MachineDeployment', 'obj05', F('Message-1')),
      src('MachineDeployment', 'obj08', F('Message-1')),
      src('MachineDeployment', 'obj07', F('Message-4')),
      src('MachineDeployment', 'obj09', F('Message-1')),
      src('MachineDeployment', 'obj10', F('Message-5')),
      src('MachineSet', 'obj11', F('Message-1')),
      src('MachineSet', 'obj12', F('Message-1')),
    ];
    const got = aggregateV2(sources, 'A', 'Target', REASONS);
    expect(got).toMatchObject({ type: 'Target', status: 'False', reason: 'Issues' });
    expect(got.message.split('\n')).toEqual([
      '* MachineDeployments obj01, obj02, obj05, ... (2 more): Message-1',
      '* MachineDeployments obj03, obj04:',
      '  * Message-2',
      '* MachineDeployment obj06:',
      '  * Message-3A',
      '  * Message-3B',
      'And 2 MachineDeployments with other issues',
      'And 2 MachineSets with other issues',
    ]);
  });

  it('issue messages go before unknown ones, whatever the number of objects', () => {
    const U = (m: string) => cond('Unknown', m);
    const F = (m: string) => cond('False', m);
    const sources = [
      src('MachineDeployment', 'obj02', U('Message-1')),
      src('MachineDeployment', 'obj01', U('Message-1')),
      src('MachineDeployment', 'obj04', F('* Message-2')),
      src('MachineDeployment', 'obj03', F('* Message-2')),
      src('MachineDeployment', 'obj06', F('* Message-3A\n* Message-3B')),
      src('MachineDeployment', 'obj05', U('Message-1')),
      src('MachineDeployment', 'obj08', U('Message-1')),
      src('MachineDeployment', 'obj07', F('Message-4\n* More Message-4')),
      src('MachineDeployment', 'obj09', U('Message-1')),
      src('MachineDeployment', 'obj10', F('Message-5')),
    ];
    expect(aggregateV2(sources, 'A', 'Target', REASONS).message).toBe(
      [
        '* MachineDeployments obj03, obj04:\n  * Message-2',
        '* MachineDeployment obj06:\n  * Message-3A\n  * Message-3B',
        '* MachineDeployment obj07:\n  * Message-4\n    * More Message-4',
        'And 1 MachineDeployment with other issues',
        'And 5 MachineDeployments with status unknown',
      ].join('\n'),
    );
  });

  it('control-plane machines always go first, in the message order and in the name list', () => {
    const sources = [
      src('Machine', 'obj02', cond('Unknown', '* Message-1'), true),
      src('Machine', 'obj01', cond('Unknown', '* Message-1')),
      src('Machine', 'obj04', cond('False', '* Message-2')),
      src('Machine', 'obj03', cond('False', '* Message-2')),
      src('Machine', 'obj06', cond('False', '* Message-3A\n* Message-3B')),
      src('Machine', 'obj05', cond('False', '* Message-2')),
    ];
    expect(aggregateV2(sources, 'A', 'Target', REASONS).message).toBe(
      [
        '* Machines obj02, obj01:\n  * Message-1',
        '* Machines obj03, obj04, obj05:\n  * Message-2',
        '* Machine obj06:\n  * Message-3A\n  * Message-3B',
      ].join('\n'),
    );
  });

  it('all fine: True with the info reason; empty info messages are dropped; a missing condition is unknown', () => {
    const ok = aggregateV2(
      [src('Machine', 'a', cond('True', '')), src('Machine', 'b', cond('True', ''))],
      'A',
      'Target',
      REASONS,
    );
    expect(ok).toEqual({ type: 'Target', status: 'True', reason: 'Info', message: '' });
    const missing = aggregateV2(
      [src('Machine', 'a', cond('True', '')), src('Machine', 'b', [])],
      'A',
      'Target',
      REASONS,
    );
    expect(missing).toEqual({
      type: 'Target',
      status: 'Unknown',
      reason: 'Unknown',
      message: '* Machine b: Condition A not yet reported',
    });
  });
});

describe('summaryV2 (NewSummaryCondition)', () => {
  const conditions: V2Condition[] = [
    { type: 'A', status: 'False', reason: 'ReasonA', message: 'Message-A' },
    { type: 'B', status: 'Unknown', reason: 'ReasonB', message: '' },
    { type: 'C', status: 'True', reason: 'ReasonC', message: 'Message-C' },
    { type: '!D', status: 'True', reason: 'ReasonD', message: '* one\n* two' },
  ];

  it('issues first (positive and negative polarity), then unknown; info dropped while anything is wrong', () => {
    expect(
      summaryV2(conditions, 'Ready', {
        types: ['A', 'B', 'C', '!D'],
        negativePolarity: ['!D'],
        reasons: ['NotReady', 'ReadyUnknown', 'Ready'],
      }),
    ).toEqual({
      type: 'Ready',
      status: 'False',
      reason: 'NotReady',
      message: '* A: Message-A\n* B: ReasonB\n* !D:\n  * one\n  * two',
    });
  });

  it('all info: True, with the messages of the info conditions that have one', () => {
    expect(summaryV2(conditions, 'Ready', { types: ['C'] })).toEqual({
      type: 'Ready',
      status: 'True',
      reason: 'InfoReported',
      message: '* C: Message-C',
    });
  });

  it('a missing condition counts as unknown unless it may be missing', () => {
    expect(summaryV2(conditions, 'Ready', { types: ['C', 'E'] })).toMatchObject({
      status: 'Unknown',
      reason: 'UnknownReported',
      message: '* E: Condition not yet reported',
    });
    expect(
      summaryV2(conditions, 'Ready', { types: ['C', 'E'], ignoreIfMissing: ['E'] }),
    ).toMatchObject({
      status: 'True',
    });
  });
});

describe('pausedCondition (paused.EnsurePausedCondition)', () => {
  it('False NotPaused, or True naming why', () => {
    expect(pausedCondition(false, {}, 'Machine')).toEqual(v2('Paused', 'False', 'NotPaused'));
    expect(pausedCondition(true, { 'cluster.x-k8s.io/paused': '' }, 'MachineSet')).toEqual(
      v2(
        'Paused',
        'True',
        'Paused',
        'Cluster spec.paused is set to true, MachineSet has the cluster.x-k8s.io/paused annotation',
      ),
    );
  });
});
