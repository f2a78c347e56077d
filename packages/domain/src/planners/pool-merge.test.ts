import { describe, expect, it } from 'vitest';
import { anIpEntry, anIpPool } from '../testing';
import { poolMergeOf } from './pool-merge';

describe('poolMergeOf (R-POOL-4: show what the edit was merged with)', () => {
  it('R-POOL-4: lists entries added, removed and changed by ip, ignoring key order', () => {
    const base = anIpPool({ entries: 3 });
    const entries = base.spec?.pool ?? [];
    const [e0, e1] = entries;
    if (!e0 || !e1) throw new Error('the builder gives entries');
    const reordered = Object.fromEntries(Object.entries(e1).reverse()) as typeof e1;
    const current = {
      ...base,
      spec: {
        ...base.spec,
        pool: [{ ...e0, hostname: 'renamed' }, reordered, anIpEntry(50)],
      },
    };
    expect(poolMergeOf(base, current)).toEqual({
      added: [anIpEntry(50).ip],
      removed: [entries[2]?.ip],
      changed: [e0.ip],
      otherFields: false,
    });
  });

  it('notices a change outside the entries', () => {
    const base = anIpPool();
    const current = { ...base, metadata: { ...base.metadata, labels: { team: 'b' } } };
    expect(poolMergeOf(base, current)).toMatchObject({ added: [], otherFields: true });
  });
});
