import { intOrPercentProblem, scaledValue } from '../intstr';
import type { IntOrString } from '../schemas/meta';
import type { ValidationContext } from './context';
import type { RuleId, RuleIssue } from './issue';
import { error, warning } from './make';
import { checkProviderForWebWorkflow } from './version';

/**
 * A worker pool's MachineHealthCheck (issue 26 item 1, O-MHC-CREATE / O-MHC-EDIT /
 * O-MHC-DELETE), as Cluster API's MachineHealthCheck controller and webhook read it (upstream
 * `internal/controllers/machinehealthcheck`, `internal/webhooks/machinehealthcheck.go`, and the
 * CRDs of v1.14.0, both versions). Project-defined ids (DOMAIN.md names no rule for health
 * checks):
 *
 * - **R-MHC-1** Something to check: at least one unhealthy node condition, or a node start-up
 *   timeout that is not 0. v1beta2's `spec.checks` must hold at least one field and its
 *   `unhealthyNodeConditions`, when given, at least one entry; v1beta1 allows an empty list. A
 *   health check without conditions and with start-up checking disabled finds nothing, so the
 *   console refuses it in both versions. At most 100 conditions (both CRDs' `maxItems`).
 * - **R-MHC-2** Each unhealthy node condition has a type (a Node condition type such as Ready,
 *   MemoryPressure), a status of True, False or Unknown, and a timeout of whole seconds from 0
 *   to 2,147,483,647 (v1beta2's `timeoutSeconds` is an int32 ≥ 0; v1beta1's Go duration is
 *   written from it). The same type and status twice is refused: the first would always decide.
 * - **R-MHC-3** The node start-up timeout: 0 (disabled) or at least 30 seconds, as upstream's
 *   webhook refuses "must be at least 30s"; an int32 of seconds. Left out, upstream's default of
 *   10 minutes is written.
 * - **R-MHC-4** The remediation limit: none (remediate whatever is unhealthy: upstream's default
 *   maxUnhealthy 100%), `maxUnhealthy` (v1beta2 `triggerIf.unhealthyLessThanOrEqualTo`) a
 *   non-negative integer or a percentage of the targets (rounded down), or `unhealthyRange`
 *   (v1beta2 `triggerIf.unhealthyInRange`) `[a-b]` with a ≤ b (the CRDs' pattern
 *   `^\[[0-9]+-[0-9]+\]$`, upstream's parser refuses a > b). Not both: upstream lets the range
 *   win silently; the console asks for one.
 * - **R-MHC-5** The selector is the pool's own: `cluster.x-k8s.io/deployment-name` of the
 *   MachineDeployment, in its cluster (`clusterName`); the console creates one health check per
 *   pool, and refuses a second one whose selector matches the same machines (two health checks
 *   over the same machines remediate them twice over).
 * - **R-MHC-6** (warning) A limit under which no machine of the pool, at its replicas, can ever
 *   be remediated (maxUnhealthy scaled to 0; a range that starts above the replicas).
 * - **R-MHC-7** (warning) A condition timeout under 60 seconds: a kubelet that misses a few
 *   heartbeats (the node lifecycle controller's grace period is 40 s) would have its machine
 *   replaced.
 */
export const R_MHC_SOMETHING_TO_CHECK: RuleId = 'R-MHC-1';
export const R_MHC_CONDITION: RuleId = 'R-MHC-2';
export const R_MHC_STARTUP_TIMEOUT: RuleId = 'R-MHC-3';
export const R_MHC_LIMIT: RuleId = 'R-MHC-4';
export const R_MHC_SELECTOR: RuleId = 'R-MHC-5';
export const R_MHC_NEVER_REMEDIATES: RuleId = 'R-MHC-6';
export const R_MHC_SHORT_TIMEOUT: RuleId = 'R-MHC-7';

/** The largest timeout: v1beta2's `*Seconds` fields are int32. */
export const MAX_HEALTH_CHECK_SECONDS = 2_147_483_647;
/** Upstream's webhook: a node start-up timeout, unless 0, is at least 30 seconds. */
export const MIN_NODE_STARTUP_SECONDS = 30;
/** Upstream's default node start-up timeout (v1beta1 `10m`, v1beta2 600). */
export const DEFAULT_NODE_STARTUP_SECONDS = 600;
/** Both CRDs' `maxItems` of the unhealthy condition lists. */
export const MAX_UNHEALTHY_CONDITIONS = 100;
/** R-MHC-7's threshold. */
export const SHORT_CONDITION_SECONDS = 60;

export const CONDITION_STATUSES = ['True', 'False', 'Unknown'] as const;
export type ConditionStatusValue = (typeof CONDITION_STATUSES)[number];

/** One unhealthy node condition, in the console's model (seconds, as v1beta2 writes them). */
export interface UnhealthyNodeCondition {
  type: string;
  status: string;
  timeoutSeconds: number;
}

/** How many unhealthy targets still allow remediation (R-MHC-4). */
export type RemediationLimit =
  | { kind: 'none' }
  | { kind: 'maxUnhealthy'; maxUnhealthy: IntOrString }
  | { kind: 'range'; min: number; max: number };

/** The CRDs' pattern of unhealthyRange, and upstream's parse of it (min ≤ max). */
export function parseUnhealthyRange(value: string): { min: number; max: number } | undefined {
  const m = /^\[([0-9]+)-([0-9]+)\]$/.exec(value);
  if (!m?.[1] || !m[2]) return undefined;
  const min = Number(m[1]);
  const max = Number(m[2]);
  if (!Number.isSafeInteger(min) || !Number.isSafeInteger(max) || min > max) return undefined;
  return { min, max };
}

export const formatUnhealthyRange = (min: number, max: number) => `[${String(min)}-${String(max)}]`;

/**
 * What the MachineHealthCheck controller decides for `total` targets of which `unhealthy` are
 * unhealthy (upstream's isAllowedRemediation and the status it writes): whether remediation is
 * allowed, and `remediationsAllowed`. maxUnhealthy is scaled against the targets, rounded down;
 * an invalid maxUnhealthy allows nothing (upstream logs and refuses).
 */
export function remediationDecision(
  limit: RemediationLimit,
  total: number,
  unhealthy: number,
): { allowed: boolean; remediationsAllowed: number; max: number } {
  if (limit.kind === 'range') {
    const allowed = unhealthy >= limit.min && unhealthy <= limit.max;
    return {
      allowed,
      remediationsAllowed: allowed ? limit.max - unhealthy : 0,
      max: limit.max,
    };
  }
  const value = limit.kind === 'none' ? '100%' : limit.maxUnhealthy;
  if (intOrPercentProblem(value)) return { allowed: false, remediationsAllowed: 0, max: 0 };
  const max = scaledValue(value, total, false);
  const allowed = unhealthy <= max;
  return { allowed, remediationsAllowed: allowed ? max - unhealthy : 0, max };
}

/** What a health-check request asks for, once its shape is known to be right. */
export interface HealthCheckIntent {
  unhealthyNodeConditions: readonly UnhealthyNodeCondition[];
  nodeStartupTimeoutSeconds: number;
  limit: RemediationLimit;
}

/** The pool a health check is for, as it is now. */
export interface HealthCheckPool {
  name: string;
  replicas: number;
  /** Names of other MachineHealthChecks whose selector matches this pool's machines (R-MHC-5). */
  otherChecks: readonly string[];
}

/**
 * O-MHC-CREATE / O-MHC-EDIT: R-MHC-1..4, 6, 7 on the intent, R-MHC-5's "one per pool". Paths are
 * the request's fields (`unhealthyNodeConditions.0.timeoutSeconds`, `maxUnhealthy`, …).
 */
export function validateHealthCheck(
  intent: HealthCheckIntent,
  pool: HealthCheckPool,
  ctx: ValidationContext,
): RuleIssue[] {
  const out: RuleIssue[] = [...checkProviderForWebWorkflow(ctx)];
  const conditions = intent.unhealthyNodeConditions;
  if (pool.otherChecks.length > 0) {
    out.push(
      error(R_MHC_SELECTOR, 'pool', 'healthCheck.alreadyChecked', {
        pool: pool.name,
        names: pool.otherChecks.join(', '),
      }),
    );
  }
  if (conditions.length === 0 && intent.nodeStartupTimeoutSeconds === 0) {
    out.push(
      error(R_MHC_SOMETHING_TO_CHECK, 'unhealthyNodeConditions', 'healthCheck.nothingToCheck', {}),
    );
  }
  if (conditions.length > MAX_UNHEALTHY_CONDITIONS) {
    out.push(
      error(R_MHC_SOMETHING_TO_CHECK, 'unhealthyNodeConditions', 'healthCheck.tooManyConditions', {
        count: conditions.length,
        max: MAX_UNHEALTHY_CONDITIONS,
      }),
    );
  }
  const seen = new Map<string, number>();
  conditions.forEach((c, i) => {
    const at = `unhealthyNodeConditions.${String(i)}`;
    const key = `${c.type}\u0000${c.status}`;
    const first = seen.get(key);
    if (first !== undefined) {
      out.push(
        error(R_MHC_CONDITION, `${at}.type`, 'healthCheck.conditionTwice', {
          type: c.type,
          status: c.status,
          first: first + 1,
          index: i + 1,
        }),
      );
    } else {
      seen.set(key, i);
    }
    if (c.timeoutSeconds < SHORT_CONDITION_SECONDS) {
      out.push(
        warning(R_MHC_SHORT_TIMEOUT, `${at}.timeoutSeconds`, 'healthCheck.shortTimeout', {
          type: c.type,
          status: c.status,
          seconds: c.timeoutSeconds,
          min: SHORT_CONDITION_SECONDS,
        }),
      );
    }
  });
  const startup = intent.nodeStartupTimeoutSeconds;
  if (startup !== 0 && startup < MIN_NODE_STARTUP_SECONDS) {
    out.push(
      error(R_MHC_STARTUP_TIMEOUT, 'nodeStartupTimeoutSeconds', 'healthCheck.startupTooShort', {
        seconds: startup,
        min: MIN_NODE_STARTUP_SECONDS,
      }),
    );
  }
  const limit = intent.limit;
  if (limit.kind === 'range' && limit.min > limit.max) {
    out.push(
      error(R_MHC_LIMIT, 'unhealthyRange', 'healthCheck.rangeReversed', {
        min: limit.min,
        max: limit.max,
      }),
    );
  } else if (pool.replicas > 0) {
    const never =
      limit.kind === 'range'
        ? limit.min > pool.replicas
        : limit.kind === 'maxUnhealthy' && !remediationDecision(limit, pool.replicas, 1).allowed;
    if (never) {
      out.push(
        warning(
          R_MHC_NEVER_REMEDIATES,
          limit.kind === 'range' ? 'unhealthyRange' : 'maxUnhealthy',
          'healthCheck.neverRemediates',
          {
            pool: pool.name,
            replicas: pool.replicas,
            limit:
              limit.kind === 'range'
                ? formatUnhealthyRange(limit.min, limit.max)
                : String(limit.kind === 'maxUnhealthy' ? limit.maxUnhealthy : ''),
          },
        ),
      );
    }
  }
  return out;
}
