import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../src/kube-object';
import { stripManagedFields } from '../src/options';
import { startInformer, startServer } from './support/harness';

/** `transform` (client-go's SetTransform): what the cache keeps and handlers see. */

type WithSpec = KubeObject & { spec?: unknown; trimmed?: boolean };

const trim = (o: KubeObject): KubeObject => {
  const { spec: _, ...rest } = o as WithSpec;
  return { ...rest, trimmed: true } as KubeObject;
};

describe('Informer: transform', () => {
  it('applies to the LIST and to every watch event before the cache and the handlers see them', async () => {
    const server = await startServer();
    server.add('a', { spec: { big: 'x'.repeat(1000) } });
    const informer = startInformer(server, { transform: trim });
    const seen: KubeObject[] = [];
    informer.addEventHandler({
      add: (o) => seen.push(o),
      update: (o) => seen.push(o),
      delete: (o) => seen.push(o),
    });
    await informer.synced;
    await expect.poll(() => server.openWatches).toBe(1);
    server.add('b', { spec: { big: 'y' } });
    server.update('a', { replicas: 2 });
    server.remove('b');
    await expect.poll(() => seen.length).toBe(4);
    for (const o of [...seen, ...informer.list()] as WithSpec[]) {
      expect(o.trimmed).toBe(true);
      expect(o.spec).toBeUndefined();
    }
    // Keys and versions survive: the resumed watch and the cache stay consistent.
    expect(informer.list().map((o) => o.metadata?.name)).toEqual(['a']);
    expect(informer.get('default', 'a')?.metadata?.resourceVersion).toBe(
      server.get('a')?.metadata.resourceVersion,
    );
  });

  it('is given the cached version of the object with an update, and nothing with an add', async () => {
    const server = await startServer();
    server.add('a', { spec: { n: 1 } });
    const calls: { rv: string | undefined; cachedRv: string | undefined }[] = [];
    const informer = startInformer(server, {
      transform: (o, cached) => {
        calls.push({
          rv: o.metadata?.resourceVersion,
          cachedRv: cached?.metadata?.resourceVersion,
        });
        return o;
      },
    });
    await informer.synced;
    await expect.poll(() => server.openWatches).toBe(1);
    const listed = informer.get('default', 'a')?.metadata?.resourceVersion;
    server.update('a', { replicas: 2 });
    server.add('b', { spec: { n: 2 } });
    await expect.poll(() => informer.list().length).toBe(2);
    const updated = server.get('a')?.metadata.resourceVersion;
    expect(calls).toContainEqual({ rv: updated, cachedRv: listed });
    expect(calls).toContainEqual({
      rv: server.get('b')?.metadata.resourceVersion,
      cachedRv: undefined,
    });
  });

  it('an object the transform throws on is left out and reported; the stream goes on (issue 23)', async () => {
    const server = await startServer();
    server.add('a', { spec: { n: 1 } });
    server.add('bad', { spec: { broken: true } });
    const errors: { phase: string; message: string }[] = [];
    const informer = startInformer(server, {
      transform: (o) => {
        if ((o as WithSpec & { spec?: { broken?: boolean } }).spec?.broken) {
          throw new Error(`cannot convert ${o.metadata?.name}`);
        }
        return o;
      },
      onError: (error, info) => errors.push({ phase: info.phase, message: error.message }),
    });
    // Before the fix the throw escaped the LIST: the informer never synced, and retried forever.
    await informer.synced;
    expect(informer.list().map((o) => o.metadata?.name)).toEqual(['a']);
    expect(errors).toContainEqual({ phase: 'transform', message: 'cannot convert bad' });
    await expect.poll(() => server.openWatches).toBe(1);
    // A cached object that turns unreadable is removed, not kept as a stale copy; one that turns
    // readable appears; events after either still arrive.
    server.update('a', { broken: true });
    server.update('bad', { broken: false });
    server.add('c');
    await expect
      .poll(() =>
        informer
          .list()
          .map((o) => o.metadata?.name)
          .sort(),
      )
      .toEqual(['bad', 'c']);
    expect(informer.resourceVersion).toBe(server.get('c')?.metadata.resourceVersion);
  });

  it('stripManagedFields drops metadata.managedFields and keeps everything else', () => {
    const o = {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: {
        name: 'n',
        resourceVersion: '7',
        managedFields: [{ manager: 'kubelet', fieldsV1: { 'f:status': {} } }],
      },
      status: { phase: 'Running' },
    };
    expect(stripManagedFields(o)).toEqual({
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: 'n', resourceVersion: '7' },
      status: { phase: 'Running' },
    });
    const bare = { metadata: { name: 'x' } };
    expect(stripManagedFields(bare)).toEqual({ metadata: { name: 'x' } });
  });
});
