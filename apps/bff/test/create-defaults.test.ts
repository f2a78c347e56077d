import {
  clusterPoolLayout,
  createPoolDefaults,
  CreatePoolRequestSchema,
  suggestNewPoolEntries,
  validateCreatePool,
  type ValidationContext,
} from '@dcs/domain';
import {
  DEFAULT_PROVIDER_VERSION,
  providerDeployment,
  seed,
  seedClientInProcess,
} from '@dcs/simulator';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, startTestCluster, type TestCluster } from './support/embedded';

/**
 * Issue 11, "forms that mislead": the Add Worker Node Pool form of every cluster of the demo
 * (`pnpm start`'s data, with its legacy pool in prod-east) starts clean. Its defaults come from
 * the context route, as the browser gets them, through domain's createPoolDefaults: the cluster's
 * own layout, never the namespace's last template (another cluster's legacy /var/cpaas disk).
 */
describe('O-CREATE-POOL: a fresh Add Worker Node Pool form on every demo cluster has no problem', () => {
  let t: TestCluster;
  let app: FastifyInstance;
  beforeAll(async () => {
    t = await startTestCluster(false);
    const client = seedClientInProcess(t.cluster.server.client, t.cluster.capiVersions);
    await seed('demo', client, { rollingUpgrade: false });
    const provider = providerDeployment(DEFAULT_PROVIDER_VERSION);
    await client.create({
      ...provider,
      metadata: { ...provider.metadata, name: provider.metadata.name ?? '' },
    });
    app = await buildTestApp(t);
  }, 60_000);
  afterAll(async () => {
    await app.close();
    await t.close();
  });

  it('defaults and suggested entries pass every rule (no error, no warning), per cluster', async () => {
    const clusters = (await app.inject('/api/v1/clusters')).json<{ id: string }[]>();
    expect(clusters.map((c) => c.id).sort()).toEqual([
      'cpaas-system/dev-west',
      'cpaas-system/prod-east',
    ]);
    for (const { id } of clusters) {
      const res = await app.inject(`/api/v1/clusters/${id}/context`);
      expect(res.statusCode, res.body).toBe(200);
      const ctx = res.json<ValidationContext>();
      expect(ctx.providerVersion).toBe(DEFAULT_PROVIDER_VERSION);
      const defaults = createPoolDefaults(ctx);
      const layout = clusterPoolLayout(ctx);
      // The layout is one of this cluster's own pools'.
      expect(layout.from.length, id).toBeGreaterThan(0);
      for (const pool of layout.from) expect(ctx.workerPools?.map((p) => p.name)).toContain(pool);
      const entries = suggestNewPoolEntries(ctx, defaults.name, 3);
      const parsed = CreatePoolRequestSchema.safeParse({
        ...defaults,
        replicas: 3,
        ipPool: { ...defaults.ipPool, entries },
      });
      expect(parsed.error?.issues ?? [], id).toEqual([]);
      if (!parsed.success) continue;
      const issues = validateCreatePool(parsed.data, ctx);
      expect(
        issues.map((i) => `${i.severity} ${i.rule} ${i.path} ${i.message}`),
        id,
      ).toEqual([]);
    }
  }, 60_000);
});
