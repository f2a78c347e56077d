import { aMachine } from '@dcs/domain/testing';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, startTestCluster, type TestCluster } from './support/embedded';
import { put } from './support/seed';
import { dataOf, openSse } from './support/sse';

/** The live stream over a real socket against the embedded cluster. */

const NS = 'cpaas-system';
const machineRef = (name: string) => ({
  apiVersion: 'cluster.x-k8s.io/v1beta1',
  kind: 'Machine',
  name,
  namespace: NS,
});

describe('the SSE stream', () => {
  let t: TestCluster;
  let app: FastifyInstance;
  let url: string;
  let n = 0;
  /** A status change of a machine, visible in its view (a condition's message). */
  const touch = (machine: string) =>
    t.cluster.server.client.patch(
      machineRef(machine),
      'merge',
      {
        status: {
          conditions: [
            { type: 'Ready', status: 'True', lastTransitionTime: '2026-01-01T00:00:00Z' },
            {
              type: 'NodeHealthy',
              status: 'True',
              lastTransitionTime: '2026-01-01T00:00:00Z',
              message: `touch ${String(++n)}`,
            },
          ],
        },
      },
      { subresource: 'status' },
    );

  beforeAll(async () => {
    t = await startTestCluster({ workers: 30, entries: 30 });
    app = await buildTestApp(t, { env: { SSE_HEARTBEAT_MS: '400', SSE_CLIENT_BUFFER: '48' } });
    const address = await app.listen({ host: '127.0.0.1', port: 0 });
    url = `${address}/api/v1/stream?cluster=${NS}/demo`;
  });
  afterAll(async () => {
    await app.close();
    await t.close();
  });

  it('opens with resync, then carries machine and pool changes with ids', async () => {
    const s = await openSse(url);
    expect(s.status).toBe(200);
    const first = await s.waitFor(() => true, 5000, true);
    expect(dataOf(first)).toEqual({ type: 'resync', reason: 'initial' });
    const change = s.waitFor(
      (f) => dataOf(f).kind === 'machine' && dataOf(f).id === 'demo-md-0-abc12-m0',
    );
    await touch('demo-md-0-abc12-m0');
    const frame = await change;
    expect(frame.id).toMatch(/^.+-\d+$/);
    expect(dataOf(frame)).toMatchObject({
      type: 'upsert',
      kind: 'machine',
      view: { name: 'demo-md-0-abc12-m0' },
    });
    // Issue 28: the cluster's first send, on a quiet stream, went out at once, and /metrics
    // counts sends by regime.
    expect(app.hub.flushes.immediate).toBeGreaterThanOrEqual(1);
    const metrics = await app.metrics.registry.metrics();
    expect(metrics).toMatch(/^dcs_bff_sse_flushes_total\{regime="immediate"\} [1-9]/m);
    s.close();
  });

  it('resumes from Last-Event-ID with what was missed', async () => {
    const a = await openSse(url);
    await a.waitFor(() => true, 5000, true);
    const seen = a.waitFor((f) => dataOf(f).id === 'demo-md-0-abc12-m1');
    await touch('demo-md-0-abc12-m1');
    const last = await seen;
    a.close();
    await touch('demo-md-0-abc12-m2');
    await new Promise((r) => setTimeout(r, 200));
    const b = await openSse(url, { 'last-event-id': last.id ?? '' });
    const missed = await b.waitFor((f) => dataOf(f).id === 'demo-md-0-abc12-m2', 5000, true);
    expect(dataOf(missed).type).toBe('upsert');
    expect(b.frames.some((f) => dataOf(f).type === 'resync')).toBe(false);
    b.close();
  });

  it('answers resync to an id it cannot replay (another replica, or a restart)', async () => {
    const s = await openSse(url, { 'last-event-id': 'otherReplica.1-42' });
    const f = await s.waitFor(() => true, 5000, true);
    expect(dataOf(f)).toEqual({ type: 'resync', reason: 'epoch' });
    s.close();
  });

  it('sends a heartbeat at least every heartbeat interval', async () => {
    const s = await openSse(url);
    const beat = await s.waitFor((f) => f.event === 'heartbeat', 3000);
    expect(beat.id).toBeDefined();
    s.close();
  });

  it('coalesces for a slow client and replaces an overflowing backlog with one resync', async () => {
    const slow = await openSse(url);
    await slow.waitFor(() => true, 5000, true);
    // Another tab that keeps up: the slow one must not cost it anything.
    const fast = await openSse(url);
    await fast.waitFor(() => true, 5000, true);
    slow.pause();
    // The API server runs in this process: between rounds, let the sockets (watch, stream) move.
    const round = async (machines: number) => {
      await Promise.allSettled(
        Array.from({ length: machines }, (_, m) => touch(`demo-md-0-abc12-m${String(m)}`)),
      );
      await new Promise((resolve) => setTimeout(resolve, 5));
    };
    // 1. Machines change until the socket is full; then their views coalesce in the queue.
    // Conditions with generous deadlines, never fixed sleeps: how many bytes fill the kernel's
    // buffers, and how fast the watch delivers, depend on the machine's load.
    const deadline = Date.now() + 60_000;
    while (app.hub.stats().coalesced < 10 && Date.now() < deadline) await round(30);
    expect(app.hub.stats().blocked).toBe(1);
    expect(app.hub.stats().overflows).toBe(0);
    // 2. More new objects than the queue may hold: it overflows (the creations reach the hub
    // through the watch, so wait for the overflow itself rather than for a count of writes).
    for (let i = 0; app.hub.stats().overflows === 0 && Date.now() < deadline; i++) {
      if (i < 80)
        await put(t.cluster.server.client, aMachine({ metadata: { name: `extra-${String(i)}` } }));
      await new Promise((resolve) => setTimeout(resolve, i % 10 === 9 || i >= 80 ? 20 : 0));
    }
    expect(app.hub.stats().overflows).toBe(1);
    slow.resume();
    const resync = await slow.waitFor(
      (f) => dataOf(f).type === 'resync' && dataOf(f).reason === 'overflow',
      10_000,
      true,
    );
    expect(resync.id).toBeDefined();
    const metrics = { body: await app.metrics.registry.metrics() };
    expect(metrics.body).toMatch(/dcs_bff_sse_resyncs_total\{reason="overflow"\} [1-9]/);
    // The fast tab got the new machines one by one, and never a resync for overflow.
    await fast.waitFor((f) => dataOf(f).id === 'extra-0', 30_000, true);
    expect(fast.frames.filter((f) => dataOf(f).reason === 'overflow')).toEqual([]);
    fast.close();
    slow.close();
  }, 90_000);

  it('refuses a stream for an unknown cluster', async () => {
    const s = await openSse(url.replace('/demo', '/nope'));
    expect(s.status).toBe(404);
    s.close();
  });

  it('ends every stream with a shutdown event when the app closes (graceful drain)', async () => {
    const s = await openSse(url);
    await s.waitFor(() => true, 5000, true);
    const ending = s.waitFor((f) => f.event === 'shutdown', 5000);
    const other = await buildTestApp(t);
    await other.close();
    app.hub.closeAll();
    await ending;
    await s.closed;
  });
});
