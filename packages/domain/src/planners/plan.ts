import type { KindName } from '../kinds';
import type { RuleIssue } from '../rules/issue';
import { hasErrors } from '../rules/issue';
import type { ObjectMeta } from '../schemas/meta';
import type { FieldChange } from './diff';
import type { JsonPatchOp, JsonPatchTestOp } from './json-patch';
import type { PlanMessage } from './messages';
import type { PlanVerdict } from './verdict';

/**
 * A Plan is what a mutating request turns into: ordered steps against the Kubernetes API, their
 * kubectl equivalents, the rule results, and per-object diffs. The BFF returns it from
 * `?dryRun=true` and executes it; the UI previews it. Everything here is plain JSON.
 *
 * Execution contract (for the executor in the BFF):
 * - steps run in order; each carries its precondition, so that nothing the user did not see is
 *   overwritten: JSON patches start with `test` ops (a failed test is a 422 from Kubernetes,
 *   to be treated like a 409), merge patches carry `metadata.resourceVersion`, deletes send
 *   `preconditions` in their DeleteOptions;
 * - when a step fails, the `undo` of every completed step runs, last first; a step without
 *   `undo` cannot be rolled back (its `irreversible` message says so, the UI shows it);
 * - an undo delete with `precondition.uidFromCreate` gets the uid of the object its create
 *   returned, so that only the object this plan created is removed;
 * - a step with `waitFor` runs only once that condition holds;
 * - a plan whose `issues` contain an error is never executed.
 */

/**
 * The operations of DOMAIN.md §3, O-EDIT-STRATEGY, O-EDIT-CP-CONFIG, the two IP-pool edits of the
 * `ippools` routes, O-PAUSE / O-RESUME, O-AUTOSCALE / O-AUTOSCALE-REMOVE, O-RESTART and O-MHC-CREATE / O-MHC-EDIT / O-MHC-DELETE.
 */
export const OPERATIONS = [
  'O-CREATE-POOL',
  'O-SCALE-UP',
  'O-SCALE-DOWN-RANDOM',
  'O-SCALE-DOWN-TARGETED',
  'O-UPGRADE-INFRA',
  'O-UPDATE-BOOTSTRAP',
  'O-UPGRADE-K8S',
  'O-UPGRADE-CP',
  'O-DELETE-POOL',
  // Issue 12: the rollout settings and node timeouts of an existing worker pool.
  'O-EDIT-STRATEGY',
  // Issue 12: the control plane's kubeadm config (files, the kubelet patch), a rolling change.
  'O-EDIT-CP-CONFIG',
  'O-CREATE-IP-POOL',
  'O-EDIT-IP-POOL',
  // Issue 26: stop and restart Cluster API's reconciliation of a cluster or of one pool.
  'O-PAUSE',
  'O-RESUME',
  // Issue 26 item 2: the cluster autoscaler's bounds of a worker pool, set or removed.
  'O-AUTOSCALE',
  'O-AUTOSCALE-REMOVE',
  // Issue 26 item 4: a rollout restart of a worker pool or of the control plane (rolloutAfter).
  'O-RESTART',
  // Issue 26 item 1: a worker pool's MachineHealthCheck, created, changed or removed.
  'O-MHC-CREATE',
  'O-MHC-EDIT',
  'O-MHC-DELETE',
] as const;
export type OperationId = (typeof OPERATIONS)[number];

/** Any Kubernetes object as a plan writes it. */
export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: ObjectMeta;
  [field: string]: unknown;
}

export interface Precondition {
  /** The resourceVersion the user saw. */
  resourceVersion?: string;
  /** The uid of the very object the step applies to. */
  uid?: string;
  /** Undo of a create: the uid is the created object's, known once the create succeeded. */
  uidFromCreate?: true;
  /** A JSON patch's leading `test` ops (also in `patch.ops`), for the preview. */
  tests?: JsonPatchTestOp[];
}

export type Patch =
  | { type: 'json'; ops: JsonPatchOp[] }
  /** Merge patches only for maps (annotations), never for lists such as `spec.pool` (R-POOL-4). */
  | { type: 'merge'; doc: Record<string, unknown> };

export type PropagationPolicy = 'Foreground' | 'Background' | 'Orphan';

/** Run the step only once this object is gone (a foreground delete finishes with its dependents). */
export interface WaitFor {
  kind: KindName;
  namespace: string;
  name: string;
  until: 'deleted';
  timeoutSeconds: number;
}

interface StepBase {
  kind: KindName;
  namespace: string;
  name: string;
  description: PlanMessage;
  precondition?: Precondition;
  waitFor?: WaitFor;
}

export interface CreateStep extends StepBase {
  verb: 'create';
  body: KubeObject;
  undo: DeleteStep;
}

export interface UpdateStep extends StepBase {
  verb: 'update';
  /** The full object, with `metadata.resourceVersion` as the precondition. */
  body: KubeObject;
  undo?: PatchStep;
}

export interface PatchStep extends StepBase {
  verb: 'patch';
  patch: Patch;
  undo?: PatchStep;
}

export interface DeleteStep extends StepBase {
  verb: 'delete';
  propagationPolicy?: PropagationPolicy;
  undo?: CreateStep;
  /** Why this delete has no undo. */
  irreversible?: PlanMessage;
}

export type PlanStep = CreateStep | UpdateStep | PatchStep | DeleteStep;
export type StepVerb = PlanStep['verb'];

/** One object's change, for the preview (YAML side by side plus a list of changed fields). */
export interface ObjectDiff {
  kind: KindName;
  namespace: string;
  name: string;
  change: 'create' | 'update' | 'delete';
  /** The object before; for a create that copies another object, the copied object. */
  before?: KubeObject;
  after?: KubeObject;
  /** Name of the object a created one copies (R-TPL-4, R-BOOT-3 clones). */
  clonedFrom?: string;
  changes: FieldChange[];
}

/** "Replaces N machines, at most M at a time". */
export interface RolloutImpact {
  replaces: number;
  atATime: number;
}

/** One step of a rollout restart: machines created and machines deleted at the same time. */
export interface RestartStep {
  /** New machines Cluster API creates in this step. */
  create: number;
  /** Old machines drained and deleted in this step, in the order they are picked. */
  delete: string[];
}

/** O-RESTART: what a rollout restart replaces, and in what order. */
export interface RestartEffect {
  /** The rolloutAfter the plan writes (RFC 3339, UTC, whole seconds). */
  rolloutAfter: string;
  /** The console server's clock when the plan was made (never the browser's). */
  plannedAt: string;
  /** rolloutAfter is later than plannedAt: nothing happens until then. */
  scheduled: boolean;
  /** The machines replaced (live and created before rolloutAfter), in the order they go. */
  machines: string[];
  /**
   * The rollout step by step, as Cluster API's arithmetic gives it when the new machines of each
   * step become available before the next: empty with OnDelete (a machine is replaced once
   * someone deletes it).
   */
  steps: RestartStep[];
  /**
   * How the old machine of each step is picked: the MachineDeployment's deletion order (Random:
   * Cluster API's choice, listed by name), OnDelete, or the KubeadmControlPlane's oldest first.
   */
  order: 'Random' | 'Oldest' | 'Newest' | 'OnDelete' | 'ControlPlane';
}

/** What the operation does beyond its steps, for the preview and for following it afterwards. */
export interface PlanEffects {
  /** Machines drained and deleted: exactly these for O-SCALE-DOWN-TARGETED, all for O-DELETE-POOL. */
  machinesDeleted?: string[];
  replicas?: { from: number; to: number };
  rollout?: RolloutImpact;
  /** Names of the objects the plan creates, by kind. */
  created?: { kind: KindName; name: string }[];
  /** O-RESTART: the machines it replaces, in order. */
  restart?: RestartEffect;
  notes?: PlanMessage[];
}

export interface Plan {
  operation: OperationId;
  namespace: string;
  /** The object the operation is about: the pool's MachineDeployment, the KubeadmControlPlane, the IP pool. */
  target: { kind: KindName; name: string };
  steps: PlanStep[];
  /** One runnable kubectl command per step. */
  kubectl: string[];
  issues: RuleIssue[];
  diffs: ObjectDiff[];
  effects: PlanEffects;
  /**
   * The API server's dry-run verdict on each step (verdict.ts). Planners leave it out: the BFF
   * sets it on the plan that Preview returns, from the same dry run Apply runs first.
   */
  verdict?: PlanVerdict;
}

/**
 * A plan may run when it has steps, no error issue, and no step the API server refused in its
 * dry run (the executor would stop there before any write).
 */
export function canExecute(plan: Plan): boolean {
  return plan.steps.length > 0 && !hasErrors(plan.issues) && plan.verdict?.ok !== false;
}
