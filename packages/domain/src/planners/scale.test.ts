import { describe, expect, it } from 'vitest';
import type { DeleteMachinesRequest, ScaleReplicasRequest } from '../requests';
import type { Machine } from '../schemas/capi';
import { anIpEntry, anIpPool, aMachine, aMachineDeployment, aValidationContext } from '../testing';
import { applyJsonPatch, type JsonPatchOp } from './json-patch';
import { applyStep, applySteps, StepError } from './objects';
import { canExecute, type PatchStep, type Plan } from './plan';
import { planDeleteMachines, planScale, planScaleReplicas } from './scale';

const ctx = aValidationContext();
const md = () => aMachineDeployment({ metadata: { resourceVersion: '10' } });
const machine = (n: number, o: Parameters<typeof aMachine>[0] = {}): Machine =>
  aMachine({
    ...o,
    metadata: { name: `demo-md-0-abc12-m${n}`, resourceVersion: String(20 + n), ...o.metadata },
  });
const machines = () => [machine(1), machine(2), machine(3)];

const jsonOps = (plan: Plan, i: number): JsonPatchOp[] => {
  const step = plan.steps[i];
  return step?.verb === 'patch' && step.patch.type === 'json' ? step.patch.ops : [];
};

describe('planScaleReplicas', () => {
  const up = (o: Partial<ScaleReplicasRequest> = {}): ScaleReplicasRequest => ({
    replicas: 5,
    resourceVersion: '10',
    ipPoolAppend: {
      name: 'demo-worker-pool',
      resourceVersion: '1',
      entries: [anIpEntry(4), anIpEntry(5)],
    },
    ...o,
  });

  it('O-SCALE-UP: extends the IP pool first (R-POOL-4), then raises replicas behind tests of resourceVersion and count', () => {
    const ipPool = anIpPool();
    const plan = planScaleReplicas(up(), { machineDeployment: md(), ipPool }, ctx);
    expect(plan.operation).toBe('O-SCALE-UP');
    expect(plan.steps.map((s) => [s.verb, s.kind, s.name])).toEqual([
      ['patch', 'DCSIpHostnamePool', 'demo-worker-pool'],
      ['patch', 'MachineDeployment', 'demo-md-0'],
    ]);
    expect(jsonOps(plan, 0)).toEqual([
      { op: 'test', path: '/metadata/resourceVersion', value: '1' },
      { op: 'add', path: '/spec/pool/-', value: anIpEntry(4) },
      { op: 'add', path: '/spec/pool/-', value: anIpEntry(5) },
    ]);
    expect(jsonOps(plan, 1)).toEqual([
      { op: 'test', path: '/metadata/resourceVersion', value: '10' },
      { op: 'test', path: '/spec/replicas', value: 3 },
      { op: 'replace', path: '/spec/replicas', value: 5 },
    ]);
    const scale = plan.steps[1] as PatchStep;
    expect(scale.precondition?.resourceVersion).toBe('10');
    expect(scale.undo?.patch).toEqual({
      type: 'json',
      ops: [
        { op: 'test', path: '/spec/replicas', value: 5 },
        { op: 'replace', path: '/spec/replicas', value: 3 },
      ],
    });
    expect(scale.description.message).toBe('Change the replicas of demo-md-0 from 3 to 5');
    expect(plan.kubectl[1]).toBe(
      `kubectl patch machinedeployment demo-md-0 -n cpaas-system --type json -p '[{"op":"test","path":"/metadata/resourceVersion","value":"10"},{"op":"test","path":"/spec/replicas","value":3},{"op":"replace","path":"/spec/replicas","value":5}]'`,
    );
    expect(plan.effects.replicas).toEqual({ from: 3, to: 5 });
    expect(plan.issues.filter((i) => i.severity === 'error')).toEqual([]);
    expect(canExecute(plan)).toBe(true);
    const after = applySteps([ipPool, md()], plan.steps);
    expect(
      after.map((o) => [
        o.kind,
        (o.spec as { pool?: unknown[]; replicas?: number }).pool?.length ??
          (o.spec as { replicas?: number }).replicas,
      ]),
    ).toEqual([
      ['DCSIpHostnamePool', 5],
      ['MachineDeployment', 5],
    ]);
  });

  it('R-MD-1: O-SCALE-UP beyond the free entries without extending the pool is refused by the rules', () => {
    const plan = planScaleReplicas(
      up({ ipPoolAppend: undefined }),
      { machineDeployment: md() },
      ctx,
    );
    expect(plan.steps.map((s) => s.kind)).toEqual(['MachineDeployment']);
    expect(plan.issues.some((i) => i.severity === 'error' && i.path === 'replicas')).toBe(true);
    expect(canExecute(plan)).toBe(false);
  });

  it('R-POOL-1: O-SCALE-UP may only extend the pool the machine template takes addresses from', () => {
    const other = anIpPool({ metadata: { name: 'other-pool' } });
    const plan = planScaleReplicas(
      up({ ipPoolAppend: { name: 'other-pool', resourceVersion: '1', entries: [anIpEntry(4)] } }),
      { machineDeployment: md(), ipPool: other },
      ctx,
    );
    expect(plan.issues).toContainEqual(
      expect.objectContaining({ rule: 'R-POOL-1', severity: 'error', path: 'ipPoolAppend.name' }),
    );
  });

  it('O-SCALE-DOWN-RANDOM: only the replicas patch; Cluster API picks the machines', () => {
    const plan = planScaleReplicas(
      { replicas: 1, resourceVersion: '10' },
      { machineDeployment: md() },
      ctx,
    );
    expect(plan.operation).toBe('O-SCALE-DOWN-RANDOM');
    expect(plan.steps.map((s) => [s.verb, s.kind, s.name])).toEqual([
      ['patch', 'MachineDeployment', 'demo-md-0'],
    ]);
    expect(jsonOps(plan, 0)).toEqual([
      { op: 'test', path: '/metadata/resourceVersion', value: '10' },
      { op: 'test', path: '/spec/replicas', value: 3 },
      { op: 'replace', path: '/spec/replicas', value: 1 },
    ]);
    expect(plan.effects.notes?.[0]?.message).toBe(
      'Cluster API picks 2 machines of demo-md-0, drains them and deletes their VMs',
    );
    expect(plan.diffs).toEqual([
      expect.objectContaining({
        kind: 'MachineDeployment',
        change: 'update',
        changes: [{ path: '/spec/replicas', change: 'replace', before: 3, after: 1 }],
      }),
    ]);
  });

  it('O-SCALE-UP: a MachineDeployment changed since the user saw it is an error, and the test op fails', () => {
    const plan = planScaleReplicas(
      { replicas: 4, resourceVersion: '9' },
      { machineDeployment: md() },
      ctx,
    );
    expect(plan.issues).toContainEqual(
      expect.objectContaining({ rule: 'R-PLAN-STALE', severity: 'error', path: 'resourceVersion' }),
    );
    expect(() => applyJsonPatch(md(), jsonOps(plan, 0))).toThrow(/expected "9", found "10"/);
  });

  it('O-SCALE-UP: an unset spec.replicas (Cluster API defaults it to 1) is added, not replaced', () => {
    const unset = md();
    delete unset.spec?.replicas;
    const plan = planScaleReplicas(
      { replicas: 1, resourceVersion: '10' },
      { machineDeployment: unset },
      ctx,
    );
    expect(jsonOps(plan, 0).slice(1)).toEqual([{ op: 'add', path: '/spec/replicas', value: 1 }]);
  });
});

describe('planDeleteMachines', () => {
  const targeted = (o: Partial<DeleteMachinesRequest> = {}): DeleteMachinesRequest => ({
    deleteMachines: ['demo-md-0-abc12-m1', 'demo-md-0-abc12-m3'],
    resourceVersion: '10',
    machineResourceVersions: { 'demo-md-0-abc12-m1': '21', 'demo-md-0-abc12-m3': '23' },
    ...o,
  });
  const current = () => ({
    machineDeployment: md(),
    machines: [
      ...machines(),
      aMachine({
        metadata: { name: 'other-md-x', labels: { 'cluster.x-k8s.io/deployment-name': 'other' } },
      }),
    ],
  });

  it('O-SCALE-DOWN-TARGETED: marks exactly the chosen machines, then lowers replicas by exactly their number', () => {
    const plan = planDeleteMachines(targeted(), current(), ctx);
    expect(plan.operation).toBe('O-SCALE-DOWN-TARGETED');
    expect(plan.steps.map((s) => [s.verb, s.kind, s.name])).toEqual([
      ['patch', 'Machine', 'demo-md-0-abc12-m1'],
      ['patch', 'Machine', 'demo-md-0-abc12-m3'],
      ['patch', 'MachineDeployment', 'demo-md-0'],
    ]);
    const mark = plan.steps[0] as PatchStep;
    expect(mark.patch).toEqual({
      type: 'merge',
      doc: {
        metadata: {
          resourceVersion: '21',
          annotations: { 'cluster.x-k8s.io/delete-machine': 'true' },
        },
      },
    });
    expect(mark.precondition).toEqual({ resourceVersion: '21' });
    expect(jsonOps(plan, 2)).toEqual([
      { op: 'test', path: '/metadata/resourceVersion', value: '10' },
      { op: 'test', path: '/spec/replicas', value: 3 },
      { op: 'replace', path: '/spec/replicas', value: 1 },
    ]);
    expect(plan.steps[2]?.description.message).toBe(
      'Lower the replicas of demo-md-0 from 3 to 1, exactly the 2 marked machines',
    );
    expect(plan.effects).toEqual({
      machinesDeleted: ['demo-md-0-abc12-m1', 'demo-md-0-abc12-m3'],
      replicas: { from: 3, to: 1 },
    });
    expect(plan.kubectl.slice(0, 2)).toEqual([
      `kubectl patch machine demo-md-0-abc12-m1 -n cpaas-system --type merge -p '{"metadata":{"resourceVersion":"21","annotations":{"cluster.x-k8s.io/delete-machine":"true"}}}'`,
      `kubectl patch machine demo-md-0-abc12-m3 -n cpaas-system --type merge -p '{"metadata":{"resourceVersion":"23","annotations":{"cluster.x-k8s.io/delete-machine":"true"}}}'`,
    ]);
    expect(plan.issues).toEqual([]);
  });

  it('R-MD-6: the undo of a mark removes the annotation again', () => {
    const plan = planDeleteMachines(targeted(), current(), ctx);
    const mark = plan.steps[0] as PatchStep;
    expect(mark.undo?.patch).toEqual({
      type: 'json',
      ops: [
        {
          op: 'test',
          path: '/metadata/annotations/cluster.x-k8s.io~1delete-machine',
          value: 'true',
        },
        { op: 'remove', path: '/metadata/annotations/cluster.x-k8s.io~1delete-machine' },
      ],
    });
    const marked = applyStep(machine(1), mark);
    expect(marked?.metadata.annotations).toEqual({ 'cluster.x-k8s.io/delete-machine': 'true' });
    const undone = marked && mark.undo ? applyStep(marked, mark.undo) : undefined;
    expect(undone?.metadata.annotations).toEqual({});
  });

  it('R-MD-6: a machine that was already marked keeps its mark on rollback', () => {
    const already = machine(1, {
      metadata: { annotations: { 'cluster.x-k8s.io/delete-machine': 'true' } },
    });
    const plan = planDeleteMachines(
      targeted(),
      { ...current(), machines: [already, machine(2), machine(3)] },
      ctx,
    );
    expect((plan.steps[0] as PatchStep).undo).toBeUndefined();
    expect((plan.steps[1] as PatchStep).undo).toBeDefined();
  });

  it('R-MD-6: a machine changed since the user saw it fails its precondition and the plan says so', () => {
    const plan = planDeleteMachines(
      targeted({
        machineResourceVersions: { 'demo-md-0-abc12-m1': '20', 'demo-md-0-abc12-m3': '23' },
      }),
      current(),
      ctx,
    );
    expect(plan.issues).toContainEqual(
      expect.objectContaining({
        rule: 'R-PLAN-STALE',
        severity: 'error',
        path: 'machineResourceVersions.demo-md-0-abc12-m1',
      }),
    );
    expect(() => applyStep(machine(1), plan.steps[0] as PatchStep)).toThrow(StepError);
  });

  it('R-MD-6: machines of another pool, or without their resourceVersion, are refused and never marked', () => {
    const plan = planDeleteMachines(
      targeted({
        deleteMachines: ['other-md-x', 'demo-md-0-abc12-m2'],
        machineResourceVersions: { 'other-md-x': '1' },
      }),
      current(),
      ctx,
    );
    expect(plan.steps.map((s) => s.kind)).toEqual(['MachineDeployment']);
    expect(
      plan.issues.filter((i) => i.rule === 'R-MD-6' && i.severity === 'error').length,
    ).toBeGreaterThanOrEqual(2);
    expect(canExecute(plan)).toBe(false);
  });

  it('O-SCALE-DOWN-TARGETED: the preview shows each mark and the replica change', () => {
    const plan = planDeleteMachines(targeted(), current(), ctx);
    expect(
      plan.diffs.map((d) => [d.kind, d.name, d.changes.map((c) => `${c.change} ${c.path}`)]),
    ).toEqual([
      ['Machine', 'demo-md-0-abc12-m1', ['add /metadata/annotations']],
      ['Machine', 'demo-md-0-abc12-m3', ['add /metadata/annotations']],
      ['MachineDeployment', 'demo-md-0', ['replace /spec/replicas']],
    ]);
  });

  it('planScale picks the operation from the request', () => {
    expect(planScale(targeted(), current(), ctx).operation).toBe('O-SCALE-DOWN-TARGETED');
    expect(planScale({ replicas: 2, resourceVersion: '10' }, current(), ctx).operation).toBe(
      'O-SCALE-DOWN-RANDOM',
    );
  });
});
