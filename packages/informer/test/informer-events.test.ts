import { describe, expect, it, vi } from 'vitest';
import { record, startInformer, startServer } from './support/harness';

describe('Informer: events and handlers', () => {
  it('delivers add, update (with old) and delete (with old) after the store is updated', async () => {
    const server = await startServer();
    server.add('a');
    const informer = startInformer(server);
    const log = record(informer);
    await informer.synced;
    await expect.poll(() => server.openWatches).toBe(1);

    server.add('b');
    server.update('a', { replicas: 2 });
    server.remove('b');
    await expect.poll(() => log.length).toBe(4);
    expect(log).toEqual([
      'add a@rv-2',
      'add b@rv-3',
      'update a@rv-4 (was a@rv-2)',
      'delete b@rv-5 (was b@rv-3)',
    ]);
    expect(informer.get('default', 'a')?.metadata?.resourceVersion).toBe('rv-4');
    expect(informer.resourceVersion).toBe('rv-5');
    expect(informer.metrics()).toMatchObject({ objects: 1, errors: 0, state: 'watching' });
    expect(informer.metrics().lastEventAt).toBeGreaterThan(0);
  });

  it('replays the cache to a late handler as adds, and not to one that opts out', async () => {
    const server = await startServer();
    server.add('a');
    server.add('b');
    const informer = startInformer(server);
    await informer.synced;
    expect(record(informer)).toEqual(['add a@rv-2', 'add b@rv-3']);
    expect(record(informer, { replay: false })).toEqual([]);
  });

  it('stops calling a handler once it is unregistered', async () => {
    const server = await startServer();
    const informer = startInformer(server);
    const add = vi.fn();
    const off = informer.addEventHandler({ add });
    await informer.synced;
    await expect.poll(() => server.openWatches).toBe(1);
    server.add('a');
    await expect.poll(() => add.mock.calls.length).toBe(1);
    off();
    server.add('b');
    await expect.poll(() => informer.list().length).toBe(2);
    expect(add).toHaveBeenCalledTimes(1);
  });

  it('reports a throwing handler and keeps delivering to the others', async () => {
    const server = await startServer();
    const onError = vi.fn();
    const informer = startInformer(server, { onError });
    informer.addEventHandler({
      add: () => {
        throw new Error('handler bug');
      },
    });
    const log = record(informer);
    await informer.synced;
    await expect.poll(() => server.openWatches).toBe(1);
    server.add('a');
    server.add('b');
    await expect.poll(() => log).toEqual(['add a@rv-2', 'add b@rv-3']);
    expect(onError).toHaveBeenCalledWith(
      expect.objectContaining({ message: 'handler bug' }),
      expect.objectContaining({ phase: 'handler' }),
    );
    expect(informer.metrics()).toMatchObject({ errors: 0, restarts: 0 });
  });

  it('keeps a secondary index by label value current as events arrive', async () => {
    const server = await startServer();
    const label = 'cluster.x-k8s.io/deployment-name';
    server.add('m1', { labels: { [label]: 'md-a' } });
    const informer = startInformer(server);
    informer.addIndex('deployment', (o) => {
      const value = o.metadata?.labels?.[label];
      return value ? [value] : [];
    });
    await informer.synced;
    await expect.poll(() => server.openWatches).toBe(1);
    server.add('m2', { labels: { [label]: 'md-a' } });
    server.add('m3', { labels: { [label]: 'md-b' } });
    await expect.poll(() => informer.byIndex('deployment', 'md-a').length).toBe(2);
    server.remove('m1');
    await expect.poll(() => informer.byIndex('deployment', 'md-a').length).toBe(1);
    expect(informer.indexValues('deployment').sort()).toEqual(['md-a', 'md-b']);
  });

  it('ignores an ADDED replay of a version it already has', async () => {
    const server = await startServer();
    server.add('a');
    const informer = startInformer(server);
    const log = record(informer);
    await informer.synced;
    await expect.poll(() => server.openWatches).toBe(1);
    // Resuming from before 'a' was added makes the server replay its ADDED event.
    server.update('a', { x: 1 });
    await expect.poll(() => log.length).toBe(2);
    expect(log).toEqual(['add a@rv-2', 'update a@rv-3 (was a@rv-2)']);
  });
});
