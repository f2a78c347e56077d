import type { Informer } from '@dcs/informer';
import { describe, expect, it } from 'vitest';
import { Cache, keyOfObject } from './cache';
import type { KubeObject } from './client';

/** An informer's cache in memory: what Cache reads of it, and its event handlers to deliver to. */
function fakeInformer() {
  const items = new Map<string, KubeObject>();
  const indexes = new Map<string, (o: KubeObject) => readonly string[]>();
  const handlers: { add?: (o: KubeObject) => void; update?: (o: KubeObject) => void }[] = [];
  const informer = {
    addEventHandler: (h: (typeof handlers)[number]) => {
      handlers.push(h);
      return () => undefined;
    },
    addIndex: (name: string, fn: (o: KubeObject) => readonly string[]) => indexes.set(name, fn),
    getByKey: (key: string) => items.get(key),
    get: (ns: string | undefined, name: string) => items.get(ns ? `${ns}/${name}` : name),
    list: () => [...items.values()],
    byIndex: (name: string, value: string) =>
      [...items.values()].filter((o) => indexes.get(name)?.(o).includes(value)),
  };
  const deliver = (o: KubeObject) => {
    const known = items.has(keyOfObject(o));
    items.set(keyOfObject(o), o);
    for (const h of handlers) (known ? h.update : h.add)?.(o);
  };
  return { informer: informer as unknown as Informer<KubeObject>, deliver, items };
}

const obj = (name: string, pool: string, rv: number): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Thing',
  metadata: { name, namespace: 'ns', resourceVersion: String(rv), labels: { pool } },
});
const byPool = (o: KubeObject) => {
  const pool = (o.metadata.labels as Record<string, string> | undefined)?.pool;
  return pool ? [pool] : [];
};

/** Cache.byIndex as it was written before it skipped the per-object keys: the reference. */
function reference(cache: Cache<KubeObject>, informer: Informer<KubeObject>, value: string) {
  const out = new Map<string, KubeObject>();
  for (const o of informer.byIndex('pool', value)) out.set(keyOfObject(o), o);
  const pending = (cache as unknown as { pending: Map<string, { obj: KubeObject | undefined }> })
    .pending;
  for (const [key, p] of pending) {
    if (!p.obj || !byPool(p.obj).includes(value)) out.delete(key);
    else out.set(key, p.obj);
  }
  return [...out.values()];
}

describe('Cache: the informer with this process’s writes over it', () => {
  it('byIndex: the informer’s objects under the value, with the writes not delivered yet (added, moved, deleted)', () => {
    let seed = 11;
    const next = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    for (let run = 0; run < 200; run++) {
      const { informer, deliver } = fakeInformer();
      const cache = new Cache(informer);
      cache.addIndex('pool', byPool);
      let rv = 1;
      for (let i = 0; i < 8; i++) deliver(obj(`m${String(i)}`, `p${String(next(3))}`, rv++));
      for (let step = 0; step < 12; step++) {
        const name = `m${String(next(10))}`;
        const pool = `p${String(next(3))}`;
        const what = next(4);
        if (what === 0) cache.wrote(obj(name, pool, rv++), true);
        else if (what === 1) cache.wrote(obj(name, pool, rv++));
        else if (what === 2) cache.deleted(`ns/${name}`, undefined);
        else deliver(obj(name, pool, rv++));
        for (const value of ['p0', 'p1', 'p2'])
          expect(cache.byIndex('pool', value)).toEqual(reference(cache, informer, value));
      }
    }
  });

  it('get and getByKey read a write before the informer delivers it', () => {
    const { informer, deliver } = fakeInformer();
    const cache = new Cache(informer);
    deliver(obj('a', 'p0', 1));
    cache.wrote(obj('a', 'p1', 2));
    expect(cache.get('ns', 'a')?.metadata.resourceVersion).toBe('2');
    expect(cache.getByKey('ns/a')?.metadata.resourceVersion).toBe('2');
    deliver(obj('a', 'p1', 2));
    deliver(obj('a', 'p2', 3));
    expect(cache.getByKey('ns/a')?.metadata.resourceVersion).toBe('3');
  });
});
