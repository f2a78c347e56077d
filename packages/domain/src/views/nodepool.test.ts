import { describe, expect, it } from 'vitest';
import { ANNOTATION_REVISION, LABEL_DEPLOYMENT_NAME } from '../labels';
import { aMachineSet, DEMO_CATALOG } from '../testing';
import {
  healthyControlPlane,
  healthyWorkerPool,
  minutesAfterCreation,
  NOW,
  provisioning,
  worker,
  type WorkerPoolFixture,
} from './fixtures';
import { ipPoolView } from './ippool';
import {
  buildControlPlanePool,
  buildWorkerPool,
  isLegacyDiskLayout,
  type PoolStatus,
  type PoolViewContext,
} from './nodepool';

const baseCtx: PoolViewContext = {
  now: NOW,
  versions: DEMO_CATALOG,
  providerVersion: '1.0.16',
  controlPlaneVersion: 'v1.33.4',
};

function workerPool(f: WorkerPoolFixture, ctx: Partial<PoolViewContext> = {}) {
  const o = f.objects;
  const pool = o.ipPools[0];
  const template = o.machineTemplates[0];
  const bootstrap = o.bootstrapTemplates[0];
  return buildWorkerPool(
    {
      machineDeployment: f.md,
      machineSets: o.machineSets,
      machines: o.machines,
      dcsMachines: o.dcsMachines,
      ...(template ? { machineTemplate: template } : {}),
      ...(bootstrap ? { bootstrapTemplate: bootstrap } : {}),
      ...(pool ? { ipPool: ipPoolView(pool, o.dcsMachines, o.machineDeployments) } : {}),
    },
    { ...baseCtx, ...ctx },
  );
}

const statusOf = (f: WorkerPoolFixture) => workerPool(f).pool.status;

/** Makes machine i of the fixture something else (replacing machine and DCSMachine in place). */
function replaceMachine(f: WorkerPoolFixture, i: number, pair: ReturnType<typeof worker>) {
  f.objects.machines[i] = pair.machine;
  f.objects.dcsMachines[i] = pair.dcsMachine;
}

const recently = minutesAfterCreation(58);
const longAgo = minutesAfterCreation(10);

describe('worker pool view', () => {
  it('U-3: a healthy pool: replicas, version, templates, IP pool, strategy, resourceVersions', () => {
    const f = healthyWorkerPool();
    const { pool, machines } = workerPool(f);
    expect(pool).toMatchObject({
      id: 'demo-md-0',
      kind: 'worker',
      name: 'demo-md-0',
      cluster: 'demo',
      namespace: 'cpaas-system',
      replicas: { desired: 3, current: 3, ready: 3, updated: 3, available: 3, unavailable: 0 },
      version: 'v1.33.4',
      machineTemplate: {
        name: 'demo-md-0-template',
        found: true,
        vmTemplateName: 'alauda-os-k8s-v1.33.4',
        cpu: 4,
        memoryMB: 8192,
        ipPoolName: 'demo-worker-pool',
      },
      bootstrapTemplate: 'demo-md-0-kct',
      ipPool: { name: 'demo-worker-pool', used: 3, total: 3, free: 0, found: true },
      status: 'Running',
      problems: [],
      badges: { legacyDiskLayout: false, stuckMachines: 0, failedMachines: 0 },
      resourceVersions: { md: '1', template: '1', bootstrap: '1', ipPool: '1' },
      strategy: {
        type: 'RollingUpdate',
        maxSurge: 0,
        maxUnavailable: 1,
        resolved: { maxSurge: 0, maxUnavailable: 1 },
      },
      nodeDrainTimeout: '1m',
      nodeDeletionTimeout: '5m',
      paused: false,
      createdAt: '2026-01-01T00:00:00Z',
    });
    expect(pool.machineTemplate.disks).toEqual([
      { quantityGB: 0, systemVolume: true, datastoreClusterName: 'ds-cluster-1' },
      {
        quantityGB: 100,
        systemVolume: false,
        path: '/var/lib/kubelet',
        datastoreClusterName: 'ds-cluster-1',
        format: 'xfs',
      },
      {
        quantityGB: 100,
        systemVolume: false,
        path: '/var/lib/containerd',
        datastoreClusterName: 'ds-cluster-1',
        format: 'xfs',
      },
    ]);
    expect(pool.conditions).toEqual([
      { type: 'Ready', status: 'True', lastTransitionTime: '2026-01-01T00:00:00Z', problem: false },
    ]);
    expect(machines.map((m) => [m.name, m.hostname, m.upToDate])).toEqual([
      ['demo-md-0-abc12-m1', 'worker-node-1', true],
      ['demo-md-0-abc12-m2', 'worker-node-2', true],
      ['demo-md-0-abc12-m3', 'worker-node-3', true],
    ]);
    expect(JSON.parse(JSON.stringify(pool))).toEqual(pool);
  });

  it('U-3: upgradeAvailable is the newest catalog version not above the control plane (R-MD-4)', () => {
    const f = healthyWorkerPool();
    if (f.md.spec) f.md.spec.template.spec.version = 'v1.32.8';
    expect(workerPool(f).pool.upgradeAvailable).toBe('v1.33.4');
    expect(workerPool(f, { controlPlaneVersion: 'v1.35.0' }).pool.upgradeAvailable).toBe('v1.35.0');
    // Without the control plane's version, no upgrade is offered: the skew cannot be checked.
    const { controlPlaneVersion: _omit, ...noCp } = baseCtx;
    expect(buildWorkerPoolWith(f, noCp).upgradeAvailable).toBeUndefined();
    expect(workerPool(healthyWorkerPool()).pool.upgradeAvailable).toBeUndefined();
  });
});

describe('O-RESTART on the pool view', () => {
  it('the rolloutAfter a pool holds, scheduled while still to come; absent when none is set', () => {
    const f = healthyWorkerPool();
    expect(workerPool(f).pool.restart).toBeUndefined();
    if (f.md.spec) f.md.spec.rolloutAfter = '2026-01-01T03:00:00Z';
    expect(workerPool(f).pool.restart).toEqual({ after: '2026-01-01T03:00:00Z', scheduled: true });
    // Once the time has passed, the restart is under way: the pool's set is no longer current.
    const { pool } = workerPool(f, { now: new Date('2026-01-01T03:00:01Z') });
    expect(pool.restart).toEqual({ after: '2026-01-01T03:00:00Z', scheduled: false });
    expect(pool.rollout.inProgress).toBe(true);
    expect(pool.replicas.updated).toBe(0);
  });
});

function buildWorkerPoolWith(f: WorkerPoolFixture, ctx: PoolViewContext) {
  return buildWorkerPool(
    {
      machineDeployment: f.md,
      machineSets: f.objects.machineSets,
      machines: f.objects.machines,
      dcsMachines: f.objects.dcsMachines,
    },
    ctx,
  ).pool;
}

describe('honest pool status: never Running while a machine is not Ready', () => {
  it("issue 23: Cluster API v1beta2's counters and conditions of the pool, stale ones marked; absent with v1beta1 status only", () => {
    const f = healthyWorkerPool();
    expect(workerPool(f).pool.v1beta2).toBeUndefined();
    f.md.metadata.generation = 4;
    f.md.status = {
      ...f.md.status,
      v1beta2: {
        availableReplicas: 2,
        readyReplicas: 3,
        upToDateReplicas: 1,
        conditions: [
          { type: 'Available', status: 'True', reason: 'Available', observedGeneration: 4 },
          {
            type: 'RollingOut',
            status: 'True',
            reason: 'RollingOut',
            message: 'Rolling out 2 not up-to-date replicas',
            observedGeneration: 3,
          },
        ],
      },
    };
    const v1beta2 = workerPool(f).pool.v1beta2;
    expect(v1beta2).toMatchObject({ available: 2, ready: 3, upToDate: 1 });
    expect(v1beta2?.conditions.map((c) => [c.type, c.stale ?? false, c.problem])).toEqual([
      ['RollingOut', true, false],
      ['Available', false, false],
    ]);
  });

  it('not Running when the MachineDeployment status claims all ready but a node is unhealthy', () => {
    const f = healthyWorkerPool();
    const nh = f.objects.machines[1]?.status?.conditions?.find((c) => c.type === 'NodeHealthy');
    if (!nh) throw new Error('builder has NodeHealthy');
    Object.assign(nh, {
      status: 'False',
      severity: 'Warning',
      reason: 'NodeConditionsFailed',
      lastTransitionTime: recently,
    });
    expect(f.md.status).toMatchObject({ readyReplicas: 3, phase: 'Running' });
    const { pool } = workerPool(f);
    expect(pool.status).toBe('Degraded');
    expect(pool.replicas).toMatchObject({ ready: 2, unavailable: 1 });
  });

  it('Provisioning while a replacement machine is still coming up', () => {
    const f = healthyWorkerPool();
    replaceMachine(
      f,
      2,
      provisioning(worker('demo-md-0-abc12-m9', { entry: 3 }), { since: recently }),
    );
    expect(statusOf(f)).toBe('Provisioning');
  });

  it('ScalingUp while fewer machines exist than desired (O-SCALE-UP)', () => {
    const f = healthyWorkerPool({ replicas: 5, machines: 3, entries: 5 });
    expect(statusOf(f)).toBe('ScalingUp');
  });

  it('ScalingDown while more machines exist than desired, or some are being deleted', () => {
    expect(statusOf(healthyWorkerPool({ replicas: 2, machines: 3 }))).toBe('ScalingDown');
    const f = healthyWorkerPool({ replicas: 2, machines: 3 });
    const last = f.objects.machines[2];
    if (last) last.metadata.deletionTimestamp = recently;
    expect(statusOf(f)).toBe('ScalingDown');
  });

  it('Updating during a rolling update', () => {
    const f = healthyWorkerPool();
    if (f.md.spec) f.md.spec.template.spec.infrastructureRef.name = 'demo-md-0-template-2';
    expect(statusOf(f)).toBe('Updating');
  });

  it('T-1: Degraded with a stuck machine; the problem and the badge say which', () => {
    const f = healthyWorkerPool({ replicas: 4, machines: 3, entries: 4 });
    const stuck = provisioning(worker('demo-md-0-abc12-m4', { entry: 4 }), { since: longAgo });
    f.objects.machines.push(stuck.machine);
    f.objects.dcsMachines.push(stuck.dcsMachine);
    const { pool } = workerPool(f);
    expect(pool.status).toBe('Degraded');
    expect(pool.badges.stuckMachines).toBe(1);
    expect(pool.problems).toContainEqual(
      expect.objectContaining({
        code: 'placement-stall',
        rule: 'T-1',
        severity: 'warning',
        params: { count: 1, machines: 'demo-md-0-abc12-m4' },
      }),
    );
  });

  it('issue 26 item 6: a drain a PodDisruptionBudget refuses is a problem of the pool, naming the budget and the machines it holds', () => {
    const f = healthyWorkerPool({ replicas: 2, machines: 3 });
    const message = [
      'Drain not completed yet (started at 2026-01-01T00:50:01Z):',
      '* Pods with eviction failed:',
      "  * Cannot evict pod as it would violate the pod's disruption budget. The disruption budget web needs 2 healthy pods and has 2 currently: default/web-1",
    ].join('\n');
    const victim = f.objects.machines[2];
    if (!victim) throw new Error('fixture');
    victim.metadata.deletionTimestamp = recently;
    victim.status = {
      ...victim.status,
      v1beta2: {
        conditions: [{ type: 'Deleting', status: 'True', reason: 'DrainingNode', message }],
      },
    };
    const { pool } = workerPool(f);
    const problem = pool.problems.find((p) => p.code === 'drain-blocked');
    expect(problem).toMatchObject({
      severity: 'warning',
      params: { budget: 'web', needs: 2, has: 2, count: 1, machines: victim.metadata.name },
    });
    expect(problem?.message).toBe(
      `Drain blocked by PodDisruptionBudget web (needs 2 healthy Pods, has 2): 1 machine waits to be deleted: ${victim.metadata.name ?? ''}`,
    );
    // Once the drain is over (a later step), the pool has no such problem.
    victim.status.v1beta2 = {
      conditions: [
        { type: 'Deleting', status: 'True', reason: 'WaitingForInfrastructureDeletion' },
      ],
    };
    expect(workerPool(f).pool.problems.some((p) => p.code === 'drain-blocked')).toBe(false);
  });

  it('T-1: a problem names its machines in name order, whatever order they came in (issue 14)', () => {
    // The cache hands machines over in the order they last changed, and its indexes differ: a
    // pool rebuilt alone (one machine's event) must name the same machines as the full rebuild.
    const names = ['m-7', 'm-2', 'm-9', 'm-1', 'm-5', 'm-3', 'm-8'];
    const f = healthyWorkerPool({ replicas: 7, machines: 0, entries: 7 });
    names.forEach((name, i) => {
      const stuck = provisioning(worker(name, { entry: i + 1 }), { since: longAgo });
      f.objects.machines.push(stuck.machine);
      f.objects.dcsMachines.push(stuck.dcsMachine);
    });
    const listed = (ms: typeof f.objects.machines) => {
      f.objects.machines = ms;
      return workerPool(f).pool.problems.find((p) => p.code === 'placement-stall')?.params;
    };
    const given = listed([...f.objects.machines]);
    expect(given).toEqual({ count: 7, machines: 'm-1, m-2, m-3, m-5, m-7 (+2)' });
    expect(listed([...f.objects.machines].reverse())).toEqual(given);
  });

  it('Failed when every machine failed; Degraded when some did', () => {
    const fail = (f: WorkerPoolFixture, i: number) => {
      const m = f.objects.machines[i];
      if (m?.status) m.status = { ...m.status, phase: 'Failed', failureReason: 'CreateError' };
    };
    const all = healthyWorkerPool();
    [0, 1, 2].forEach((i) => {
      fail(all, i);
    });
    expect(statusOf(all)).toBe('Failed');
    const some = healthyWorkerPool();
    fail(some, 0);
    const { pool } = workerPool(some);
    expect(pool.status).toBe('Degraded');
    expect(pool.badges.failedMachines).toBe(1);
    expect(pool.problems[0]).toMatchObject({ code: 'vm-failed', severity: 'error' });
  });

  it('Deleting, Paused and Unknown', () => {
    const deleting = healthyWorkerPool();
    deleting.md.metadata.deletionTimestamp = recently;
    expect(statusOf(deleting)).toBe('Deleting');
    const paused = healthyWorkerPool();
    if (paused.md.spec) paused.md.spec.paused = true;
    expect(statusOf(paused)).toBe('Paused');
    const fresh = healthyWorkerPool({ machines: 0 });
    delete fresh.md.status;
    fresh.objects.machineSets.length = 0;
    expect(statusOf(fresh)).toBe('Unknown');
  });

  it('never Running in any of many mixed states where a machine is not Ready or ready < desired', () => {
    const mutations: ((f: WorkerPoolFixture) => void)[] = [
      (f) => {
        replaceMachine(f, 0, provisioning(worker('x', { entry: 1 }), { since: recently }));
      },
      (f) => {
        replaceMachine(
          f,
          0,
          provisioning(worker('x', { entry: 1 }), { since: longAgo, cdRomFile: false }),
        );
      },
      (f) => {
        const s = f.objects.machines[0]?.status;
        if (s) s.phase = 'Provisioned';
      },
      (f) => {
        const s = f.objects.machines[0]?.status;
        if (s) delete s.nodeRef;
      },
      (f) => {
        const ready = f.objects.machines[0]?.status?.conditions?.find((c) => c.type === 'Ready');
        if (ready) ready.status = 'Unknown';
      },
      (f) => {
        f.objects.machines.pop();
      },
      (f) => {
        const m = f.objects.machines[0];
        if (m) m.metadata.deletionTimestamp = recently;
      },
    ];
    for (const [i, mutate] of mutations.entries()) {
      const f = healthyWorkerPool();
      mutate(f);
      const { pool } = workerPool(f);
      const notRunning: PoolStatus = pool.status;
      expect(notRunning, `mutation ${String(i)}`).not.toBe('Running');
    }
  });
});

describe('worker pool problems', () => {
  it('R-POOL-1: more replicas than entries is an error; room only without surge is a warning', () => {
    const short = workerPool(healthyWorkerPool({ replicas: 4, machines: 3, entries: 3 })).pool;
    expect(short.problems).toContainEqual(
      expect.objectContaining({
        code: 'ip-pool-short',
        rule: 'R-POOL-1',
        severity: 'error',
        params: { pool: 'demo-worker-pool', total: 3, demand: 4 },
      }),
    );
    const tight = workerPool(
      healthyWorkerPool({ maxSurge: 1, maxUnavailable: 0, entries: 3 }),
    ).pool;
    expect(tight.problems).toContainEqual(
      expect.objectContaining({ code: 'ip-pool-short-for-rollout', severity: 'warning' }),
    );
    expect(tight.problems.find((p) => p.code === 'ip-pool-short')).toBeUndefined();
  });

  it('R-POOL-1: a machine template naming a pool that does not exist', () => {
    const f = healthyWorkerPool();
    f.objects.ipPools.length = 0;
    const { pool } = workerPool(f);
    expect(pool.ipPool).toEqual({
      name: 'demo-worker-pool',
      used: 0,
      total: 0,
      free: 0,
      found: false,
    });
    expect(pool.problems).toContainEqual(
      expect.objectContaining({ code: 'ip-pool-missing', severity: 'error' }),
    );
  });

  it('R-DISK-5: a template mounting /var/cpaas with provider >= 1.0.16 is the legacy disk layout', () => {
    const f = healthyWorkerPool();
    f.objects.machineTemplates[0]?.spec?.template.spec.vmConfig?.dcsMachineDiskSpec?.push({
      quantity: 40,
      datastoreClusterName: 'ds-cluster-1',
      path: '/var/cpaas/',
      format: 'xfs',
    });
    const { pool } = workerPool(f);
    expect(pool.badges.legacyDiskLayout).toBe(true);
    expect(pool.problems).toContainEqual(
      expect.objectContaining({
        code: 'legacy-disk-layout',
        rule: 'R-DISK-5',
        severity: 'warning',
      }),
    );
    expect(workerPool(f, { providerVersion: '1.0.15' }).pool.badges.legacyDiskLayout).toBe(false);
    expect(isLegacyDiskLayout(f.objects.machineTemplates[0], undefined)).toBe(false);
    expect(isLegacyDiskLayout(healthyWorkerPool().objects.machineTemplates[0], '1.0.20')).toBe(
      false,
    );
  });

  it('R-DISK-5: /var/cpaas in neither the template nor the entries is an error on the card', () => {
    const f = healthyWorkerPool();
    const entries = f.objects.ipPools[0]?.spec?.pool ?? [];
    for (const entry of entries) entry.persistentDisk = [];
    const { pool } = workerPool(f);
    // Healthy machines: the pool runs, but its card says what the rules say about it.
    expect(pool.status).toBe('Running');
    expect(pool.problems.find((p) => p.code === 'cpaas-missing')).toMatchObject({
      rule: 'R-DISK-5',
      severity: 'error',
      params: { count: 3, ips: '10.0.1.11, 10.0.1.12, 10.0.1.13' },
    });
    expect(pool.problems.find((p) => p.code === 'cpaas-missing')?.message).toMatch(
      /persistent disk of 3 entries of IP pool demo-worker-pool/,
    );
    // One entry without it is named alone, in the singular.
    const one = healthyWorkerPool();
    const first = one.objects.ipPools[0]?.spec?.pool?.[0];
    if (first) first.persistentDisk = [];
    const problem = workerPool(one).pool.problems.find((p) => p.code === 'cpaas-missing');
    expect(problem?.message).toMatch(
      /persistent disk of 1 entry of IP pool demo-worker-pool \(10\.0\.1\.11\)/,
    );
    expect(problem?.message).toMatch(/to that entry/);
    // Before 1.0.16 the template is the only place for it (R-TPL-2).
    expect(workerPool(f, { providerVersion: '1.0.15' }).pool.problems).toContainEqual(
      expect.objectContaining({
        code: 'cpaas-not-in-template',
        rule: 'R-TPL-2',
        severity: 'error',
      }),
    );
    // Unknown provider: neither layout can be told wrong.
    expect(
      workerPool(f, { providerVersion: undefined }).pool.problems.map((p) => p.code),
    ).not.toContain('cpaas-missing');
    // The healthy pool (its entries carry /var/cpaas) has none of these.
    expect(workerPool(healthyWorkerPool()).pool.problems).toEqual([]);
  });

  it('R-TPL-2: the live template is checked as the forms check it (required mounts, mounted twice)', () => {
    const f = healthyWorkerPool();
    const disks = f.objects.machineTemplates[0]?.spec?.template.spec.vmConfig?.dcsMachineDiskSpec;
    disks?.splice(2, 1); // drop /var/lib/containerd
    disks?.push({ quantity: 40, datastoreClusterName: 'ds-cluster-1', path: '/var/cpaas' });
    const { pool } = workerPool(f);
    expect(pool.problems).toContainEqual(
      expect.objectContaining({
        rule: 'R-TPL-2',
        severity: 'error',
        messageKey: 'tpl.mountRequired',
        params: { path: '/var/lib/containerd' },
      }),
    );
    expect(pool.problems.find((p) => p.code === 'mounted-twice-/var/cpaas')).toMatchObject({
      rule: 'R-TPL-2',
      severity: 'error',
      params: { count: 3 },
    });
  });

  it('R-MD-3: maxSurge > 0 on a pool relying on persistent disks is a warning', () => {
    const f = healthyWorkerPool({ maxSurge: 1, maxUnavailable: 0, entries: 4 });
    expect(workerPool(f).pool.problems).toContainEqual(
      expect.objectContaining({
        code: 'surge-with-persistent-disks',
        rule: 'R-MD-3',
        params: { maxSurge: 1 },
      }),
    );
    const noDisks = healthyWorkerPool({ maxSurge: 1, maxUnavailable: 0, entries: 4 });
    for (const e of noDisks.objects.ipPools[0]?.spec?.pool ?? []) delete e.persistentDisk;
    expect(workerPool(noDisks).pool.problems.map((p) => p.code)).not.toContain(
      'surge-with-persistent-disks',
    );
    expect(workerPool(healthyWorkerPool()).pool.problems).toEqual([]);
  });

  it('R-MD-2: an invalid strategy is reported, never thrown', () => {
    const f = healthyWorkerPool();
    if (f.md.spec)
      f.md.spec.strategy = {
        type: 'RollingUpdate',
        rollingUpdate: { maxSurge: '1', maxUnavailable: 0 },
      };
    const { pool } = workerPool(f);
    expect(pool.strategy).toEqual({ type: 'RollingUpdate', maxSurge: '1', maxUnavailable: 0 });
    expect(pool.problems).toContainEqual(
      expect.objectContaining({ code: 'invalid-strategy', rule: 'R-MD-2' }),
    );
  });

  it('R-MD-4: newer than the control plane, and a VM template that carries another version', () => {
    const f = healthyWorkerPool();
    if (f.md.spec) f.md.spec.template.spec.version = 'v1.34.1';
    const codes = workerPool(f).pool.problems.map((p) => p.code);
    expect(codes).toContain('newer-than-control-plane');
    expect(codes).toContain('vm-template-version-mismatch');
  });

  it('missing machine and bootstrap templates are errors, not crashes', () => {
    const f = healthyWorkerPool();
    f.objects.machineTemplates.length = 0;
    f.objects.bootstrapTemplates.length = 0;
    const { pool } = workerPool(f);
    expect(pool.machineTemplate).toEqual({ name: 'demo-md-0-template', found: false, disks: [] });
    expect(pool.problems.map((p) => p.code)).toEqual(
      expect.arrayContaining(['machine-template-missing', 'bootstrap-template-missing']),
    );
  });

  it('U-6: conditions False with severity Error/Warning become problems; Ready is not repeated', () => {
    const f = healthyWorkerPool();
    if (f.md.status)
      f.md.status.conditions = [
        {
          type: 'Ready',
          status: 'False',
          severity: 'Warning',
          reason: 'WaitingForAvailableMachines',
          lastTransitionTime: recently,
        },
        {
          type: 'Available',
          status: 'False',
          severity: 'Warning',
          reason: 'WaitingForAvailableMachines',
          message: '2 of 3 available',
          lastTransitionTime: recently,
        },
        { type: 'MachineSetReady', status: 'False', severity: 'Info', reason: 'Scaling' },
      ];
    const { pool } = workerPool(f);
    expect(pool.problems).toEqual([
      expect.objectContaining({
        code: 'condition-Available',
        severity: 'warning',
        message: 'Available is False (WaitingForAvailableMachines): 2 of 3 available',
      }),
    ]);
    if (f.md.status) {
      f.md.status.conditions = [
        { type: 'MachineSetReady', status: 'False', severity: 'Error', reason: 'ScalingFailed' },
      ];
    }
    const failing = workerPool(f).pool;
    expect(failing.problems[0]?.message).toBe('MachineSetReady is False (ScalingFailed).');
    // An Error condition on the owner makes the pool Degraded, even with every machine ready.
    expect(failing.status).toBe('Degraded');
    expect(pool.conditions.map((c) => [c.type, c.problem])).toEqual([
      ['Ready', true],
      ['Available', true],
      ['MachineSetReady', false],
    ]);
  });

  it('mid-update view: old and new sets, updated count, surge and unavailability', () => {
    const f = healthyWorkerPool();
    if (f.md.spec) f.md.spec.template.spec.infrastructureRef.name = 'demo-md-0-template-2';
    const old = f.objects.machineSets[0];
    if (old?.spec) old.spec.replicas = 2;
    f.objects.machineSets.push(
      aMachineSet({
        metadata: {
          name: 'demo-md-0-def34',
          labels: { [LABEL_DEPLOYMENT_NAME]: 'demo-md-0' },
          annotations: { [ANNOTATION_REVISION]: '2' },
        },
        spec: {
          replicas: 1,
          template: { spec: { infrastructureRef: { name: 'demo-md-0-template-2' } } },
        },
      }),
    );
    replaceMachine(
      f,
      2,
      provisioning(worker('demo-md-0-def34-n1', { set: 'demo-md-0-def34', entry: 3 }), {
        since: recently,
      }),
    );
    const { pool, machines } = workerPool(f);
    expect(pool.status).toBe('Updating');
    expect(pool.replicas).toEqual({
      desired: 3,
      current: 3,
      ready: 2,
      updated: 1,
      available: 2,
      unavailable: 1,
    });
    expect(pool.rollout).toMatchObject({
      inProgress: true,
      newMachineSet: { name: 'demo-md-0-def34' },
      oldMachineSets: [{ name: 'demo-md-0-abc12', current: 2 }],
      surge: { inUse: 0, allowed: 0 },
      unavailable: { inUse: 1, allowed: 1 },
    });
    expect(machines.filter((m) => m.upToDate).map((m) => m.name)).toEqual(['demo-md-0-def34-n1']);
  });
});

describe('control-plane pool view', () => {
  function cpPool(
    version = 'v1.33.4',
    mutate?: (cp: ReturnType<typeof healthyControlPlane>) => void,
  ) {
    const cp = healthyControlPlane('demo', version);
    mutate?.(cp);
    return buildControlPlanePool(
      {
        controlPlane: cp.kcp,
        machines: cp.pairs.map((p) => p.machine),
        dcsMachines: cp.pairs.map((p) => p.dcsMachine),
        machineTemplate: cp.template,
      },
      baseCtx,
    );
  }

  it('U-2: id control-plane, 3 replicas, its version and the newest catalog version to upgrade to', () => {
    const { pool, machines } = cpPool();
    expect(pool).toMatchObject({
      id: 'control-plane',
      kind: 'control-plane',
      name: 'demo-control-plane',
      cluster: 'demo',
      replicas: { desired: 3, current: 3, ready: 3, updated: 3, available: 3, unavailable: 0 },
      version: 'v1.33.4',
      upgradeAvailable: 'v1.35.0',
      machineTemplate: {
        name: 'demo-control-plane-template',
        vmTemplateName: 'alauda-os-k8s-v1.33.4',
      },
      status: 'Running',
      problems: [],
      resourceVersions: { kcp: '1', template: '1' },
      strategy: {
        type: 'RollingUpdate',
        maxSurge: 1,
        maxUnavailable: 0,
        resolved: { maxSurge: 1, maxUnavailable: 0 },
      },
    });
    expect(pool.conditions.map((c) => c.type)).toEqual(['Ready', 'Available']);
    expect(machines.every((m) => m.poolId === 'control-plane' && m.upToDate === true)).toBe(true);
    expect(cpPool('v1.35.0').pool.upgradeAvailable).toBeUndefined();
  });

  it('T-1: a stuck control-plane machine is diagnosed the same way', () => {
    const { pool, machines } = cpPool('v1.33.4', (cp) => {
      const first = cp.pairs[0];
      if (first) provisioning(first, { since: longAgo });
    });
    expect(pool.status).toBe('Degraded');
    expect(pool.badges.stuckMachines).toBe(1);
    expect(machines[0]?.diagnosis?.code).toBe('placement-stall');
  });

  it('O-UPGRADE-CP: Updating while machines of the old version remain', () => {
    const { pool } = cpPool('v1.33.4', (cp) => {
      if (cp.kcp.spec) cp.kcp.spec.version = 'v1.34.1';
      if (cp.template.spec) cp.template.spec.template.spec.vmTemplateName = 'alauda-os-k8s-v1.34.1';
    });
    expect(pool.status).toBe('Updating');
    expect(pool.rollout).toMatchObject({ inProgress: true, updated: 0 });
  });

  it('U-2: a control plane patched to an even replica count is flagged; another odd count is warned', () => {
    const withReplicas = (n: number | undefined) =>
      cpPool('v1.33.4', (cp) => {
        if (cp.kcp.spec) cp.kcp.spec.replicas = n;
      }).pool.problems;
    const even = withReplicas(4).find((p) => p.code === 'control-plane-replicas-even');
    expect(even).toMatchObject({ severity: 'error', rule: 'U-2' });
    expect(even?.message).toMatch(/^The control plane has 4 replicas: an even number/);
    expect(withReplicas(5)).toContainEqual(
      expect.objectContaining({ code: 'control-plane-replicas-not-ha', severity: 'warning' }),
    );
    // Unset is Cluster API's default of 1: one machine, no high availability.
    expect(
      withReplicas(undefined).find((p) => p.code === 'control-plane-replicas-not-ha')?.message,
    ).toMatch(/^The control plane has 1 replica;/);
    expect(withReplicas(3)).toEqual([]);
  });

  it('never Running with a machine not Ready (honest status)', () => {
    const { pool } = cpPool('v1.33.4', (cp) => {
      const s = cp.pairs[2]?.machine.status;
      if (s) delete s.nodeRef;
    });
    expect(pool.status).not.toBe('Running');
    expect(pool.replicas.ready).toBe(2);
  });
});
