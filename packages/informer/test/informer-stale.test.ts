import { describe, expect, it, vi } from 'vitest';
import type { StaleInfo } from '../src/options';
import { startInformer, startServer } from './support/harness';

describe('Informer: the staleness alarm', () => {
  it('restarts a silent watch from the same resourceVersion and reports it, without calling it an error', async () => {
    const server = await startServer();
    server.add('a');
    const onStale = vi.fn<(info: StaleInfo) => void>();
    const onError = vi.fn();
    const informer = startInformer(server, { staleAfterMs: 150, onStale, onError });
    await informer.synced;
    await expect.poll(() => onStale.mock.calls.length).toBeGreaterThanOrEqual(1);
    expect(onStale.mock.calls[0]?.[0]).toMatchObject({
      source: 'alarm',
      resourceVersion: 'rv-2',
      resource: 'machines.cluster.x-k8s.io/v1beta1',
    });
    expect(onStale.mock.calls[0]?.[0].quietMs).toBeGreaterThanOrEqual(140);
    await expect.poll(() => server.watchRequests().length).toBeGreaterThanOrEqual(2);
    expect(server.watchRequests().map((r) => r.query.get('resourceVersion'))).toEqual(
      server.watchRequests().map(() => 'rv-2'),
    );
    expect(onError).not.toHaveBeenCalled();
    const m = informer.metrics();
    expect(m.errors).toBe(0);
    expect(m.staleRestarts).toBeGreaterThanOrEqual(1);
    expect(m.lagMs).toBeGreaterThanOrEqual(140); // nothing has arrived since the LIST
  });

  it('stays quiet while bookmarks keep arriving', async () => {
    const server = await startServer();
    const onStale = vi.fn();
    const informer = startInformer(server, { staleAfterMs: 300, onStale });
    await informer.synced;
    await expect.poll(() => server.openWatches).toBe(1);
    const ticker = setInterval(() => server.bookmark(), 75);
    try {
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    } finally {
      clearInterval(ticker);
    }
    expect(onStale).not.toHaveBeenCalled();
    expect(server.watchRequests()).toHaveLength(1);
    expect(informer.metrics().lagMs).toBeLessThan(300);
  });

  it('treats the transport’s inactivity timeout (idleTimeoutMs) on a connected stream as quiet, not an error', async () => {
    const server = await startServer();
    const onStale = vi.fn();
    const onError = vi.fn();
    // Alarm off: only the transport's own timeout can end this silent stream.
    const informer = startInformer(server, {
      staleAfterMs: 0,
      idleTimeoutMs: 200,
      onStale,
      onError,
    });
    await informer.synced;
    await expect.poll(() => onStale.mock.calls.length).toBeGreaterThanOrEqual(1);
    expect(onStale.mock.calls[0]?.[0]).toMatchObject({ source: 'idle-timeout' });
    expect(onError).not.toHaveBeenCalled();
  });

  it('treats a server that never answers the watch as stale too', async () => {
    const server = await startServer();
    const onStale = vi.fn();
    server.scriptWatch({ kind: 'hang' });
    const informer = startInformer(server, { staleAfterMs: 150, onStale });
    await informer.synced;
    await expect.poll(() => server.openWatches).toBe(1); // the second watch, which works
    expect(onStale).toHaveBeenCalledTimes(1);
  });
});
