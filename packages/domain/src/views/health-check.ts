import { durationToSeconds } from '../conversion/duration';
import { healthChecksOfPool } from '../planners/health-check';
import {
  parseUnhealthyRange,
  type RemediationLimit,
  type UnhealthyNodeCondition,
} from '../rules/health-check';
import type { Machine, MachineDeployment, MachineHealthCheck } from '../schemas/capi';
import { findCondition } from './conditions';

/**
 * A worker pool's health check on its card and page (issue 26 item 1): the MachineHealthCheck
 * whose selector matches the pool's machines in its cluster, what it checks, its limit, what its
 * controller reports (expected machines, currently healthy, remediations allowed, the targets,
 * the RemediationAllowed condition), and, per target machine, its health and remediation (the
 * Machine's HealthCheckSucceeded and OwnerRemediated conditions: the same types in v1beta1's
 * `status.conditions` and v1beta2's, which the hub keeps under `status.v1beta2`).
 */

export interface HealthCheckConditionView {
  status: 'True' | 'False' | 'Unknown';
  reason?: string;
  message?: string;
  lastTransitionTime?: string;
}

export interface HealthCheckMachineView {
  name: string;
  /** HealthCheckSucceeded: True healthy, False unhealthy (reason, message say why), absent: not yet checked. */
  healthCheck?: HealthCheckConditionView;
  /** OwnerRemediated: False while its MachineSet is to remediate it (delete and replace it). */
  ownerRemediated?: HealthCheckConditionView;
  /** Being remediated: marked for its owner, or already deleting after the mark. */
  remediating: boolean;
  deleting: boolean;
}

export interface PoolHealthCheckView {
  name: string;
  resourceVersion?: string;
  uid?: string;
  unhealthyNodeConditions: UnhealthyNodeCondition[];
  /** Absent: not set (upstream's default, 600 s, applies); 0: disabled. */
  nodeStartupTimeoutSeconds?: number;
  limit: RemediationLimit;
  /** Whether a remediation template hands remediation to an external remediator. */
  externalRemediation: boolean;
  expectedMachines?: number;
  currentHealthy?: number;
  remediationsAllowed?: number;
  targets: string[];
  /** The health check's RemediationAllowed condition (False: too many unhealthy, held back). */
  remediationAllowed?: HealthCheckConditionView;
  /** Its status is older than its spec (observedGeneration < generation). */
  stale: boolean;
  /** The pool's machines it targets, unhealthy first. */
  machines: HealthCheckMachineView[];
  /** Other health checks that match the same machines (R-MHC-5: the console shows, not edits them). */
  others: string[];
}

const seconds = (d: unknown): number | undefined => {
  if (typeof d !== 'string') return undefined;
  try {
    return durationToSeconds(d);
  } catch {
    return undefined;
  }
};

function limitOf(mhc: MachineHealthCheck): RemediationLimit {
  const range = mhc.spec?.unhealthyRange;
  if (typeof range === 'string' && range !== '') {
    const parsed = parseUnhealthyRange(range);
    if (parsed) return { kind: 'range', ...parsed };
  }
  const max = mhc.spec?.maxUnhealthy;
  return max === undefined ? { kind: 'none' } : { kind: 'maxUnhealthy', maxUnhealthy: max };
}

interface AnyCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  reason?: string | undefined;
  message?: string | undefined;
  lastTransitionTime?: string | undefined;
}

function conditionView(c: AnyCondition | undefined): HealthCheckConditionView | undefined {
  if (!c) return undefined;
  return {
    status: c.status,
    ...(c.reason ? { reason: c.reason } : {}),
    ...(c.message ? { message: c.message } : {}),
    ...(c.lastTransitionTime ? { lastTransitionTime: c.lastTransitionTime } : {}),
  };
}

/** v1beta2's condition when the hub carries it (reason always set), else v1beta1's. */
function machineCondition(m: Machine, type: string): HealthCheckConditionView | undefined {
  const v2 = m.status?.v1beta2?.conditions?.find((c) => c.type === type);
  return conditionView(v2 ?? findCondition(m.status?.conditions, type));
}

function statusCondition(mhc: MachineHealthCheck, type: string) {
  const v2 = mhc.status?.v1beta2?.conditions?.find((c) => c.type === type);
  return conditionView(v2 ?? findCondition(mhc.status?.conditions, type));
}

/** The health check a pool shows (see poolHealthCheckView) and every one matching its machines. */
function shownHealthCheck(
  md: MachineDeployment,
  checks: readonly MachineHealthCheck[],
): { mhc: MachineHealthCheck; matching: MachineHealthCheck[] } | undefined {
  const matching = healthChecksOfPool(md, checks).sort((a, b) =>
    (a.metadata.name ?? '').localeCompare(b.metadata.name ?? ''),
  );
  const own = `${md.metadata.name ?? ''}-mhc`;
  const mhc = matching.find((c) => c.metadata.name === own) ?? matching[0];
  return mhc ? { mhc, matching } : undefined;
}

/**
 * The line of a worker pool's card (issue 26 item 1): which health check watches its machines
 * and what its controller last counted; `held` when remediation is held back past its limit.
 */
export interface PoolHealthCheckSummary {
  name: string;
  expectedMachines?: number;
  currentHealthy?: number;
  held: boolean;
}

export function poolHealthCheckSummary(
  md: MachineDeployment,
  checks: readonly MachineHealthCheck[],
): PoolHealthCheckSummary | undefined {
  const shown = shownHealthCheck(md, checks);
  if (!shown) return undefined;
  const status = shown.mhc.status;
  return {
    name: shown.mhc.metadata.name ?? '',
    ...(status?.expectedMachines !== undefined
      ? { expectedMachines: status.expectedMachines }
      : {}),
    ...(status?.currentHealthy !== undefined ? { currentHealthy: status.currentHealthy } : {}),
    held: statusCondition(shown.mhc, 'RemediationAllowed')?.status === 'False',
  };
}

/**
 * The pool's health check, or undefined when none matches its machines. With several, the one
 * named `<pool>-mhc` (the console's) or else the first by name is shown, the others named.
 */
export function poolHealthCheckView(
  md: MachineDeployment,
  checks: readonly MachineHealthCheck[],
  machines: readonly Machine[],
): PoolHealthCheckView | undefined {
  const shown = shownHealthCheck(md, checks);
  if (!shown) return undefined;
  const { mhc, matching } = shown;
  const spec = mhc.spec;
  const status = mhc.status;
  const targets = status?.targets ?? [];
  const targetSet = new Set(targets);
  const views: HealthCheckMachineView[] = machines
    .filter((m) => targetSet.has(m.metadata.name ?? ''))
    .map((m) => {
      const healthCheck = machineCondition(m, 'HealthCheckSucceeded');
      const ownerRemediated = machineCondition(m, 'OwnerRemediated');
      const deleting = m.metadata.deletionTimestamp !== undefined;
      return {
        name: m.metadata.name ?? '',
        ...(healthCheck ? { healthCheck } : {}),
        ...(ownerRemediated ? { ownerRemediated } : {}),
        remediating: ownerRemediated?.status === 'False',
        deleting,
      };
    })
    .sort(
      (a, b) =>
        Number(b.healthCheck?.status === 'False') - Number(a.healthCheck?.status === 'False') ||
        a.name.localeCompare(b.name),
    );
  const startup = seconds(spec?.nodeStartupTimeout);
  const remediationAllowed = statusCondition(mhc, 'RemediationAllowed');
  const generation = mhc.metadata.generation;
  return {
    name: mhc.metadata.name ?? '',
    ...(mhc.metadata.resourceVersion ? { resourceVersion: mhc.metadata.resourceVersion } : {}),
    ...(mhc.metadata.uid ? { uid: mhc.metadata.uid } : {}),
    unhealthyNodeConditions: (spec?.unhealthyConditions ?? []).map((c) => ({
      type: c.type,
      status: c.status,
      timeoutSeconds: seconds(c.timeout) ?? 0,
    })),
    ...(startup !== undefined ? { nodeStartupTimeoutSeconds: startup } : {}),
    limit: limitOf(mhc),
    externalRemediation: spec?.remediationTemplate !== undefined,
    ...(status?.expectedMachines !== undefined
      ? { expectedMachines: status.expectedMachines }
      : {}),
    ...(status?.currentHealthy !== undefined ? { currentHealthy: status.currentHealthy } : {}),
    ...(status?.remediationsAllowed !== undefined
      ? { remediationsAllowed: status.remediationsAllowed }
      : {}),
    targets,
    ...(remediationAllowed ? { remediationAllowed } : {}),
    stale:
      generation !== undefined &&
      (status?.observedGeneration === undefined || status.observedGeneration < generation),
    machines: views,
    others: matching.filter((c) => c !== mhc).map((c) => c.metadata.name ?? ''),
  };
}
