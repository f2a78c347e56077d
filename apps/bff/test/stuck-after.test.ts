import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, startTestCluster, type TestCluster } from './support/embedded';

/**
 * T-1 on the wall clock with the product's threshold (`--stuck-after` / STUCK_AFTER): the views
 * REST serves diagnose a machine Provisioning longer than that, and not before.
 */

const MACHINES = '/api/v1/clusters/cpaas-system/demo/nodepools/demo-md-0/machines';
const NAME = 'demo-md-0-abc12-m1';

describe('T-1 threshold from the configuration', () => {
  let t: TestCluster;
  let app: FastifyInstance;
  beforeAll(async () => {
    t = await startTestCluster();
    app = await buildTestApp(t, { env: { STUCK_AFTER: '2s' } });
  });
  afterAll(async () => {
    await app.close();
    await t.close();
  });

  const diagnosis = async () => {
    const res = await app.inject(MACHINES);
    const m = res.json<{ name: string; diagnosis?: { code: string; rule?: string } }[]>();
    return m.find((x) => x.name === NAME)?.diagnosis;
  };

  it('T-1: a placement stall shows after STUCK_AFTER (2s), not before', async () => {
    const client = t.cluster.server.client;
    const since = new Date().toISOString();
    // Played as the Machine controller writes it: in the version the release stores (a v1beta1
    // write of the phase is overwritten by the conversion, as upstream's restores it).
    const core = t.cluster.capiVersions['cluster.x-k8s.io'] ?? 'v1beta1';
    await client.patch(
      {
        apiVersion: `cluster.x-k8s.io/${core}`,
        kind: 'Machine',
        namespace: 'cpaas-system',
        name: NAME,
      },
      'merge',
      { status: { phase: 'Provisioning', lastUpdated: since, nodeRef: null } },
      { subresource: 'status' },
    );
    await client.patch(
      {
        apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1',
        kind: 'DCSMachine',
        namespace: 'cpaas-system',
        name: NAME,
      },
      'merge',
      { status: { vmState: 'creating', ready: false } },
      { subresource: 'status' },
    );
    await expect.poll(async () => (await app.inject(MACHINES)).body).toContain('Provisioning');
    const started = Date.parse(since);
    expect(await diagnosis()).toBeUndefined();
    expect(Date.now() - started).toBeLessThan(2000);
    await expect
      .poll(diagnosis, { timeout: 10_000, interval: 200 })
      .toMatchObject({ code: 'placement-stall', rule: 'T-1' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(2000);
  });
});
