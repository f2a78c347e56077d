import { describe, expect, it } from 'vitest';
import { EditStrategyRequestSchema, requestIssues, type EditStrategyRequest } from '../requests';
import { anIpEntry, aMachineDeployment, aValidationContext } from '../testing';
import { applyJsonPatch, type JsonPatchOp } from './json-patch';
import { applyStep } from './objects';
import { canExecute, type PatchStep, type Plan } from './plan';
import { planEditStrategy } from './edit-strategy';

// The demo pool's IP pool relies on persistent disks (anIpEntry declares /var/cpaas).
const ctx = aValidationContext();
// The same pool without persistent disks: R-MD-3 does not apply.
const ctxNoDisks = aValidationContext({
  ipPools: aValidationContext().ipPools.map((p) => ({
    ...p,
    entries: [1, 2, 3].map((n) => ({ ...anIpEntry(n), persistentDisk: [] })),
  })),
});
const md = (o: Parameters<typeof aMachineDeployment>[0] = {}) =>
  aMachineDeployment({ ...o, metadata: { resourceVersion: '10', ...o.metadata } });
const req = (o: Partial<EditStrategyRequest> = {}): EditStrategyRequest => ({
  resourceVersion: '10',
  ...o,
});
const ops = (plan: Plan): JsonPatchOp[] => {
  const s = plan.steps[0];
  return s?.verb === 'patch' && s.patch.type === 'json' ? s.patch.ops : [];
};
const keys = (plan: Plan) => (plan.effects.notes ?? []).map((n) => n.messageKey);
const errors = (plan: Plan) => plan.issues.filter((i) => i.severity === 'error');

describe('planEditStrategy (O-EDIT-STRATEGY)', () => {
  it('O-EDIT-STRATEGY: one JSON patch that tests the resourceVersion and each changed field, then sets only those', () => {
    const plan = planEditStrategy(
      req({ maxUnavailable: 2, nodeDrainTimeout: '5m', nodeDeletionTimeout: '5m' }),
      { machineDeployment: md() },
      ctx,
    );
    expect(plan.operation).toBe('O-EDIT-STRATEGY');
    expect(plan.target).toEqual({ kind: 'MachineDeployment', name: 'demo-md-0' });
    // nodeDeletionTimeout is already 5m: not written.
    expect(ops(plan)).toEqual([
      { op: 'test', path: '/metadata/resourceVersion', value: '10' },
      { op: 'test', path: '/spec/strategy/rollingUpdate/maxUnavailable', value: 1 },
      { op: 'replace', path: '/spec/strategy/rollingUpdate/maxUnavailable', value: 2 },
      { op: 'test', path: '/spec/template/spec/nodeDrainTimeout', value: '1m' },
      { op: 'replace', path: '/spec/template/spec/nodeDrainTimeout', value: '5m' },
    ]);
    const step = plan.steps[0] as PatchStep;
    expect(step.description.message).toBe(
      'Set the rollout settings of demo-md-0: maxUnavailable 1 → 2, nodeDrainTimeout 1m → 5m',
    );
    expect(step.precondition?.resourceVersion).toBe('10');
    // Undo restores exactly the old values, guarded by the new ones.
    expect(step.undo?.patch).toEqual({
      type: 'json',
      ops: [
        { op: 'test', path: '/spec/template/spec/nodeDrainTimeout', value: '5m' },
        { op: 'replace', path: '/spec/template/spec/nodeDrainTimeout', value: '1m' },
        { op: 'test', path: '/spec/strategy/rollingUpdate/maxUnavailable', value: 2 },
        { op: 'replace', path: '/spec/strategy/rollingUpdate/maxUnavailable', value: 1 },
      ],
    });
    expect(plan.kubectl[0]).toMatch(
      /^kubectl patch machinedeployment demo-md-0 -n cpaas-system --type json -p '\[/,
    );
    expect(errors(plan)).toEqual([]);
    expect(canExecute(plan)).toBe(true);
    // The diff shows the two fields, and the object after the patch keeps everything else.
    const [first] = plan.steps;
    if (!first) throw new Error('no step');
    const after = applyStep(md(), first) as ReturnType<typeof md>;
    expect(after.spec?.strategy?.rollingUpdate).toEqual({ maxSurge: 0, maxUnavailable: 2 });
    expect(after.spec?.template.spec.nodeDrainTimeout).toBe('5m');
    expect(after.spec?.replicas).toBe(3);
    expect(plan.diffs[0]?.changes.map((c) => c.path).sort()).toEqual([
      '/spec/strategy/rollingUpdate/maxUnavailable',
      '/spec/template/spec/nodeDrainTimeout',
    ]);
  });

  it('O-EDIT-STRATEGY: the change replaces no machine, and the preview says so with the next rollout’s pace', () => {
    const plan = planEditStrategy(req({ maxUnavailable: 2 }), { machineDeployment: md() }, ctx);
    expect(keys(plan)).toEqual(['plan.effect.strategyInPlace', 'plan.effect.nextRolloutPace']);
    expect(plan.effects.notes?.[1]?.message).toBe(
      'The next rolling update of demo-md-0 replaces at most 2 at a time (was 1)',
    );
    expect(plan.effects.rollout).toBeUndefined();
  });

  it('O-EDIT-STRATEGY during a rollout: says the rollout goes on with the new settings, and that draining machines take the new timeouts', () => {
    const rolling = md({ status: { updatedReplicas: 1, replicas: 4 } });
    const plan = planEditStrategy(
      req({ maxUnavailable: 3, nodeDrainTimeout: '10m' }),
      { machineDeployment: rolling },
      ctx,
    );
    expect(keys(plan)).toEqual([
      'plan.effect.strategyInPlace',
      'plan.effect.rolloutContinuesWithStrategy',
      'plan.effect.timeoutsInFlight',
    ]);
    expect(plan.effects.notes?.[1]?.message).toBe(
      'A rolling update of demo-md-0 is in progress (1 of 3 machines updated): it goes on with the new settings from its next step, replacing at most 3 at a time (was 1). Machines already being created or deleted are not stopped',
    );
  });

  it('O-EDIT-STRATEGY with R-MD-3: setting maxSurge > 0 on a pool with persistent disks is an error at the field', () => {
    const plan = planEditStrategy(req({ maxSurge: 1 }), { machineDeployment: md() }, ctx);
    expect(errors(plan).map((i) => [i.rule, i.path, i.messageKey])).toEqual([
      ['R-MD-3', 'maxSurge', 'md.maxSurgeWithDisks'],
    ]);
    expect(canExecute(plan)).toBe(false);
    // Without persistent disks the same change is fine.
    const free = planEditStrategy(req({ maxSurge: 1 }), { machineDeployment: md() }, ctxNoDisks);
    expect(errors(free)).toEqual([]);
  });

  it('O-EDIT-STRATEGY with R-MD-3: editing only timeouts of a pool that still surges warns at maxSurge, without blocking; setting maxSurge 0 fixes it', () => {
    const surging = md({
      spec: { strategy: { rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } } },
    });
    const timeouts = planEditStrategy(
      req({ nodeDrainTimeout: '2m' }),
      { machineDeployment: surging },
      ctx,
    );
    expect(timeouts.issues.map((i) => [i.rule, i.severity, i.path])).toEqual([
      ['R-MD-3', 'warning', 'maxSurge'],
    ]);
    expect(canExecute(timeouts)).toBe(true);
    const fixed = planEditStrategy(
      req({ maxSurge: 0, maxUnavailable: 1 }),
      { machineDeployment: surging },
      ctx,
    );
    expect(fixed.issues).toEqual([]);
    expect(keys(fixed)).toContain('plan.effect.surgeZeroOneFewer');
  });

  it('O-EDIT-STRATEGY with R-MD-2: maxSurge 0 and maxUnavailable 0 together are refused, also when one of them is the current value', () => {
    const plan = planEditStrategy(req({ maxUnavailable: 0 }), { machineDeployment: md() }, ctx);
    expect(errors(plan).map((i) => [i.rule, i.path, i.messageKey])).toEqual([
      ['R-MD-2', 'maxUnavailable', 'md.bothZero'],
    ]);
  });

  it('O-EDIT-STRATEGY with R-MD-2: the request schema refuses a bare numeric string and a negative duration, naming the field', () => {
    const bad = EditStrategyRequestSchema.safeParse({
      resourceVersion: '10',
      maxSurge: '1',
      nodeDrainTimeout: '-5m',
    });
    expect(bad.success).toBe(false);
    const issues = bad.success ? [] : requestIssues(bad.error, {});
    expect(issues.map((i) => [i.rule, i.path])).toEqual([
      ['R-MD-2', 'maxSurge'],
      ['R-MD-7', 'nodeDrainTimeout'],
    ]);
    expect(
      EditStrategyRequestSchema.safeParse({ resourceVersion: '10', maxSurge: '25%' }).success,
    ).toBe(true);
  });

  it('O-EDIT-STRATEGY with R-POOL-1: a larger surge that the IP pool cannot serve during a rollout is a warning', () => {
    const plan = planEditStrategy(req({ maxSurge: 2 }), { machineDeployment: md() }, ctxNoDisks);
    expect(plan.issues.map((i) => [i.rule, i.severity, i.path])).toEqual([
      ['R-POOL-1', 'warning', 'maxSurge'],
    ]);
  });

  it('O-EDIT-STRATEGY: a pool without strategy or without the field gets it added, not replaced', () => {
    const bare = md();
    delete bare.spec?.strategy;
    delete bare.spec?.template.spec.nodeDrainTimeout;
    const plan = planEditStrategy(
      req({ maxUnavailable: 1, nodeDrainTimeout: '3m' }),
      { machineDeployment: bare },
      ctxNoDisks,
    );
    expect(ops(plan)).toEqual([
      { op: 'test', path: '/metadata/resourceVersion', value: '10' },
      { op: 'add', path: '/spec/strategy', value: { rollingUpdate: { maxUnavailable: 1 } } },
      { op: 'add', path: '/spec/template/spec/nodeDrainTimeout', value: '3m' },
    ]);
    const after = applyJsonPatch(bare, ops(plan).slice(1));
    expect(after.spec?.strategy).toEqual({ rollingUpdate: { maxUnavailable: 1 } });
    const noRolling = md({ spec: { strategy: { type: 'RollingUpdate' } } });
    delete noRolling.spec?.strategy?.rollingUpdate;
    expect(
      ops(planEditStrategy(req({ maxSurge: '25%' }), { machineDeployment: noRolling }, ctxNoDisks)),
    ).toEqual([
      { op: 'test', path: '/metadata/resourceVersion', value: '10' },
      { op: 'add', path: '/spec/strategy/rollingUpdate', value: { maxSurge: '25%' } },
    ]);
  });

  it('O-EDIT-STRATEGY: a cleared field (null) is removed from the object, tested at its current value, and the preview names the defaults that apply again', () => {
    const plan = planEditStrategy(
      req({ nodeDrainTimeout: null, nodeVolumeDetachTimeout: null }),
      { machineDeployment: md() },
      ctx,
    );
    // demo-md-0 has no nodeVolumeDetachTimeout: nothing to remove there.
    expect(ops(plan)).toEqual([
      { op: 'test', path: '/metadata/resourceVersion', value: '10' },
      { op: 'test', path: '/spec/template/spec/nodeDrainTimeout', value: '1m' },
      { op: 'remove', path: '/spec/template/spec/nodeDrainTimeout' },
    ]);
    expect(errors(plan)).toEqual([]);
    const step = plan.steps[0] as PatchStep;
    expect(step.description.message).toBe(
      'Set the rollout settings of demo-md-0: nodeDrainTimeout 1m → —',
    );
    expect(keys(plan)).toEqual([
      'plan.effect.strategyInPlace',
      'plan.effect.strategyFieldsRemoved',
    ]);
    expect(plan.effects.notes?.[1]?.params).toMatchObject({ fields: 'nodeDrainTimeout' });
    const after = applyJsonPatch(md(), ops(plan).slice(1));
    expect(after.spec?.template.spec).not.toHaveProperty('nodeDrainTimeout');
    expect(after.spec?.template.spec.nodeDeletionTimeout).toBe('5m');
    // Undo puts the old value back.
    expect(step.undo?.patch).toEqual({
      type: 'json',
      ops: [{ op: 'add', path: '/spec/template/spec/nodeDrainTimeout', value: '1m' }],
    });
    // Clearing a field that is not there changes nothing.
    const bare = md();
    delete bare.spec?.template.spec.nodeDrainTimeout;
    const none = planEditStrategy(
      req({ nodeDrainTimeout: null }),
      { machineDeployment: bare },
      ctx,
    );
    expect(none.steps).toEqual([]);
  });

  it('O-EDIT-STRATEGY with R-MD-3 and R-MD-2: clearing maxSurge means Cluster API’s default 1, refused on a pool with persistent disks; clearing maxUnavailable next to maxSurge 0 resolves as 0 and 0', () => {
    const cleared = planEditStrategy(req({ maxSurge: null }), { machineDeployment: md() }, ctx);
    expect(errors(cleared).map((i) => [i.rule, i.path])).toEqual([['R-MD-3', 'maxSurge']]);
    const free = planEditStrategy(req({ maxSurge: null }), { machineDeployment: md() }, ctxNoDisks);
    expect(errors(free)).toEqual([]);
    expect(ops(free)).toContainEqual({
      op: 'remove',
      path: '/spec/strategy/rollingUpdate/maxSurge',
    });
    const both = planEditStrategy(req({ maxUnavailable: null }), { machineDeployment: md() }, ctx);
    expect(errors(both).map((i) => i.rule)).toContain('R-MD-2');
  });

  it('O-EDIT-STRATEGY: nothing to change makes no step and says so', () => {
    const plan = planEditStrategy(
      req({ maxSurge: 0, maxUnavailable: 1, nodeDrainTimeout: '1m' }),
      { machineDeployment: md() },
      ctx,
    );
    expect(plan.steps).toEqual([]);
    expect(keys(plan)).toEqual(['plan.effect.nothingToChange']);
    expect(canExecute(plan)).toBe(false);
  });

  it('O-EDIT-STRATEGY: a stale resourceVersion is R-PLAN-STALE (the BFF rebases or answers 409)', () => {
    const plan = planEditStrategy(
      req({ resourceVersion: '9', nodeDrainTimeout: '2m' }),
      { machineDeployment: md() },
      ctx,
    );
    expect(errors(plan).map((i) => [i.rule, i.path])).toEqual([
      ['R-PLAN-STALE', 'resourceVersion'],
    ]);
  });

  it('O-EDIT-STRATEGY: OnDelete pools are warned that maxSurge/maxUnavailable do nothing', () => {
    const onDelete = md({ spec: { strategy: { type: 'OnDelete' } } });
    const plan = planEditStrategy(
      req({ maxUnavailable: 2 }),
      { machineDeployment: onDelete },
      ctxNoDisks,
    );
    expect(plan.issues.map((i) => [i.rule, i.severity, i.messageKey])).toEqual([
      ['R-MD-2', 'warning', 'md.strategyOnDelete'],
    ]);
    expect(keys(plan)).toEqual(['plan.effect.strategyInPlace']);
  });

  it('O-EDIT-STRATEGY on a deployment written past the JSON bounds (kubectl): an R-REQUEST error naming the bound, no step, never a throw', () => {
    let deep: Record<string, unknown> = { leaf: true };
    for (let i = 0; i < 80; i++) deep = { nested: deep };
    const written = md();
    const spec = { ...written.spec, extra: deep } as unknown as typeof written.spec;
    const plan = planEditStrategy(
      req({ nodeDrainTimeout: '5m' }),
      { machineDeployment: { ...written, ...(spec ? { spec } : {}) } },
      ctx,
    );
    expect(plan.steps).toEqual([]);
    expect(errors(plan).map((i) => i.rule)).toContain('R-REQUEST');
  });
});
