import {
  ANNOTATION_DESIRED_REPLICAS,
  ANNOTATION_MAX_REPLICAS,
  ANNOTATION_REVISION,
  CAPI_GROUP,
  CAPI_VERSION,
  LABEL_CLUSTER_NAME,
  LABEL_DEPLOYMENT_NAME,
  LABEL_MACHINE_TEMPLATE_HASH,
  type MachineDeployment,
  type MachineSet,
  type OwnerReference,
} from '@dcs/domain';
import { isSimulatorHook } from './failures';
import { sameJson, newMachineSetIdentity, sameRolloutFields, type MachineTemplate } from './names';
import type { Random } from './random';
import { maxSurgeOf, type DeploymentState } from './rollout';
import type { Labels } from './selectors';

/**
 * What a MachineDeployment wants of its MachineSets (machinedeployment_sync.go
 * computeDesiredMachineSet, mdutil.ComputeMachineSetAnnotations, FindNewMachineSet), including
 * the defaults the Cluster API webhook would have applied to the MachineDeployment.
 */

export const ANNOTATION_REVISION_HISTORY = 'machinedeployment.clusters.x-k8s.io/revision-history';
export const ANNOTATION_DISABLE_MACHINE_CREATE =
  'machineset.cluster.x-k8s.io/disable-machine-create';
const SKIPPED_ANNOTATIONS = new Set([
  'kubectl.kubernetes.io/last-applied-configuration',
  ANNOTATION_REVISION,
  ANNOTATION_REVISION_HISTORY,
  ANNOTATION_DESIRED_REPLICAS,
  ANNOTATION_MAX_REPLICAS,
  'cluster.x-k8s.io/conversion-data',
]);

export function deploymentState(md: MachineDeployment): DeploymentState {
  const strategy = md.spec?.strategy;
  return {
    replicas: md.spec?.replicas ?? 1,
    strategy: strategy?.type === 'OnDelete' ? 'OnDelete' : 'RollingUpdate',
    ...(strategy?.rollingUpdate?.maxSurge !== undefined
      ? { maxSurge: strategy.rollingUpdate.maxSurge }
      : {}),
    ...(strategy?.rollingUpdate?.maxUnavailable !== undefined
      ? { maxUnavailable: strategy.rollingUpdate.maxUnavailable }
      : {}),
  };
}

/**
 * The selector and template labels after the webhook's defaulting: the cluster name always, and
 * the deployment name when the user gave no selector (the reference YAML has `matchLabels: null`).
 */
export function effectiveSelector(md: MachineDeployment): Labels {
  const name = md.metadata.name ?? '';
  const cluster = md.spec?.clusterName ?? '';
  const given = md.spec?.selector?.matchLabels ?? {};
  const base: Labels = Object.keys(given).length ? { ...given } : { [LABEL_DEPLOYMENT_NAME]: name };
  return { ...base, [LABEL_CLUSTER_NAME]: cluster };
}

export function effectiveTemplate(md: MachineDeployment): MachineTemplate {
  const t = md.spec?.template;
  const labels = { ...(t?.metadata?.labels ?? {}), ...effectiveSelector(md) };
  return {
    metadata: {
      labels,
      ...(t?.metadata?.annotations ? { annotations: t.metadata.annotations } : {}),
    },
    spec: t?.spec ?? {
      clusterName: md.spec?.clusterName ?? '',
      bootstrap: {},
      infrastructureRef: {},
    },
  };
}

const revisionOf = (ms: MachineSet) => {
  const v = Number(ms.metadata.annotations?.[ANNOTATION_REVISION]);
  return Number.isInteger(v) ? v : 0;
};

export function maxRevision(sets: readonly MachineSet[]): number {
  return sets.reduce((m, ms) => Math.max(m, revisionOf(ms)), 0);
}

/** ComputeMachineSetAnnotations */
export function machineSetAnnotations(
  md: MachineDeployment,
  oldSets: readonly MachineSet[],
  existing: MachineSet | undefined,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(md.metadata.annotations ?? {})) {
    if (!SKIPPED_ANNOTATIONS.has(k) && !isSimulatorHook(k)) out[k] = v;
  }
  let revision = String(maxRevision(oldSets) + 1);
  if (existing) {
    const current = existing.metadata.annotations?.[ANNOTATION_REVISION];
    // A revision never goes down, even when older sets were deleted meanwhile.
    if (current !== undefined && Number(revision) < Number(current)) revision = current;
    const history = existing.metadata.annotations?.[ANNOTATION_REVISION_HISTORY];
    if (history !== undefined) out[ANNOTATION_REVISION_HISTORY] = history;
    if (current !== undefined && current !== revision) {
      out[ANNOTATION_REVISION_HISTORY] = history ? `${history},${current}` : current;
    }
    // Kept across in-place updates: it is the OnDelete rollout's, not the deployment's.
    const disabled = existing.metadata.annotations?.[ANNOTATION_DISABLE_MACHINE_CREATE];
    if (disabled !== undefined) out[ANNOTATION_DISABLE_MACHINE_CREATE] = disabled;
  }
  const state = deploymentState(md);
  out[ANNOTATION_REVISION] = revision;
  out[ANNOTATION_DESIRED_REPLICAS] = String(state.replicas);
  out[ANNOTATION_MAX_REPLICAS] = String(state.replicas + maxSurgeOf(state));
  return out;
}

export function controllerRef(
  owner: { metadata: { name?: string | undefined; uid?: string | undefined } },
  apiVersion: string,
  kind: string,
): OwnerReference {
  return {
    apiVersion,
    kind,
    name: owner.metadata.name ?? '',
    uid: owner.metadata.uid ?? '',
    controller: true,
    blockOwnerDeletion: true,
  };
}

/**
 * Whether `rolloutAfter` makes a set created at `createdAt` out of date at the wall-clock instant
 * `wallNow` (Cluster API v1.14's FindNewAndOldMachineSets: `rolloutAfter < now` and the set
 * created before it). Timestamps are wall-clock times.
 */
export function rolloutAfterExpired(
  rolloutAfter: string | undefined,
  createdAt: string | undefined,
  wallNow: number,
): boolean {
  if (!rolloutAfter) return false;
  const after = Date.parse(rolloutAfter);
  if (Number.isNaN(after) || !(after < wallNow)) return false;
  const created = Date.parse(createdAt ?? '');
  // A set created at the very instant is the new one (cluster-api#12260).
  return Number.isNaN(created) || created < after;
}

/**
 * Simulated ms until a `rolloutAfter` still to come has passed (the controller wakes then, and the
 * restart starts on time); undefined when it is unset, unreadable or already past. At least a
 * second: a manual clock's simulated time does not follow the wall clock.
 */
export function untilRolloutAfter(
  rolloutAfter: string | undefined,
  clock: { wallNow(): number; now(): number; simAt(wallMs: number): number },
): number | undefined {
  if (!rolloutAfter) return undefined;
  const after = Date.parse(rolloutAfter);
  if (Number.isNaN(after) || after < clock.wallNow()) return undefined;
  return Math.max(1000, clock.simAt(after + 1) - clock.now());
}

/**
 * FindNewMachineSet: of the sets whose template matches the deployment's (rollout fields) and
 * that an expired `spec.rolloutAfter` does not make old, the one with the most replicas, the
 * oldest on a tie (MachineSetsByDecreasingReplicas). Two such sets exist after a restart (O-RESTART:
 * once the time has passed, sets created before it are old and a new set of the same template is
 * created): the older one, scaled to 0, must not become the new one again when a later restart is
 * scheduled.
 */
export function findNewMachineSet(
  md: MachineDeployment,
  sets: readonly MachineSet[],
  wallNow = Date.now(),
): MachineSet | undefined {
  const wanted = effectiveTemplate(md);
  const rolloutAfter = md.spec?.rolloutAfter;
  const sorted = [...sets].sort(
    (a, b) =>
      (b.spec?.replicas ?? 0) - (a.spec?.replicas ?? 0) ||
      Date.parse(a.metadata.creationTimestamp ?? '') -
        Date.parse(b.metadata.creationTimestamp ?? '') ||
      ((a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1),
  );
  return sorted.find(
    (ms) =>
      ms.spec?.template &&
      sameRolloutFields(ms.spec.template, wanted) &&
      !rolloutAfterExpired(rolloutAfter, ms.metadata.creationTimestamp, wallNow),
  );
}

/** The fields of a set a deployment updates in place (no rollout): labels, annotations, timeouts. */
function inPlaceFields(
  md: MachineDeployment,
  hashLabel: string,
  annotations: Record<string, string>,
) {
  const template = effectiveTemplate(md);
  const rolling = md.spec?.strategy?.rollingUpdate;
  return {
    labels: {
      ...(template.metadata?.labels ?? {}),
      [LABEL_MACHINE_TEMPLATE_HASH]: hashLabel,
      [LABEL_DEPLOYMENT_NAME]: md.metadata.name ?? '',
    },
    annotations,
    templateLabels: {
      ...(template.metadata?.labels ?? {}),
      [LABEL_MACHINE_TEMPLATE_HASH]: hashLabel,
    },
    templateAnnotations: { ...(template.metadata?.annotations ?? {}) },
    minReadySeconds: md.spec?.minReadySeconds ?? 0,
    deletePolicy: rolling?.deletePolicy,
    nodeDrainTimeout: template.spec.nodeDrainTimeout,
    nodeDeletionTimeout: template.spec.nodeDeletionTimeout,
    nodeVolumeDetachTimeout: template.spec.nodeVolumeDetachTimeout,
  };
}

/** A new MachineSet for the deployment's current template. */
export function newMachineSet(
  md: MachineDeployment,
  oldSets: readonly MachineSet[],
  replicas: number,
  rng: Random,
): MachineSet {
  const template = effectiveTemplate(md);
  const { name, templateHashLabel } = newMachineSetIdentity(md.metadata.name ?? '', template, rng);
  const f = inPlaceFields(md, templateHashLabel, machineSetAnnotations(md, oldSets, undefined));
  const spec = { ...template.spec };
  setOptional(spec, 'nodeDrainTimeout', f.nodeDrainTimeout);
  setOptional(spec, 'nodeDeletionTimeout', f.nodeDeletionTimeout);
  setOptional(spec, 'nodeVolumeDetachTimeout', f.nodeVolumeDetachTimeout);
  return {
    apiVersion: `${CAPI_GROUP}/${CAPI_VERSION}`,
    kind: 'MachineSet',
    metadata: {
      name,
      namespace: md.metadata.namespace ?? '',
      labels: f.labels,
      annotations: f.annotations,
      ownerReferences: [controllerRef(md, `${CAPI_GROUP}/${CAPI_VERSION}`, 'MachineDeployment')],
    },
    spec: {
      clusterName: md.spec?.clusterName ?? '',
      replicas,
      ...(f.deletePolicy ? { deletePolicy: f.deletePolicy } : {}),
      minReadySeconds: f.minReadySeconds,
      selector: {
        matchLabels: { ...effectiveSelector(md), [LABEL_MACHINE_TEMPLATE_HASH]: templateHashLabel },
      },
      template: {
        metadata: { labels: f.templateLabels, annotations: f.templateAnnotations },
        spec,
      },
    },
  };
}

function setOptional<T extends object, K extends keyof T>(o: T, k: K, v: T[K] | undefined): void {
  if (v === undefined) Reflect.deleteProperty(o, k);
  else o[k] = v;
}

/** The set with the deployment's in-place mutable fields applied, or undefined when unchanged. */
export function updatedMachineSet(
  md: MachineDeployment,
  ms: MachineSet,
  oldSets: readonly MachineSet[],
): MachineSet | undefined {
  const hash = ms.metadata.labels?.[LABEL_MACHINE_TEMPLATE_HASH] ?? '';
  const f = inPlaceFields(md, hash, machineSetAnnotations(md, oldSets, ms));
  const spec = ms.spec;
  if (!spec?.template) return undefined;
  const templateSpec = { ...spec.template.spec };
  setOptional(templateSpec, 'nodeDrainTimeout', f.nodeDrainTimeout);
  setOptional(templateSpec, 'nodeDeletionTimeout', f.nodeDeletionTimeout);
  setOptional(templateSpec, 'nodeVolumeDetachTimeout', f.nodeVolumeDetachTimeout);
  // Annotations Cluster API does not manage (a user's, kubectl's) stay as they are.
  const annotations = { ...(ms.metadata.annotations ?? {}), ...f.annotations };
  const next: MachineSet = {
    ...ms,
    metadata: {
      ...ms.metadata,
      labels: { ...(ms.metadata.labels ?? {}), ...f.labels },
      annotations,
    },
    spec: {
      ...spec,
      minReadySeconds: f.minReadySeconds,
      template: {
        ...spec.template,
        metadata: {
          ...spec.template.metadata,
          labels: f.templateLabels,
          annotations: f.templateAnnotations,
        },
        spec: templateSpec,
      },
    },
  };
  if (next.spec) setOptional(next.spec, 'deletePolicy', f.deletePolicy);
  return sameJson(next, ms) ? undefined : next;
}
