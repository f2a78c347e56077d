import { describe, expect, it } from 'vitest';
import { InformerFactory } from '../src/factory';
import { fast, machineSpec, onCleanup, startServer } from './support/harness';

describe('InformerFactory', () => {
  it('serves 2,000 subscribers of one spec from ONE upstream LIST and WATCH', async () => {
    const server = await startServer();
    server.add('a');
    const factory = new InformerFactory(server.kubeConfig(), fast);
    onCleanup(() => factory.stop());
    const seen = Array.from({ length: 2_000 }, () => {
      const names: string[] = [];
      factory.informer(machineSpec).addEventHandler({
        add: (o) => names.push(o.metadata?.name ?? ''),
      });
      return names;
    });
    await factory.waitForSync();
    await expect.poll(() => server.openWatches).toBe(1);
    server.add('b');
    await expect.poll(() => seen.every((names) => names.join() === 'a,b')).toBe(true);

    expect(factory.size).toBe(1);
    expect(server.listRequests()).toHaveLength(1);
    expect(server.watchRequests()).toHaveLength(1);
    // A late subscriber starts from the same state, without a new request.
    const late: string[] = [];
    factory
      .informer({ ...machineSpec })
      .addEventHandler({ add: (o) => late.push(o.metadata?.name ?? '') });
    expect(late).toEqual(['a', 'b']);
    expect(server.requests).toHaveLength(2);
  });

  it('keeps one informer per (resource, namespace, selectors) and reports metrics for each', async () => {
    const server = await startServer();
    const factory = new InformerFactory(server.kubeConfig(), fast);
    onCleanup(() => factory.stop());
    const all = factory.informer(machineSpec);
    expect(factory.informer({ ...machineSpec, namespace: '' })).toBe(all);
    factory.informer({ ...machineSpec, namespace: 'default' });
    factory.informer({ ...machineSpec, namespace: 'default', labelSelector: 'a=b' });
    await factory.waitForSync();
    expect(factory.size).toBe(3);
    expect(factory.metrics().map((m) => m.resource)).toEqual([
      'machines.cluster.x-k8s.io/v1beta1',
      'machines.cluster.x-k8s.io/v1beta1 -n default',
      'machines.cluster.x-k8s.io/v1beta1 -n default -l a=b',
    ]);
    expect(factory.metrics().every((m) => m.hasSynced)).toBe(true);
  });

  it('when one informer connects again after failures, the others in a backoff wait retry at once', async () => {
    const server = await startServer();
    const recovered: string[] = [];
    // A long backoff: without the factory's wake-up, the second informer would wait it out.
    const factory = new InformerFactory(server.kubeConfig(), {
      staleAfterMs: 0,
      backoff: { initialMs: 30_000, maxMs: 30_000, jitter: 0 },
      onRecovered: (info) => recovered.push(info.resource),
    });
    onCleanup(() => factory.stop());
    const all = factory.informer(machineSpec);
    const inDefault = factory.informer({ ...machineSpec, namespace: 'default' });
    await factory.waitForSync();
    await expect.poll(() => server.openWatches).toBe(2);
    // Both watches end after an event (a clean end), and both reconnections fail.
    server.scriptWatch({ kind: 'status', code: 503 }, { kind: 'status', code: 503 });
    server.add('a');
    server.endWatches();
    await expect
      .poll(() => [all.metrics().state, inDefault.metrics().state], { timeout: 10_000 })
      .toEqual(['backoff', 'backoff']);
    // The server answers again; one informer finds out first (its delay ended, here: now).
    all.retryNow();
    await expect.poll(() => server.openWatches, { timeout: 10_000 }).toBe(2);
    expect(inDefault.metrics()).toMatchObject({ state: 'watching', consecutiveFailures: 0 });
    expect(recovered).toEqual(expect.arrayContaining([all.resource, inDefault.resource]));
  });

  it('stops every informer and refuses new ones afterwards', async () => {
    const server = await startServer();
    const factory = new InformerFactory(server.kubeConfig(), fast);
    factory.informer(machineSpec);
    factory.informer({ ...machineSpec, namespace: 'x' });
    await factory.waitForSync();
    await expect.poll(() => server.openWatches).toBe(2);
    await factory.stop();
    await expect.poll(() => server.openWatches).toBe(0);
    expect(factory.metrics().every((m) => m.state === 'stopped')).toBe(true);
    expect(() => factory.informer(machineSpec)).toThrow(/stopped/);
  });
});
