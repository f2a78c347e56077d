import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DueTimes } from './due-times';

describe('DueTimes', () => {
  it('keeps the minimum of the times set, replaced and removed, as a scan finds it', () => {
    const step = fc.record({
      name: fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f'),
      t: fc.option(fc.integer({ min: 0, max: 20 })),
      clear: fc.nat(40),
    });
    fc.assert(
      fc.property(fc.array(step, { maxLength: 200 }), (steps) => {
        const due = new DueTimes();
        const ref = new Map<string, number>();
        for (const s of steps) {
          if (s.clear === 0) {
            due.clear();
            ref.clear();
          } else if (s.t === null) expect(due.delete(s.name)).toBe(ref.delete(s.name));
          else {
            due.set(s.name, s.t);
            ref.set(s.name, s.t);
          }
          const min = ref.size ? Math.min(...ref.values()) : undefined;
          expect(due.min).toBe(min);
          expect(due.size).toBe(ref.size);
        }
      }),
      { seed: 20261207, numRuns: 300 },
    );
  });
});
