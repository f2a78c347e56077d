import {
  durationToSeconds,
  secondsToDuration,
  type Machine,
  type MachineHealthCheck,
  type Node,
} from '@dcs/domain';

/**
 * The health of one MachineHealthCheck target, as upstream's `needsRemediation`
 * (internal/controllers/machinehealthcheck/machinehealthcheck_targets.go, v1.14.0) judges it, in
 * its order: a machine that reports a failure; a machine without a Node past the node start-up
 * timeout (counted from the latest of its creation, the cluster's infrastructure being ready and
 * its control plane initialized); a Node that was deleted; a Node holding one of the unhealthy
 * conditions for longer than its timeout. Otherwise healthy, with when to look again (the
 * soonest timeout still running). Times are simulated milliseconds.
 */

export const SKIP_REMEDIATION_ANNOTATION = 'cluster.x-k8s.io/skip-remediation';

export type TargetHealth =
  | { healthy: true; nextCheckMs?: number }
  | {
      healthy: false;
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
   * creation, the cluster's InfrastructureReady and ControlPlaneInitialized transitions;
   * undefined while the cluster is not that far (no start-up timeout runs yet).
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
      healthy: false,
      reason: 'MachineHasFailure',
      v2Reason: 'MachineHasFailure',
      message: text,
    };
  }
  let nextCheckMs: number | undefined;
  const soonest = (ms: number) => {
    nextCheckMs = nextCheckMs === undefined ? ms : Math.min(nextCheckMs, ms);
  };
  if (!m.status?.nodeRef?.name) {
    const timeoutS = secondsOf(mhc.spec?.nodeStartupTimeout, DEFAULT_NODE_STARTUP_TIMEOUT_S);
    if (timeoutS === 0 || t.startupFrom === undefined) return { healthy: true };
    const left = t.startupFrom + timeoutS * 1000 - now;
    if (left <= 0) {
      return {
        healthy: false,
        reason: 'NodeStartupTimeout',
        v2Reason: 'NodeStartupTimeout',
        message: `Node failed to report startup in ${secondsToDuration(timeoutS)}`,
      };
    }
    return { healthy: true, nextCheckMs: left };
  }
  if (!node) {
    return {
      healthy: false,
      reason: 'NodeNotFound',
      v2Reason: 'NodeDeleted',
      message: `Node ${m.status.nodeRef.name} has been deleted`,
    };
  }
  for (const c of mhc.spec?.unhealthyConditions ?? []) {
    const nc = node.status?.conditions?.find((x) => x.type === c.type);
    if (nc?.status !== c.status) continue;
    const timeoutS = secondsOf(c.timeout, 0);
    const since = nc.lastTransitionTime ? t.simAt(nc.lastTransitionTime) : undefined;
    const left = (since ?? now) + timeoutS * 1000 - now;
    if (left <= 0) {
      return {
        healthy: false,
        reason: 'UnhealthyNode',
        v2Reason: 'UnhealthyNode',
        message: `Condition ${c.type} on Node is reporting status ${c.status} for more than ${secondsToDuration(timeoutS)}`,
      };
    }
    soonest(left);
  }
  return nextCheckMs === undefined ? { healthy: true } : { healthy: true, nextCheckMs };
}
