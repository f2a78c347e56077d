import {
  durationToSeconds,
  secondsToDuration,
  type Machine,
  type MachineHealthCheck,
  type Node,
} from '@dcs/domain';

/**
 * The health of one MachineHealthCheck target, as upstream's `needsRemediation` and
 * `healthCheckTargets` (internal/controllers/machinehealthcheck/machinehealthcheck_targets.go,
 * v1.14.0) judge it, in their order: a machine that reports a failure; a Node that was deleted;
 * nothing judged while the cluster is not far enough (its infrastructure not ready, or its control
 * plane not initialized for a worker); a machine without a Node past the node start-up timeout
 * (counted from the latest of its creation, the cluster's infrastructure being ready, its control
 * plane initialized and its own infrastructure ready); a Node holding one of the unhealthy
 * conditions for longer than its timeout.
 *
 * Three verdicts, as upstream's three lists: `unhealthy` (to remediate), `pending` (a timeout
 * still running, with when to look again, or nothing to judge by yet: neither remediated nor
 * counted in `currentHealthy`, so a machine whose Node went NotReady a second ago, or a
 * replacement whose Node has not registered, is not "healthy") and `healthy` (a Node, none of
 * the conditions). Times are simulated milliseconds.
 */

export const SKIP_REMEDIATION_ANNOTATION = 'cluster.x-k8s.io/skip-remediation';

export type TargetHealth =
  | { verdict: 'healthy' }
  | { verdict: 'pending'; nextCheckMs?: number }
  | {
      verdict: 'unhealthy';
      /** v1beta1's reason of HealthCheckSucceeded False. */
      reason: 'MachineHasFailure' | 'NodeStartupTimeout' | 'NodeNotFound' | 'UnhealthyNode';
      /** v1beta2's reason (NodeNotFound is NodeDeleted there). */
      v2Reason: 'MachineHasFailure' | 'NodeStartupTimeout' | 'NodeDeleted' | 'UnhealthyNode';
      /** The message both write (v1beta2's is prefixed "Health check failed: "). */
      message: string;
    };

export interface TargetInput {
  machine: Machine;
  /** The Machine's Node; undefined when it has none or it is gone. */
  node: Node | undefined;
  mhc: MachineHealthCheck;
  /** Simulated now. */
  now: number;
  /** The simulated instant of a timestamp the API server or a controller wrote (wall clock). */
  simAt: (iso: string) => number | undefined;
  /**
   * The simulated instant from which a machine without a Node is timed: the latest of its
   * creation, the cluster's InfrastructureReady and ControlPlaneInitialized transitions and the
   * machine's own InfrastructureReady; undefined while the cluster is not far enough to judge
   * the machine (its infrastructure not ready, or its control plane not initialized and the
   * machine a worker).
   */
  startupFrom: number | undefined;
}

/** A Go duration's whole seconds; `fallback` when absent or unreadable (the webhook refuses those). */
const secondsOf = (d: string | undefined, fallback: number): number => {
  if (d === undefined) return fallback;
  try {
    return durationToSeconds(d);
  } catch {
    return fallback;
  }
};

/** Upstream's default node start-up timeout when the spec leaves it out. */
export const DEFAULT_NODE_STARTUP_TIMEOUT_S = 600;

export function targetHealth(t: TargetInput): TargetHealth {
  const { machine: m, node, mhc, now } = t;
  const failure = m.status?.failureReason ?? m.status?.failureMessage;
  if (failure) {
    const text = [
      m.status?.failureReason ? `FailureReason: ${m.status.failureReason}` : '',
      m.status?.failureMessage ? `FailureMessage: ${m.status.failureMessage}` : '',
    ]
      .filter(Boolean)
      .join(', ');
    return {
      verdict: 'unhealthy',
      reason: 'MachineHasFailure',
      v2Reason: 'MachineHasFailure',
      message: text,
    };
  }
  const nodeName = m.status?.nodeRef?.name;
  if (nodeName && !node) {
    return {
      verdict: 'unhealthy',
      reason: 'NodeNotFound',
      v2Reason: 'NodeDeleted',
      message: `Node ${nodeName} has been deleted`,
    };
  }
  // Not judged yet: counted healthy only when it has a Node (upstream's fall-through).
  const notJudged: TargetHealth = node ? { verdict: 'healthy' } : { verdict: 'pending' };
  if (t.startupFrom === undefined) return notJudged;
  if (!node) {
    const timeoutS = secondsOf(mhc.spec?.nodeStartupTimeout, DEFAULT_NODE_STARTUP_TIMEOUT_S);
    if (timeoutS === 0) return notJudged;
    const left = t.startupFrom + timeoutS * 1000 - now;
    if (left <= 0) {
      return {
        verdict: 'unhealthy',
        reason: 'NodeStartupTimeout',
        v2Reason: 'NodeStartupTimeout',
        message: `Node failed to report startup in ${secondsToDuration(timeoutS)}`,
      };
    }
    return { verdict: 'pending', nextCheckMs: left };
  }
  let nextCheckMs: number | undefined;
  for (const c of mhc.spec?.unhealthyConditions ?? []) {
    const nc = node.status?.conditions?.find((x) => x.type === c.type);
    if (nc?.status !== c.status) continue;
    const timeoutS = secondsOf(c.timeout, 0);
    const since = nc.lastTransitionTime ? t.simAt(nc.lastTransitionTime) : undefined;
    const left = (since ?? now) + timeoutS * 1000 - now;
    if (left <= 0) {
      return {
        verdict: 'unhealthy',
        reason: 'UnhealthyNode',
        v2Reason: 'UnhealthyNode',
        message: `Condition ${c.type} on Node is reporting status ${c.status} for more than ${secondsToDuration(timeoutS)}`,
      };
    }
    nextCheckMs = nextCheckMs === undefined ? left : Math.min(nextCheckMs, left);
  }
  return nextCheckMs === undefined ? { verdict: 'healthy' } : { verdict: 'pending', nextCheckMs };
}
