import {
  CAPI_GROUP,
  CAPI_VERSION,
  LABEL_CLUSTER_NAME,
  LABEL_DEPLOYMENT_NAME,
  LABEL_SET_NAME,
  type Machine,
  type MachineSet,
  type ObjectReference,
  type OwnerReference,
} from '@dcs/domain';
import { ANNOTATION_CLONED_FROM_GROUPKIND, ANNOTATION_CLONED_FROM_NAME } from './kcp';
import { generateName } from './names';
import type { Random } from './random';

/**
 * A MachineSet's new Machine and the objects cloned for it from the templates
 * (machineset_controller.go computeDesiredMachine, controllers/external/template.go
 * GenerateTemplate): the bootstrap config and infrastructure machine take the machine's name.
 */

export const MACHINE_FINALIZER = 'machine.cluster.x-k8s.io';
export const MACHINE_API_VERSION = `${CAPI_GROUP}/${CAPI_VERSION}`;

export function ownerRef(
  owner: {
    apiVersion: string;
    kind: string;
    metadata: { name?: string | undefined; uid?: string | undefined };
  },
  controller: boolean,
): OwnerReference {
  return {
    apiVersion: owner.apiVersion,
    kind: owner.kind,
    name: owner.metadata.name ?? '',
    uid: owner.metadata.uid ?? '',
    ...(controller ? { controller: true, blockOwnerDeletion: true } : {}),
  };
}

/** machineLabelsFromMachineSet */
export function machineLabels(ms: MachineSet): Record<string, string> {
  const labels: Record<string, string> = { ...(ms.spec?.template?.metadata?.labels ?? {}) };
  labels[LABEL_SET_NAME] = ms.metadata.name ?? '';
  const md = ms.metadata.labels?.[LABEL_DEPLOYMENT_NAME];
  if (md !== undefined) labels[LABEL_DEPLOYMENT_NAME] = md;
  labels[LABEL_CLUSTER_NAME] = ms.spec?.clusterName ?? '';
  return labels;
}

/** The next Machine of a MachineSet; its references are filled in once the clones exist. */
export function desiredMachine(ms: MachineSet, rng: Random): Machine {
  const { name } = generateName(`${ms.metadata.name ?? ''}-`, rng);
  const templateSpec = ms.spec?.template?.spec;
  return {
    apiVersion: MACHINE_API_VERSION,
    kind: 'Machine',
    metadata: {
      name,
      namespace: ms.metadata.namespace ?? '',
      labels: machineLabels(ms),
      annotations: { ...(ms.spec?.template?.metadata?.annotations ?? {}) },
      ownerReferences: [ownerRef(ms, true)],
      finalizers: [MACHINE_FINALIZER],
    },
    spec: {
      ...(templateSpec ?? {}),
      clusterName: ms.spec?.clusterName ?? '',
      bootstrap: {},
      infrastructureRef: {},
    },
  };
}

/** The node timeouts: they bound a machine's teardown and change in place, never rolling it. */
const NODE_TIMEOUTS = [
  'nodeDrainTimeout',
  'nodeDeletionTimeout',
  'nodeVolumeDetachTimeout',
] as const;

/**
 * The Machine with its MachineSet's node timeouts, or undefined when it has them already
 * (machineset_controller.go syncMachines, Cluster API ≥ 1.5). Unlike labels and annotations,
 * these reach a Machine being deleted too, so a longer nodeDrainTimeout set on the pool
 * (O-EDIT-STRATEGY) bounds a drain already running.
 */
export function withSetTimeouts(ms: MachineSet, m: Machine): Machine | undefined {
  const wanted = ms.spec?.template?.spec;
  if (!m.spec) return undefined;
  if (NODE_TIMEOUTS.every((f) => m.spec?.[f] === wanted?.[f])) return undefined;
  const {
    nodeDrainTimeout: _drain,
    nodeDeletionTimeout: _deletion,
    nodeVolumeDetachTimeout: _detach,
    ...rest
  } = m.spec;
  const timeouts = Object.fromEntries(
    NODE_TIMEOUTS.flatMap((f) => (wanted?.[f] === undefined ? [] : [[f, wanted[f]]])),
  );
  return { ...m, spec: { ...rest, ...timeouts } };
}

export interface TemplateObject {
  apiVersion: string;
  kind: string;
  metadata: { name?: string | undefined; namespace?: string | undefined };
  spec?: { template?: { metadata?: Record<string, unknown>; spec?: unknown } } | undefined;
}

const groupOf = (apiVersion: string) =>
  apiVersion.includes('/') ? (apiVersion.split('/')[0] ?? '') : '';

/**
 * GenerateTemplate: `spec.template.spec` of the template under the given name, labelled with the
 * machine's labels and the cluster name, annotated with where it was cloned from.
 */
export function cloneFromTemplate(input: {
  template: TemplateObject;
  name: string;
  namespace: string;
  clusterName: string;
  labels: Record<string, string>;
  annotations: Record<string, string>;
  owner: OwnerReference;
}): { apiVersion: string; kind: string; metadata: Machine['metadata']; spec: unknown } {
  const { template } = input;
  const tmeta = (template.spec?.template?.metadata ?? {}) as {
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
  };
  const kind = template.kind.replace(/Template$/, '');
  return {
    apiVersion: template.apiVersion,
    kind,
    metadata: {
      name: input.name,
      namespace: input.namespace,
      labels: { ...(tmeta.labels ?? {}), ...input.labels, [LABEL_CLUSTER_NAME]: input.clusterName },
      annotations: {
        ...(tmeta.annotations ?? {}),
        ...input.annotations,
        [ANNOTATION_CLONED_FROM_NAME]: template.metadata.name ?? '',
        [ANNOTATION_CLONED_FROM_GROUPKIND]: `${template.kind}.${groupOf(template.apiVersion)}`,
      },
      ownerReferences: [input.owner],
    },
    spec: structuredClone(template.spec?.template?.spec ?? {}),
  };
}

/** An object reference to a created object, as Machine.spec refs carry them. */
export function refTo(obj: {
  apiVersion: string;
  kind: string;
  metadata: { name?: string | undefined; namespace?: string | undefined; uid?: string | undefined };
}): ObjectReference {
  return {
    apiVersion: obj.apiVersion,
    kind: obj.kind,
    name: obj.metadata.name ?? '',
    namespace: obj.metadata.namespace ?? '',
    ...(obj.metadata.uid ? { uid: obj.metadata.uid } : {}),
  };
}
