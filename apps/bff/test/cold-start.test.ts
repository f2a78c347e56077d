import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbeddedCluster, type EmbeddedCluster } from '@dcs/simulator';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config/env';
import { TEST_SESSION_KEY } from './support/embedded';
import { FaultProxy, type HeldRequest } from './support/fault-proxy';
import { seedDemo } from './support/seed';

/**
 * Issue 14, the BFF's cold start: in CI the first `GET …/context` after the stack started took
 * 11.8 s and the first `…/nodepools` 5.9 s. Traced (a kube request log of a cold stack on a busy
 * machine): every upstream request of a fresh user is an access review on a new TLS connection
 * to a busy API server, ~0.5–1.5 s each under load, and the context route asked them in two
 * waves (the read's `list` reviews, then the rights' reviews and the Secrets), so it paid that
 * twice; meanwhile a read before the caches' first list answered 404 or a pool without machines.
 * The fault proxy, holding requests, between the BFF and the API server makes both visible without timing.
 */

const NS = 'cpaas-system';
const BASE = `/api/v1/clusters/${NS}/demo`;

/** Polls `ok` until it holds; generous, since CI runs this at a load average of 10. */
async function until(ok: () => boolean, what: () => string, deadlineMs = 20_000): Promise<void> {
  const end = Date.now() + deadlineMs;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting: ${what()}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const verbOf = (h: HeldRequest) =>
  (JSON.parse(h.body) as { spec?: { resourceAttributes?: { verb?: string } } }).spec
    ?.resourceAttributes?.verb;
const isReview = (h: HeldRequest) => h.path.includes('/selfsubjectaccessreviews');
const isSecretGet = (h: HeldRequest) => h.method === 'GET' && h.path.includes('/secrets/');

describe('cold start (issue 14)', () => {
  let dir: string;
  let cluster: EmbeddedCluster;
  let proxy: FaultProxy;
  let kubeconfig: string;
  const apps: FastifyInstance[] = [];

  async function startApp(env: Record<string, string> = {}): Promise<FastifyInstance> {
    const config = loadConfig({
      argv: ['--kubeconfig', kubeconfig],
      env: {
        HOST: '127.0.0.1',
        PORT: '0',
        AUTH_MODE: 'local',
        SESSION_KEYS: TEST_SESSION_KEY,
        LOG_LEVEL: 'silent',
        ALLOW_INSECURE_TLS: 'true',
        ...env,
      },
    });
    const app = await buildApp({ config });
    apps.push(app);
    await app.ready();
    return app;
  }

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'bff-cold-'));
    cluster = await startEmbeddedCluster({ host: '127.0.0.1', port: 0, tls: false });
    await seedDemo(cluster.server.client, { workers: 2 });
    proxy = await FaultProxy.start(`http://127.0.0.1:${String(cluster.server.port)}`);
    const kc = parseYaml(cluster.kubeconfig) as {
      clusters: { cluster: Record<string, unknown> }[];
    };
    for (const c of kc.clusters) {
      c.cluster.server = proxy.url;
      c.cluster['insecure-skip-tls-verify'] = true;
    }
    kubeconfig = join(dir, 'kubeconfig');
    await writeFile(kubeconfig, stringifyYaml(kc));
  }, 60_000);

  afterAll(async () => {
    for (const app of apps) await app.close();
    await proxy.close();
    await cluster.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('the first context asks every access review and Secret it needs in one round, not one wave after another', async () => {
    const app = await startApp();
    await app.cache.waitForSync();
    // Nothing this user asked is cached yet (a fresh app): hold each upstream answer.
    proxy.hold = ({ method, path }) =>
      path.includes('/selfsubjectaccessreviews') ||
      (method === 'GET' && path.includes('/secrets/'));
    const answer = app.inject(`${BASE}/context`);
    // While no review has been answered, the rights' reviews (create, patch, delete …) and the
    // Secrets must already have been asked beside the read's `list` reviews.
    await until(
      () =>
        proxy.held.some((h) => isReview(h) && verbOf(h) === 'list') &&
        proxy.held.some((h) => isReview(h) && verbOf(h) === 'create') &&
        proxy.held.some(isSecretGet),
      () =>
        `held while nothing was answered: ${proxy.held.map((h) => `${h.method} ${h.path} ${isReview(h) ? String(verbOf(h)) : ''}`).join('; ')}`,
    );
    proxy.releaseAll();
    const res = await answer;
    expect(res.statusCode, res.body).toBe(200);
    expect(
      res.json<{ permissions: { createPool: { allowed: boolean } } }>().permissions,
    ).toMatchObject({ createPool: { allowed: true } });
  }, 60_000);

  it('a read before the caches listed waits for them, and answers 503 with Retry-After after CACHE_SYNC_WAIT, never 404 or a pool without machines', async () => {
    // The Machine list is held: the cache has Clusters and pools but no machines yet.
    proxy.hold = ({ method, path }) =>
      method === 'GET' && /\/machines(\?|$)/.test(path) && !path.includes('watch=');
    const app = await startApp({ CACHE_SYNC_WAIT: '300ms' });
    await until(
      () => app.cache.stores.Cluster.get(NS, 'demo') !== undefined,
      () => 'the Cluster in the cache',
    );
    for (const path of [`${BASE}/nodepools`, `${BASE}/context`, '/api/v1/clusters']) {
      const res = await app.inject(path);
      expect(res.statusCode, `${path}: ${res.body}`).toBe(503);
      expect(res.headers['retry-after']).toBe('1');
      const body = res.json<{ code: string; message: string; details: { rule: string }[] }>();
      expect(body.code).toBe('CacheNotSynced');
      expect(body.message).toContain('Machine');
      expect(body.details[0]?.rule).toBe('R-API');
    }
    // A read that arrives while the list is under way waits for it (up to CACHE_SYNC_WAIT).
    const pending = app.inject(`${BASE}/nodepools`);
    proxy.releaseAll();
    const res = await pending;
    if (res.statusCode === 503) {
      // A very busy machine may need longer than 300 ms for the released list: then it is ready
      // on the next ask, as Retry-After says.
      await app.cache.waitForSync();
    }
    const after = await app.inject(`${BASE}/nodepools`);
    expect(after.statusCode, after.body).toBe(200);
    const pools = after.json<{ replicas: { current: number } }[]>();
    expect(pools.reduce((n, p) => n + p.replicas.current, 0)).toBeGreaterThan(0);
  }, 60_000);
});
