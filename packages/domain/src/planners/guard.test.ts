import { describe, expect, it } from 'vitest';
import { guardOf, withGuardAt } from './guard';
import { testOp, testResourceVersion, replaceOp } from './json-patch';
import type { PlanStep } from './plan';

const base = {
  kind: 'MachineDeployment' as const,
  namespace: 'ns',
  name: 'md',
  description: { messageKey: 'plan.step.scale', params: {}, message: 'scale' },
};

describe('a step’s resourceVersion guard (R-POOL-4)', () => {
  it('a JSON patch: the leading test op moves, the field tests and the writes stay', () => {
    const tests = [testResourceVersion('10'), testOp('/spec/replicas', 3)];
    const step: PlanStep = {
      ...base,
      verb: 'patch',
      precondition: { resourceVersion: '10', tests },
      patch: { type: 'json', ops: [...tests, replaceOp('/spec/replicas', 4)] },
    };
    expect(guardOf(step)).toBe('10');
    const moved = withGuardAt(step, '17');
    expect(guardOf(moved)).toBe('17');
    expect(moved.verb === 'patch' && moved.patch.type === 'json' && moved.patch.ops).toEqual([
      testResourceVersion('17'),
      testOp('/spec/replicas', 3),
      replaceOp('/spec/replicas', 4),
    ]);
    expect(moved.precondition).toEqual({
      resourceVersion: '17',
      tests: [testResourceVersion('17'), testOp('/spec/replicas', 3)],
    });
    // The original is left as it was.
    expect(guardOf(step)).toBe('10');
  });

  it('a merge patch, an update and a delete carry it where the API server reads it', () => {
    const merge: PlanStep = {
      ...base,
      kind: 'Machine',
      verb: 'patch',
      precondition: { resourceVersion: '21' },
      patch: {
        type: 'merge',
        doc: { metadata: { resourceVersion: '21', annotations: { a: 'true' } } },
      },
    };
    const moved = withGuardAt(merge, '30');
    expect(moved.verb === 'patch' && moved.patch.type === 'merge' && moved.patch.doc).toEqual({
      metadata: { resourceVersion: '30', annotations: { a: 'true' } },
    });
    expect(moved.precondition?.resourceVersion).toBe('30');

    const update: PlanStep = {
      ...base,
      verb: 'update',
      body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'md', resourceVersion: '5' } },
    };
    const u = withGuardAt(update, '6');
    expect(u.verb === 'update' && u.body.metadata.resourceVersion).toBe('6');

    const del: PlanStep = {
      ...base,
      verb: 'delete',
      precondition: { resourceVersion: '8', uid: 'u-1' },
    };
    expect(withGuardAt(del, '9').precondition).toEqual({ resourceVersion: '9', uid: 'u-1' });
  });

  it('a create, or a patch without a guard, is left as it is', () => {
    const create: PlanStep = {
      ...base,
      verb: 'create',
      body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } },
      undo: { ...base, verb: 'delete' },
    };
    expect(guardOf(create)).toBeUndefined();
    expect(withGuardAt(create, '3')).toBe(create);
    const unguarded: PlanStep = {
      ...base,
      verb: 'patch',
      patch: { type: 'json', ops: [replaceOp('/spec/replicas', 4)] },
    };
    expect(guardOf(unguarded)).toBeUndefined();
    expect(withGuardAt(unguarded, '3')).toBe(unguarded);
  });
});
