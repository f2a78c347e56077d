import { describe, expect, it, vi } from 'vitest';
import { Store } from '../src/store';
import { obj } from './helpers';

const byDeployment = (o: { metadata?: { labels?: Record<string, string> } }): string[] => {
  const value = o.metadata?.labels?.['cluster.x-k8s.io/deployment-name'];
  return value ? [value] : [];
};

describe('Store', () => {
  it('keys objects by namespace/name and by name alone when cluster-scoped', () => {
    const store = new Store();
    store.upsert(obj('a', 'r1', { namespace: 'ns1' }));
    store.upsert({ metadata: { name: 'node-1', resourceVersion: 'r2' } });
    expect(store.get('ns1', 'a')?.metadata?.resourceVersion).toBe('r1');
    expect(store.getByKey('ns1/a')).toBeDefined();
    expect(store.get(undefined, 'node-1')).toBeDefined();
    expect(store.get('', 'node-1')).toBeDefined();
    expect(store.getByKey('node-1')).toBeDefined();
    expect(store.get('ns2', 'a')).toBeUndefined();
    expect(store.size).toBe(2);
  });

  it('returns the previous version on upsert and remove, and ignores unnamed objects', () => {
    const store = new Store();
    expect(store.upsert(obj('a', 'r1'))).toBeUndefined();
    expect(store.upsert(obj('a', 'r2'))?.metadata?.resourceVersion).toBe('r1');
    expect(store.remove('default/a')?.metadata?.resourceVersion).toBe('r2');
    expect(store.remove('default/a')).toBeUndefined();
    expect(store.upsert({ metadata: {} })).toBeUndefined();
    expect(store.size).toBe(0);
  });

  it('keeps a secondary index by label value current on add, move and delete', () => {
    const store = new Store();
    store.addIndex('deployment', byDeployment);
    store.upsert(obj('m1', 'r1', { labels: { 'cluster.x-k8s.io/deployment-name': 'md-a' } }));
    store.upsert(obj('m2', 'r1', { labels: { 'cluster.x-k8s.io/deployment-name': 'md-a' } }));
    store.upsert(obj('m3', 'r1'));
    expect(
      store
        .byIndex('deployment', 'md-a')
        .map((o) => o.metadata?.name)
        .sort(),
    ).toEqual(['m1', 'm2']);

    store.upsert(obj('m2', 'r2', { labels: { 'cluster.x-k8s.io/deployment-name': 'md-b' } }));
    expect(store.byIndex('deployment', 'md-a').map((o) => o.metadata?.name)).toEqual(['m1']);
    expect(store.byIndex('deployment', 'md-b').map((o) => o.metadata?.name)).toEqual(['m2']);

    store.remove('default/m1');
    expect(store.byIndex('deployment', 'md-a')).toEqual([]);
    expect(store.indexValues('deployment')).toEqual(['md-b']);
  });

  it('builds an index registered after objects are cached', () => {
    const store = new Store();
    store.upsert(obj('m1', 'r1', { labels: { 'cluster.x-k8s.io/deployment-name': 'md-a' } }));
    store.addIndex('deployment', byDeployment);
    expect(store.byIndex('deployment', 'md-a')).toHaveLength(1);
    expect(() => {
      store.addIndex('deployment', byDeployment);
    }).toThrow(/already registered/);
    expect(() => store.byIndex('nope', 'x')).toThrow(/no index/);
  });

  it('reports an index function that throws and leaves the object out of that index only', () => {
    const report = vi.fn();
    const store = new Store(report);
    store.addIndex('bad', () => {
      throw new Error('boom');
    });
    store.upsert(obj('m1', 'r1'));
    expect(store.get('default', 'm1')).toBeDefined();
    expect(store.indexValues('bad')).toEqual([]);
    expect(report).toHaveBeenCalledWith(expect.any(Error), 'bad');
    // Removing never calls the function again (values were recorded at insert time).
    store.remove('default/m1');
    expect(report).toHaveBeenCalledTimes(1);
  });
});
