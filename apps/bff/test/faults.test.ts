import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MachineTemplateSpecInput } from '@dcs/domain';
import { aMachineTemplate } from '@dcs/domain/testing';
import { startEmbeddedCluster, type EmbeddedCluster } from '@dcs/simulator';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { buildTestApp, type TestCluster } from './support/embedded';
import { FaultProxy } from './support/fault-proxy';
import { seedDemo } from './support/seed';
import { TestSession } from './support/session';
import { dataOf, openSse, type SseConnection } from './support/sse';

/**
 * Upstream faults between the BFF and the API server (issue 10), injected by a proxy
 * (support/fault-proxy.ts) on a live stack: watches cut, watches answered 410 Gone, LISTs cut
 * mid-body, and the API server dying in the middle of a multi-step plan. Each time the cache
 * converges, the open stream carries what changed, and `/readyz` says what is true. Every wait
 * is on a condition with a generous deadline (CI runs at a load average of 10).
 */

const NS = 'cpaas-system';
const BASE = `/api/v1/clusters/${NS}/demo`;
const TOKENS = { operatorToken: 'operator-token-for-tests', viewerToken: 'viewer-token-for-tests' };

async function until(check: () => boolean | Promise<boolean>, ms: number, what: string) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

function templateSpec(cpu: number): MachineTemplateSpecInput {
  const full = aMachineTemplate().spec?.template.spec;
  if (!full) throw new Error('the builder has a spec');
  const { ipHostPoolRef: _p, providerID: _id, ...spec } = full;
  return { ...spec, vmConfig: { ...spec.vmConfig, dcsMachineCpuSpec: { quantity: cpu } } };
}

describe('upstream faults: the cache converges, the stream follows, readiness tells the truth', () => {
  let dir: string;
  let cluster: EmbeddedCluster;
  let proxy: FaultProxy;
  let app: FastifyInstance;
  let stream: SseConnection;
  let n = 0;
  const machine = (name: string) => ({
    apiVersion: 'cluster.x-k8s.io/v1beta1',
    kind: 'Machine',
    name,
    namespace: NS,
  });
  /** A change of a machine's view made straight on the server, behind the BFF's back. */
  const touch = async (name: string) => {
    const message = `touch ${String(++n)}`;
    await cluster.server.client.patch(
      machine(name),
      'merge',
      {
        status: {
          conditions: [
            { type: 'Ready', status: 'True', lastTransitionTime: '2026-01-01T00:00:00Z' },
            {
              type: 'NodeHealthy',
              status: 'True',
              lastTransitionTime: '2026-01-01T00:00:00Z',
              message,
            },
          ],
        },
      },
      { subresource: 'status' },
    );
    return message;
  };
  const streamed = (pred: (d: ReturnType<typeof dataOf>) => boolean) =>
    stream.waitFor((f) => pred(dataOf(f)), 30_000, true);
  const machineRelists = () => app.cache.health().find((h) => h.kind === 'Machine')?.relists ?? 0;
  const ready = async () => (await app.inject('/readyz')).statusCode;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'bff-faults-'));
    cluster = await startEmbeddedCluster({
      host: '127.0.0.1',
      port: 0,
      tls: false,
      bookmarkIntervalMs: 500,
      ...TOKENS,
    });
    await seedDemo(cluster.server.client, { workers: 6 });
    proxy = await FaultProxy.start(`http://127.0.0.1:${String(cluster.server.port)}`);
    const kc = parseYaml(cluster.kubeconfig) as {
      clusters: { cluster: Record<string, unknown> }[];
    };
    for (const c of kc.clusters) {
      c.cluster.server = proxy.url;
      c.cluster['insecure-skip-tls-verify'] = true;
    }
    const kubeconfig = join(dir, 'kubeconfig');
    await writeFile(kubeconfig, stringifyYaml(kc));
    const t: TestCluster = { cluster, kubeconfig, dir, close: () => cluster.close() };
    app = await buildTestApp(t, {
      env: {
        ALLOW_INSECURE_TLS: 'true',
        UPSTREAM_DOWN_AFTER: '1s',
        SSE_HEARTBEAT_MS: '500',
        MUTATION_RATE_PER_MINUTE: '1000',
      },
    });
    const url = await app.listen({ host: '127.0.0.1', port: 0 });
    stream = await openSse(`${url}/api/v1/stream?cluster=${NS}/demo`);
    await stream.waitFor((f) => dataOf(f).type === 'resync', 10_000, true);
  }, 60_000);
  afterAll(async () => {
    stream.close();
    await app.close();
    await proxy.close();
    await cluster.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('watches cut mid-stream: resumed, and the stream carries what changed meanwhile', async () => {
    const watchesBefore = proxy.counts.watches;
    expect(proxy.dropWatches()).toBeGreaterThan(0);
    const message = await touch('demo-md-0-abc12-m0');
    const frame = await streamed(
      (d) =>
        d.kind === 'machine' &&
        d.id === 'demo-md-0-abc12-m0' &&
        JSON.stringify(d.view).includes(message),
    );
    expect(frame.id).toBeDefined();
    await until(() => proxy.counts.watches > watchesBefore, 30_000, 'the watches to resume');
    expect(await ready()).toBe(200);
  }, 60_000);

  it('watch 410 Gone: the informers relist, and the stream carries the deletion they find', async () => {
    const relists = machineRelists();
    proxy.goneWatches = 10_000;
    await cluster.server.client.delete(machine('demo-md-0-abc12-m1'));
    proxy.dropWatches();
    await until(() => machineRelists() > relists, 30_000, 'a relist of machines after 410');
    proxy.goneWatches = 0;
    const gone = await streamed((d) => d.type === 'delete' && d.id === 'demo-md-0-abc12-m1');
    expect(gone.id).toBeDefined();
    expect(app.cache.stores.Machine.get(NS, 'demo-md-0-abc12-m1')).toBeUndefined();
    await until(async () => (await ready()) === 200, 30_000, '/readyz 200 again');
  }, 60_000);

  it('a LIST cut mid-body: retried until whole, the cache converges, nothing half-listed', async () => {
    const relists = machineRelists();
    proxy.cutLists = 6;
    proxy.goneWatches = 10_000;
    await cluster.server.client.delete(machine('demo-md-0-abc12-m2'));
    const message = await touch('demo-md-0-abc12-m3');
    proxy.dropWatches();
    await until(() => proxy.counts.cut >= 1, 30_000, 'a LIST to be cut');
    await until(() => machineRelists() > relists, 30_000, 'a complete relist of machines');
    proxy.goneWatches = 0;
    proxy.cutLists = 0;
    await streamed((d) => d.type === 'delete' && d.id === 'demo-md-0-abc12-m2');
    await streamed(
      (d) => d.id === 'demo-md-0-abc12-m3' && JSON.stringify(d.view).includes(message),
    );
    // The cache holds exactly the server's machines: a cut page added nothing and lost nothing.
    const onServer = cluster.server.client
      .list('cluster.x-k8s.io/v1beta1', 'Machine', NS)
      .map((m) => m.metadata.name)
      .sort();
    const cached = app.cache.stores.Machine.inNamespace(NS)
      .map((m) => m.metadata.name)
      .sort();
    expect(cached).toEqual(onServer);
    await until(async () => (await ready()) === 200, 30_000, '/readyz 200 again');
  }, 60_000);

  it('the API server dies in the middle of a plan: the answer says what was applied and what is in doubt; /readyz says 503', async () => {
    // The faults of the tests before may still count against the upstream (mutations are refused
    // before their first step while it is down): start from a healthy one. /readyz 200 is not
    // enough: a watch still backing off after the 410s of the test before is failing, only not yet
    // for UPSTREAM_DOWN_AFTER, and would turn the upstream "down" in the middle of this test.
    await until(
      async () => (await ready()) === 200 && app.cache.health().every((h) => h.failingSince === 0),
      30_000,
      '/readyz 200 and no watch failing before the plan',
    );
    const s = new TestSession(app);
    await s.start();
    const md = app.cache.stores.MachineDeployment.get(NS, 'demo-md-0');
    // O-UPGRADE-INFRA: step 1 creates the template, step 2 points the pool at it. The server
    // applies step 2 and dies before answering.
    proxy.dieAfter(
      (req) =>
        req.method === 'PATCH' &&
        (req.url ?? '').includes('/machinedeployments/demo-md-0') &&
        !(req.url ?? '').includes('dryRun'),
    );
    const res = await s.request('POST', `${BASE}/nodepools/demo-md-0/upgrade`, {
      operation: 'infrastructure',
      resourceVersion: md?.metadata.resourceVersion ?? '',
      machineTemplate: { name: 'demo-md-0-template-r9', spec: templateSpec(16) },
    });
    expect(res.statusCode, res.body).toBe(503);
    const body = res.json<{
      code: string;
      message: string;
      execution: { steps: { status: string; kind: string; name: string }[] };
    }>();
    expect(body.code).toBe('UpstreamUnavailable');
    // Step 1 was applied and could not be undone (the server is gone); step 2's fate is unknown.
    expect(body.execution.steps.map((x) => x.status)).toEqual(['undo-failed', 'unknown']);
    expect(body.message).toContain('still applied, not undone: step 1 (create DCSMachineTemplate');
    expect(body.message).toContain('may or may not have been applied');
    // Readiness tells the truth while the server is gone, with the reason.
    await until(async () => (await ready()) === 503, 30_000, '/readyz 503');
    const readyz = await app.inject('/readyz');
    expect(readyz.json<{ reason: string }>().reason).toBe('UpstreamUnavailable');
    await stream.waitFor(
      (f) => f.event === 'upstream' && JSON.stringify(f.data).includes('disconnected'),
      30_000,
      true,
    );
    // What the answer said is what the cluster holds.
    const template = cluster.server.client.get({
      apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1',
      kind: 'DCSMachineTemplate',
      name: 'demo-md-0-template-r9',
      namespace: NS,
    });
    expect(template).toBeDefined();
    // The resync after the server's return may arrive while /readyz is polled below.
    const sinceRevive = stream.frames.length;
    await proxy.revive();
    await until(
      async () => (await ready()) === 200,
      30_000,
      '/readyz 200 after the server is back',
    );
    await stream.waitFor((f) => dataOf(f).type === 'resync', 30_000, sinceRevive);
  }, 90_000);
});
