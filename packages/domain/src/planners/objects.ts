import { apiVersionOf, kindTable, type KindName } from '../kinds';
import { LABEL_CLUSTER_NAME, LABEL_TEMPLATE_POOL } from '../labels';
import type { ObjectReference } from '../schemas/meta';
import type { RuleIssue } from '../rules/issue';
import { diffObjects } from './diff';
import {
  applyJsonPatch,
  applyMergePatch,
  invertJsonPatch,
  isTestOp,
  jsonClone,
  type InvertOptions,
  type JsonPatchOp,
} from './json-patch';
import { kubectlFor } from './kubectl';
import { planMessage, type PlanMessage, type PlanMessageKey } from './messages';
import type {
  CreateStep,
  DeleteStep,
  KubeObject,
  ObjectDiff,
  OperationId,
  Plan,
  PlanEffects,
  PlanStep,
  PatchStep,
  PropagationPolicy,
} from './plan';

/** Building blocks the planners share: references, clones, steps, and the finishing of a plan. */

/** apiVersions as literals, as the object types of `schemas` declare them. */
export const API_CAPI = 'cluster.x-k8s.io/v1beta1';
export const API_CONTROL_PLANE = 'controlplane.cluster.x-k8s.io/v1beta1';
export const API_BOOTSTRAP = 'bootstrap.cluster.x-k8s.io/v1beta1';
export const API_INFRASTRUCTURE = 'infrastructure.cluster.x-k8s.io/v1beta1';

export const refTo = (kind: KindName, name: string, namespace: string): ObjectReference => ({
  apiVersion: apiVersionOf(kindTable[kind]),
  kind,
  name,
  namespace,
});

/** Fields the server owns: a copy that is created anew must not carry them. */
const SERVER_METADATA = [
  'uid',
  'resourceVersion',
  'generation',
  'creationTimestamp',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
  'managedFields',
  'ownerReferences',
  'finalizers',
  'selfLink',
] as const;
const CLIENT_ANNOTATIONS = ['kubectl.kubernetes.io/last-applied-configuration'];

/**
 * A copy of `source` to create under `name`: labels and annotations kept, server-owned metadata
 * and status dropped (the reference's "delete resourceVersion, uid, creationTimestamp…").
 */
export function copyForCreate<T extends KubeObject>(source: T, name: string): T {
  const { status: _status, metadata, apiVersion, kind, ...rest } = jsonClone(source);
  const meta: Record<string, unknown> = { ...metadata, name };
  for (const f of SERVER_METADATA) {
    // eslint-disable-next-line @typescript-eslint/no-dynamic-delete
    delete meta[f];
  }
  const annotations = Object.fromEntries(
    Object.entries(metadata.annotations ?? {}).filter(([k]) => !CLIENT_ANNOTATIONS.includes(k)),
  );
  if (Object.keys(annotations).length) meta.annotations = annotations;
  else delete meta.annotations;
  return { apiVersion, kind, metadata: meta, ...rest } as T;
}

/**
 * `body` labelled as a template of worker pool `pool` (LABEL_TEMPLATE_POOL); without a pool (the
 * control plane's) a label copied from another pool's template is dropped.
 */
export function forPool<T extends KubeObject>(body: T, pool: string | undefined): T {
  const labels = { ...body.metadata.labels };
  // eslint-disable-next-line @typescript-eslint/no-dynamic-delete
  delete labels[LABEL_TEMPLATE_POOL];
  if (pool) labels[LABEL_TEMPLATE_POOL] = pool;
  const { labels: _old, ...metadata } = body.metadata;
  return {
    ...body,
    metadata: { ...metadata, ...(Object.keys(labels).length ? { labels } : {}) },
  };
}

/** Metadata of an object the console creates for a cluster. */
export function newMetadata(name: string, namespace: string, clusterName?: string) {
  return {
    name,
    namespace,
    ...(clusterName ? { labels: { [LABEL_CLUSTER_NAME]: clusterName } } : {}),
  };
}

export function createStep(
  kind: KindName,
  body: KubeObject,
  description: PlanMessage,
  propagationPolicy?: PropagationPolicy,
): CreateStep {
  const name = body.metadata.name ?? '';
  const namespace = body.metadata.namespace ?? '';
  return {
    verb: 'create',
    kind,
    namespace,
    name,
    body,
    description,
    undo: {
      verb: 'delete',
      kind,
      namespace,
      name,
      precondition: { uidFromCreate: true },
      ...(propagationPolicy ? { propagationPolicy } : {}),
      description: planMessage('plan.undo.delete', { kind, name }),
    },
  };
}

/**
 * A JSON patch step against `current` (the object as the planner knows it): `ops` begin with the
 * step's test ops; the undo is the inverse patch, guarded by tests of the values written.
 */
export function jsonPatchStep(
  current: KubeObject,
  kind: KindName,
  ops: JsonPatchOp[],
  description: PlanMessage,
  opts: { undoKey?: PlanMessageKey; invert?: InvertOptions } = {},
): PatchStep {
  const name = current.metadata.name ?? '';
  const namespace = current.metadata.namespace ?? '';
  const tests = ops.filter(isTestOp);
  const rvTest = tests.find((t) => t.path === '/metadata/resourceVersion');
  let undoOps: JsonPatchOp[] | undefined;
  try {
    // Against the object as known, tests left out: if it is stale the step fails anyway, and the
    // undo is only ever used after the step succeeded.
    undoOps = invertJsonPatch(
      current,
      ops.filter((o) => !isTestOp(o)),
      opts.invert,
    );
  } catch {
    undoOps = undefined;
  }
  return {
    verb: 'patch',
    kind,
    namespace,
    name,
    patch: { type: 'json', ops },
    description,
    precondition: {
      ...(typeof rvTest?.value === 'string' ? { resourceVersion: rvTest.value } : {}),
      ...(tests.length ? { tests } : {}),
    },
    ...(undoOps?.length
      ? {
          undo: {
            verb: 'patch',
            kind,
            namespace,
            name,
            patch: { type: 'json', ops: undoOps },
            description: planMessage(opts.undoKey ?? 'plan.undo.revert', { kind, name }),
          },
        }
      : {}),
  };
}

export function deleteStep(
  kind: KindName,
  namespace: string,
  name: string,
  description: PlanMessage,
  opts: Pick<DeleteStep, 'precondition' | 'propagationPolicy' | 'waitFor'> = {},
): DeleteStep {
  return {
    verb: 'delete',
    kind,
    namespace,
    name,
    description,
    ...opts,
    irreversible: planMessage('plan.irreversible.delete', { kind, name }),
  };
}

// --- applying -----------------------------------------------------------------------------------

export type StepFailure = 'NotFound' | 'AlreadyExists' | 'Conflict' | 'Invalid';

/** A step the API server would refuse, with the reason it would give. */
export class StepError extends Error {
  constructor(
    readonly reason: StepFailure,
    message: string,
  ) {
    super(message);
    this.name = 'StepError';
  }
}

/**
 * The object after `step`, as the API server would leave it, preconditions included: a failed
 * `test` op is `Invalid` (Kubernetes answers 422), a resourceVersion or uid mismatch `Conflict`.
 * `undefined` means absent. Server-side effects (resourceVersion, defaults) are not played.
 */
export function applyStep(current: KubeObject | undefined, step: PlanStep): KubeObject | undefined {
  const id = `${step.kind} ${step.name}`;
  if (step.verb === 'create') {
    if (current) throw new StepError('AlreadyExists', `${id} already exists`);
    return jsonClone(step.body);
  }
  if (!current) throw new StepError('NotFound', `${id} not found`);
  const { resourceVersion, uid } = step.precondition ?? {};
  const checkMeta = (rv: string | undefined) => {
    if (rv !== undefined && rv !== current.metadata.resourceVersion) {
      throw new StepError(
        'Conflict',
        `${id} has resourceVersion ${current.metadata.resourceVersion ?? ''}, not ${rv}`,
      );
    }
    if (uid !== undefined && uid !== current.metadata.uid) {
      throw new StepError('Conflict', `${id} has uid ${current.metadata.uid ?? ''}, not ${uid}`);
    }
  };
  switch (step.verb) {
    case 'delete':
      checkMeta(resourceVersion);
      return undefined;
    case 'update':
      checkMeta(step.body.metadata.resourceVersion);
      return jsonClone(step.body);
    case 'patch': {
      if (step.patch.type === 'merge') {
        const meta = step.patch.doc.metadata as { resourceVersion?: unknown } | undefined;
        checkMeta(typeof meta?.resourceVersion === 'string' ? meta.resourceVersion : undefined);
        return applyMergePatch(current, step.patch.doc);
      }
      checkMeta(undefined);
      try {
        return applyJsonPatch(current, step.patch.ops);
      } catch (e) {
        throw new StepError('Invalid', `${id}: ${(e as Error).message}`);
      }
    }
  }
}

const objectKey = (kind: string, namespace: string | undefined, name: string | undefined) =>
  `${kind}/${namespace ?? ''}/${name ?? ''}`;

/** `objects` after every step, in order (throws the first {@link StepError}). */
export function applySteps(
  objects: readonly KubeObject[],
  steps: readonly PlanStep[],
): KubeObject[] {
  const state = new Map(
    objects.map((o) => [objectKey(o.kind, o.metadata.namespace, o.metadata.name), o] as const),
  );
  for (const step of steps) {
    const key = objectKey(step.kind, step.namespace, step.name);
    const next = applyStep(state.get(key), step);
    if (next) state.set(key, next);
    else state.delete(key);
  }
  return [...state.values()];
}

// --- finishing ----------------------------------------------------------------------------------

const keyOf = (kind: string, namespace: string, name: string) => `${kind}/${namespace}/${name}`;

function withoutManagedFields(o: KubeObject): KubeObject {
  const { managedFields: _m, ...metadata } = o.metadata;
  return { ...o, metadata };
}

/**
 * Per-object diffs, by playing the steps over the objects as known: the first state of each
 * object is its `before`, the last its `after`. Test ops are left out, so a stale object still
 * previews (its staleness is an issue of its own).
 */
export function diffsOf(
  steps: readonly PlanStep[],
  known: readonly KubeObject[],
  clones: Readonly<Record<string, KubeObject>> = {},
): ObjectDiff[] {
  const state = new Map<string, KubeObject | undefined>();
  for (const o of known) {
    state.set(keyOf(o.kind, o.metadata.namespace ?? '', o.metadata.name ?? ''), o);
  }
  const order: { key: string; step: PlanStep; before: KubeObject | undefined }[] = [];
  for (const step of steps) {
    const key = keyOf(step.kind, step.namespace, step.name);
    const cur = state.get(key);
    if (!order.some((o) => o.key === key)) order.push({ key, step, before: cur });
    let next: KubeObject | undefined = cur;
    if (step.verb === 'create' || step.verb === 'update') next = step.body;
    else if (step.verb === 'delete') next = undefined;
    else if (cur) {
      try {
        next =
          step.patch.type === 'json'
            ? applyJsonPatch(
                cur,
                step.patch.ops.filter((o) => !isTestOp(o)),
              )
            : applyMergePatch(cur, step.patch.doc);
      } catch {
        next = cur;
      }
    }
    state.set(key, next);
  }
  return order.map(({ key, step, before }) => {
    const after = state.get(key);
    // A copy (R-TPL-4, R-BOOT-3) is shown against the object it copies, server fields aside.
    const source = step.verb === 'create' ? clones[step.name] : undefined;
    const shown = before ?? (source && copyForCreate(source, source.metadata.name ?? ''));
    const b = shown && withoutManagedFields(shown);
    const a = after && withoutManagedFields(after);
    return {
      kind: step.kind,
      namespace: step.namespace,
      name: step.name,
      change: before === undefined ? 'create' : after === undefined ? 'delete' : 'update',
      ...(b ? { before: b } : {}),
      ...(a ? { after: a } : {}),
      ...(source?.metadata.name ? { clonedFrom: source.metadata.name } : {}),
      changes: diffObjects(b, a),
    };
  });
}

/** Completes a plan: kubectl commands and diffs are derived from the steps, never written twice. */
export function finishPlan(p: {
  operation: OperationId;
  namespace: string;
  target: Plan['target'];
  steps: PlanStep[];
  issues: RuleIssue[];
  known: readonly (KubeObject | undefined)[];
  clones?: Record<string, KubeObject>;
  effects?: PlanEffects;
}): Plan {
  const known = p.known.filter((o): o is KubeObject => o !== undefined);
  return {
    operation: p.operation,
    namespace: p.namespace,
    target: p.target,
    steps: p.steps,
    kubectl: p.steps.map(kubectlFor),
    issues: p.issues,
    diffs: diffsOf(p.steps, known, p.clones),
    effects: p.effects ?? {},
  };
}
