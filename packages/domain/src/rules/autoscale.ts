import {
  ANNOTATION_AUTOSCALER_CAPACITY_CPU,
  ANNOTATION_AUTOSCALER_CAPACITY_MEMORY,
  ANNOTATION_AUTOSCALER_MAX_SIZE,
  ANNOTATION_AUTOSCALER_MIN_SIZE,
} from '../labels';
import type { IntOrString } from '../schemas/meta';
import type { ValidationContext } from './context';
import type { RuleId, RuleIssue } from './issue';
import { error, warning } from './make';
import { checkReplicasFitPool, replicaRoom } from './pool';
import { checkProviderForWebWorkflow } from './version';

/**
 * Cluster autoscaler bounds of a worker pool (issue 26 item 2, O-AUTOSCALE /
 * O-AUTOSCALE-REMOVE): the two annotations the Kubernetes cluster autoscaler's Cluster API
 * provider reads on a MachineDeployment (kubernetes/autoscaler,
 * `cluster-autoscaler/cloudprovider/clusterapi`: `parseScalingBounds`,
 * `newNodeGroupFromScalableResource`, `DeleteNodes`). Project-defined ids (DOMAIN.md names no
 * rule for autoscaling):
 *
 * - **R-AS-1** Each bound is a whole number from 0 to 2,147,483,647. Upstream parses the
 *   annotation with `strconv.Atoi` and refuses a negative one; Cluster API's MachineDeployment
 *   webhook parses it as an int32 to default an unset `spec.replicas`. The console writes the
 *   plain decimal; an annotation written otherwise that upstream cannot read is shown.
 * - **R-AS-2** Both or neither: the autoscaler manages only a MachineDeployment that carries both
 *   annotations. A request gives both (to set them) or neither (to remove them, both); a pool
 *   carrying one is shown as ignored by the autoscaler.
 * - **R-AS-3** min ≤ max, and max ≥ 1: upstream refuses max < min and skips a node group whose
 *   max is 0 ("no scaling capacity").
 * - **R-AS-4** The pool's replicas lie within [min, max] after the change: the autoscaler does not
 *   scale a node group that is outside its bounds (it neither raises it to min nor lowers it to
 *   max, unless it runs with `--enforce-node-group-min-size`). Setting bounds around replicas that
 *   are outside them is refused, unless the same change moves replicas in.
 * - **R-AS-5** (warning) max beyond what the pool's IP pool can serve: a scale-up by the
 *   autoscaler past that would leave machines waiting without an address (R-POOL-1).
 * - **R-AS-6** (warning) Scale from zero: the Cluster API provider scales a node group down to 0,
 *   or up from 0, only when it knows a new machine's size (the `capacity.cluster-autoscaler…`
 *   cpu and memory annotations, or the infrastructure template's `status.capacity`, which the
 *   DCS provider does not write); a pool with 0 replicas and no such size is not even a node
 *   group to it.
 * - **R-AS-7** A manual scale of a pool the autoscaler manages: to a count outside [min, max] it is
 *   refused (the autoscaler would stop managing the pool: R-AS-4; change the bounds first);
 *   within them it is allowed with a warning that the autoscaler may change it again.
 */
export const R_AS_WHOLE_NUMBER: RuleId = 'R-AS-1';
export const R_AS_BOTH_OR_NEITHER: RuleId = 'R-AS-2';
export const R_AS_MIN_MAX: RuleId = 'R-AS-3';
export const R_AS_REPLICAS_WITHIN: RuleId = 'R-AS-4';
export const R_AS_IP_POOL_ROOM: RuleId = 'R-AS-5';
export const R_AS_SCALE_FROM_ZERO: RuleId = 'R-AS-6';
export const R_AS_MANUAL_SCALE: RuleId = 'R-AS-7';

/** The largest bound: `spec.replicas` is an int32, as Cluster API's webhook parses the bounds. */
export const MAX_AUTOSCALER_SIZE = 2_147_483_647;

export interface AutoscalerBounds {
  minSize: number;
  maxSize: number;
}

/**
 * What the autoscaler makes of a MachineDeployment's annotations: none; usable bounds; or
 * annotations it ignores, and why (R-AS-1..3).
 */
export type AutoscalerAnnotations =
  | { state: 'none' }
  | { state: 'bounds'; bounds: AutoscalerBounds; min: string; max: string }
  | {
      state: 'ignored';
      reason: 'incomplete' | 'invalid' | 'minAboveMax' | 'maxZero';
      min?: string;
      max?: string;
    };

/**
 * Go's `strconv.Atoi` on a 64-bit platform, as upstream reads a bound: an optional sign and
 * decimal digits, nothing else (no spaces, no `1.0`, no `0x10`); then not negative (R-AS-1).
 * Values past what a JavaScript number holds exactly are refused rather than rounded.
 */
export function parseAutoscalerSize(value: string): number | undefined {
  if (!/^[+-]?\d+$/.test(value)) return undefined;
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 0) return undefined;
  // "-0" is 0 to Atoi.
  return n === 0 ? 0 : n;
}

interface Annotated {
  metadata: { annotations?: Record<string, string> | undefined };
}

const own = (a: Record<string, string> | undefined, key: string): string | undefined =>
  a !== undefined && Object.hasOwn(a, key) ? a[key] : undefined;

/** The autoscaler's reading of the object's bound annotations (upstream's parseScalingBounds). */
export function autoscalerAnnotationsOf(o: Annotated): AutoscalerAnnotations {
  const a = o.metadata.annotations;
  const min = own(a, ANNOTATION_AUTOSCALER_MIN_SIZE);
  const max = own(a, ANNOTATION_AUTOSCALER_MAX_SIZE);
  if (min === undefined && max === undefined) return { state: 'none' };
  const shown = { ...(min !== undefined ? { min } : {}), ...(max !== undefined ? { max } : {}) };
  if (min === undefined || max === undefined) {
    return { state: 'ignored', reason: 'incomplete', ...shown };
  }
  const minSize = parseAutoscalerSize(min);
  const maxSize = parseAutoscalerSize(max);
  if (minSize === undefined || maxSize === undefined) {
    return { state: 'ignored', reason: 'invalid', ...shown };
  }
  if (maxSize < minSize) return { state: 'ignored', reason: 'minAboveMax', ...shown };
  if (maxSize === 0) return { state: 'ignored', reason: 'maxZero', ...shown };
  return { state: 'bounds', bounds: { minSize, maxSize }, min, max };
}

/** The bounds the autoscaler manages the object between, when it manages it. */
export function autoscalerBoundsOf(o: Annotated): AutoscalerBounds | undefined {
  const a = autoscalerAnnotationsOf(o);
  return a.state === 'bounds' ? a.bounds : undefined;
}

/** Upstream's `scaleFromZeroAnnotationsEnabled`: both capacity annotations, not empty (R-AS-6). */
export function canScaleFromZero(o: Annotated): boolean {
  const a = o.metadata.annotations;
  return (
    Boolean(own(a, ANNOTATION_AUTOSCALER_CAPACITY_CPU)) &&
    Boolean(own(a, ANNOTATION_AUTOSCALER_CAPACITY_MEMORY))
  );
}

/** The worker pool whose bounds are set, as it is now (the web builds it from its view). */
export interface AutoscalePool {
  name: string;
  /** `spec.replicas` now. */
  replicas: number;
  /** The IP pool its machine template names (R-AS-5). */
  ipPoolName: string | undefined;
  /** Whether the MachineDeployment carries the scale-from-zero capacity annotations (R-AS-6). */
  scaleFromZero: boolean;
  /** Its maxSurge, for the IP pool's room when replicas are raised in the same change (R-MD-1). */
  maxSurge?: IntOrString | undefined;
}

/** What O-AUTOSCALE asks for, once the request's shape is known to be right (R-AS-1, R-AS-2). */
export interface AutoscaleIntent {
  minSize: number;
  maxSize: number;
  /** Replicas to set in the same change (to move them within the bounds, R-AS-4). */
  replicas?: number | undefined;
}

/**
 * O-AUTOSCALE: the bounds against each other (R-AS-3), the replicas they will hold (R-AS-4; raised
 * into them, the IP pool must serve them: R-MD-1), the IP pool the autoscaler would scale into
 * (R-AS-5), and scale from zero (R-AS-6). Paths are the request's fields.
 */
export function validateAutoscale(
  intent: AutoscaleIntent,
  pool: AutoscalePool,
  ctx: ValidationContext,
): RuleIssue[] {
  const out: RuleIssue[] = [...checkProviderForWebWorkflow(ctx)];
  const { minSize, maxSize } = intent;
  if (maxSize < minSize) {
    out.push(
      error(R_AS_MIN_MAX, 'maxSize', 'autoscale.minAboveMax', { min: minSize, max: maxSize }),
    );
    return out;
  }
  if (maxSize === 0) {
    out.push(error(R_AS_MIN_MAX, 'maxSize', 'autoscale.maxZero', { pool: pool.name }));
    return out;
  }
  const replicas = intent.replicas ?? pool.replicas;
  if (replicas < minSize || replicas > maxSize) {
    out.push(
      error(
        R_AS_REPLICAS_WITHIN,
        intent.replicas !== undefined ? 'replicas' : replicas < minSize ? 'minSize' : 'maxSize',
        replicas < minSize ? 'autoscale.replicasBelowMin' : 'autoscale.replicasAboveMax',
        {
          pool: pool.name,
          replicas,
          min: minSize,
          max: maxSize,
          to: Math.min(Math.max(replicas, minSize), maxSize),
        },
      ),
    );
  }
  const ipPool =
    pool.ipPoolName === undefined ? undefined : ctx.ipPools.find((p) => p.name === pool.ipPoolName);
  if (ipPool) {
    const { room, heldByOthers, entries } = replicaRoom(ipPool, pool.name);
    // Replicas raised into the bounds are a scale-up like any other (R-MD-1).
    if (intent.replicas !== undefined && intent.replicas > pool.replicas) {
      out.push(
        ...checkReplicasFitPool({
          poolName: ipPool.name,
          entryCount: entries,
          used: heldByOthers,
          deployment: { deployment: pool.name, replicas: intent.replicas, maxSurge: pool.maxSurge },
          others: ipPool.consumers.filter((c) => c.deployment !== pool.name),
          path: 'replicas',
        }).filter((i) => i.severity === 'error'),
      );
    }
    if (maxSize > room) {
      out.push(
        warning(R_AS_IP_POOL_ROOM, 'maxSize', 'autoscale.maxBeyondIpPool', {
          pool: pool.name,
          max: maxSize,
          ipPool: ipPool.name,
          room,
        }),
      );
    }
  }
  if ((minSize === 0 || replicas === 0) && !pool.scaleFromZero) {
    out.push(
      warning(R_AS_SCALE_FROM_ZERO, minSize === 0 ? 'minSize' : 'replicas', 'autoscale.fromZero', {
        pool: pool.name,
      }),
    );
  }
  return out;
}

/**
 * R-AS-7: a manual change of an autoscaled pool's replicas, `from` → `to`. Outside the bounds:
 * refused (the autoscaler would stop managing the pool, R-AS-4); within: a warning that the
 * autoscaler may change it again. Nothing for a pool the autoscaler does not manage, or when
 * the count does not change.
 */
export function checkScaleOfAutoscaledPool(
  pool: string,
  from: number,
  to: number,
  autoscaler: (AutoscalerBounds & { scaleFromZero?: boolean }) | undefined,
  path: string,
): RuleIssue[] {
  if (!autoscaler || from === to) return [];
  const params = { pool, replicas: to, min: autoscaler.minSize, max: autoscaler.maxSize };
  if (to < autoscaler.minSize) {
    return [error(R_AS_MANUAL_SCALE, path, 'autoscale.scaleBelowMin', params)];
  }
  if (to > autoscaler.maxSize) {
    return [error(R_AS_MANUAL_SCALE, path, 'autoscale.scaleAboveMax', params)];
  }
  const out = [warning(R_AS_MANUAL_SCALE, path, 'autoscale.scaleWithin', params)];
  // R-AS-6: at 0, without a machine size to plan with, the autoscaler does not bring it back.
  if (to === 0 && autoscaler.scaleFromZero !== true) {
    out.push(warning(R_AS_SCALE_FROM_ZERO, path, 'autoscale.fromZero', { pool }));
  }
  return out;
}
