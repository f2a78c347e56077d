import type { DiskMigrationPlan } from '@dcs/domain';
import { aMachineTemplate } from '@dcs/domain/testing';
import { describe, expect, it } from 'vitest';
import { useTestApp } from './support/harness';

/**
 * R-DISK-5 through `GET …/nodepools/{pool}/disk-migration`: read-only guidance built from the
 * cached pool, its template and IP pool; nothing is written by asking.
 */

const NS = 'cpaas-system';
const URL = `/api/v1/clusters/${NS}/demo/nodepools/demo-md-0/disk-migration`;

describe('R-DISK-5 migration route', () => {
  const h = useTestApp();

  it('R-DISK-5: a pool on persistent disks has only the checks left; a legacy template makes the steps, read-only, and nothing is written', async () => {
    const now = await h.s.request('GET', URL);
    expect(now.statusCode, now.body).toBe(200);
    expect(now.json<DiskMigrationPlan>().legacy).toBe(false);

    // The older layout: a template that mounts /var/cpaas, which the pool now uses.
    const legacy = aMachineTemplate({ metadata: { name: 'demo-md-0-legacy', namespace: NS } });
    const vm = legacy.spec?.template.spec.vmConfig;
    if (vm)
      vm.dcsMachineDiskSpec = [
        ...(vm.dcsMachineDiskSpec ?? []),
        { quantity: 40, datastoreClusterName: 'ds-1', path: '/var/cpaas', format: 'xfs' },
      ];
    const client = h.server();
    await client.create(legacy as unknown as Parameters<typeof client.create>[0]);
    await client.patch(
      {
        apiVersion: 'cluster.x-k8s.io/v1beta1',
        kind: 'MachineDeployment',
        name: 'demo-md-0',
        namespace: NS,
      },
      'merge',
      { spec: { template: { spec: { infrastructureRef: { name: 'demo-md-0-legacy' } } } } },
    );
    const deadline = Date.now() + 20_000;
    let plan: DiskMigrationPlan | undefined;
    while (Date.now() < deadline) {
      const res = await h.s.request('GET', URL);
      expect(res.statusCode, res.body).toBe(200);
      plan = res.json<DiskMigrationPlan>();
      if (plan.legacy) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(plan?.legacy).toBe(true);
    expect(plan?.applies).toBe(false);
    expect(plan?.readOnlyReason.messageKey).toBe('plan.migration.readOnly');
    expect(plan?.steps.map((x) => x.id)).toEqual([
      'provider',
      'maxSurge',
      'appendDisks',
      'switchTemplate',
      'verify',
    ]);
    const rv = h.t.cluster.server.resourceVersion;
    await h.s.request('GET', URL);
    expect(h.t.cluster.server.resourceVersion).toBe(rv);
  });

  it('R-DISK-5: the control plane is a 400, an unknown pool a 404', async () => {
    const cp = await h.s.request(
      'GET',
      `/api/v1/clusters/${NS}/demo/nodepools/control-plane/disk-migration`,
    );
    expect(cp.statusCode, cp.body).toBe(400);
    const missing = await h.s.request(
      'GET',
      `/api/v1/clusters/${NS}/demo/nodepools/nope/disk-migration`,
    );
    expect(missing.statusCode, missing.body).toBe(404);
  });
});
