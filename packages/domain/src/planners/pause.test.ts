import { describe, expect, it } from 'vitest';
import { ANNOTATION_PAUSED } from '../labels';
import { PauseRequestSchema, requestIssues } from '../requests';
import { aCluster, aKubeadmControlPlane, aMachineDeployment, aValidationContext } from '../testing';
import type { JsonPatchOp } from './json-patch';
import { applyStep } from './objects';
import { canExecute, type Plan } from './plan';
import { planPause, withPauseWarnings } from './pause';
import { planScale } from './scale';

const ctx = aValidationContext();
const ops = (plan: Plan): JsonPatchOp[] => {
  const s = plan.steps[0];
  return s?.verb === 'patch' && s.patch.type === 'json' ? s.patch.ops : [];
};
const notes = (plan: Plan) => (plan.effects.notes ?? []).map((n) => n.messageKey);
const rules = (plan: Plan) => plan.issues.map((i) => `${i.rule} ${i.severity}`);

describe('planPause (O-PAUSE / O-RESUME)', () => {
  it('O-PAUSE of a cluster: one JSON patch that tests the resourceVersion and adds spec.paused true; its undo removes it', () => {
    const cluster = aCluster();
    const plan = planPause({ resourceVersion: '1', paused: true }, { target: cluster }, ctx);
    expect(plan.operation).toBe('O-PAUSE');
    expect(plan.target).toEqual({ kind: 'Cluster', name: 'demo' });
    expect(ops(plan)).toEqual([
      { op: 'test', path: '/metadata/resourceVersion', value: '1' },
      { op: 'add', path: '/spec/paused', value: true },
    ]);
    expect(canExecute(plan)).toBe(true);
    const step = plan.steps[0];
    if (step?.verb !== 'patch') throw new Error('a patch');
    const after = applyStep(cluster, step);
    expect((after as typeof cluster).spec?.paused).toBe(true);
    expect(step.undo && (applyStep(after, step.undo) as typeof cluster).spec).not.toHaveProperty(
      'paused',
    );
    expect(plan.kubectl[0]).toContain('kubectl patch cluster demo');
    expect(plan.diffs[0]?.changes).toEqual([
      expect.objectContaining({ path: '/spec/paused', after: true }),
    ]);
  });

  it('O-PAUSE of a cluster says what stops, and which pool stops midway through its change', () => {
    const scaling = aMachineDeployment({ spec: { replicas: 5 } });
    const steady = aMachineDeployment({ metadata: { name: 'demo-md-1' } });
    const plan = planPause(
      { resourceVersion: '1', paused: true },
      { target: aCluster(), pools: [aKubeadmControlPlane(), scaling, steady] },
      ctx,
    );
    expect(notes(plan)).toEqual(['plan.effect.pauseCluster', 'plan.effect.stopsMidway']);
    expect(plan.effects.notes?.[0]?.message).toContain('2 worker pools');
    expect(plan.effects.notes?.[1]?.params).toEqual({
      kind: 'MachineDeployment',
      name: 'demo-md-0',
      current: 3,
      desired: 5,
    });
  });

  it('O-RESUME of a cluster: tests spec.paused is true and removes it; says the changes made meanwhile are carried out now', () => {
    const cluster = aCluster({ spec: { paused: true } });
    const changed = aMachineDeployment({ metadata: { generation: 3 } });
    const plan = planPause(
      { resourceVersion: '1', paused: false },
      { target: cluster, pools: [changed] },
      ctx,
    );
    expect(plan.operation).toBe('O-RESUME');
    expect(ops(plan)).toEqual([
      { op: 'test', path: '/metadata/resourceVersion', value: '1' },
      { op: 'test', path: '/spec/paused', value: true },
      { op: 'remove', path: '/spec/paused' },
    ]);
    expect(notes(plan)).toEqual(['plan.effect.resumeCluster', 'plan.effect.pendingChange']);
    expect(plan.effects.notes?.[1]?.message).toBe(
      'MachineDeployment demo-md-0 was changed while paused (generation 3, last reconciled at 1): the change is carried out now',
    );
  });

  it('O-PAUSE of a worker pool: the cluster.x-k8s.io/paused annotation, added to the annotations there are', () => {
    const md = aMachineDeployment({ metadata: { annotations: { keep: 'me' } } });
    const plan = planPause({ resourceVersion: '1', paused: true }, { target: md }, ctx);
    expect(plan.target).toEqual({ kind: 'MachineDeployment', name: 'demo-md-0' });
    expect(ops(plan)).toEqual([
      { op: 'test', path: '/metadata/resourceVersion', value: '1' },
      { op: 'add', path: '/metadata/annotations/cluster.x-k8s.io~1paused', value: 'true' },
    ]);
    const step = plan.steps[0];
    if (step?.verb !== 'patch') throw new Error('a patch');
    expect(applyStep(md, step)?.metadata.annotations).toEqual({
      keep: 'me',
      [ANNOTATION_PAUSED]: 'true',
    });
    expect(notes(plan)).toEqual(['plan.effect.pauseMachineDeployment']);
  });

  it('O-PAUSE of an object without annotations adds the map; of the control plane, says what stops there', () => {
    const kcp = aKubeadmControlPlane();
    const plan = planPause({ resourceVersion: '1', paused: true }, { target: kcp }, ctx);
    expect(ops(plan)[1]).toEqual({
      op: 'add',
      path: '/metadata/annotations',
      value: { [ANNOTATION_PAUSED]: 'true' },
    });
    expect(notes(plan)).toEqual(['plan.effect.pauseControlPlane']);
  });

  it('O-RESUME of a pool: tests the annotation and removes it, whatever its value', () => {
    const md = aMachineDeployment({ metadata: { annotations: { [ANNOTATION_PAUSED]: '' } } });
    const plan = planPause({ resourceVersion: '1', paused: false }, { target: md }, ctx);
    expect(ops(plan).slice(1)).toEqual([
      { op: 'test', path: '/metadata/annotations/cluster.x-k8s.io~1paused', value: '' },
      { op: 'remove', path: '/metadata/annotations/cluster.x-k8s.io~1paused' },
    ]);
    expect(notes(plan)).toEqual(['plan.effect.resumeObject']);
    expect(plan.issues).toEqual([]);
  });

  it('R-PAUSE-2: resuming a pool of a paused cluster warns that it stays paused through the cluster', () => {
    const md = aMachineDeployment({ metadata: { annotations: { [ANNOTATION_PAUSED]: 'true' } } });
    const plan = planPause(
      { resourceVersion: '1', paused: false },
      { target: md, cluster: aCluster({ spec: { paused: true } }) },
      ctx,
    );
    expect(rules(plan)).toEqual(['R-PAUSE-2 warning']);
    expect(plan.issues[0]?.message).toBe(
      'Cluster demo is paused (spec.paused): MachineDeployment demo-md-0 stays paused until the cluster is resumed too',
    );
    expect(canExecute(plan)).toBe(true);
    // Pausing it there is no warning: the annotation keeps it paused after the cluster resumes.
    const pause = planPause(
      { resourceVersion: '1', paused: true },
      { target: aMachineDeployment(), cluster: aCluster({ spec: { paused: true } }) },
      ctx,
    );
    expect(pause.issues).toEqual([]);
    expect(notes(pause)).toContain('plan.effect.alsoPausedByCluster');
  });

  it('R-PAUSE-3: pausing a pool being deleted warns that its deletion stops where it is', () => {
    const md = aMachineDeployment({
      metadata: { deletionTimestamp: '2026-12-01T10:00:00Z', finalizers: ['x'] },
    });
    const plan = planPause({ resourceVersion: '1', paused: true }, { target: md }, ctx);
    expect(rules(plan)).toEqual(['R-PAUSE-3 warning']);
  });

  it('O-PAUSE of what is already paused makes no step and says so', () => {
    const plan = planPause(
      { resourceVersion: '1', paused: true },
      { target: aCluster({ spec: { paused: true } }) },
      ctx,
    );
    expect(plan.steps).toEqual([]);
    expect(notes(plan)).toEqual(['plan.effect.alreadyPaused']);
    expect(canExecute(plan)).toBe(false);
    const resume = planPause(
      { resourceVersion: '1', paused: false },
      { target: aMachineDeployment() },
      ctx,
    );
    expect(notes(resume)).toEqual(['plan.effect.notPaused']);
  });

  it('O-PAUSE: a stale resourceVersion is R-PLAN-STALE (the BFF rebases or answers 409)', () => {
    const plan = planPause(
      { resourceVersion: '1', paused: true },
      { target: aMachineDeployment({ metadata: { resourceVersion: '7' } }) },
      ctx,
    );
    expect(plan.issues.map((i) => i.rule)).toEqual(['R-PLAN-STALE']);
    expect(canExecute(plan)).toBe(false);
  });

  it('O-PAUSE: the request schema refuses a missing state and an unknown field, naming them', () => {
    const missing = PauseRequestSchema.safeParse({ resourceVersion: '1' });
    expect(missing.success).toBe(false);
    if (!missing.success)
      expect(requestIssues(missing.error, {}).map((i) => i.path)).toContain('paused');
    const unknown = PauseRequestSchema.safeParse({ resourceVersion: '1', paused: true, pause: 1 });
    expect(unknown.success).toBe(false);
  });
});

describe('withPauseWarnings (R-PAUSE-1)', () => {
  const md = aMachineDeployment({ metadata: { resourceVersion: '10' } });
  const scale = () =>
    planScale({ replicas: 2, resourceVersion: '10' }, { machineDeployment: md }, ctx);

  it('R-PAUSE-1: a scale in a paused cluster is warned that nothing happens until the cluster is resumed', () => {
    const plan = withPauseWarnings(scale(), {
      clusterName: 'demo',
      paused: { cluster: true, objects: [] },
    });
    expect(rules(plan)).toContain('R-PAUSE-1 warning');
    expect(plan.issues.find((i) => i.rule === 'R-PAUSE-1')?.message).toBe(
      'Cluster demo is paused (spec.paused): Cluster API reconciles none of its objects, so this change is written but nothing happens (no machine is created, replaced or deleted) until the cluster is resumed',
    );
    expect(canExecute(plan)).toBe(true);
  });

  it('R-PAUSE-1: a scale of a paused pool names the pool; an unpaused one is left as it is', () => {
    const paused = withPauseWarnings(scale(), {
      clusterName: 'demo',
      paused: { cluster: false, objects: [{ kind: 'MachineDeployment', name: 'demo-md-0' }] },
    });
    expect(paused.issues.filter((i) => i.rule === 'R-PAUSE-1').map((i) => i.params)).toEqual([
      { kind: 'MachineDeployment', name: 'demo-md-0' },
    ]);
    const plain = scale();
    expect(
      withPauseWarnings(plain, {
        clusterName: 'demo',
        paused: { cluster: false, objects: [{ kind: 'MachineDeployment', name: 'other' }] },
      }),
    ).toBe(plain);
    expect(withPauseWarnings(plain, { clusterName: 'demo' })).toBe(plain);
  });

  it('R-PAUSE-1 is not added to O-PAUSE / O-RESUME, which say what they do themselves', () => {
    const resume = planPause(
      { resourceVersion: '1', paused: false },
      { target: aCluster({ spec: { paused: true } }) },
      ctx,
    );
    expect(
      withPauseWarnings(resume, { clusterName: 'demo', paused: { cluster: true, objects: [] } }),
    ).toBe(resume);
  });
});
