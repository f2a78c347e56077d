import type { PlanStep } from './plan';
import { isTestOp, testResourceVersion } from './json-patch';

/**
 * The resourceVersion guard of a step (R-POOL-4): the version of its object the plan was made
 * on, wherever the step carries it (a JSON patch's leading `test` op, a merge patch's or an
 * update's `metadata.resourceVersion`, a delete's precondition). Creates have none.
 */

const RV_PATH = '/metadata/resourceVersion';

/** The resourceVersion a step's write is guarded by, if any. */
export function guardOf(step: PlanStep): string | undefined {
  switch (step.verb) {
    case 'create':
      return undefined;
    case 'update':
      return step.body.metadata.resourceVersion;
    case 'delete':
      return step.precondition?.resourceVersion;
    case 'patch': {
      if (step.patch.type === 'merge') {
        const meta = step.patch.doc.metadata as { resourceVersion?: unknown } | undefined;
        return typeof meta?.resourceVersion === 'string' ? meta.resourceVersion : undefined;
      }
      const test = step.patch.ops.find((o) => isTestOp(o) && o.path === RV_PATH);
      return test && 'value' in test && typeof test.value === 'string' ? test.value : undefined;
    }
  }
}

/**
 * The same step guarded by another resourceVersion, every other precondition (the `test` ops of
 * the fields it writes, the uid) kept: for a step whose object moved on only by writes that are
 * no one's edit (a controller's status), as the caller has established. A step without a guard
 * is returned as it is.
 */
export function withGuardAt(step: PlanStep, resourceVersion: string): PlanStep {
  const from = guardOf(step);
  if (from === undefined || from === resourceVersion) return step;
  const precondition =
    step.precondition?.resourceVersion !== undefined
      ? {
          precondition: {
            ...step.precondition,
            resourceVersion,
            ...(step.precondition.tests
              ? {
                  tests: step.precondition.tests.map((t) =>
                    t.path === RV_PATH ? testResourceVersion(resourceVersion) : t,
                  ),
                }
              : {}),
          },
        }
      : {};
  switch (step.verb) {
    case 'create':
      return step;
    case 'update':
      return {
        ...step,
        ...precondition,
        body: { ...step.body, metadata: { ...step.body.metadata, resourceVersion } },
      };
    case 'delete':
      return { ...step, ...precondition };
    case 'patch': {
      if (step.patch.type === 'merge') {
        const doc = step.patch.doc;
        const meta = doc.metadata as Record<string, unknown>;
        return {
          ...step,
          ...precondition,
          patch: { type: 'merge', doc: { ...doc, metadata: { ...meta, resourceVersion } } },
        };
      }
      return {
        ...step,
        ...precondition,
        patch: {
          type: 'json',
          ops: step.patch.ops.map((o) =>
            isTestOp(o) && o.path === RV_PATH ? testResourceVersion(resourceVersion) : o,
          ),
        },
      };
    }
  }
}
