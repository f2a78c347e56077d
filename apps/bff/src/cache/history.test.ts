import { describe, expect, it } from 'vitest';
import { VersionHistory } from './history';

const md = (replicas: number, rv: string) => ({
  metadata: { name: 'md', resourceVersion: rv },
  spec: { replicas },
  status: { replicas: 0 },
});

describe('VersionHistory.since (R-PLAN-STALE: every version since the one a user saw)', () => {
  it('lists each distinct version from the one seen to the latest, a change undone included', () => {
    const h = new VersionHistory();
    h.record('k', '1', md(3, '1'));
    h.record('k', '2', md(5, '2'));
    h.record('k', '3', md(5, '3')); // status only: the same content once
    h.record('k', '4', md(3, '4'));
    const chain = h.since('k', '1') as { spec: { replicas: number } }[] | undefined;
    expect(chain?.map((v) => v.spec.replicas)).toEqual([3, 5, 3]);
    expect(h.since('k', '4')).toHaveLength(1);
    expect(h.has('k', '2')).toBe(true);
  });

  it('knows nothing of a version it forgot, nor across a relist (versions may be missing there)', () => {
    const h = new VersionHistory(2);
    h.record('k', '1', md(3, '1'));
    h.record('k', '2', md(4, '2'));
    h.record('k', '3', md(5, '3'));
    expect(h.since('k', '1')).toBeUndefined();
    expect(h.since('k', '2')).toHaveLength(2);
    // After a relist (epoch 1), the versions between 3 and 9 were never seen by the cache.
    h.record('k', '9', md(5, '9'), 1);
    expect(h.since('k', '3')).toBeUndefined();
    expect(h.since('k', '9')).toHaveLength(1);
  });
});
