import { describe, expect, it } from 'vitest';
import { intOrPercentProblem, resolveFenceposts, scaledValue } from '../intstr';
import type { IntOrString } from '../schemas/meta';

/** Cluster API's int-or-percent handling (R-MD-2), on which the strategy rules rest. */
describe('intstr', () => {
  const problems: [IntOrString, ReturnType<typeof intOrPercentProblem>][] = [
    [0, undefined],
    [1, undefined],
    [10, undefined],
    ['0%', undefined],
    ['25%', undefined],
    ['100%', undefined],
    [-1, 'negative'],
    [1.5, 'notInteger'],
    ['1', 'notPercent'],
    ['0', 'notPercent'],
    ['', 'notPercent'],
    ['one', 'notPercent'],
    ['%', 'badPercent'],
    ['1.5%', 'badPercent'],
    ['abc%', 'badPercent'],
    ['-5%', 'negative'],
  ];
  for (const [value, problem] of problems) {
    it(`R-MD-2: ${JSON.stringify(value)} is ${problem ?? 'a valid int or percent'}`, () => {
      expect(intOrPercentProblem(value)).toBe(problem);
    });
  }

  const scaled: [IntOrString, number, boolean, number][] = [
    [2, 10, true, 2],
    [2, 10, false, 2],
    ['25%', 10, true, 3],
    ['25%', 10, false, 2],
    ['10%', 3, true, 1],
    ['10%', 3, false, 0],
    ['0%', 5, true, 0],
    ['100%', 3, false, 3],
  ];
  for (const [value, total, roundUp, expected] of scaled) {
    it(`R-MD-2: ${JSON.stringify(value)} of ${total} rounds ${roundUp ? 'up (maxSurge)' : 'down (maxUnavailable)'} to ${expected}`, () => {
      expect(scaledValue(value, total, roundUp)).toBe(expected);
    });
  }

  it('R-MD-2: a bare numeric string cannot be scaled', () => {
    expect(() => scaledValue('1', 3, true)).toThrow(/not valid|invalid/);
  });

  const fenceposts: [IntOrString | undefined, IntOrString | undefined, number, [number, number]][] =
    [
      ['0%', '0%', 3, [0, 1]],
      [0, '0%', 5, [0, 1]],
      ['10%', '10%', 3, [1, 0]],
      ['50%', '50%', 3, [2, 1]],
      [undefined, undefined, 3, [1, 0]],
      [0, 1, 3, [0, 1]],
      [2, 0, 3, [2, 0]],
    ];
  for (const [surge, unavailable, replicas, [s, u]] of fenceposts) {
    it(`R-MD-2: maxSurge ${JSON.stringify(surge)} / maxUnavailable ${JSON.stringify(unavailable)} of ${replicas} resolve to ${s} / ${u}`, () => {
      expect(resolveFenceposts(surge, unavailable, replicas)).toEqual({
        maxSurge: s,
        maxUnavailable: u,
      });
    });
  }
});
