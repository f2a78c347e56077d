import type { Condition, KubeadmControlPlane, Machine } from '@dcs/domain';
import { falseCondition, getCondition } from './conditions';
import { parseGoDuration, formatGoDuration } from './durations';
import {
  HEALTH_CHECK_SUCCEEDED,
  OWNER_REMEDIATED,
  REMEDIATING,
  aggregateV2,
  getV2,
  isTrueV2,
  listToString,
  v2,
  v2ConditionsOf,
  type V2Update,
} from './v1beta2';

/**
 * KubeadmControlPlane's remediation of unhealthy control-plane machines, as Cluster API v1.14.0's
 * `reconcileUnhealthyMachines` (controlplane/kubeadm/internal/controllers/remediation.go) decides
 * it, in its order:
 *
 * 1. OwnerRemediated is dropped from machines whose health check passes again (not deleting).
 * 2. A stale `remediation-in-progress` annotation (a machine created after its timestamp) is dropped.
 * 3. The machines to be remediated (v1beta2 HealthCheckSucceeded False and OwnerRemediated False);
 *    none: nothing to do. One is picked, "the most broken" first (pickForRemediation).
 * 4. Nothing while it is already deleting, or while another remediation is in progress.
 * 5. Deferred while the Cluster's topology version has not reached the KCP yet.
 * 6. The retry limits (checkRetryLimits): the machine's `remediation-for` annotation, within
 *    minHealthyPeriod of its timestamp, makes this a retry: deferred within retryPeriod, refused
 *    past maxRetry.
 * 7. Once the control plane is initialized: refused with one machine or fewer; deferred while a
 *    machine not marked unhealthy has no Node yet (a scale up) or while a machine is deleting;
 *    refused when what is left would have no healthy set of control-plane components or would
 *    lose etcd quorum, or when no healthy machine is left to take over etcd leadership.
 * 8. Otherwise the machine is deleted, OwnerRemediated says so, and the KCP's
 *    `remediation-in-progress` annotation records {machine, timestamp, retryCount}; the machine
 *    created next carries it as `remediation-for` and the KCP's annotation is removed.
 *
 * Each refusal writes upstream's reason and message on the machine's OwnerRemediated, v1beta1
 * (WaitingForRemediation, severity Warning) and v1beta2 (CannotBeRemediated or
 * RemediationDeferred). The simulator has no etcd client: the etcd members are taken to be the
 * control-plane machines with a Node (stacked etcd, one member each), healthy when their
 * EtcdMemberHealthy is True. Pure; times are simulated milliseconds, timestamps wall-clock text.
 */

export const REMEDIATION_IN_PROGRESS_ANNOTATION =
  'controlplane.cluster.x-k8s.io/remediation-in-progress';
export const REMEDIATION_FOR_ANNOTATION = 'controlplane.cluster.x-k8s.io/remediation-for';
/** Manual remediation (annotations.HasRemediateMachine): remediated first. */
export const REMEDIATE_MACHINE_ANNOTATION = 'cluster.x-k8s.io/remediate-machine';
/** controlplanev1.DefaultMinHealthyPeriodSeconds: one hour. */
export const DEFAULT_MIN_HEALTHY_PERIOD_MS = 3_600_000;

// v1beta1 reasons (api/core/v1beta2 …V1Beta1Reason) and v1beta2 reasons (KCP's).
export const WAITING_FOR_REMEDIATION = 'WaitingForRemediation';
export const REMEDIATION_IN_PROGRESS = 'RemediationInProgress';
export const CANNOT_BE_REMEDIATED = 'CannotBeRemediated';
export const REMEDIATION_DEFERRED = 'RemediationDeferred';
export const MACHINE_DELETING = 'MachineDeleting';

/** The JSON of both annotations (RemediationData). */
export interface RemediationData {
  machine: string;
  timestamp: string;
  retryCount: number;
}

/** RemediationDataFromAnnotation; undefined when the value is not such JSON. */
export function parseRemediationData(value: string): RemediationData | undefined {
  let v: unknown;
  try {
    v = JSON.parse(value);
  } catch {
    return undefined;
  }
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return undefined;
  const o = v as Record<string, unknown>;
  const machine = typeof o.machine === 'string' ? o.machine : '';
  const timestamp = typeof o.timestamp === 'string' ? o.timestamp : '';
  const retryCount = typeof o.retryCount === 'number' ? Math.trunc(o.retryCount) : 0;
  return { machine, timestamp, retryCount };
}

/** Marshal: the field order of the Go struct. */
export const formatRemediationData = (d: RemediationData): string =>
  JSON.stringify({ machine: d.machine, timestamp: d.timestamp, retryCount: d.retryCount });

const v2Of = (m: Machine) => v2ConditionsOf(m);
const isFalseV2 = (m: Machine, type: string) => getV2(v2Of(m), type)?.status === 'False';

/** collections.IsUnhealthy: the health check failed (v1beta2 HealthCheckSucceeded False). */
export const isUnhealthy = (m: Machine): boolean => isFalseV2(m, HEALTH_CHECK_SUCCEEDED);

/** collections.IsUnhealthyAndOwnerRemediated: failed, and its owner is to remediate it. */
export const isToBeRemediatedByKcp = (m: Machine): boolean =>
  isUnhealthy(m) && isFalseV2(m, OWNER_REMEDIATED);

const hasNode = (m: Machine) => Boolean(m.status?.nodeRef?.name);
const created = (m: Machine) => Date.parse(m.metadata.creationTimestamp ?? '') || 0;

/**
 * pickMachineToBeRemediated as a comparator (negative: `a` first): the remediate-machine
 * annotation; no Node; (stacked etcd) etcd member, then etcd pod, not healthy; API server,
 * controller manager, scheduler not healthy; then the oldest, then the name.
 */
export function remediationOrder(a: Machine, b: Machine, etcdManaged = true): number {
  const flag = (m: Machine, f: (m: Machine) => boolean) => (f(m) ? 0 : 1);
  const annotated = (m: Machine) =>
    m.metadata.annotations?.[REMEDIATE_MACHINE_ANNOTATION] !== undefined;
  let d = flag(a, annotated) - flag(b, annotated);
  if (d) return d;
  d = flag(a, (m) => !hasNode(m)) - flag(b, (m) => !hasNode(m));
  if (d) return d;
  const types = [
    ...(etcdManaged ? ['EtcdMemberHealthy', 'EtcdPodHealthy'] : []),
    'APIServerPodHealthy',
    'ControllerManagerPodHealthy',
    'SchedulerPodHealthy',
  ];
  for (const type of types) {
    const notTrue = (m: Machine) => !isTrueV2(v2Of(m), type);
    d = flag(a, notTrue) - flag(b, notTrue);
    if (d) return d;
  }
  d = created(a) - created(b);
  if (d) return d;
  const an = a.metadata.name ?? '';
  const bn = b.metadata.name ?? '';
  return an < bn ? -1 : an > bn ? 1 : 0;
}

/** getMachineToBeRemediated: the "most broken" of the machines to be remediated. */
export function pickForRemediation(
  machines: readonly Machine[],
  etcdManaged = true,
): Machine | undefined {
  return [...machines].sort((a, b) => remediationOrder(a, b, etcdManaged))[0];
}

/** The OwnerRemediated a refusal or the deletion writes on the machine, in both lists. */
export interface OwnerRemediatedUpdate {
  v1: Condition;
  v2: V2Update;
}

const refused = (
  v2Reason: string,
  message: string,
  v1Message = message,
): OwnerRemediatedUpdate => ({
  v1: falseCondition(OWNER_REMEDIATED, WAITING_FOR_REMEDIATION, 'Warning', v1Message),
  v2: v2(OWNER_REMEDIATED, 'False', v2Reason, message),
});

export type RemediationOutcome =
  /** Nothing to remediate now (none marked, the picked one deleting, another in progress). */
  | { type: 'none' }
  /** An annotation could not be read: the reconcile fails, as upstream's does. */
  | { type: 'error'; message: string }
  /** A precondition failed: the condition to write on the machine; look again after `recheckMs`. */
  | { type: 'blocked'; machine: string; condition: OwnerRemediatedUpdate; recheckMs?: number }
  /** Delete the machine, write the condition and the KCP's annotation. */
  | {
      type: 'remediate';
      machine: string;
      condition: OwnerRemediatedUpdate;
      annotation: string;
    };

export interface RemediationPlan {
  /** Machines to drop OwnerRemediated from: their health check passes again. */
  clearOwnerRemediated: { name: string; v1: boolean; v2: boolean }[];
  /** Drop the KCP's remediation-in-progress annotation: it is stale. */
  dropStaleAnnotation: boolean;
  outcome: RemediationOutcome;
}

export interface RemediationInput {
  kcp: KubeadmControlPlane;
  /** The KCP's machines. */
  machines: readonly Machine[];
  /** The KCP's status says the control plane is initialized. */
  initialized: boolean;
  /** Simulated now. */
  now: number;
  /** The now to write in the annotation (RFC 3339, whole seconds, wall clock). */
  nowISO: string;
  /** The simulated instant of a wall-clock timestamp. */
  simAt: (iso: string) => number | undefined;
  /** The Cluster's spec.topology.version when it has a topology. */
  topologyVersion?: string | undefined;
}

interface RemediationStrategy {
  maxRetry?: number;
  retryPeriod?: string;
  minHealthyPeriod?: string;
}

const strategyOf = (kcp: KubeadmControlPlane): RemediationStrategy =>
  (kcp.spec as { remediationStrategy?: RemediationStrategy } | undefined)?.remediationStrategy ??
  {};

/** Stacked etcd unless the KCP's cluster configuration names an external one. */
export function isEtcdManaged(kcp: KubeadmControlPlane): boolean {
  const etcd = (
    kcp.spec?.kubeadmConfigSpec?.clusterConfiguration as
      { etcd?: { external?: unknown } } | undefined
  )?.etcd;
  return etcd?.external === undefined;
}

/** What reconcileUnhealthyMachines does this reconcile (see the module comment). */
export function planRemediation(input: RemediationInput): RemediationPlan {
  const { kcp, machines } = input;
  const plan: RemediationPlan = {
    clearOwnerRemediated: [],
    dropStaleAnnotation: false,
    outcome: { type: 'none' },
  };
  if (kcp.metadata.deletionTimestamp) return plan; // reconcileDelete: no remediation
  for (const m of machines) {
    if (m.metadata.deletionTimestamp) continue;
    const c1 = m.status?.conditions;
    const v1 =
      getCondition(c1, HEALTH_CHECK_SUCCEEDED)?.status === 'True' &&
      getCondition(c1, OWNER_REMEDIATED)?.status === 'False';
    const v2c = v2Of(m);
    const v2s =
      getV2(v2c, HEALTH_CHECK_SUCCEEDED)?.status === 'True' &&
      getV2(v2c, OWNER_REMEDIATED)?.status === 'False';
    if (v1 || v2s) plan.clearOwnerRemediated.push({ name: m.metadata.name ?? '', v1, v2: v2s });
  }

  let inProgress = kcp.metadata.annotations?.[REMEDIATION_IN_PROGRESS_ANNOTATION];
  if (inProgress !== undefined) {
    const data = parseRemediationData(inProgress);
    if (!data) {
      plan.outcome = {
        type: 'error',
        message: `failed to unmarshal value ${inProgress} for ${REMEDIATION_IN_PROGRESS_ANNOTATION} annotation`,
      };
      return plan;
    }
    const at = Date.parse(data.timestamp);
    if (machines.some((m) => created(m) > (Number.isNaN(at) ? 0 : at))) {
      plan.dropStaleAnnotation = true;
      inProgress = undefined;
    }
  }

  const candidates = machines.filter(isToBeRemediatedByKcp);
  if (candidates.length === 0) return plan;
  const etcdManaged = isEtcdManaged(kcp);
  const target = pickForRemediation(candidates, etcdManaged);
  if (!target || target.metadata.deletionTimestamp) return plan;
  if (inProgress !== undefined) return plan; // another remediation is in progress
  const name = target.metadata.name ?? '';
  const block = (condition: OwnerRemediatedUpdate, recheckMs?: number): RemediationPlan => ({
    ...plan,
    outcome: {
      type: 'blocked',
      machine: name,
      condition,
      ...(recheckMs !== undefined ? { recheckMs } : {}),
    },
  });

  if (input.topologyVersion !== undefined && input.topologyVersion !== kcp.spec?.version) {
    return block(
      refused(
        REMEDIATION_DEFERRED,
        `KubeadmControlPlane can't remediate while waiting for a version upgrade to ${input.topologyVersion} to be propagated from Cluster.spec.topology`,
      ),
    );
  }

  const retry = checkRetryLimits(kcp, target, input);
  if (retry.type === 'error') return { ...plan, outcome: retry };
  if (retry.type === 'blocked') return block(retry.condition, retry.recheckMs);

  if (input.initialized) {
    if (machines.length <= 1) {
      return block(
        refused(
          CANNOT_BE_REMEDIATED,
          "KubeadmControlPlane can't remediate if current replicas are less or equal to 1",
        ),
      );
    }
    // HealthyMachines (not marked unhealthy by a health check) without a Node: still provisioning.
    const healthy = machines.filter((m) => !isUnhealthy(m));
    if (healthy.some((m) => !hasNode(m))) {
      return block(
        refused(
          REMEDIATION_DEFERRED,
          'KubeadmControlPlane waiting for control plane Machine provisioning to complete before triggering remediation',
          'KubeadmControlPlane waiting for control plane machine provisioning to complete before triggering remediation',
        ),
      );
    }
    if (machines.some((m) => m.metadata.deletionTimestamp)) {
      return block(
        refused(
          REMEDIATION_DEFERRED,
          'KubeadmControlPlane waiting for control plane Machine deletion to complete before triggering remediation',
          'KubeadmControlPlane waiting for control plane machine deletion to complete before triggering remediation',
        ),
      );
    }
    if (!canSafelyRemediate(machines, target, etcdManaged)) {
      return block(
        refused(
          CANNOT_BE_REMEDIATED,
          "KubeadmControlPlane can't remediate this Machine because this could result in loosing Kubernetes control plane components or in etcd quorum loss",
        ),
      );
    }
    if (etcdManaged) {
      // The etcd leadership goes to the newest healthy machine: there must be one.
      const leader = healthy.filter((m) => m !== target);
      if (leader.length === 0) {
        return block({
          v1: falseCondition(
            OWNER_REMEDIATED,
            'RemediationFailed',
            'Warning',
            'A control plane machine needs remediation, but there is no healthy machine to forward etcd leadership to. Skipping remediation',
          ),
          v2: v2(
            OWNER_REMEDIATED,
            'False',
            CANNOT_BE_REMEDIATED,
            "KubeadmControlPlane can't remediate this Machine because there is no healthy Machine to forward etcd leadership to",
          ),
        });
      }
    }
  }

  return {
    ...plan,
    outcome: {
      type: 'remediate',
      machine: name,
      condition: {
        v1: falseCondition(OWNER_REMEDIATED, REMEDIATION_IN_PROGRESS, 'Warning'),
        v2: v2(OWNER_REMEDIATED, 'False', MACHINE_DELETING, 'Machine is deleting'),
      },
      annotation: formatRemediationData({
        machine: name,
        timestamp: input.nowISO,
        retryCount: retry.retryCount,
      }),
    },
  };
}

type RetryCheck =
  | { type: 'ok'; retryCount: number }
  | { type: 'error'; message: string }
  | { type: 'blocked'; condition: OwnerRemediatedUpdate; recheckMs?: number };

/** checkRetryLimits: a retry when the machine replaced one remediated within minHealthyPeriod. */
export function checkRetryLimits(
  kcp: KubeadmControlPlane,
  machine: Machine,
  input: Pick<RemediationInput, 'now' | 'simAt'>,
): RetryCheck {
  const value = machine.metadata.annotations?.[REMEDIATION_FOR_ANNOTATION];
  if (value === undefined) return { type: 'ok', retryCount: 0 };
  const last = parseRemediationData(value);
  if (!last) {
    return {
      type: 'error',
      message: `failed to unmarshal value ${value} for ${REMEDIATION_FOR_ANNOTATION} annotation`,
    };
  }
  const strategy = strategyOf(kcp);
  const minHealthy = parseGoDuration(strategy.minHealthyPeriod) ?? DEFAULT_MIN_HEALTHY_PERIOD_MS;
  const retryPeriod = parseGoDuration(strategy.retryPeriod) ?? 0;
  // A missing timestamp: both periods taken as expired.
  const lastAt =
    (last.timestamp ? input.simAt(last.timestamp) : undefined) ??
    input.now - 2 * Math.max(minHealthy, retryPeriod);
  if (!(lastAt + minHealthy > input.now)) return { type: 'ok', retryCount: 0 };
  const count = last.retryCount;
  if (lastAt + retryPeriod > input.now) {
    const period = formatGoDuration(retryPeriod);
    return {
      type: 'blocked',
      condition: refused(
        REMEDIATION_DEFERRED,
        `KubeadmControlPlane can't remediate this machine because the operation already failed in the latest ${period} (RetryPeriodSeconds)`,
      ),
      recheckMs: Math.max(1, lastAt + retryPeriod - input.now),
    };
  }
  if (strategy.maxRetry !== undefined && count >= strategy.maxRetry) {
    return {
      type: 'blocked',
      condition: refused(
        CANNOT_BE_REMEDIATED,
        `KubeadmControlPlane can't remediate this machine because the operation already failed ${String(strategy.maxRetry)} times (MaxRetry)`,
      ),
    };
  }
  return { type: 'ok', retryCount: count + 1 };
}

/**
 * canSafelyRemediateMachine: without the machine, at least one machine with every control-plane
 * component (and, stacked, the etcd pod) healthy; and, stacked, etcd keeping quorum — the
 * members being the machines with a Node, the one removed that of the target (a target without
 * a Node removes none: safe, as upstream when it cannot find the member).
 */
export function canSafelyRemediate(
  machines: readonly Machine[],
  target: Machine,
  etcdManaged: boolean,
): boolean {
  const others = machines.filter((m) => m !== target);
  const components = [
    'APIServerPodHealthy',
    'ControllerManagerPodHealthy',
    'SchedulerPodHealthy',
    ...(etcdManaged ? ['EtcdPodHealthy'] : []),
  ];
  if (!others.some((m) => components.every((t) => isTrueV2(v2Of(m), t)))) return false;
  if (!etcdManaged || !hasNode(target)) return true;
  const members = others.filter(hasNode);
  if (members.length === 0) return false; // upstream: an empty member list cannot be judged
  const unhealthy = members.filter((m) => !isTrueV2(v2Of(m), 'EtcdMemberHealthy')).length;
  const quorum = Math.floor(members.length / 2) + 1;
  return members.length - unhealthy >= quorum;
}

/** The KCP's v1beta2 Remediating (setRemediatingCondition). */
export function remediatingCondition(machines: readonly Machine[]): V2Update {
  const toRemediate = machines.filter(isToBeRemediatedByKcp);
  if (toRemediate.length === 0) {
    const names = machines
      .filter(isUnhealthy)
      .map((m) => m.metadata.name ?? '')
      .sort();
    const message = names.length
      ? `${names.length > 1 ? 'Machines' : 'Machine'} ${listToString(names)} ${names.length > 1 ? 'are' : 'is'} not healthy (not to be remediated by KubeadmControlPlane)`
      : '';
    return v2(REMEDIATING, 'False', 'NotRemediating', message);
  }
  const merged = aggregateV2(
    toRemediate.map((m) => ({
      kind: 'Machine',
      name: m.metadata.name ?? '',
      conditions: v2Of(m),
      controlPlane: true,
    })),
    OWNER_REMEDIATED,
    REMEDIATING,
    ['Remediating', 'Remediating', 'Remediating'],
  );
  return v2(REMEDIATING, 'True', 'Remediating', merged.message);
}

/** status.lastRemediation: the one in progress, else the newest a machine carries. */
export function lastRemediation(
  kcp: KubeadmControlPlane,
  machines: readonly Machine[],
): RemediationData | undefined {
  const inProgress = kcp.metadata.annotations?.[REMEDIATION_IN_PROGRESS_ANNOTATION];
  if (inProgress !== undefined) return parseRemediationData(inProgress);
  let last: RemediationData | undefined;
  for (const m of machines) {
    const v = m.metadata.annotations?.[REMEDIATION_FOR_ANNOTATION];
    const d = v === undefined ? undefined : parseRemediationData(v);
    if (d && (!last || Date.parse(last.timestamp) < Date.parse(d.timestamp))) last = d;
  }
  return last;
}
