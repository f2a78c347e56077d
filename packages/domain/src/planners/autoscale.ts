import { ANNOTATION_AUTOSCALER_MAX_SIZE, ANNOTATION_AUTOSCALER_MIN_SIZE } from '../labels';
import { requestedBounds, type AutoscaleRequest } from '../requests/autoscale';
import {
  autoscalerAnnotationsOf,
  canScaleFromZero,
  validateAutoscale,
  type AutoscalePool,
} from '../rules/autoscale';
import type { ValidationContext } from '../rules/context';
import type { MachineDeployment } from '../schemas/capi';
import { withinJsonBounds } from './bounds';
import { mergeIssues, staleIssue } from './issues';
import {
  addOp,
  pointer,
  removeOp,
  replaceOp,
  testOp,
  testResourceVersion,
  type JsonPatchOp,
} from './json-patch';
import { planMessage, type PlanMessage } from './messages';
import { finishPlan, jsonPatchStep } from './objects';
import type { Plan, PlanStep } from './plan';
import { ipPoolNameOf, specReplicas } from './scale';

/**
 * O-AUTOSCALE / O-AUTOSCALE-REMOVE (issue 26 item 2): set or remove the cluster autoscaler's bounds
 * of a worker pool, the `cluster.x-k8s.io/cluster-api-autoscaler-node-group-min-size` and
 * `…-max-size` annotations of its MachineDeployment (the same keys in Cluster API v1beta1 and
 * v1beta2: the plan is written in the hub and converted at the edge like every other). One JSON
 * patch that tests the resourceVersion the user saw and the value of each annotation it replaces
 * or removes, and touches no other annotation; with `replicas`, the same patch moves the pool's
 * replicas within the new bounds (R-AS-4). The plan's notes say what the autoscaler does from
 * then on. Rules: `validateAutoscale` (R-AS-3..6); the request schema's R-AS-1 and R-AS-2.
 */

export interface AutoscaleCurrent {
  machineDeployment: MachineDeployment;
}

const MIN_PATH = pointer('metadata', 'annotations', ANNOTATION_AUTOSCALER_MIN_SIZE);
const MAX_PATH = pointer('metadata', 'annotations', ANNOTATION_AUTOSCALER_MAX_SIZE);

/** What the rules need of the pool, from its MachineDeployment (the web builds it from its view). */
export function autoscalePoolOf(md: MachineDeployment, ctx: ValidationContext): AutoscalePool {
  return {
    name: md.metadata.name ?? '',
    replicas: specReplicas(md),
    ipPoolName: ipPoolNameOf(md, ctx),
    scaleFromZero: canScaleFromZero(md),
    maxSurge: md.spec?.strategy?.rollingUpdate?.maxSurge,
  };
}

const own = (a: Record<string, string> | undefined, key: string): string | undefined =>
  a !== undefined && Object.hasOwn(a, key) ? a[key] : undefined;

/** Test-and-replace of a value that is there and differs, add of one that is not. */
function setOps(path: string, current: unknown, value: unknown): JsonPatchOp[] {
  if (current === value) return [];
  return current === undefined
    ? [addOp(path, value)]
    : [testOp(path, current), replaceOp(path, value)];
}

/** O-AUTOSCALE / O-AUTOSCALE-REMOVE: see the module's comment. */
export function planAutoscale(
  req: AutoscaleRequest,
  current: AutoscaleCurrent,
  ctx: ValidationContext,
): Plan {
  return withinJsonBounds(
    {
      operation: requestedBounds(req) ? 'O-AUTOSCALE' : 'O-AUTOSCALE-REMOVE',
      namespace: ctx.namespace,
      target: { kind: 'MachineDeployment', name: current.machineDeployment.metadata.name ?? '' },
    },
    () => autoscalePlan(req, current, ctx),
  );
}

function autoscalePlan(req: AutoscaleRequest, current: AutoscaleCurrent, ctx: ValidationContext) {
  const md = current.machineDeployment;
  const name = md.metadata.name ?? '';
  const annotations = md.metadata.annotations;
  const minNow = own(annotations, ANNOTATION_AUTOSCALER_MIN_SIZE);
  const maxNow = own(annotations, ANNOTATION_AUTOSCALER_MAX_SIZE);
  const bounds = requestedBounds(req);
  const pool = autoscalePoolOf(md, ctx);
  const ops: JsonPatchOp[] = [testResourceVersion(req.resourceVersion)];
  const notes: PlanMessage[] = [];
  const changes: string[] = [];
  const shown = (v: string | number | undefined) => (v === undefined ? '—' : String(v));
  let replicasTo: number | undefined;

  if (bounds) {
    // Written as the plain decimal upstream's strconv.Atoi reads (R-AS-1).
    const min = String(bounds.minSize);
    const max = String(bounds.maxSize);
    if (annotations === undefined) {
      ops.push(
        addOp(pointer('metadata', 'annotations'), {
          [ANNOTATION_AUTOSCALER_MIN_SIZE]: min,
          [ANNOTATION_AUTOSCALER_MAX_SIZE]: max,
        }),
      );
    } else {
      ops.push(...setOps(MIN_PATH, minNow, min), ...setOps(MAX_PATH, maxNow, max));
    }
    if (minNow !== min) changes.push(`minSize ${shown(minNow)} → ${min}`);
    if (maxNow !== max) changes.push(`maxSize ${shown(maxNow)} → ${max}`);
    const set = md.spec?.replicas;
    if (req.replicas !== undefined && req.replicas !== set) {
      ops.push(...setOps(pointer('spec', 'replicas'), set, req.replicas));
      changes.push(`replicas ${shown(set)} → ${String(req.replicas)}`);
      replicasTo = req.replicas;
    }
  } else {
    for (const [path, value] of [
      [MIN_PATH, minNow],
      [MAX_PATH, maxNow],
    ] as const) {
      if (value !== undefined) ops.push(testOp(path, value), removeOp(path));
    }
  }

  const steps: PlanStep[] = [];
  const writes = ops.length > 1;
  if (bounds && writes) {
    steps.push(
      jsonPatchStep(
        md,
        'MachineDeployment',
        ops,
        planMessage('plan.step.autoscaleSet', { name, changes: changes.join(', ') }),
      ),
    );
    const before = autoscalerAnnotationsOf(md);
    notes.push(
      planMessage(
        before.state === 'bounds' ? 'plan.effect.autoscaleChanged' : 'plan.effect.autoscaleSet',
        { name, min: bounds.minSize, max: bounds.maxSize },
      ),
    );
    if (replicasTo !== undefined) {
      notes.push(
        planMessage('plan.effect.autoscaleReplicasMoved', {
          name,
          from: pool.replicas,
          to: replicasTo,
        }),
      );
    }
  } else if (bounds) {
    notes.push(planMessage('plan.effect.autoscaleUnchanged', { name }));
  } else if (writes) {
    steps.push(
      jsonPatchStep(
        md,
        'MachineDeployment',
        ops,
        planMessage('plan.step.autoscaleRemove', { name }),
      ),
    );
    notes.push(planMessage('plan.effect.autoscaleRemoved', { name, replicas: pool.replicas }));
  } else {
    notes.push(planMessage('plan.effect.autoscaleNone', { name }));
  }

  return finishPlan({
    operation: bounds ? 'O-AUTOSCALE' : 'O-AUTOSCALE-REMOVE',
    namespace: ctx.namespace,
    target: { kind: 'MachineDeployment', name },
    steps,
    issues: mergeIssues(
      bounds ? validateAutoscale({ ...bounds, replicas: req.replicas }, pool, ctx) : [],
      staleIssue('MachineDeployment', name, req.resourceVersion, md.metadata.resourceVersion),
    ),
    known: [md],
    effects: {
      notes,
      ...(replicasTo !== undefined ? { replicas: { from: pool.replicas, to: replicasTo } } : {}),
    },
  });
}
