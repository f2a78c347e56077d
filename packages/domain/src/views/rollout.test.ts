import { describe, expect, it } from 'vitest';
import { ANNOTATION_REVISION, LABEL_DEPLOYMENT_NAME } from '../labels';
import type { MachineDeployment, MachineSet } from '../schemas/capi';
import { aMachineSet } from '../testing';
import { healthyControlPlane, healthyWorkerPool, NOW, provisioning, worker } from './fixtures';
import { controlPlaneRolloutView, findNewMachineSet, rolloutView } from './rollout';

/** O-UPGRADE-INFRA: the MachineDeployment now points at a new machine template. */
function switchTemplate(md: MachineDeployment, template = 'demo-md-0-template-2') {
  if (md.spec) md.spec.template.spec.infrastructureRef.name = template;
}

function newSet(replicas: number, template = 'demo-md-0-template-2'): MachineSet {
  return aMachineSet({
    metadata: {
      name: 'demo-md-0-def34',
      labels: { [LABEL_DEPLOYMENT_NAME]: 'demo-md-0' },
      annotations: { [ANNOTATION_REVISION]: '2' },
      creationTimestamp: '2026-01-01T00:50:00Z',
    },
    spec: { replicas, template: { spec: { infrastructureRef: { name: template } } } },
  });
}

describe('rolloutView', () => {
  it('a pool at rest: one current set, nothing in progress, progress 1', () => {
    const { md, ms, pairs } = healthyWorkerPool();
    const r = rolloutView(
      md,
      [ms],
      pairs.map((p) => p.machine),
      NOW,
    );
    expect(r).toEqual({
      strategyType: 'RollingUpdate',
      newMachineSet: {
        name: 'demo-md-0-abc12',
        replicas: 3,
        current: 3,
        ready: 3,
        available: 3,
        revision: '1',
        version: 'v1.33.4',
        createdAt: '2026-01-01T00:00:00Z',
        infrastructureTemplate: 'demo-md-0-template',
        bootstrapTemplate: 'demo-md-0-kct',
      },
      oldMachineSets: [],
      inProgress: false,
      desired: 3,
      updated: 3,
      updatedReady: 3,
      progress: 1,
      surge: { inUse: 0, allowed: 0 },
      unavailable: { inUse: 0, allowed: 1 },
    });
  });

  it('mid-update with maxSurge 0: one old machine gone, its replacement provisioning', () => {
    const { md, ms, pairs } = healthyWorkerPool();
    switchTemplate(md);
    if (ms.spec) ms.spec.replicas = 2;
    const replacement = provisioning(
      worker('demo-md-0-def34-n1', { set: 'demo-md-0-def34', entry: 3 }),
    );
    const machines = [pairs[0], pairs[1], replacement].flatMap((p) => (p ? [p.machine] : []));
    const r = rolloutView(md, [ms, newSet(1)], machines, NOW);
    expect(r.newMachineSet).toMatchObject({
      name: 'demo-md-0-def34',
      replicas: 1,
      current: 1,
      ready: 0,
    });
    expect(r.oldMachineSets).toMatchObject([
      { name: 'demo-md-0-abc12', replicas: 2, current: 2, ready: 2 },
    ]);
    expect(r).toMatchObject({
      inProgress: true,
      desired: 3,
      updated: 1,
      updatedReady: 0,
      surge: { inUse: 0, allowed: 0 },
      unavailable: { inUse: 1, allowed: 1 },
    });
    expect(r.progress).toBeCloseTo(1 / 3);
  });

  it('mid-update with maxSurge 1: the surge in use is the extra machine', () => {
    const { md, ms, pairs } = healthyWorkerPool({ maxSurge: 1, maxUnavailable: 0, entries: 4 });
    switchTemplate(md);
    const surge = provisioning(worker('demo-md-0-def34-n1', { set: 'demo-md-0-def34', entry: 4 }));
    const r = rolloutView(
      md,
      [ms, newSet(1)],
      [...pairs.map((p) => p.machine), surge.machine],
      NOW,
    );
    expect(r).toMatchObject({
      inProgress: true,
      surge: { inUse: 1, allowed: 1 },
      unavailable: { inUse: 0, allowed: 0 },
    });
  });

  it('the new set is the one matching template, bootstrap and version; not yet created = in progress', () => {
    const { md, ms, pairs } = healthyWorkerPool();
    expect(findNewMachineSet(md, [ms])).toBe(ms);
    if (md.spec) md.spec.template.spec.version = 'v1.34.1';
    expect(findNewMachineSet(md, [ms])).toBeUndefined();
    const r = rolloutView(
      md,
      [ms],
      pairs.map((p) => p.machine),
      NOW,
    );
    expect(r).toMatchObject({ inProgress: true, updated: 0, progress: 0 });
    expect(r.newMachineSet).toBeUndefined();
    expect(r.oldMachineSets.map((s) => s.name)).toEqual(['demo-md-0-abc12']);
  });

  it('done: old sets scaled to zero and empty', () => {
    const { md, ms } = healthyWorkerPool();
    switchTemplate(md);
    if (ms.spec) ms.spec.replicas = 0;
    const fresh = [1, 2, 3].map(
      (n) => worker(`demo-md-0-def34-n${String(n)}`, { set: 'demo-md-0-def34', entry: n }).machine,
    );
    const r = rolloutView(md, [ms, newSet(3)], fresh, NOW);
    expect(r).toMatchObject({ inProgress: false, updated: 3, updatedReady: 3, progress: 1 });
  });

  it('keeps the rollout in progress while the last replacement is still provisioning', () => {
    const { md, ms } = healthyWorkerPool();
    switchTemplate(md);
    if (ms.spec) ms.spec.replicas = 0;
    const fresh = [1, 2, 3].map(
      (n) => worker(`demo-md-0-def34-n${String(n)}`, { set: 'demo-md-0-def34', entry: n }).machine,
    );
    const last = provisioning(worker('demo-md-0-def34-n3', { set: 'demo-md-0-def34', entry: 3 }));
    fresh[2] = last.machine;
    const r = rolloutView(md, [ms, newSet(3)], fresh, NOW);
    expect(r).toMatchObject({ inProgress: true, updated: 3, updatedReady: 2, progress: 1 });
    // Each set says what it is built from, so old and new can be told apart on screen.
    expect(r.newMachineSet).toMatchObject({
      name: 'demo-md-0-def34',
      replicas: 3,
      current: 3,
      ready: 2,
      infrastructureTemplate: 'demo-md-0-template-2',
    });
    expect(r.oldMachineSets).toMatchObject([
      {
        name: 'demo-md-0-abc12',
        replicas: 0,
        current: 0,
        infrastructureTemplate: 'demo-md-0-template',
      },
    ]);
  });

  it('a scale-up of a pool that never rolled is no rollout, even while machines provision', () => {
    const { md, ms, pairs } = healthyWorkerPool();
    const extra = provisioning(worker('demo-md-0-abc12-n4', { entry: 4 }));
    if (md.spec) md.spec.replicas = 4;
    if (ms.spec) ms.spec.replicas = 4;
    const r = rolloutView(md, [ms], [...pairs.map((p) => p.machine), extra.machine], NOW);
    expect(r.inProgress).toBe(false);
  });

  it("carries each MachineSet's conditions, problems first", () => {
    const { md, ms, pairs } = healthyWorkerPool();
    ms.status = {
      ...ms.status,
      conditions: [
        { type: 'Ready', status: 'True' },
        { type: 'MachinesReady', status: 'False', severity: 'Warning', reason: 'Draining' },
      ],
    };
    const r = rolloutView(
      md,
      [ms],
      pairs.map((p) => p.machine),
      NOW,
    );
    expect(r.newMachineSet?.conditions?.map((c) => [c.type, c.problem])).toEqual([
      ['MachinesReady', true],
      ['Ready', false],
    ]);
  });

  it('OnDelete: no surge or unavailability allowance applies', () => {
    const { md, ms, pairs } = healthyWorkerPool();
    if (md.spec) md.spec.strategy = { type: 'OnDelete' };
    const r = rolloutView(
      md,
      [ms],
      pairs.map((p) => p.machine),
      NOW,
    );
    expect(r.strategyType).toBe('OnDelete');
    expect(r.surge).toEqual({ inUse: 0 });
    expect(r.unavailable).toEqual({ inUse: 0 });
  });

  it('percentages resolve as Cluster API does (R-MD-2 fence posts)', () => {
    const { md, ms, pairs } = healthyWorkerPool({ maxSurge: '0%', maxUnavailable: '0%' });
    const r = rolloutView(
      md,
      [ms],
      pairs.map((p) => p.machine),
      NOW,
    );
    expect(r.surge.allowed).toBe(0);
    expect(r.unavailable.allowed).toBe(1);
  });
});

describe('controlPlaneRolloutView', () => {
  it('O-UPGRADE-CP: machines at the old version are outdated; one at a time with maxSurge 1', () => {
    const { kcp, pairs } = healthyControlPlane();
    if (kcp.spec) kcp.spec.version = 'v1.34.1';
    const first = pairs[0];
    if (first?.machine.spec) first.machine.spec.version = 'v1.34.1';
    const r = controlPlaneRolloutView(
      kcp,
      pairs.map((p) => p.machine),
      () => undefined,
      NOW,
    );
    expect(r).toMatchObject({
      strategyType: 'RollingUpdate',
      oldMachineSets: [],
      inProgress: true,
      desired: 3,
      updated: 1,
      updatedReady: 1,
      surge: { inUse: 0, allowed: 1 },
      unavailable: { inUse: 0, allowed: 0 },
    });
  });

  it('O-UPGRADE-CP: in progress until the last replacement is up, as KubeadmControlPlane says', () => {
    const { kcp, pairs } = healthyControlPlane();
    if (kcp.spec) kcp.spec.version = 'v1.34.1';
    for (const p of pairs) if (p.machine.spec) p.machine.spec.version = 'v1.34.1';
    const last = pairs[2];
    if (last) provisioning(last);
    kcp.status = {
      ...kcp.status,
      conditions: [
        {
          type: 'MachinesSpecUpToDate',
          status: 'False',
          severity: 'Warning',
          reason: 'RollingUpdateInProgress',
        },
      ],
    };
    const machines = pairs.map((p) => p.machine);
    expect(controlPlaneRolloutView(kcp, machines, () => undefined, NOW)).toMatchObject({
      inProgress: true,
      updated: 3,
      updatedReady: 2,
    });
    kcp.status.conditions = [{ type: 'MachinesSpecUpToDate', status: 'True' }];
    expect(controlPlaneRolloutView(kcp, machines, () => undefined, NOW).inProgress).toBe(false);
  });

  it('a machine cloned from another template is outdated too', () => {
    const { kcp, pairs } = healthyControlPlane();
    const dcs = new Map(pairs.map((p) => [p.machine, p.dcsMachine]));
    const first = pairs[0];
    if (first)
      first.dcsMachine.metadata.annotations = {
        'cluster.x-k8s.io/cloned-from-name': 'old-template',
      };
    const r = controlPlaneRolloutView(
      kcp,
      pairs.map((p) => p.machine),
      (m) => dcs.get(m),
      NOW,
    );
    expect(r).toMatchObject({ inProgress: true, updated: 2 });
  });
});

describe('O-RESTART in the rollout views (rolloutAfter, as upstream expires it)', () => {
  it('a worker pool restarted: the set older than rolloutAfter is old though its template is current; until the new set exists the rollout is in progress', () => {
    const { md, ms, pairs } = healthyWorkerPool();
    const machines = pairs.map((p) => p.machine);
    if (md.spec) md.spec.rolloutAfter = '2026-01-01T00:40:00Z';
    // Before the time (a scheduled restart), nothing changes.
    expect(findNewMachineSet(md, [ms], new Date('2026-01-01T00:30:00Z'))).toBe(ms);
    // Once it has passed, the set is not current: Cluster API creates a new one.
    expect(findNewMachineSet(md, [ms], NOW)).toBeUndefined();
    expect(rolloutView(md, [ms], machines, NOW)).toMatchObject({ inProgress: true, updated: 0 });
    // The new set, of the same template, created after the time: it is the new one.
    const fresh = newSet(1, 'demo-md-0-template');
    expect(findNewMachineSet(md, [ms, fresh], NOW)).toBe(fresh);
    const r = rolloutView(md, [ms, fresh], machines, NOW);
    expect(r.newMachineSet?.name).toBe('demo-md-0-def34');
    expect(r.oldMachineSets.map((s) => s.name)).toEqual(['demo-md-0-abc12']);
    expect(r.inProgress).toBe(true);
    // Without a time (callers that do not pass one), the template alone decides, as before.
    expect(findNewMachineSet(md, [ms, fresh])).toBe(ms);
    // Once the restart is done (the old set at 0), a later restart scheduled for the future keeps
    // the restart's set as the new one: the one with more replicas, not the older one.
    if (ms.spec) ms.spec.replicas = 0;
    if (fresh.spec) fresh.spec.replicas = 3;
    if (md.spec) md.spec.rolloutAfter = '2026-01-01T05:00:00Z';
    expect(findNewMachineSet(md, [ms, fresh], NOW)).toBe(fresh);
  });

  it('the control plane restarted: machines created before a passed rolloutAfter are outdated, those after are current', () => {
    const { kcp, pairs } = healthyControlPlane();
    const machines = pairs.map((p) => p.machine);
    if (kcp.spec) kcp.spec.rolloutAfter = '2026-01-01T00:40:00Z';
    const last = machines[2];
    if (last) last.metadata.creationTimestamp = '2026-01-01T00:45:00Z';
    expect(controlPlaneRolloutView(kcp, machines, () => undefined, NOW)).toMatchObject({
      inProgress: true,
      updated: 1,
    });
    // Scheduled for later: nothing is outdated yet.
    if (kcp.spec) kcp.spec.rolloutAfter = '2026-01-01T02:00:00Z';
    expect(controlPlaneRolloutView(kcp, machines, () => undefined, NOW)).toMatchObject({
      inProgress: false,
      updated: 3,
    });
  });
});
