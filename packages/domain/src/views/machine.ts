import { failureOf, vmStateOf } from '../dcs-fields';
import {
  ANNOTATION_DELETE_MACHINE,
  CONTROL_PLANE_POOL_ID,
  LABEL_CLUSTER_NAME,
  LABEL_CONTROL_PLANE,
  LABEL_DEPLOYMENT_NAME,
  LABEL_SET_NAME,
} from '../labels';
import type { Machine } from '../schemas/capi';
import type { DCSMachine, IpPoolEntry } from '../schemas/dcs';
import {
  conditionViews,
  findCondition,
  v1beta2ConditionViews,
  type ConditionView,
} from './conditions';
import { deletionFactsOf, drainRefusalsOf, type MachineDeletionFacts } from './deletion';
import { diagnoseMachine, type Diagnosis, type DiagnosisOptions } from './diagnosis';
import type { PdbRefusal } from './drain';
import { isMachineDeleting, optional, parseTime } from './util';

/** One machine as the Nodes tab and a pool's machine list show it. */
export interface MachineView {
  /** The Machine's name: unique in its namespace, stable for the machine's life. */
  id: string;
  name: string;
  namespace: string;
  cluster: string;
  /** `control-plane`, the MachineDeployment's name, or absent for a machine of no pool. */
  poolId?: string;
  machineSet?: string;
  phase: string;
  /** Running, with a node whose Ready and NodeHealthy conditions are True, and not deleting. */
  ready: boolean;
  /** Built from the pool's current template (for worker pools: owned by the new MachineSet). */
  upToDate?: boolean;
  nodeName?: string;
  ip?: string;
  hostname?: string;
  version?: string;
  providerID?: string;
  /** The Machine's creationTimestamp: what its age is counted from. */
  createdAt?: string;
  deleting: boolean;
  /** Annotated `cluster.x-k8s.io/delete-machine` (R-MD-6). */
  markedForDeletion: boolean;
  conditions: ConditionView[];
  /**
   * Cluster API v1beta2's conditions of the Machine (issue 23), stale ones marked; absent where
   * the cluster writes only v1beta1 status.
   */
  v1beta2Conditions?: ConditionView[];
  /**
   * A deleting machine's step, from v1beta2's `Deleting` condition (issue 23): `reason` names it
   * (DrainingNode, WaitingForVolumeDetach, …) and `message` says, while draining, which Pods are
   * still being evicted and which evictions a PodDisruptionBudget refuses.
   */
  deletionStep?: { reason: string; message?: string; since?: string };
  /**
   * A deleting machine's deletion facts (issue 26 item 6): the inputs of `deletionView` but the
   * clock (v1beta2 Deleting, v1beta1 DrainingSucceeded, the drain's start, nodeDrainTimeout, the
   * exclude-node-draining annotation), for the machine page's Deletion panel.
   */
  deletion?: MachineDeletionFacts;
  /**
   * The PodDisruptionBudgets refusing this machine's drain now (issue 26 item 6), parsed once
   * from its drain message: the Nodes row's badge and the pool card's problem read them.
   */
  drainBlockedBy?: PdbRefusal[];
  /** The DCSMachine's conditions (the VM on DCS), problems first; absent when it reports none. */
  infrastructureConditions?: ConditionView[];
  dcsMachineName?: string;
  vmState?: string;
  failureReason?: string;
  failureMessage?: string;
  resourceVersion?: string;
  /** Present when the machine is failed or stuck (T-1). */
  diagnosis?: Diagnosis;
}

/** The pool a machine belongs to, by its labels: `control-plane` or its MachineDeployment. */
export function poolIdOf(machine: Machine): string | undefined {
  const labels = machine.metadata.labels ?? {};
  if (LABEL_CONTROL_PLANE in labels) return CONTROL_PLANE_POOL_ID;
  return labels[LABEL_DEPLOYMENT_NAME];
}

const conditionTrueOrAbsent = (machine: Machine, type: string) => {
  const c = findCondition(machine.status?.conditions, type);
  return c === undefined || c.status === 'True';
};

/**
 * Whether a machine counts as ready: Running, its node known, Ready and NodeHealthy True where
 * reported, not being deleted. Honest pool statuses are built on this.
 */
export function isMachineReady(machine: Machine): boolean {
  return (
    !isMachineDeleting(machine) &&
    machine.status?.phase === 'Running' &&
    machine.status.nodeRef !== undefined &&
    conditionTrueOrAbsent(machine, 'Ready') &&
    conditionTrueOrAbsent(machine, 'NodeHealthy')
  );
}

/**
 * Whether a ready machine has been ready for `minReadySeconds` (Cluster API's "available"):
 * counted from the Ready condition's last transition.
 */
export function isMachineAvailable(machine: Machine, minReadySeconds: number, now: Date): boolean {
  return factsAvailable(machineFacts(machine), minReadySeconds, now);
}

/**
 * What a pool's counts read of one machine (replicas, rollout, status): derived once per Machine
 * object, so that counting a pool of n machines after one of them changed reads n small records
 * instead of scanning n condition lists (issue 14; MachineViewMemo keeps them between rebuilds).
 */
export interface MachineFacts {
  machine: Machine;
  deleting: boolean;
  ready: boolean;
  /** The Ready condition's last transition (epoch ms): what availability counts from. */
  readySince: number | undefined;
  /** Its MachineSet (label). */
  set: string | undefined;
}

export function machineFacts(machine: Machine): MachineFacts {
  const ready = isMachineReady(machine);
  return {
    machine,
    deleting: isMachineDeleting(machine),
    ready,
    readySince: ready
      ? parseTime(findCondition(machine.status?.conditions, 'Ready')?.lastTransitionTime)
      : undefined,
    set: machine.metadata.labels?.[LABEL_SET_NAME],
  };
}

/** isMachineAvailable over facts: the same rule, one place. */
export function factsAvailable(f: MachineFacts, minReadySeconds: number, now: Date): boolean {
  if (!f.ready) return false;
  if (minReadySeconds <= 0) return true;
  return f.readySince === undefined || now.getTime() - f.readySince >= minReadySeconds * 1000;
}

/** The machine's primary address: InternalIP, else the IP it claimed from its pool, else any IP. */
export function machineIp(
  machine: Machine,
  dcsMachine: DCSMachine | undefined,
): string | undefined {
  const addresses = machine.status?.addresses ?? [];
  return (
    addresses.find((a) => a.type === 'InternalIP')?.address ??
    dcsMachine?.status?.networkConfig?.ip ??
    addresses.find((a) => a.type === 'ExternalIP')?.address
  );
}

export interface MachineViewOptions extends DiagnosisOptions {
  /** The IP-pool entry the machine claimed, for its hostname. */
  ipPoolEntry?: Pick<IpPoolEntry, 'hostname'>;
  upToDate?: boolean;
}

/** The step of a deleting machine, where its v1beta2 `Deleting` condition says it. */
export function deletionStepOf(machine: Machine): MachineView['deletionStep'] {
  const c = machine.status?.v1beta2?.conditions?.find((x) => x.type === 'Deleting');
  if (c?.status !== 'True' || !c.reason) return undefined;
  return {
    reason: c.reason,
    ...optional('message', c.message),
    ...optional('since', c.lastTransitionTime),
  };
}

export function machineView(
  machine: Machine,
  dcsMachine: DCSMachine | undefined,
  now: Date,
  options: MachineViewOptions = {},
): MachineView {
  const { metadata: meta, spec, status } = machine;
  const name = meta.name ?? '';
  const addresses = status?.addresses ?? [];
  const hostname =
    addresses.find((a) => a.type === 'Hostname')?.address ?? options.ipPoolEntry?.hostname;
  const dcsFailure = dcsMachine ? failureOf(dcsMachine) : {};
  const failureReason = status?.failureReason ?? dcsFailure.reason;
  const failureMessage = status?.failureMessage ?? dcsFailure.message;
  const vmState = dcsMachine ? vmStateOf(dcsMachine) : undefined;
  const poolId = poolIdOf(machine);
  const machineSet = meta.labels?.[LABEL_SET_NAME];
  const ip = machineIp(machine, dcsMachine);
  const diagnosis = diagnoseMachine(machine, dcsMachine, now, options);
  const deleting = isMachineDeleting(machine);
  const deletion = deletionFactsOf(machine);
  const refusals = drainRefusalsOf(deletion);
  return {
    id: name,
    name,
    namespace: meta.namespace ?? '',
    cluster: spec?.clusterName ?? meta.labels?.[LABEL_CLUSTER_NAME] ?? '',
    ...(poolId !== undefined ? { poolId } : {}),
    ...(machineSet !== undefined ? { machineSet } : {}),
    phase: deleting && status?.phase !== 'Deleted' ? 'Deleting' : (status?.phase ?? 'Pending'),
    ready: isMachineReady(machine),
    ...(options.upToDate !== undefined ? { upToDate: options.upToDate } : {}),
    ...(status?.nodeRef?.name ? { nodeName: status.nodeRef.name } : {}),
    ...(ip ? { ip } : {}),
    ...(hostname ? { hostname } : {}),
    ...(spec?.version ? { version: spec.version } : {}),
    ...(spec?.providerID ? { providerID: spec.providerID } : {}),
    ...(meta.creationTimestamp ? { createdAt: meta.creationTimestamp } : {}),
    deleting,
    markedForDeletion: meta.annotations?.[ANNOTATION_DELETE_MACHINE] !== undefined,
    conditions: conditionViews(status?.conditions),
    ...optional('v1beta2Conditions', v1beta2ConditionViews(machine)),
    ...optional('deletionStep', deletionStepOf(machine)),
    ...optional('deletion', deletion),
    ...(refusals.length > 0 ? { drainBlockedBy: refusals } : {}),
    ...(dcsMachine?.status?.conditions?.length
      ? { infrastructureConditions: conditionViews(dcsMachine.status.conditions) }
      : {}),
    ...(dcsMachine?.metadata.name ? { dcsMachineName: dcsMachine.metadata.name } : {}),
    ...(vmState ? { vmState } : {}),
    ...(failureReason ? { failureReason } : {}),
    ...(failureMessage ? { failureMessage } : {}),
    ...(meta.resourceVersion ? { resourceVersion: meta.resourceVersion } : {}),
    ...(diagnosis ? { diagnosis } : {}),
  };
}
