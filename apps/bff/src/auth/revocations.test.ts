import { describe, expect, it } from 'vitest';
import { MAX_REVOCATIONS, RevocationList } from './revocations';

const sid = (i: number) => `session-${String(i).padStart(12, '0')}`;

describe('the session revocation list', () => {
  it('holds a revocation until the session would have ended, then forgets it', () => {
    let now = 1_000;
    const list = new RevocationList(() => now);
    list.apply({ [sid(1)]: '5000' });
    expect(list.has(sid(1))).toBe(true);
    now = 5_000;
    expect(list.has(sid(1))).toBe(false);
    expect(list.size).toBe(0);
  });

  it('drops expired entries with each write, and refuses a write when full', () => {
    let now = 10_000;
    const list = new RevocationList(() => now);
    const data: Record<string, string> = { [sid(0)]: '9000' };
    for (let i = 1; i < MAX_REVOCATIONS; i++) data[sid(i)] = '20000';
    list.apply(data);
    const patch = list.patchFor(sid(MAX_REVOCATIONS), 20_000);
    expect(patch).not.toBe('full');
    if (patch === 'full') return;
    expect(patch.data[sid(0)]).toBeNull();
    expect(patch.data[sid(MAX_REVOCATIONS)]).toBe('20000');
    expect(Object.keys(patch.data)).toHaveLength(2);
    list.add(sid(MAX_REVOCATIONS), 20_000);
    expect(list.patchFor(sid(MAX_REVOCATIONS + 1), 20_000)).toBe('full');
    now = 20_000;
    expect(list.patchFor(sid(MAX_REVOCATIONS + 1), 30_000)).not.toBe('full');
  });

  it('ignores keys that are no session id (__proto__ and friends stay inert)', () => {
    const list = new RevocationList(() => 0);
    list.apply(
      JSON.parse('{"__proto__":"99","constructor":"99","x":"1"}') as Record<string, string>,
    );
    expect(list.size).toBe(0);
    expect(list.has('__proto__')).toBe(false);
  });

  it('names the sessions a new copy of the list revokes, once (their streams end then)', () => {
    let now = 1_000;
    const list = new RevocationList(() => now);
    expect(list.apply({ [sid(1)]: '5000', [sid(2)]: '500' })).toEqual([sid(1)]);
    expect(list.apply({ [sid(1)]: '5000', [sid(3)]: '5000' })).toEqual([sid(3)]);
    list.add(sid(4), 5_000);
    expect(list.apply({ [sid(4)]: '5000' })).toEqual([]);
    now = 6_000;
    expect(list.apply({ [sid(5)]: '5000' })).toEqual([]);
  });
});
