import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { aMachineDeployment } from '@dcs/domain/testing';
import { startEmbeddedCluster, type EmbeddedCluster } from '@dcs/simulator';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { buildTestApp, type TestCluster } from './support/embedded';
import { put, seedDemo } from './support/seed';

/**
 * The shared cache through an API-server restart: every connection drops, the server comes back
 * with its persisted state and an empty watch history, so resuming from the last
 * resourceVersion answers 410 Gone and the informers relist, finding what changed and what was
 * deleted while they were away. Plain HTTP on loopback so that the restarted server (with a new
 * process-local CA otherwise) is trusted by the same kubeconfig.
 */

const NS = 'cpaas-system';
const TOKENS = { operatorToken: 'operator-token-for-tests', viewerToken: 'viewer-token-for-tests' };

async function until(check: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('informers under an API-server restart, dropped connections and 410', () => {
  let dir: string;
  let cluster: EmbeddedCluster;
  let app: FastifyInstance;
  let port: number;
  let statePath: string;
  const start = (p: number) =>
    startEmbeddedCluster({
      host: '127.0.0.1',
      port: p,
      tls: false,
      statePath,
      bookmarkIntervalMs: 500,
      ...TOKENS,
    });

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'bff-informer-'));
    statePath = join(dir, 'state.json');
    cluster = await start(0);
    port = cluster.server.port;
    await seedDemo(cluster.server.client);
    const kubeconfig = join(dir, 'kubeconfig');
    // client-node speaks plain HTTP only with verification explicitly off (and so does the BFF).
    const kc = parseYaml(cluster.kubeconfig) as {
      clusters: { cluster: Record<string, unknown> }[];
    };
    for (const c of kc.clusters) c.cluster['insecure-skip-tls-verify'] = true;
    await writeFile(kubeconfig, stringifyYaml(kc));
    const t: TestCluster = { cluster, kubeconfig, dir, close: () => cluster.close() };
    app = await buildTestApp(t, { env: { ALLOW_INSECURE_TLS: 'true' } });
  });
  afterAll(async () => {
    await app.close();
    await cluster.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('relists after the restart and sees what was added and deleted while it was away', async () => {
    expect(app.cache.stores.Machine.get(NS, 'demo-md-0-abc12-m2')).toBeDefined();
    await cluster.close();
    // Changes while the BFF is cut off: made on the restarted server before the BFF reconnects.
    cluster = await start(port);
    await cluster.server.client.delete({
      apiVersion: 'cluster.x-k8s.io/v1beta1',
      kind: 'Machine',
      name: 'demo-md-0-abc12-m2',
      namespace: NS,
    });
    await put(cluster.server.client, aMachineDeployment({ metadata: { name: 'demo-md-7' } }));
    await until(
      () =>
        app.cache.stores.Machine.get(NS, 'demo-md-0-abc12-m2') === undefined &&
        app.cache.stores.MachineDeployment.get(NS, 'demo-md-7') !== undefined,
      30_000,
      'the cache to converge after the restart',
    );
    const health = app.cache.health();
    expect(health.every((h) => h.hasSynced)).toBe(true);
    expect(health.reduce((n, h) => n + h.restarts, 0)).toBeGreaterThan(0);
    // The restarted server kept no watch history: resuming was answered 410, and they relisted.
    expect(health.find((h) => h.kind === 'Machine')?.relists).toBeGreaterThan(0);
    const pools = await app.inject('/api/v1/clusters/cpaas-system/demo/nodepools');
    expect(pools.json<{ id: string }[]>().map((p) => p.id)).toContain('demo-md-7');
    const machines = await app.inject(
      '/api/v1/clusters/cpaas-system/demo/nodepools/demo-md-0/machines',
    );
    expect(machines.json<{ name: string }[]>().map((m) => m.name)).not.toContain(
      'demo-md-0-abc12-m2',
    );
    const metrics = { body: await app.metrics.registry.metrics() };
    expect(metrics.body).toMatch(/dcs_bff_informer_restarts\{resource="machines[^}]*"\} [1-9]/);
  }, 60_000);

  it('keeps the number of upstream watches fixed: one per (kind, namespace), whoever reads', async () => {
    const before = app.cache.watchCount;
    await Promise.all(
      Array.from({ length: 20 }, () => app.inject('/api/v1/clusters/cpaas-system/demo/nodepools')),
    );
    expect(app.cache.watchCount).toBe(before);
  });
});
