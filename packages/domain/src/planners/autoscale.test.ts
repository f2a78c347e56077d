import { describe, expect, it } from 'vitest';
import { ANNOTATION_AUTOSCALER_MAX_SIZE, ANNOTATION_AUTOSCALER_MIN_SIZE } from '../labels';
import { AutoscaleRequestSchema, requestIssues, type AutoscaleRequest } from '../requests';
import { aMachine, aMachineDeployment, aValidationContext } from '../testing';
import { planAutoscale } from './autoscale';
import type { JsonPatchOp } from './json-patch';
import { applyStep } from './objects';
import { canExecute, type Plan } from './plan';
import { planScale } from './scale';

const ctx = aValidationContext();
const MIN = ANNOTATION_AUTOSCALER_MIN_SIZE;
const MAX = ANNOTATION_AUTOSCALER_MAX_SIZE;
const MIN_PATH =
  '/metadata/annotations/cluster.x-k8s.io~1cluster-api-autoscaler-node-group-min-size';
const MAX_PATH =
  '/metadata/annotations/cluster.x-k8s.io~1cluster-api-autoscaler-node-group-max-size';
const ops = (plan: Plan): JsonPatchOp[] => {
  const s = plan.steps[0];
  return s?.verb === 'patch' && s.patch.type === 'json' ? s.patch.ops : [];
};
const notes = (plan: Plan) => (plan.effects.notes ?? []).map((n) => n.messageKey);
const rules = (issues: readonly { rule: string; severity: string; path: string }[]) =>
  issues.map((i) => `${i.rule} ${i.severity} ${i.path}`);
const autoscaled = (min: string, max: string, o: { replicas?: number } = {}) =>
  aMachineDeployment({
    metadata: { annotations: { [MIN]: min, [MAX]: max, team: 'a' } },
    ...(o.replicas !== undefined ? { spec: { replicas: o.replicas } } : {}),
  });
const req = (o: Partial<AutoscaleRequest>): AutoscaleRequest => ({ resourceVersion: '1', ...o });

describe('planAutoscale (O-AUTOSCALE / O-AUTOSCALE-REMOVE)', () => {
  it('O-AUTOSCALE on a pool without annotations: one JSON patch adding both, as plain decimals; its undo removes the map; kubectl equivalent', () => {
    const md = aMachineDeployment();
    const plan = planAutoscale(req({ minSize: 1, maxSize: 3 }), { machineDeployment: md }, ctx);
    expect(plan.operation).toBe('O-AUTOSCALE');
    expect(plan.target).toEqual({ kind: 'MachineDeployment', name: 'demo-md-0' });
    expect(ops(plan)).toEqual([
      { op: 'test', path: '/metadata/resourceVersion', value: '1' },
      { op: 'add', path: '/metadata/annotations', value: { [MIN]: '1', [MAX]: '3' } },
    ]);
    expect(canExecute(plan)).toBe(true);
    expect(plan.issues).toEqual([]);
    expect(plan.steps[0]?.description.message).toBe(
      'Set the cluster autoscaler’s bounds of demo-md-0: minSize — → 1, maxSize — → 3',
    );
    expect(notes(plan)).toEqual(['plan.effect.autoscaleSet']);
    expect(plan.kubectl[0]).toContain('kubectl patch machinedeployment demo-md-0');
    expect(plan.kubectl[0]).toContain('cluster-api-autoscaler-node-group-min-size');
    const step = plan.steps[0];
    if (step?.verb !== 'patch') throw new Error('a patch');
    const after = applyStep(md, step);
    expect(after?.metadata.annotations).toEqual({ [MIN]: '1', [MAX]: '3' });
    expect(step.undo && applyStep(after, step.undo)?.metadata).not.toHaveProperty('annotations');
    expect(plan.diffs[0]?.changes.map((c) => c.path)).toEqual(['/metadata/annotations']);
  });

  it('O-AUTOSCALE over existing bounds: test-and-replace of the one that changes, other annotations untouched', () => {
    const md = autoscaled('1', '5');
    const plan = planAutoscale(req({ minSize: 1, maxSize: 8 }), { machineDeployment: md }, ctx);
    expect(ops(plan)).toEqual([
      { op: 'test', path: '/metadata/resourceVersion', value: '1' },
      { op: 'test', path: MAX_PATH, value: '5' },
      { op: 'replace', path: MAX_PATH, value: '8' },
    ]);
    expect(notes(plan)).toEqual(['plan.effect.autoscaleChanged']);
    // R-AS-5: 8 is more than demo-worker-pool's 3 entries can serve: said, not refused.
    expect(rules(plan.issues)).toEqual(['R-AS-5 warning maxSize']);
    expect(canExecute(plan)).toBe(true);
    const step = plan.steps[0];
    if (step?.verb !== 'patch') throw new Error('a patch');
    expect(applyStep(md, step)?.metadata.annotations).toEqual({
      [MIN]: '1',
      [MAX]: '8',
      team: 'a',
    });
  });

  it('a bound written as upstream reads it but not as the console writes it ("+2") is rewritten as "2"', () => {
    const plan = planAutoscale(
      req({ minSize: 2, maxSize: 3 }),
      { machineDeployment: autoscaled('+2', '3') },
      ctx,
    );
    expect(ops(plan).slice(1)).toEqual([
      { op: 'test', path: MIN_PATH, value: '+2' },
      { op: 'replace', path: MIN_PATH, value: '2' },
    ]);
  });

  it('R-AS-4: replicas outside the new bounds are refused; with replicas in the request the same patch moves them in', () => {
    const md = aMachineDeployment({ spec: { replicas: 1 } });
    const refused = planAutoscale(req({ minSize: 2, maxSize: 3 }), { machineDeployment: md }, ctx);
    expect(rules(refused.issues)).toEqual(['R-AS-4 error minSize']);
    expect(canExecute(refused)).toBe(false);

    const moved = planAutoscale(
      req({ minSize: 2, maxSize: 3, replicas: 2 }),
      { machineDeployment: md },
      ctx,
    );
    expect(moved.issues).toEqual([]);
    expect(ops(moved)).toEqual([
      { op: 'test', path: '/metadata/resourceVersion', value: '1' },
      { op: 'add', path: '/metadata/annotations', value: { [MIN]: '2', [MAX]: '3' } },
      { op: 'test', path: '/spec/replicas', value: 1 },
      { op: 'replace', path: '/spec/replicas', value: 2 },
    ]);
    expect(moved.effects.replicas).toEqual({ from: 1, to: 2 });
    expect(notes(moved)).toEqual([
      'plan.effect.autoscaleSet',
      'plan.effect.autoscaleReplicasMoved',
    ]);
  });

  it('an autoscaled MachineDeployment whose spec.replicas is left unset: the replicas are added, not tested', () => {
    const md = aMachineDeployment({ metadata: { annotations: { [MIN]: '1', [MAX]: '4' } } });
    delete md.spec?.replicas;
    const plan = planAutoscale(
      req({ minSize: 2, maxSize: 4, replicas: 2 }),
      { machineDeployment: md },
      ctx,
    );
    expect(ops(plan).slice(-1)).toEqual([{ op: 'add', path: '/spec/replicas', value: 2 }]);
  });

  it('the same bounds again: no step, a note that nothing changes', () => {
    const plan = planAutoscale(
      req({ minSize: 1, maxSize: 5 }),
      { machineDeployment: autoscaled('1', '5') },
      ctx,
    );
    expect(plan.steps).toEqual([]);
    expect(notes(plan)).toEqual(['plan.effect.autoscaleUnchanged']);
  });

  it('O-AUTOSCALE-REMOVE: tests and removes both annotations, keeps the others and replicas; the note says replicas stay', () => {
    const md = autoscaled('1', '5', { replicas: 4 });
    const plan = planAutoscale(
      req({ minSize: null, maxSize: null }),
      { machineDeployment: md },
      ctx,
    );
    expect(plan.operation).toBe('O-AUTOSCALE-REMOVE');
    expect(ops(plan)).toEqual([
      { op: 'test', path: '/metadata/resourceVersion', value: '1' },
      { op: 'test', path: MIN_PATH, value: '1' },
      { op: 'remove', path: MIN_PATH },
      { op: 'test', path: MAX_PATH, value: '5' },
      { op: 'remove', path: MAX_PATH },
    ]);
    expect(plan.effects.notes?.[0]?.message).toBe(
      'The cluster autoscaler stops managing demo-md-0: its replicas stay at 4 and change only when someone scales the pool',
    );
    const step = plan.steps[0];
    if (step?.verb !== 'patch') throw new Error('a patch');
    const after = applyStep(md, step);
    expect(after?.metadata.annotations).toEqual({ team: 'a' });
    expect(step.undo && applyStep(after, step.undo)?.metadata.annotations).toEqual(
      md.metadata.annotations,
    );
  });

  it('O-AUTOSCALE-REMOVE of a lone annotation (R-AS-2) removes it; of none: nothing to do', () => {
    const lone = aMachineDeployment({ metadata: { annotations: { [MAX]: '3' } } });
    const plan = planAutoscale(
      req({ minSize: null, maxSize: null }),
      { machineDeployment: lone },
      ctx,
    );
    expect(ops(plan).slice(1)).toEqual([
      { op: 'test', path: MAX_PATH, value: '3' },
      { op: 'remove', path: MAX_PATH },
    ]);
    const none = planAutoscale(
      req({ minSize: null, maxSize: null }),
      { machineDeployment: aMachineDeployment() },
      ctx,
    );
    expect(none.steps).toEqual([]);
    expect(notes(none)).toEqual(['plan.effect.autoscaleNone']);
  });

  it('R-PLAN-STALE: the pool changed since the user saw it', () => {
    const md = aMachineDeployment({ metadata: { resourceVersion: '7' } });
    const plan = planAutoscale(req({ minSize: 1, maxSize: 3 }), { machineDeployment: md }, ctx);
    expect(rules(plan.issues)).toEqual(['R-PLAN-STALE error resourceVersion']);
  });

  it('annotation keys like __proto__ on the object are inert: they are neither read as bounds nor touched', () => {
    const annotations = JSON.parse(
      `{"__proto__": {"${MIN}": "9"}, "constructor": "c", "prototype": "p"}`,
    ) as Record<string, string>;
    const md = aMachineDeployment({ metadata: { annotations } });
    const plan = planAutoscale(req({ minSize: 1, maxSize: 3 }), { machineDeployment: md }, ctx);
    expect(ops(plan).slice(1)).toEqual([
      { op: 'add', path: MIN_PATH, value: '1' },
      { op: 'add', path: MAX_PATH, value: '3' },
    ]);
    expect(plan.steps[0]?.description.message).toContain('minSize — → 1');
  });
});

describe('AutoscaleRequestSchema: bad input is refused naming the field and the rule', () => {
  const refused = (body: unknown) => {
    const r = AutoscaleRequestSchema.safeParse(body);
    if (r.success) throw new Error(`accepted ${JSON.stringify(body)}`);
    return requestIssues(r.error, body).map((i) => `${i.rule} ${i.path}`);
  };

  it.each([
    ['negative', { minSize: -1, maxSize: 3 }, 'R-AS-1 minSize'],
    ['not an integer', { minSize: 1, maxSize: 2.5 }, 'R-AS-1 maxSize'],
    ['a numeric string', { minSize: '1', maxSize: 3 }, 'R-AS-1 minSize'],
    ['past int32', { minSize: 1, maxSize: 2_147_483_648 }, 'R-AS-1 maxSize'],
    ['only min given', { minSize: 1 }, 'R-AS-2 maxSize'],
    ['only max given', { maxSize: 3 }, 'R-AS-2 minSize'],
    ['min given, max null', { minSize: 1, maxSize: null }, 'R-AS-2 maxSize'],
    ['neither given', {}, 'R-AS-2 minSize'],
    ['replicas with a removal', { minSize: null, maxSize: null, replicas: 2 }, 'R-AS-2 replicas'],
    ['negative replicas', { minSize: 1, maxSize: 3, replicas: -2 }, 'R-MD-1 replicas'],
  ])('%s', (_name, body, expected) => {
    expect(refused({ resourceVersion: '1', ...body })).toEqual([expected]);
  });

  it('an unknown key, __proto__ included, is refused at its path (the object is strict)', () => {
    expect(
      refused(JSON.parse('{"resourceVersion":"1","minSize":1,"maxSize":2,"__proto__":{"x":1}}')),
    ).toEqual(['R-REQUEST __proto__']);
    expect(refused({ resourceVersion: '1', minSize: 1, maxSize: 2, constructor: 1 })).toEqual([
      'R-REQUEST constructor',
    ]);
  });

  it('the messages name the field: only one given says which is missing', () => {
    const body = { resourceVersion: '1', minSize: 1 };
    const r = AutoscaleRequestSchema.safeParse(body);
    expect(r.success).toBe(false);
    if (r.success) return;
    expect(requestIssues(r.error, body)[0]?.message).toContain('maxSize is missing');
  });

  it('min above max passes the schema and is the rule’s 422 (R-AS-3)', () => {
    const body = AutoscaleRequestSchema.parse({ resourceVersion: '1', minSize: 5, maxSize: 2 });
    const plan = planAutoscale(body, { machineDeployment: aMachineDeployment() }, ctx);
    expect(rules(plan.issues)).toEqual(['R-AS-3 error maxSize']);
  });
});

describe('R-AS-7: a manual scale of an autoscaled pool says what the autoscaler will do', () => {
  const md = autoscaled('2', '5', { replicas: 3 });
  const scale = (replicas: number) =>
    planScale({ replicas, resourceVersion: '1' }, { machineDeployment: md }, ctx);

  it('below min or above max: refused, the plan not executable', () => {
    expect(rules(scale(1).issues)).toContain('R-AS-7 error replicas');
    expect(canExecute(scale(1))).toBe(false);
    expect(rules(scale(6).issues)).toContain('R-AS-7 error replicas');
  });

  it('within: a warning that the autoscaler may change it again', () => {
    const plan = scale(2);
    expect(rules(plan.issues)).toEqual(['R-AS-7 warning replicas']);
    expect(canExecute(plan)).toBe(true);
  });

  it('a pool the autoscaler ignores (one annotation) scales as any other', () => {
    const lone = aMachineDeployment({ metadata: { annotations: { [MIN]: '2' } } });
    const plan = planScale({ replicas: 1, resourceVersion: '1' }, { machineDeployment: lone }, ctx);
    expect(plan.issues.filter((i) => i.rule.startsWith('R-AS-'))).toEqual([]);
  });

  it('O-SCALE-DOWN-TARGETED below min is refused at deleteMachines', () => {
    const machines = [1, 2, 3].map((n) =>
      aMachine({ metadata: { name: `demo-md-0-abc12-m${String(n)}`, resourceVersion: '1' } }),
    );
    const plan = planScale(
      {
        deleteMachines: ['demo-md-0-abc12-m1', 'demo-md-0-abc12-m2'],
        machineResourceVersions: { 'demo-md-0-abc12-m1': '1', 'demo-md-0-abc12-m2': '1' },
        resourceVersion: '1',
      },
      { machineDeployment: md, machines },
      ctx,
    );
    expect(rules(plan.issues)).toContain('R-AS-7 error deleteMachines');
  });
});
