import { durationToSeconds, secondsToDuration } from '../conversion/duration';
import { selectorMatches } from '../label-selector';
import { LABEL_CLUSTER_NAME, LABEL_DEPLOYMENT_NAME } from '../labels';
import {
  requestedLimit,
  type CreateHealthCheckRequest,
  type DeleteHealthCheckRequest,
  type EditHealthCheckRequest,
} from '../requests/health-check';
import type { ValidationContext } from '../rules/context';
import {
  DEFAULT_NODE_STARTUP_SECONDS,
  formatUnhealthyRange,
  validateHealthCheck,
  type HealthCheckIntent,
  type RemediationLimit,
} from '../rules/health-check';
import type { MachineDeployment, MachineHealthCheck, UnhealthyCondition } from '../schemas/capi';
import { withinJsonBounds } from './bounds';
import { mergeIssues, notFoundIssue, staleIssue } from './issues';
import {
  addOp,
  jsonEqual,
  pointer,
  removeOp,
  replaceOp,
  testOp,
  testResourceVersion,
  type JsonPatchOp,
} from './json-patch';
import { planMessage, type PlanMessage } from './messages';
import { API_CAPI, createStep, deleteStep, finishPlan, jsonPatchStep } from './objects';
import type { KubeObject, OperationId, Plan, PlanStep } from './plan';
import { specReplicas } from './scale';

/**
 * O-MHC-CREATE / O-MHC-EDIT / O-MHC-DELETE (issue 26 item 1): a worker pool's MachineHealthCheck.
 * Project-defined operation ids (DOMAIN.md names none). The plan is written in the hub (v1beta1:
 * `unhealthyConditions[].timeout` and `nodeStartupTimeout` as Go durations, `maxUnhealthy`,
 * `unhealthyRange`) and converted at the edge for a v1beta2 cluster (`spec.checks`,
 * `spec.remediation.triggerIf`), as every plan is.
 *
 * - Create: one MachineHealthCheck `<pool>-mhc` whose selector is the pool's own
 *   (`cluster.x-k8s.io/cluster-name` and `cluster.x-k8s.io/deployment-name`, R-MHC-5), in the
 *   pool's cluster; its undo deletes exactly the object created.
 * - Edit: one JSON patch of the spec's checks and limit that tests the resourceVersion the user
 *   saw and the value of each field it replaces or removes; selector and cluster are left as they
 *   are (the health check stays the pool's).
 * - Delete: a delete with the uid and resourceVersion the user saw as preconditions; the pool's
 *   machines are no longer checked nor remediated.
 *
 * Rules: `validateHealthCheck` (R-MHC-1..7); the request schemas' R-MHC-1..4.
 */

export const healthCheckNameOf = (pool: string) => `${pool}-mhc`;

/** The selector of a pool's health check (R-MHC-5). */
export function poolHealthCheckSelector(clusterName: string, pool: string) {
  return { matchLabels: { [LABEL_CLUSTER_NAME]: clusterName, [LABEL_DEPLOYMENT_NAME]: pool } };
}

/** The labels the pool's machines carry that a health check's selector matches. */
export function poolMachineLabels(md: MachineDeployment): Record<string, string> {
  const name = md.metadata.name ?? '';
  return {
    ...(md.spec?.template.metadata?.labels ?? {}),
    [LABEL_CLUSTER_NAME]: md.spec?.clusterName ?? '',
    [LABEL_DEPLOYMENT_NAME]: name,
  };
}

/** The health checks of the pool's cluster whose selector matches the pool's machines. */
export function healthChecksOfPool(
  md: MachineDeployment,
  checks: readonly MachineHealthCheck[],
): MachineHealthCheck[] {
  const labels = poolMachineLabels(md);
  return checks.filter(
    (c) =>
      c.spec?.clusterName === md.spec?.clusterName &&
      c.metadata.namespace === md.metadata.namespace &&
      selectorMatches(c.spec?.selector, labels),
  );
}

/** The hub's fields of the spec a request sets. */
function specFields(intent: HealthCheckIntent): {
  unhealthyConditions: UnhealthyCondition[];
  nodeStartupTimeout: string;
  maxUnhealthy?: number | string;
  unhealthyRange?: string;
} {
  const limit = intent.limit;
  return {
    unhealthyConditions: intent.unhealthyNodeConditions.map((c) => ({
      type: c.type,
      status: c.status,
      timeout: secondsToDuration(c.timeoutSeconds),
    })),
    nodeStartupTimeout: secondsToDuration(intent.nodeStartupTimeoutSeconds),
    ...(limit.kind === 'maxUnhealthy' ? { maxUnhealthy: limit.maxUnhealthy } : {}),
    ...(limit.kind === 'range'
      ? { unhealthyRange: formatUnhealthyRange(limit.min, limit.max) }
      : {}),
  };
}

function intentOf(req: CreateHealthCheckRequest | EditHealthCheckRequest): HealthCheckIntent {
  return {
    unhealthyNodeConditions: req.unhealthyNodeConditions,
    nodeStartupTimeoutSeconds: req.nodeStartupTimeoutSeconds ?? DEFAULT_NODE_STARTUP_SECONDS,
    limit: requestedLimit(req),
  };
}

const limitText = (limit: RemediationLimit): string =>
  limit.kind === 'none'
    ? 'maxUnhealthy 100%'
    : limit.kind === 'maxUnhealthy'
      ? `maxUnhealthy ${String(limit.maxUnhealthy)}`
      : `unhealthyRange ${formatUnhealthyRange(limit.min, limit.max)}`;

const conditionsText = (intent: HealthCheckIntent): string =>
  intent.unhealthyNodeConditions.length === 0
    ? '—'
    : intent.unhealthyNodeConditions
        .map((c) => `${c.type}=${c.status} ${secondsToDuration(c.timeoutSeconds)}`)
        .join(', ');

export interface HealthCheckCurrent {
  machineDeployment: MachineDeployment;
  /** The MachineHealthChecks of the pool's namespace. */
  healthChecks: readonly MachineHealthCheck[];
}

/** O-MHC-CREATE: see the module's comment. */
export function planCreateHealthCheck(
  req: CreateHealthCheckRequest,
  current: HealthCheckCurrent,
  ctx: ValidationContext,
): Plan {
  const md = current.machineDeployment;
  const pool = md.metadata.name ?? '';
  return withinJsonBounds(
    {
      operation: 'O-MHC-CREATE',
      namespace: ctx.namespace,
      target: { kind: 'MachineDeployment', name: pool },
    },
    () => {
      const intent = intentOf(req);
      const clusterName = md.spec?.clusterName ?? ctx.clusterName;
      const name = healthCheckNameOf(pool);
      const body: KubeObject = {
        apiVersion: API_CAPI,
        kind: 'MachineHealthCheck',
        metadata: {
          name,
          namespace: ctx.namespace,
          labels: { [LABEL_CLUSTER_NAME]: clusterName },
        },
        spec: {
          clusterName,
          selector: poolHealthCheckSelector(clusterName, pool),
          ...specFields(intent),
        },
      };
      const others = healthChecksOfPool(md, current.healthChecks).map((c) => c.metadata.name ?? '');
      const sameName = current.healthChecks.some((c) => c.metadata.name === name);
      const steps: PlanStep[] = [
        createStep(
          'MachineHealthCheck',
          body,
          planMessage('plan.step.healthCheckCreate', {
            name,
            pool,
            conditions: conditionsText(intent),
            limit: limitText(intent.limit),
          }),
        ),
      ];
      return finishPlan({
        operation: 'O-MHC-CREATE',
        namespace: ctx.namespace,
        target: { kind: 'MachineDeployment', name: pool },
        steps,
        issues: validateHealthCheck(
          intent,
          {
            name: pool,
            replicas: specReplicas(md),
            // A same-named object that checks other machines is still in the way of the create.
            otherChecks: sameName && !others.includes(name) ? [...others, name] : others,
          },
          ctx,
        ),
        known: [md],
        effects: { notes: effectNotes(pool, intent) },
      });
    },
  );
}

function effectNotes(pool: string, intent: HealthCheckIntent): PlanMessage[] {
  const notes: PlanMessage[] = [
    planMessage('plan.effect.healthCheckWatches', {
      pool,
      conditions: conditionsText(intent),
      startup:
        intent.nodeStartupTimeoutSeconds === 0
          ? '—'
          : secondsToDuration(intent.nodeStartupTimeoutSeconds),
    }),
  ];
  notes.push(
    intent.limit.kind === 'none'
      ? planMessage('plan.effect.healthCheckNoLimit', { pool })
      : planMessage('plan.effect.healthCheckLimit', { pool, limit: limitText(intent.limit) }),
  );
  return notes;
}

/** Test-and-replace of a value that is there and differs, add of one that is not, nothing if equal. */
function setOps(path: string, current: unknown, value: unknown): JsonPatchOp[] {
  if (jsonEqual(current, value)) return [];
  return current === undefined
    ? [addOp(path, value)]
    : [testOp(path, current), replaceOp(path, value)];
}

/** O-MHC-EDIT: see the module's comment. `check` is the pool's health check as it is now. */
export function planEditHealthCheck(
  req: EditHealthCheckRequest,
  current: HealthCheckCurrent & { healthCheck: MachineHealthCheck },
  ctx: ValidationContext,
): Plan {
  const md = current.machineDeployment;
  const pool = md.metadata.name ?? '';
  const mhc = current.healthCheck;
  const name = mhc.metadata.name ?? '';
  return withinJsonBounds(
    {
      operation: 'O-MHC-EDIT',
      namespace: ctx.namespace,
      target: { kind: 'MachineHealthCheck', name },
    },
    () => {
      const intent = intentOf(req);
      const want = specFields(intent);
      const spec = (mhc.spec ?? {}) as Record<string, unknown>;
      const ops: JsonPatchOp[] = [testResourceVersion(req.resourceVersion)];
      if (mhc.spec === undefined) ops.push(addOp(pointer('spec'), want));
      else {
        for (const field of [
          'unhealthyConditions',
          'nodeStartupTimeout',
          'maxUnhealthy',
          'unhealthyRange',
        ] as const) {
          const now = Object.hasOwn(spec, field) ? spec[field] : undefined;
          const to = Object.hasOwn(want, field) ? want[field] : undefined;
          const path = pointer('spec', field);
          if (to === undefined) {
            if (now !== undefined) ops.push(testOp(path, now), removeOp(path));
          } else if (field === 'nodeStartupTimeout' && sameDuration(now, to)) {
            // "10m" and "10m0s" are the same timeout: left as written.
          } else {
            ops.push(...setOps(path, now, to));
          }
        }
      }
      const steps: PlanStep[] = [];
      const notes: PlanMessage[] = [];
      if (ops.length > 1) {
        steps.push(
          jsonPatchStep(
            mhc,
            'MachineHealthCheck',
            ops,
            planMessage('plan.step.healthCheckEdit', {
              name,
              conditions: conditionsText(intent),
              limit: limitText(intent.limit),
            }),
          ),
        );
        notes.push(...effectNotes(pool, intent));
      } else {
        notes.push(planMessage('plan.effect.healthCheckUnchanged', { name }));
      }
      const others = healthChecksOfPool(md, current.healthChecks)
        .map((c) => c.metadata.name ?? '')
        .filter((n) => n !== name);
      return finishPlan({
        operation: 'O-MHC-EDIT',
        namespace: ctx.namespace,
        target: { kind: 'MachineHealthCheck', name },
        steps,
        issues: mergeIssues(
          validateHealthCheck(
            intent,
            { name: pool, replicas: specReplicas(md), otherChecks: others },
            ctx,
          ),
          staleIssue('MachineHealthCheck', name, req.resourceVersion, mhc.metadata.resourceVersion),
        ),
        known: [mhc],
        effects: { notes },
      });
    },
  );
}

function sameDuration(a: unknown, b: unknown): boolean {
  if (typeof a !== 'string' || typeof b !== 'string') return false;
  try {
    return durationToSeconds(a) === durationToSeconds(b) && /^\d/.test(a);
  } catch {
    return false;
  }
}

/** O-MHC-DELETE: see the module's comment. */
export function planDeleteHealthCheck(
  req: DeleteHealthCheckRequest,
  current: { machineDeployment: MachineDeployment; healthCheck: MachineHealthCheck | undefined },
  ctx: ValidationContext,
): Plan {
  const pool = current.machineDeployment.metadata.name ?? '';
  const mhc = current.healthCheck;
  const name = mhc?.metadata.name ?? healthCheckNameOf(pool);
  const operation: OperationId = 'O-MHC-DELETE';
  if (!mhc) {
    return finishPlan({
      operation,
      namespace: ctx.namespace,
      target: { kind: 'MachineHealthCheck', name },
      steps: [],
      issues: [notFoundIssue('MachineHealthCheck', name, 'pool')],
      known: [],
    });
  }
  const uid = mhc.metadata.uid;
  return finishPlan({
    operation,
    namespace: ctx.namespace,
    target: { kind: 'MachineHealthCheck', name },
    steps: [
      deleteStep(
        'MachineHealthCheck',
        ctx.namespace,
        name,
        planMessage('plan.step.healthCheckDelete', { name, pool }),
        {
          precondition: {
            resourceVersion: req.resourceVersion,
            ...(uid !== undefined ? { uid } : {}),
          },
        },
      ),
    ],
    issues: staleIssue(
      'MachineHealthCheck',
      name,
      req.resourceVersion,
      mhc.metadata.resourceVersion,
    ),
    known: [mhc],
    effects: { notes: [planMessage('plan.effect.healthCheckRemoved', { pool })] },
  });
}
