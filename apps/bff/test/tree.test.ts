import { aDCSCluster } from '@dcs/domain/testing';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, startTestCluster, type TestCluster } from './support/embedded';
import { put } from './support/seed';

/** The object tree route (issue 26, item 5): clusterctl describe cluster from the shared cache. */
describe('GET /clusters/{ns}/{cluster}/tree', () => {
  let t: TestCluster;
  let app: FastifyInstance;
  const URL = '/api/v1/clusters/cpaas-system/demo/tree';
  beforeAll(async () => {
    t = await startTestCluster();
    app = await buildTestApp(t);
  });
  afterAll(async () => {
    await app.close();
    await t.close();
  });

  interface Node {
    id: string;
    children: Node[];
    group?: { items: string[] };
    link?: unknown;
  }
  const ids = (n: Node): string[] => [n.id, ...n.children.flatMap(ids)];

  it('builds the tree of the cached objects: the control plane, the pool and their machines, ungrouped on request', async () => {
    const res = await app.inject(`${URL}?grouping=false`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<{ root: Node; text: string; rows: { name: string }[] }>();
    const all = ids(body.root);
    expect(all[0]).toBe('Cluster/demo');
    expect(all).toContain('KubeadmControlPlane/demo-control-plane');
    expect(all).toContain('virtual:WorkerGroup');
    expect(all).toContain('MachineDeployment/demo-md-0');
    expect(all.filter((id) => id.startsWith('Machine/'))).toHaveLength(6);
    expect(body.text.split('\n')[0]).toMatch(/^NAME +READY +SEVERITY +REASON +SINCE +MESSAGE$/);
    expect(body.text).toContain('├─ControlPlane - KubeadmControlPlane/demo-control-plane');
    expect(body.text).toContain('└─Workers');
  });

  it('groups machines by default and lists the conditions --show-conditions names', async () => {
    const res = await app.inject(`${URL}?showConditions=KubeadmControlPlane`);
    const body = res.json<{ root: Node; text: string }>();
    const groups = ids(body.root).filter((id) => id.startsWith('group:'));
    expect(groups.length).toBeGreaterThan(0);
    expect(body.text).toMatch(/3 Machines\.\.\./);
    // The control plane's other conditions (v1beta1: Ready stays on its line), indented below it.
    expect(body.text).toMatch(/\n│ │ {11}└─Available +True/);
  });

  it('shows the cluster infrastructure once the cache has it (DCSCluster is watched)', async () => {
    await put(
      t.cluster.server.client,
      aDCSCluster({
        status: { ready: true, conditions: [{ type: 'Ready', status: 'True' }] },
      } as never),
    );
    await expect
      .poll(async () => (await app.inject(`${URL}?format=text`)).body, { timeout: 10_000 })
      .toContain('├─ClusterInfrastructure - DCSCluster/demo');
  });

  it('answers format=text with the text alone, as a support ticket takes it', async () => {
    const res = await app.inject(`${URL}?format=text`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain');
    expect(res.body.startsWith('NAME ')).toBe(true);
    expect(res.body).toContain('Cluster/demo');
  });

  it('refuses a bad option with a 400 naming it, and an unknown cluster with a 404', async () => {
    const bad = await app.inject(`${URL}?showConditions=${encodeURIComponent('<script>')}`);
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('showConditions');
    const flag = await app.inject(`${URL}?grouping=yes`);
    expect(flag.statusCode).toBe(400);
    expect(flag.body).toContain('grouping');
    const missing = await app.inject('/api/v1/clusters/cpaas-system/nope/tree');
    expect(missing.statusCode).toBe(404);
  });
});
