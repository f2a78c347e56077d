import { writeFile } from 'node:fs/promises';
import { startEmbeddedCluster, type EmbeddedCluster } from '@dcs/simulator';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { buildTestApp, startTestCluster, type TestCluster } from './support/embedded';
import { seedDemo } from './support/seed';
import { TestSession } from './support/session';
import { dataOf, openSse, type SseConnection, type SseFrame } from './support/sse';

/**
 * Issue 10 item 4: the API server goes away and comes back — on the same port with a new CA and
 * new tokens, or on a new port — as a restarted `pnpm sim` (no state) or a real cluster's
 * certificate rotation would. The kubeconfig is rewritten as the simulator does. Meanwhile
 * `/readyz` tells the truth, the stream says "disconnected since …", reads, mutations and
 * sign-in answer 503 with a code (never 500) and write nothing; afterwards the BFF follows the
 * new server (relisted, not frozen on the old objects), the stream resyncs and sign-in works.
 */

const NS = 'cpaas-system';
const BASE = `/api/v1/clusters/${NS}/demo`;
const OUTAGE_MS = 30_000;

interface Running {
  t: TestCluster;
  app: FastifyInstance;
  sse?: SseConnection;
  next?: EmbeddedCluster;
}
let running: Running | undefined;

afterEach(async () => {
  const r = running;
  running = undefined;
  r?.sse?.close();
  await r?.app.close();
  await r?.next?.close();
  await r?.t.close().catch(() => undefined);
});

const readyz = async (app: FastifyInstance) => {
  const res = await app.inject('/readyz');
  return { status: res.statusCode, body: res.json<{ reason?: string; message?: string }>() };
};

const isUpstream = (state: string) => (f: SseFrame) =>
  f.event === 'upstream' && (dataOf(f) as { status?: { state?: string } }).status?.state === state;

async function machinesOf(s: TestSession): Promise<string[]> {
  const res = await s.request('GET', `${BASE}/nodepools/demo-md-0/machines`);
  expect(res.statusCode).toBe(200);
  return res
    .json<{ name: string }[]>()
    .map((m) => m.name)
    .sort();
}

async function outageThenRestart(newPort: boolean): Promise<void> {
  const t = await startTestCluster({ workers: 3 });
  const app = await buildTestApp(t, {
    mode: 'token',
    env: {
      UPSTREAM_DOWN_AFTER: '1s',
      SSE_HEARTBEAT_MS: '500',
      LOG_LEVEL: process.env.T_LOG ?? 'silent',
    },
  });
  running = { t, app };
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  const s = new TestSession(app);
  expect((await s.signIn(t.cluster.operatorToken)).statusCode).toBe(200);
  const cookie = [...s.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  const sse = await openSse(`${address}/api/v1/stream?cluster=${NS}/demo`, { cookie });
  running.sse = sse;
  expect(sse.status).toBe(200);
  expect((await readyz(app)).status).toBe(200);
  const before = await machinesOf(s);
  expect(before).toHaveLength(3);
  const md = t.cluster.server.client.get({
    apiVersion: 'cluster.x-k8s.io/v1beta1',
    kind: 'MachineDeployment',
    name: 'demo-md-0',
    namespace: NS,
  }) as { metadata: { resourceVersion: string } } | undefined;
  const port = Number(new URL(t.cluster.url).port);

  // --- the outage -------------------------------------------------------------------------
  await t.cluster.close();
  await expect
    .poll(async () => (await readyz(app)).body.reason, { timeout: OUTAGE_MS })
    .toBe('UpstreamUnavailable');
  expect((await readyz(app)).status).toBe(503);
  expect((await readyz(app)).body.message).toMatch(/unreachable since .*Z: /);
  const down = await sse.waitFor(isUpstream('disconnected'), OUTAGE_MS, true);
  const downStatus = (
    dataOf(down) as { status: { state: string; since: unknown; reason: unknown } }
  ).status;
  expect(downStatus.state).toBe('disconnected');
  expect(typeof downStatus.since).toBe('string');
  expect(typeof downStatus.reason).toBe('string');

  const scale = await s.request('POST', `${BASE}/nodepools/demo-md-0/scale`, {
    replicas: 5,
    resourceVersion: md?.metadata.resourceVersion ?? '',
  });
  expect(scale.statusCode).toBe(503);
  expect(scale.json()).toMatchObject({ code: 'UpstreamUnavailable' });
  expect(scale.json<{ message: string }>().message).toMatch(/no change was made/);
  const signIn = await new TestSession(app).signIn('any-token');
  expect(signIn.statusCode).toBe(503);
  expect(signIn.json()).toMatchObject({ code: 'UpstreamUnavailable' });
  // A read is served from the cache when the user's rights are known, else it says why not.
  const read = await s.request('GET', `${BASE}/nodepools`);
  expect([200, 503]).toContain(read.statusCode);

  // --- a new server: new CA and tokens, different objects ----------------------------------
  const next = await startEmbeddedCluster({
    host: '127.0.0.1',
    port: newPort ? 0 : port,
    bookmarkIntervalMs: 1000,
  });
  running.next = next;
  await seedDemo(next.server.client, { workers: 5 });
  await writeFile(t.kubeconfig, next.kubeconfig, { mode: 0o600 });
  if (newPort) expect(new URL(next.url).port).not.toBe(String(port));

  await expect.poll(async () => (await readyz(app)).status, { timeout: OUTAGE_MS }).toBe(200);
  await sse.waitFor(isUpstream('connected'), OUTAGE_MS, true);
  await sse.waitFor(
    (f) => dataOf(f).type === 'resync' && dataOf(f).reason === 'reconnected',
    OUTAGE_MS,
    true,
  );

  // Sign-in works with the new server's token; the old one is refused as a bad token.
  const fresh = new TestSession(app);
  expect((await fresh.signIn(next.operatorToken)).statusCode).toBe(200);
  expect((await new TestSession(app).signIn(t.cluster.operatorToken)).statusCode).toBe(401);
  // The cache follows the new server: its five machines, none of the old three.
  await expect.poll(() => machinesOf(fresh), { timeout: OUTAGE_MS }).toHaveLength(5);
  // And a change goes through again.
  const mdNow = next.server.client.get({
    apiVersion: 'cluster.x-k8s.io/v1beta1',
    kind: 'MachineDeployment',
    name: 'demo-md-0',
    namespace: NS,
  }) as { metadata: { resourceVersion: string } } | undefined;
  const again = await fresh.request('POST', `${BASE}/nodepools/demo-md-0/scale?dryRun=true`, {
    replicas: 4,
    resourceVersion: mdNow?.metadata.resourceVersion ?? '',
  });
  expect(again.statusCode).toBe(200);
}

describe('an API server outage and restart (issue 10 item 4)', () => {
  it('same port, new CA and tokens: 503s meanwhile, then the BFF reconnects, relists and resyncs', async () => {
    await outageThenRestart(false);
  }, 120_000);

  it('new port, the kubeconfig re-read: the BFF follows the server to it', async () => {
    await outageThenRestart(true);
  }, 120_000);
});
