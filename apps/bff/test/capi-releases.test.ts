import type { Plan } from '@dcs/domain';
import { describe, expect, it } from 'vitest';
import { untilCached, useTestApp } from './support/harness';

/**
 * Issue 23: the console on a management cluster of Cluster API v1.14, which stores v1beta2 and
 * serves v1beta1 only as a deprecated, converted view. The console chooses v1beta2 from discovery,
 * reads it into its one model, and sends every write in v1beta2: what the server stores is what
 * the hub plan meant.
 */

const NS = 'cpaas-system';
const BASE = `/api/v1/clusters/${NS}/demo`;
const MD_V1BETA2 = { apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'MachineDeployment' };

interface MdV1beta2 {
  metadata: { resourceVersion: string };
  spec: {
    replicas: number;
    template: { spec: { deletion?: { nodeDrainTimeoutSeconds?: number } } };
  };
}

describe('the console on Cluster API v1.14 (v1beta2 stored, v1beta1 deprecated)', () => {
  const h = useTestApp({ cluster: { capiRelease: 'v1.14' }, app: { executor: { pollMs: 20 } } });
  const md = () =>
    h.server().get({ ...MD_V1BETA2, name: 'demo-md-0', namespace: NS }) as unknown as MdV1beta2;
  const settle = () =>
    untilCached(h.app, 'MachineDeployment', NS, 'demo-md-0', md().metadata.resourceVersion);

  it('speaks v1beta2 for every Cluster API group, and reads the pools through it', async () => {
    expect(h.app.apiVersions.choice).toMatchObject({
      'cluster.x-k8s.io': 'v1beta2',
      'controlplane.cluster.x-k8s.io': 'v1beta2',
      'bootstrap.cluster.x-k8s.io': 'v1beta2',
    });
    await settle();
    // The cache holds the hub, whatever the watch spoke.
    const cached = h.app.cache.stores.MachineDeployment.get(NS, 'demo-md-0');
    expect(cached?.apiVersion).toBe('cluster.x-k8s.io/v1beta1');
    const pools = await h.s.request('GET', `${BASE}/nodepools`);
    expect(pools.statusCode, pools.body).toBe(200);
    expect(pools.body).toContain('demo-md-0');
  });

  it('a scale is previewed and applied in v1beta2', async () => {
    await settle();
    const body = { replicas: 2, resourceVersion: md().metadata.resourceVersion };
    const dry = await h.s.request('POST', `${BASE}/nodepools/demo-md-0/scale?dryRun=true`, body);
    expect(dry.statusCode, dry.body).toBe(200);
    const plan = dry.json<Plan>();
    expect(plan.verdict?.ok, JSON.stringify(plan.verdict)).toBe(true);
    expect(plan.kubectl.join('\n')).toContain('machinedeployments.v1beta2.cluster.x-k8s.io');
    const real = await h.s.request('POST', `${BASE}/nodepools/demo-md-0/scale`, body);
    expect(real.statusCode, real.body).toBe(200);
    expect(md().spec.replicas).toBe(2);
  });

  it("a drain timeout is written as v1beta2's deletion.nodeDrainTimeoutSeconds (R-MD-7), previewed in it", async () => {
    await settle();
    const body = { resourceVersion: md().metadata.resourceVersion, nodeDrainTimeout: '2m' };
    // The preview speaks the version it writes: its diff, its kubectl, its steps.
    const dry = await h.s.request('POST', `${BASE}/nodepools/demo-md-0/strategy?dryRun=true`, body);
    expect(dry.statusCode, dry.body).toBe(200);
    const plan = dry.json<Plan>();
    const diff = plan.diffs.find((d) => d.kind === 'MachineDeployment');
    expect(diff?.after?.apiVersion).toBe('cluster.x-k8s.io/v1beta2');
    expect(diff?.changes.map((c) => c.path)).toContain(
      '/spec/template/spec/deletion/nodeDrainTimeoutSeconds',
    );
    expect(JSON.stringify(plan.steps)).not.toContain('nodeDrainTimeout"');
    const real = await h.s.request('POST', `${BASE}/nodepools/demo-md-0/strategy`, body);
    expect(real.statusCode, real.body).toBe(200);
    expect(md().spec.template.spec.deletion?.nodeDrainTimeoutSeconds).toBe(120);
  });

  it('the YAML view shows the object as the cluster serves it', async () => {
    await settle();
    const res = await h.s.request(
      'GET',
      `/api/v1/namespaces/${NS}/objects/MachineDeployment/demo-md-0`,
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ apiVersion: string }>().apiVersion).toBe('cluster.x-k8s.io/v1beta2');
  });
});
