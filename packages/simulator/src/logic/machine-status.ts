import type { Condition, Machine, MachinePhase } from '@dcs/domain';
import { withSummary } from './conditions';
import {
  AVAILABLE,
  BOOTSTRAP_CONFIG_READY,
  DELETING,
  HEALTH_CHECK_SUCCEEDED as V2_HEALTH_CHECK_SUCCEEDED,
  INFRASTRUCTURE_READY as V2_INFRASTRUCTURE_READY,
  NODE_HEALTHY as V2_NODE_HEALTHY,
  NODE_READY,
  READY,
  getV2,
  pausedCondition,
  setV2Conditions,
  summaryV2,
  v1beta2Of,
  v2,
  type V2Condition,
  type V2Status,
  type V2Update,
} from './v1beta2';

/** A Machine's phase and Ready summary as Cluster API v1.10 computes them (v1beta1). */

export const BOOTSTRAP_READY = 'BootstrapReady';
export const INFRASTRUCTURE_READY = 'InfrastructureReady';
export const NODE_HEALTHY = 'NodeHealthy';
export const DRAINING_SUCCEEDED = 'DrainingSucceeded';
export const HEALTH_CHECK_SUCCEEDED = 'HealthCheckSucceeded';
export const OWNER_REMEDIATED = 'OwnerRemediated';

/** machine_controller_phases.go reconcilePhase: later rules win. */
export function machinePhase(m: Machine): MachinePhase {
  const s = m.status ?? {};
  let phase: MachinePhase = (s.phase as MachinePhase | undefined) ?? 'Pending';
  if (s.bootstrapReady && !s.infrastructureReady) phase = 'Provisioning';
  if (m.spec?.providerID) phase = 'Provisioned';
  if (s.nodeRef && s.infrastructureReady) phase = 'Running';
  if (s.failureReason || s.failureMessage) phase = 'Failed';
  if (m.metadata.deletionTimestamp) phase = 'Deleting';
  return phase;
}

/**
 * The Machine's Ready: infrastructure first, then bootstrap, then health checks and draining,
 * with "n of 2 completed" while the machine is being provisioned (no providerID yet).
 */
export function withMachineReady(
  m: Machine,
  conditions: readonly Condition[],
  nowISO: string,
): Condition[] {
  return withSummary(
    conditions,
    {
      conditions: [
        INFRASTRUCTURE_READY,
        BOOTSTRAP_READY,
        HEALTH_CHECK_SUCCEEDED,
        OWNER_REMEDIATED,
        DRAINING_SUCCEEDED,
      ],
      stepCounterIf: !m.metadata.deletionTimestamp && !m.spec?.providerID,
      stepCounterIfOnly: [BOOTSTRAP_READY, INFRASTRUCTURE_READY],
    },
    nowISO,
  );
}

// --- v1beta2 (internal/controllers/machine/machine_controller_status.go, v1.14.0) -----------

/** The Deleting step of a Machine being deleted (reconcileDelete's deletingReason / message). */
export interface DeletingStep {
  reason: string;
  message: string;
}

export interface MachineV2Input {
  /** The Machine with the v1beta1 status about to be written. */
  m: Machine;
  /** The bootstrap config: its kind, whether it exists, and v1beta2 Ready (when it writes one). */
  bootstrap: { kind: string; exists: boolean; ready?: V2Update | undefined };
  /** The infrastructure machine (a v1beta1-contract provider: no v1beta2 Ready to mirror). */
  infra: { kind: string; exists: boolean };
  cluster: {
    infrastructureProvisioned: boolean;
    controlPlaneInitialized: boolean;
    paused: boolean;
  };
  /** The Node's Ready condition, when the Node exists (the simulated kubelet's). */
  nodeReady: { status: V2Status; message: string } | undefined;
  /** While deleting: the step reconcileDelete reached. */
  deleting?: DeletingStep | undefined;
  /** Condition types added to Ready (KCP's on its machines), besides spec.readinessGates. */
  readinessGates?: readonly string[] | undefined;
  /** The owner's verdict (MachineSet or KCP); kept from the current status when undefined. */
  upToDate?: V2Update | undefined;
  /** Simulated ms since the deletionTimestamp and since the drain started (stale-deletion notes). */
  deletingForMs?: number | undefined;
  drainingForMs?: number | undefined;
  generation: number;
  nowISO: string;
}

const FIFTEEN_MINUTES = 15 * 60_000;
const FIVE_MINUTES = 5 * 60_000;

/** calculateDeletingConditionForSummary: the Deleting condition as the Ready summary shows it. */
export function deletingForSummary(
  deleting: V2Condition | V2Update | undefined,
  deletingForMs: number | undefined,
  drainingForMs: number | undefined,
): V2Update {
  let msg = 'Machine deletion in progress';
  if (deleting) {
    msg = `Machine deletion in progress, stage: ${deleting.reason}`;
    if ((deletingForMs ?? 0) > FIFTEEN_MINUTES) {
      msg = `Machine deletion in progress since more than 15m, stage: ${deleting.reason}`;
      if (deleting.reason === DELETING_DRAINING_NODE && (drainingForMs ?? 0) > FIVE_MINUTES) {
        const delays = drainDelayReasons(deleting.message);
        if (delays.length) msg += `, delay likely due to ${delays.join(', ')}`;
      }
    }
  }
  return v2(DELETING, 'True', 'Deleting', msg);
}

/**
 * What a drain message says delays it, in upstream's order (calculateDeletingConditionForSummary).
 * Reproduced faithfully, quirk included: upstream looks for the lowercase "cannot evict pod as it
 * would violate the pod's disruption budget." while the 429 it records (kube-apiserver's
 * eviction.go, `EvictionResult.ConditionMessage`) says "Cannot evict pod …": case-sensitive, so
 * the summary never names PodDisruptionBudgets for a drain a budget blocks.
 */
export function drainDelayReasons(message: string): string[] {
  const out: string[] = [];
  if (message.includes("cannot evict pod as it would violate the pod's disruption budget."))
    out.push('PodDisruptionBudgets');
  if (message.includes('deletionTimestamp set, but still not removed from the Node'))
    out.push('Pods not terminating');
  if (message.includes('failed to evict Pod')) out.push('Pod eviction errors');
  if (message.includes('waiting for completion')) out.push('Pods not completed yet');
  return out;
}

export const DELETING_DRAINING_NODE = 'DrainingNode';

/** kube-apiserver's 429 message for an eviction a PodDisruptionBudget refuses. */
export const EVICTION_REFUSED = "Cannot evict pod as it would violate the pod's disruption budget.";

/**
 * What one round of Cluster API's drain did (internal/controllers/machine/drain EvictionResult):
 * Pods as `namespace/name`, each list in the order upstream builds it.
 */
export interface EvictionResult {
  /** Pods that had a deletionTimestamp, then the ones whose eviction was just accepted. */
  podsDeletionTimestampSet: string[];
  /** By error message (a 429's message and causes joined, as upstream joins them). */
  podsFailedEviction: ReadonlyMap<string, readonly string[]>;
  podsToTriggerEvictionLater: string[];
}

/** EvictionResult.DrainCompleted. */
export function drainCompleted(r: EvictionResult): boolean {
  return (
    r.podsDeletionTimestampSet.length === 0 &&
    r.podsFailedEviction.size === 0 &&
    r.podsToTriggerEvictionLater.length === 0
  );
}

/** util/log.ListToString: the first `n` items, then "... (N more)". */
export function listToString(items: readonly string[], n: number): string {
  const out: string[] = [];
  for (let i = 0; i < items.length; i++) {
    if (i > n - 1) {
      out.push(`... (${String(items.length - n)} more)`);
      break;
    }
    out.push(items[i] ?? '');
  }
  return out.join(', ');
}

/** The header alone, what reconcileDelete writes before the first round of the drain. */
export function drainHeader(startISO: string): string {
  return `Drain not completed yet (started at ${startISO}):`;
}

/**
 * EvictionResult.ConditionMessage (Cluster API v1.14): the message of v1beta2's Deleting
 * (DrainingNode) and v1beta1's DrainingSucceeded while the drain goes on. At most 5 distinct
 * errors, sorted, each with at most 3 Pods; the rest summed up.
 */
export function drainConditionMessage(startISO: string, r: EvictionResult): string {
  if (drainCompleted(r)) return '';
  let msg = drainHeader(startISO);
  if (r.podsDeletionTimestampSet.length > 0)
    msg += `\n* Pods with deletionTimestamp that still exist: ${listToString(r.podsDeletionTimestampSet, 3)}`;
  if (r.podsFailedEviction.size > 0) {
    // Go's sort.Strings: byte order.
    const errors = [...r.podsFailedEviction.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    msg += '\n* Pods with eviction failed:';
    for (const e of errors.slice(0, 5))
      msg += `\n  * ${e}: ${listToString(r.podsFailedEviction.get(e) ?? [], 3)}`;
    const skipped = errors.slice(5);
    if (skipped.length > 0) {
      const pods = skipped.reduce((n, e) => n + (r.podsFailedEviction.get(e)?.length ?? 0), 0);
      msg += '\n  * ... ';
      msg += skipped.length === 1 ? '(1 more error ' : `(${String(skipped.length)} more errors `;
      msg += pods === 1 ? 'applying to 1 Pod)' : `applying to ${String(pods)} Pods)`;
    }
  }
  if (r.podsToTriggerEvictionLater.length > 0)
    msg += `\n* After above Pods have been removed from the Node, the following Pods will be evicted: ${listToString(r.podsToTriggerEvictionLater, 3)}`;
  return msg;
}

/**
 * A drain simulated by time, for a cluster without a workload (no workload API server, or more
 * Nodes than the workload's bound): the one web Pod such a Node would run, in the message
 * upstream would write for it: being evicted, or (stuck) refused by a budget over it.
 */
export function timedDrainResult(nodeName: string, stuck: boolean): EvictionResult {
  const pod = `default/web-${nodeName.slice(-5)}`;
  return stuck
    ? {
        podsDeletionTimestampSet: [],
        podsFailedEviction: new Map([
          [
            `${EVICTION_REFUSED} The disruption budget drain-stuck-${nodeName} needs 1 healthy pods and has 1 currently`,
            [pod],
          ],
        ]),
        podsToTriggerEvictionLater: [],
      }
    : {
        podsDeletionTimestampSet: [pod],
        podsFailedEviction: new Map(),
        podsToTriggerEvictionLater: [],
      };
}

function nodeConditions(input: MachineV2Input): V2Update[] {
  const { m, cluster } = input;
  const both = (status: V2Status, reason: string, message: string) => [
    v2(NODE_READY, status, reason, message),
    v2(V2_NODE_HEALTHY, status, reason, message),
  ];
  if (!cluster.infrastructureProvisioned)
    return both(
      'Unknown',
      'InspectionFailed',
      'Waiting for Cluster status.initialization.infrastructureProvisioned to be true',
    );
  if (!cluster.controlPlaneInitialized)
    return both(
      'Unknown',
      'InspectionFailed',
      'Waiting for Cluster control plane to be initialized',
    );
  const node = input.nodeReady;
  if (node) {
    const message = node.status !== 'True' && node.message ? `* Node.Ready: ${node.message}` : '';
    const readyReason =
      node.status === 'True'
        ? 'NodeReady'
        : node.status === 'False'
          ? 'NodeNotReady'
          : 'NodeReadyUnknown';
    // summarizeNodeV1Beta2Conditions: the pressure conditions of the simulated Node are all False.
    const healthy =
      node.status === 'True'
        ? v2(V2_NODE_HEALTHY, 'True', 'NodeHealthy')
        : v2(
            V2_NODE_HEALTHY,
            node.status === 'False' ? 'False' : 'Unknown',
            node.status === 'False' ? 'NodeNotHealthy' : 'NodeHealthyUnknown',
            `* Node.Ready: ${node.message || `Condition is ${node.status}`}`,
          );
    return [v2(NODE_READY, node.status, readyReason, message), healthy];
  }
  const nodeName = m.status?.nodeRef?.name;
  if (m.metadata.deletionTimestamp)
    return nodeName
      ? both('False', 'NodeDeleted', `Node ${nodeName} has been deleted`)
      : both('Unknown', 'NodeDoesNotExist', 'Node does not exist');
  if (nodeName)
    return both(
      'False',
      'NodeDeleted',
      `Node ${nodeName} has been deleted while the Machine still exists`,
    );
  const providerID = m.spec?.providerID;
  if (providerID)
    return both(
      'Unknown',
      'InspectionFailed',
      `Waiting for a Node with spec.providerID ${providerID} to exist`,
    );
  return both(
    'Unknown',
    'InspectionFailed',
    `Waiting for ${m.spec?.infrastructureRef.kind ?? 'InfrastructureMachine'} to report spec.providerID`,
  );
}

/** The Machine's `status.v1beta2` conditions (updateStatus): one copy of the list per write. */
export function machineV2Conditions(input: MachineV2Input): V2Condition[] {
  const { m, bootstrap, infra } = input;
  const s = m.status ?? {};
  const deleting = Boolean(m.metadata.deletionTimestamp);
  const updates: V2Update[] = [];

  // setBootstrapReadyCondition
  const bootstrapKind = bootstrap.kind;
  const dataSecretCreated = Boolean(s.bootstrapReady);
  if (!m.spec?.bootstrap.configRef) {
    updates.push(v2(BOOTSTRAP_CONFIG_READY, 'True', 'DataSecretProvided'));
  } else if (bootstrap.exists) {
    const mirrored = bootstrap.ready;
    updates.push(
      mirrored
        ? { ...mirrored, type: BOOTSTRAP_CONFIG_READY }
        : dataSecretCreated
          ? v2(BOOTSTRAP_CONFIG_READY, 'True', 'Ready')
          : v2(
              BOOTSTRAP_CONFIG_READY,
              'False',
              'NotReady',
              `${bootstrapKind} status.ready is false`,
            ),
    );
  } else if (deleting && dataSecretCreated) {
    updates.push(
      v2(BOOTSTRAP_CONFIG_READY, 'False', 'ObjectDeleted', `${bootstrapKind} has been deleted`),
    );
  } else {
    updates.push(
      v2(BOOTSTRAP_CONFIG_READY, 'False', 'ObjectDoesNotExist', `${bootstrapKind} does not exist`),
    );
  }

  // setInfrastructureReadyCondition (fallback condition: DCSMachine reports no v1beta2 Ready)
  const provisioned = Boolean(s.infrastructureReady);
  if (infra.exists) {
    updates.push(
      provisioned
        ? v2(V2_INFRASTRUCTURE_READY, 'True', 'Ready')
        : v2(V2_INFRASTRUCTURE_READY, 'False', 'NotReady', `${infra.kind} status.ready is false`),
    );
  } else if (deleting) {
    updates.push(
      provisioned
        ? v2(V2_INFRASTRUCTURE_READY, 'False', 'ObjectDeleted', `${infra.kind} has been deleted`)
        : v2(
            V2_INFRASTRUCTURE_READY,
            'False',
            'ObjectDoesNotExist',
            `${infra.kind} does not exist`,
          ),
    );
  } else if (provisioned) {
    updates.push(
      v2(
        V2_INFRASTRUCTURE_READY,
        'False',
        'ObjectDeleted',
        `${infra.kind} has been deleted while the Machine still exists`,
      ),
    );
  } else {
    updates.push(
      v2(V2_INFRASTRUCTURE_READY, 'False', 'ObjectDoesNotExist', `${infra.kind} does not exist`),
    );
  }

  updates.push(...nodeConditions(input));

  // setDeletingCondition: not updated while deleting unless reconcileDelete ran.
  if (!deleting) updates.push(v2(DELETING, 'False', 'NotDeleting'));
  else if (input.deleting)
    updates.push(v2(DELETING, 'True', input.deleting.reason, input.deleting.message));
  if (input.upToDate) updates.push(input.upToDate);
  updates.push(pausedCondition(input.cluster.paused, m.metadata.annotations, 'Machine'));

  const generation = input.generation;
  const previous = v1beta2Of(s)?.conditions;
  let conditions = setV2Conditions(previous, updates, generation, input.nowISO);

  // setReadyCondition
  const gates =
    (m.spec?.readinessGates as { conditionType?: string; polarity?: string }[] | undefined) ?? [];
  const types = [
    DELETING,
    BOOTSTRAP_CONFIG_READY,
    V2_INFRASTRUCTURE_READY,
    V2_NODE_HEALTHY,
    V2_HEALTH_CHECK_SUCCEEDED,
  ];
  const negative = [DELETING];
  for (const g of gates) {
    if (!g.conditionType) continue;
    types.push(g.conditionType);
    if (g.polarity === 'Negative') negative.push(g.conditionType);
  }
  for (const g of input.readinessGates ?? []) if (!types.includes(g)) types.push(g);
  const ready = summaryV2(conditions, READY, {
    types,
    ignoreIfMissing: [V2_HEALTH_CHECK_SUCCEEDED],
    negativePolarity: negative,
    reasons: ['NotReady', 'ReadyUnknown', 'Ready'],
    overrides: deleting
      ? [deletingForSummary(getV2(conditions, DELETING), input.deletingForMs, input.drainingForMs)]
      : [],
    // While deleting, the external objects and the Node being gone is expected: info, not issues.
    priority: deleting
      ? (c) =>
          (c.type === BOOTSTRAP_CONFIG_READY || c.type === V2_INFRASTRUCTURE_READY) &&
          (c.reason === 'ObjectDeleted' || c.reason === 'ObjectDoesNotExist')
            ? 2
            : c.type === V2_NODE_HEALTHY &&
                (c.reason === 'NodeDeleted' || c.reason === 'NodeDoesNotExist')
              ? 2
              : undefined
      : undefined,
    transform: groupControlPlaneMessages,
  });
  // setAvailableCondition
  const available =
    ready.status === 'True'
      ? v2(AVAILABLE, 'True', 'Available')
      : v2(AVAILABLE, 'False', 'NotReady');
  conditions = setV2Conditions(conditions, [ready, available], generation, input.nowISO);
  return conditions;
}

/** transformControlPlaneAndEtcdConditions: one line for the control-plane pods when they agree. */
export function groupControlPlaneMessages(messages: string[]): string[] {
  const isCp = (c: string) =>
    c.startsWith('* APIServer') ||
    c.startsWith('* ControllerManager') ||
    c.startsWith('* Scheduler') ||
    c === '* EtcdPodHealthy';
  const out: string[] = [];
  let count = 0;
  let cpMsg = '';
  for (const m of messages) {
    const sep = m.indexOf(':');
    if (sep === -1) {
      out.push(m);
      continue;
    }
    const c = m.slice(0, sep);
    const msg = m.slice(sep + 1);
    if (!isCp(c)) {
      out.push(m);
      continue;
    }
    if (cpMsg === '') {
      cpMsg = msg;
      out.push(`* Control plane components:${msg}`);
      count++;
      continue;
    }
    if (cpMsg !== msg) return messages;
    count++;
  }
  return count === 1 ? messages : out;
}
