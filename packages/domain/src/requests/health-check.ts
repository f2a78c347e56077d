import { z } from 'zod';
import { intOrPercentProblem } from '../intstr';
import {
  CONDITION_STATUSES,
  MAX_HEALTH_CHECK_SECONDS,
  MAX_UNHEALTHY_CONDITIONS,
  parseUnhealthyRange,
  R_MHC_LIMIT,
  type RemediationLimit,
} from '../rules/health-check';
import { bounded, refuse } from './fields';

/**
 * O-MHC-CREATE / O-MHC-EDIT (issue 26 item 1): a worker pool's MachineHealthCheck, in the terms
 * v1beta2 uses (seconds; the hub's v1beta1 durations are written from them):
 *
 * - `unhealthyNodeConditions`: `{type, status, timeoutSeconds}` each (R-MHC-2's shape: a status
 *   True, False or Unknown, whole seconds 0..2,147,483,647), at most 100 (R-MHC-1); none is
 *   allowed when the node start-up timeout is not 0 (the rules' R-MHC-1).
 * - `nodeStartupTimeoutSeconds`, optional: 0 disables it; left out, upstream's 600 (R-MHC-3 is
 *   the rules': at least 30 unless 0).
 * - The remediation limit (R-MHC-4), at most one of: `maxUnhealthy` (v1beta2
 *   `triggerIf.unhealthyLessThanOrEqualTo`) a non-negative integer or a percentage string;
 *   `unhealthyRange` (`triggerIf.unhealthyInRange`) `"[a-b]"`, a ≤ b. Neither: no limit.
 * - `resourceVersion`: on an edit, the MachineHealthCheck's as the user saw it.
 *
 * O-MHC-DELETE takes only the resourceVersion.
 */
const seconds = z.number().int().min(0).max(MAX_HEALTH_CHECK_SECONDS);

export const UnhealthyNodeConditionInputSchema = z.strictObject({
  type: z.string().trim().min(1).max(316),
  status: z.enum(CONDITION_STATUSES),
  timeoutSeconds: seconds,
});

const healthCheckFields = {
  unhealthyNodeConditions: z.array(UnhealthyNodeConditionInputSchema).max(MAX_UNHEALTHY_CONDITIONS),
  nodeStartupTimeoutSeconds: seconds.optional(),
  maxUnhealthy: z.union([z.number(), z.string()]).optional(),
  unhealthyRange: z.string().optional(),
};

interface LimitFields {
  maxUnhealthy?: number | string | undefined;
  unhealthyRange?: string | undefined;
}

function refineLimit(req: LimitFields, ctx: z.core.$RefinementCtx): void {
  if (req.maxUnhealthy !== undefined && req.unhealthyRange !== undefined) {
    refuse(ctx, R_MHC_LIMIT, 'healthCheck.limitBoth', {}, ['unhealthyRange']);
    return;
  }
  if (req.maxUnhealthy !== undefined) {
    const problem = intOrPercentProblem(req.maxUnhealthy);
    if (problem) {
      refuse(
        ctx,
        R_MHC_LIMIT,
        'healthCheck.maxUnhealthyInvalid',
        { value: String(req.maxUnhealthy) },
        ['maxUnhealthy'],
      );
    }
  }
  if (req.unhealthyRange !== undefined && !/^\[[0-9]+-[0-9]+\]$/.test(req.unhealthyRange)) {
    refuse(
      ctx,
      R_MHC_LIMIT,
      'healthCheck.rangeInvalid',
      { value: req.unhealthyRange.slice(0, 40) },
      ['unhealthyRange'],
    );
  }
}

export const CreateHealthCheckRequestSchema = bounded(
  z.strictObject(healthCheckFields).superRefine(refineLimit),
);
export type CreateHealthCheckRequest = z.infer<typeof CreateHealthCheckRequestSchema>;

export const EditHealthCheckRequestSchema = bounded(
  z
    .strictObject({
      /** The MachineHealthCheck's resourceVersion as the user saw it. */
      resourceVersion: z.string().min(1),
      ...healthCheckFields,
    })
    .superRefine(refineLimit),
);
export type EditHealthCheckRequest = z.infer<typeof EditHealthCheckRequestSchema>;

export const DeleteHealthCheckRequestSchema = bounded(
  z.strictObject({ resourceVersion: z.string().min(1) }),
);
export type DeleteHealthCheckRequest = z.infer<typeof DeleteHealthCheckRequestSchema>;

/** The limit a request asks for (its shape already checked); a reversed range is the rules'. */
export function requestedLimit(req: LimitFields): RemediationLimit {
  if (req.unhealthyRange !== undefined) {
    const m = /^\[([0-9]+)-([0-9]+)\]$/.exec(req.unhealthyRange);
    const parsed = parseUnhealthyRange(req.unhealthyRange);
    if (parsed) return { kind: 'range', ...parsed };
    return { kind: 'range', min: Number(m?.[1] ?? 0), max: Number(m?.[2] ?? 0) };
  }
  if (req.maxUnhealthy !== undefined)
    return { kind: 'maxUnhealthy', maxUnhealthy: req.maxUnhealthy };
  return { kind: 'none' };
}

/**
 * The one body of `POST …/nodepools/{pool}/healthcheck`: `operation` says which of
 * O-MHC-CREATE, O-MHC-EDIT and O-MHC-DELETE it is, with that operation's fields.
 */
export const HealthCheckRequestSchema = bounded(
  z.union([
    z
      .strictObject({ operation: z.literal('create'), ...healthCheckFields })
      .superRefine(refineLimit),
    z
      .strictObject({
        operation: z.literal('edit'),
        resourceVersion: z.string().min(1),
        ...healthCheckFields,
      })
      .superRefine(refineLimit),
    z.strictObject({ operation: z.literal('delete'), resourceVersion: z.string().min(1) }),
  ]),
);
export type HealthCheckRequest = z.infer<typeof HealthCheckRequestSchema>;
