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

  it('still knows a version after any amount of status churn (status-only writes extend a run)', () => {
    const h = new VersionHistory(2);
    h.record('k', '10', md(3, '10'));
    for (let rv = 11; rv < 500; rv++)
      h.record('k', String(rv), { ...md(3, ''), status: { n: rv } });
    h.record('k', '500', md(5, '500'));
    // The version seen (10, or one of the status writes the cache no longer lists exactly).
    for (const seen of ['10', '11', '250', '499']) {
      const chain = h.since('k', seen) as { spec: { replicas: number } }[] | undefined;
      expect(
        chain?.map((v) => v.spec.replicas),
        seen,
      ).toEqual([3, 5]);
    }
    expect(h.at('k', '250')).toMatchObject({ spec: { replicas: 3 } });
    // Not a version of this object: before its first, or past the latest the cache has seen.
    expect(h.has('k', '9')).toBe(false);
    expect(h.has('k', '501')).toBe(false);
  });

  it('tells versions apart as their recorded JSON does (compared without serializing them)', () => {
    const h = new VersionHistory();
    const base = { metadata: { name: 'md', labels: { a: '1', b: '2' } }, spec: { replicas: 3 } };
    h.record('k', '1', base);
    // Only what is left out changed (status, managed fields, generation): one content.
    h.record('k', '2', {
      ...base,
      metadata: { ...base.metadata, managedFields: [{ manager: 'x' }], generation: 7 },
      status: { ready: true },
    });
    // The same fields in another order, a nested value changed, a field added: each another.
    h.record('k', '3', { ...base, metadata: { name: 'md', labels: { b: '2', a: '1' } } });
    h.record('k', '4', { ...base, metadata: { name: 'md', labels: { b: '2', a: '9' } } });
    h.record('k', '5', { ...base, metadata: { name: 'md', labels: { b: '2', a: '9' } }, x: 1 });
    h.record('k', '6', { ...base, metadata: { name: 'md', labels: { b: '2', a: '9' } }, x: 1 });
    const chain = h.since('k', '1');
    expect(chain?.map((v) => JSON.stringify(v))).toEqual([
      '{"spec":{"replicas":3},"metadata":{"name":"md","labels":{"a":"1","b":"2"}}}',
      '{"spec":{"replicas":3},"metadata":{"name":"md","labels":{"b":"2","a":"1"}}}',
      '{"spec":{"replicas":3},"metadata":{"name":"md","labels":{"b":"2","a":"9"}}}',
      '{"spec":{"replicas":3},"x":1,"metadata":{"name":"md","labels":{"b":"2","a":"9"}}}',
    ]);
    expect(h.since('k', '2')).toEqual(chain);
  });

  it('matches resourceVersions that are not decimal integers only exactly (they are opaque)', () => {
    const h = new VersionHistory();
    h.record('k', 'a1', md(3, 'a1'));
    for (let i = 0; i < 40; i++) h.record('k', `b${i}`, { ...md(3, ''), status: { n: i } });
    expect(h.has('k', 'a1')).toBe(true); // a run's first version is kept
    expect(h.has('k', 'b39')).toBe(true);
    expect(h.has('k', 'b2')).toBe(false); // past the exact ones kept, and no order to place it by
    expect(h.has('k', '007')).toBe(false);
  });
});
