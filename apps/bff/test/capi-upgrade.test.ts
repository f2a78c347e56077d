import type { Plan } from '@dcs/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildTestApp, startTestCluster, type TestCluster } from './support/embedded';
import { dataOf, openSse, type SseConnection } from './support/sse';
import { TestSession } from './support/session';

/**
 * Issue 23: Cluster API upgraded from v1.10 to v1.14 to v1.16 under a running console with an
 * open stream. The console learns the served versions again (discovery every DISCOVERY_RECHECK,
 * and at once when a watch is answered 404), moves its watches to v1beta2, and goes on: the
 * stream carries every change made before, during and after each step, no request fails, and
 * the writes speak the version now served.
 */

const NS = 'cpaas-system';
const BASE = `/api/v1/clusters/${NS}/demo`;
const MACHINE = 'demo-md-0-abc12-m0';

async function until(what: string, ok: () => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`never: ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

function upgradeUnderAConsole(recheck: string) {
  let t: TestCluster;
  let app: FastifyInstance;
  let s: TestSession;
  let stream: SseConnection;
  let n = 0;
  beforeAll(async () => {
    t = await startTestCluster({}, { capiRelease: 'v1.10' });
    app = await buildTestApp(t, {
      env: { DISCOVERY_RECHECK: recheck, SSE_HEARTBEAT_MS: '400' },
      executor: { pollMs: 20 },
    });
    s = new TestSession(app);
    await s.start();
    const address = await app.listen({ host: '127.0.0.1', port: 0 });
    stream = await openSse(`${address}/api/v1/stream?cluster=${NS}/demo`);
    await stream.waitFor(() => true, 5000, true);
  }, 90_000);
  afterAll(async () => {
    stream.close();
    await app.close();
    await t.close();
  });

  /**
   * A status change of the machine, written in the version the cluster serves now (the v1beta1
   * conditions live under status.deprecated.v1beta1 in v1beta2), and the frame that carries it.
   */
  const touch = async (): Promise<void> => {
    const message = `touch ${String(++n)}`;
    const v1beta2 = t.cluster.capiVersions['cluster.x-k8s.io'] === 'v1beta2';
    const conditions = [
      { type: 'Ready', status: 'True', lastTransitionTime: '2026-01-01T00:00:00Z' },
      { type: 'NodeHealthy', status: 'True', lastTransitionTime: '2026-01-01T00:00:00Z', message },
    ];
    const seen = stream.waitFor(
      (f) => dataOf(f).id === MACHINE && JSON.stringify(f.data).includes(message),
      20_000,
    );
    await t.cluster.server.client.patch(
      {
        apiVersion: `cluster.x-k8s.io/${v1beta2 ? 'v1beta2' : 'v1beta1'}`,
        kind: 'Machine',
        namespace: NS,
        name: MACHINE,
      },
      'merge',
      { status: v1beta2 ? { deprecated: { v1beta1: { conditions } } } : { conditions } },
      { subresource: 'status' },
    );
    await seen;
  };

  /** Previews (the plan returned) and applies a scale, as the browser does. */
  const scale = async (replicas: number): Promise<Plan> => {
    const md = app.cache.stores.MachineDeployment.get(NS, 'demo-md-0');
    const body = { replicas, resourceVersion: md?.metadata.resourceVersion };
    const url = `${BASE}/nodepools/demo-md-0/scale`;
    const dry = await s.request('POST', `${url}?dryRun=true`, body);
    expect(dry.statusCode, dry.body).toBe(200);
    const plan = dry.json<Plan>();
    expect(plan.verdict?.ok, JSON.stringify(plan.verdict)).toBe(true);
    const real = await s.request('POST', url, body);
    expect(real.statusCode, real.body).toBe(200);
    return plan;
  };

  return {
    touch,
    scale,
    cluster: () => t.cluster,
    app: () => app,
    stream: () => stream,
  };
}

describe('Cluster API upgraded step by step under a running console (discovery read again)', () => {
  const c = upgradeUnderAConsole('300ms');

  it('v1.10: speaks v1beta1; the stream carries a change', async () => {
    expect(c.app().apiVersions.choice['cluster.x-k8s.io']).toBe('v1beta1');
    await c.touch();
  });

  it('v1.14: a change during the upgrade arrives; the watches move to v1beta2; writes speak it', async () => {
    const upgrading = c.cluster().upgradeCapi('v1.14');
    await c.touch();
    await upgrading;
    await until('the console speaks v1beta2', () =>
      Object.values(c.app().apiVersions.choice).every((v) => v === 'v1beta2'),
    );
    await c.touch();
    const plan = await c.scale(2);
    expect(plan.kubectl.join('\n')).toContain('machinedeployments.v1beta2.cluster.x-k8s.io');
  });

  it('v1.16: v1beta1 no longer served; the stream goes on, with no resync and no error', async () => {
    await c.cluster().upgradeCapi('v1.16');
    await c.touch();
    await c.scale(3);
    await c.touch();
    const frames = c.stream().frames.map((f) => dataOf(f));
    expect(frames.filter((d) => d.type === 'resync')).toEqual([
      { type: 'resync', reason: 'initial' },
    ]);
    const health = await c.app().inject({ method: 'GET', url: '/readyz' });
    expect(health.statusCode, health.body).toBe(200);
  });
});

describe('Cluster API upgraded from v1.10 to v1.16 faster than the console looks again', () => {
  const c = upgradeUnderAConsole('10m');

  it('the v1beta1 watch answered 404 makes the console look again and move to v1beta2', async () => {
    await c.touch();
    await c.cluster().upgradeCapi('v1.14');
    await c.cluster().upgradeCapi('v1.16');
    // Only the 404 of the watches it resumes in v1beta1 can tell it: DISCOVERY_RECHECK is 10 min.
    await until(
      'the console speaks v1beta2',
      () => c.app().apiVersions.choice['cluster.x-k8s.io'] === 'v1beta2',
    );
    await c.touch();
    const plan = await c.scale(2);
    expect(plan.kubectl.join('\n')).toContain('v1beta2');
    // Every watch moved, none left failing on the version no longer served.
    await until('every watch is healthy in the version served', () =>
      c
        .app()
        .cache.health()
        .every((h) => h.hasSynced && h.failingSince === 0),
    );
    const ready = await c.app().inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode, ready.body).toBe(200);
  });
});
