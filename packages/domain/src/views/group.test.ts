import { describe, expect, it } from 'vitest';
import { LABEL_CLUSTER_NAME } from '../labels';
import { aCluster, anIpEntry, anIpPool, DEMO_CATALOG } from '../testing';
import {
  healthyControlPlane,
  healthyWorkerPool,
  minutesAfterCreation,
  NOW,
  provisioning,
  worker,
  type PoolObjects,
} from './fixtures';
import {
  buildClusterList,
  buildClusterViews,
  indexObjects,
  ipPoolViewsIn,
  type ViewContext,
} from './group';

const ctx: ViewContext = { now: NOW, versions: DEMO_CATALOG, providerVersion: '1.0.16' };

/** Concatenates the per-kind arrays of several fixtures into one object set. */
function merge(...sets: PoolObjects[]): PoolObjects {
  const keys = Object.keys(sets[0] ?? {}) as (keyof PoolObjects)[];
  return Object.fromEntries(
    keys.map((k) => [k, sets.flatMap((s) => s[k] as unknown[])]),
  ) as unknown as PoolObjects;
}

/** Cluster `demo`: control plane + pools md-0 (3) and md-1 (2) sharing one 6-entry IP pool. */
function demoObjects() {
  const md0 = healthyWorkerPool({ name: 'demo-md-0', entries: 6 });
  const md1 = healthyWorkerPool({ name: 'demo-md-1', replicas: 2, firstEntry: 4 });
  md1.objects.ipPools.length = 0; // the same pool as md-0
  md1.objects.clusters.length = 0;
  const cp = healthyControlPlane();
  const objects = merge(md0.objects, md1.objects);
  objects.kubeadmControlPlanes = [cp.kcp];
  objects.machines = [...objects.machines, ...cp.pairs.map((p) => p.machine)];
  objects.dcsMachines = [...objects.dcsMachines, ...cp.pairs.map((p) => p.dcsMachine)];
  objects.machineTemplates = [...objects.machineTemplates, cp.template];
  return objects;
}

describe('buildClusterViews', () => {
  it('U-1: groups one cluster into its control-plane and worker pools, machines and IP pools', () => {
    const objects = demoObjects();
    // Another cluster in the same namespace must not leak into demo's views.
    const other = healthyWorkerPool({ name: 'other-md-0', cluster: 'other', pool: 'other-pool' });
    const all = merge(objects, other.objects);
    const views = buildClusterViews(
      indexObjects(all),
      { namespace: 'cpaas-system', name: 'demo' },
      ctx,
    );
    if (!views) throw new Error('demo exists');
    expect(views.pools.map((p) => [p.id, p.kind, p.status])).toEqual([
      ['control-plane', 'control-plane', 'Running'],
      ['demo-md-0', 'worker', 'Running'],
      ['demo-md-1', 'worker', 'Running'],
    ]);
    expect(views.machines).toHaveLength(8);
    expect(views.machines.every((m) => m.cluster === 'demo')).toBe(true);
    expect(views.ipPools.map((p) => [p.name, p.total, p.used, p.demand])).toEqual([
      ['demo-worker-pool', 6, 5, 5],
    ]);
    expect(views.ipPools[0]?.consumers.map((c) => c.deployment)).toEqual([
      'demo-md-0',
      'demo-md-1',
    ]);
    expect(views.pools[1]?.ipPool).toEqual({
      name: 'demo-worker-pool',
      used: 5,
      total: 6,
      free: 1,
      found: true,
    });
    // Workers read the control plane's version: nothing above v1.33.4 for them.
    expect(views.pools[1]?.upgradeAvailable).toBeUndefined();
    expect(views.pools[0]?.upgradeAvailable).toBe('v1.35.0');
    expect(views.cluster).toMatchObject({
      id: 'cpaas-system/demo',
      name: 'demo',
      phase: 'Provisioned',
      version: 'v1.33.4',
      pools: 3,
      machines: { ready: 8, total: 8 },
      problems: 0,
      paused: false,
    });
    expect(views.recheckAt).toBeUndefined();
    expect(JSON.parse(JSON.stringify(views))).toEqual(views);
  });

  it('R-POOL-1: demand counts every MachineDeployment on the pool, across pools', () => {
    const objects = demoObjects();
    const pool = objects.ipPools[0];
    if (pool?.spec?.pool) pool.spec.pool = pool.spec.pool.slice(0, 4);
    const views = buildClusterViews(
      indexObjects(objects),
      { namespace: 'cpaas-system', name: 'demo' },
      ctx,
    );
    const codes = views?.pools.slice(1).map((p) => p.problems.map((x) => x.code));
    expect(codes).toEqual([['ip-pool-short'], ['ip-pool-short']]);
  });

  it('shows machines of no pool, and says when a view will change by time alone', () => {
    const objects = demoObjects();
    const loose = provisioning(worker('loose-1', { deployment: 'gone-md' }), {
      since: minutesAfterCreation(55),
    });
    objects.machines.push(loose.machine);
    objects.dcsMachines.push(loose.dcsMachine);
    const views = buildClusterViews(
      indexObjects(objects),
      { namespace: 'cpaas-system', name: 'demo' },
      ctx,
    );
    expect(views?.machines.find((m) => m.name === 'loose-1')).toMatchObject({
      poolId: 'gone-md',
      ready: false,
    });
    expect(views?.cluster.machines).toEqual({ ready: 8, total: 9 });
    expect(views?.recheckAt).toBe(Date.parse(minutesAfterCreation(65)));
  });

  it('is stable: the same objects give equal views, and time alone changes nothing below thresholds', () => {
    const objects = demoObjects();
    const young = provisioning(worker('young-1', { entry: 6 }), {
      since: minutesAfterCreation(55),
    });
    objects.machines.push(young.machine);
    objects.dcsMachines.push(young.dcsMachine);
    const ref = { namespace: 'cpaas-system', name: 'demo' };
    const first = buildClusterViews(indexObjects(objects), ref, ctx);
    const later = new Date(NOW.getTime() + 4 * 60_000);
    expect(buildClusterViews(indexObjects(objects), ref, { ...ctx, now: later })).toEqual(first);
    // Past recheckAt the young machine is stuck (T-1), and the view says so.
    const due = new Date(first?.recheckAt ?? 0);
    const after = buildClusterViews(indexObjects(objects), ref, { ...ctx, now: due });
    expect(after?.machines.find((m) => m.name === 'young-1')?.diagnosis?.code).toBe(
      'placement-stall',
    );
  });

  it('is undefined for a cluster that does not exist', () => {
    expect(
      buildClusterViews(
        indexObjects(demoObjects()),
        { namespace: 'cpaas-system', name: 'nope' },
        ctx,
      ),
    ).toBeUndefined();
  });
});

describe('buildClusterList and ipPoolViewsIn', () => {
  it('R-POOL-1: an IP pool named by the control plane’s machine template is used by it', () => {
    const objects = demoObjects();
    objects.ipPools.push(anIpPool({ metadata: { name: 'demo-cp-pool' }, entries: 3 }));
    const views = ipPoolViewsIn(indexObjects(objects), 'cpaas-system');
    expect(views.map((p) => [p.name, p.consumers.map((c) => c.kind), p.demand])).toEqual([
      ['demo-cp-pool', ['KubeadmControlPlane'], 3],
      ['demo-worker-pool', ['MachineDeployment', 'MachineDeployment'], 5],
    ]);
  });

  it('lists every cluster of every namespace, by namespace and name', () => {
    const a = demoObjects();
    const b = healthyWorkerPool({ name: 'zeta-md-0', cluster: 'zeta', pool: 'zeta-pool' });
    const c = healthyWorkerPool({ name: 'alpha-md-0', cluster: 'alpha', pool: 'alpha-pool' });
    for (const o of Object.values(c.objects) as { metadata: { namespace?: string } }[][]) {
      for (const obj of o) obj.metadata.namespace = 'team-a';
    }
    const index = indexObjects(merge(a, b.objects, c.objects));
    expect(buildClusterList(index, ctx).map((v) => [v.id, v.pools, v.machines.total])).toEqual([
      ['cpaas-system/demo', 3, 8],
      ['cpaas-system/zeta', 1, 3],
      ['team-a/alpha', 1, 3],
    ]);
    expect(ipPoolViewsIn(index, 'cpaas-system').map((p) => p.name)).toEqual([
      'demo-worker-pool',
      'zeta-pool',
    ]);
    expect(ipPoolViewsIn(index, 'team-a').map((p) => [p.name, p.used])).toEqual([
      ['alpha-pool', 3],
    ]);
  });
});

describe('scale', () => {
  it('groups 50 pools of 100 machines (5,000) correctly in one pass', () => {
    const pools = Array.from({ length: 50 }, (_, p) => {
      const name = `big-md-${String(p).padStart(2, '0')}`;
      const f = healthyWorkerPool({ name, cluster: 'big', replicas: 100, pool: `${name}-pool` });
      const ipPool = anIpPool({
        metadata: { name: `${name}-pool` },
        spec: { pool: Array.from({ length: 100 }, (_, i) => anIpEntry(i + 1)) },
      });
      f.objects.ipPools = [ipPool];
      f.objects.clusters = [];
      // One machine of every fifth pool is stalled in placement (T-1).
      if (p % 5 === 0) {
        const pair = f.pairs[99];
        if (pair) provisioning(pair, { since: minutesAfterCreation(1) });
      }
      return f.objects;
    });
    const objects = merge(...pools);
    objects.clusters = [aCluster({ metadata: { name: 'big' } })];
    const cp = healthyControlPlane('big');
    cp.kcp.metadata.labels = { [LABEL_CLUSTER_NAME]: 'big' };
    objects.kubeadmControlPlanes = [cp.kcp];
    objects.machines.push(...cp.pairs.map((p) => p.machine));
    objects.dcsMachines.push(...cp.pairs.map((p) => p.dcsMachine));
    objects.machineTemplates.push(cp.template);
    expect(objects.machines).toHaveLength(5003);

    const views = buildClusterViews(
      indexObjects(objects),
      { namespace: 'cpaas-system', name: 'big' },
      ctx,
    );
    if (!views) throw new Error('big exists');
    expect(views.pools).toHaveLength(51);
    expect(views.machines).toHaveLength(5003);
    expect(views.ipPools).toHaveLength(50);
    const workers = views.pools.filter((p) => p.kind === 'worker');
    expect(workers.every((p) => p.replicas.desired === 100 && p.replicas.current === 100)).toBe(
      true,
    );
    expect(workers.filter((p) => p.status === 'Degraded').map((p) => p.id)).toEqual(
      Array.from({ length: 10 }, (_, i) => `big-md-${String(i * 5).padStart(2, '0')}`),
    );
    expect(workers.filter((p) => p.status === 'Running')).toHaveLength(40);
    expect(workers.every((p) => p.ipPool?.used === 100 && p.ipPool.free === 0)).toBe(true);
    expect(workers.reduce((n, p) => n + p.badges.stuckMachines, 0)).toBe(10);
    expect(views.cluster.machines).toEqual({ ready: 4993, total: 5003 });
    expect(views.cluster.problems).toBe(10);
    // Every machine is in exactly one pool's view, and each pool's machines are its own.
    const byPool = new Map<string, number>();
    for (const m of views.machines)
      byPool.set(m.poolId ?? '', (byPool.get(m.poolId ?? '') ?? 0) + 1);
    expect(byPool.get('control-plane')).toBe(3);
    expect([...byPool.values()].reduce((a, b) => a + b, 0)).toBe(5003);
    expect(
      views.machines
        .filter((m) => m.poolId === 'big-md-07')
        .every((m) => m.name.startsWith('big-md-07-')),
    ).toBe(true);
  });
});
