import { z } from 'zod';
import { MAX_AUTOSCALER_SIZE, R_AS_BOTH_OR_NEITHER } from '../rules/autoscale';
import { bounded, refuse, replicasField } from './fields';

/**
 * O-AUTOSCALE / O-AUTOSCALE-REMOVE (issue 26 item 2): the cluster autoscaler's bounds of a worker
 * pool, the `cluster.x-k8s.io/cluster-api-autoscaler-node-group-{min,max}-size` annotations of
 * its MachineDeployment.
 *
 * - `minSize` and `maxSize` both numbers: set the bounds (O-AUTOSCALE); both `null`: remove both
 *   annotations (O-AUTOSCALE-REMOVE). One without the other is R-AS-2's refusal, naming the
 *   missing field. Each is a whole number from 0 to 2,147,483,647 (R-AS-1: the request's field
 *   rule, so `-1`, `1.5` and `"3"` are refused under it). min ≤ max and the rest are the rules'
 *   (`validateAutoscale`: R-AS-3..6).
 * - `replicas`, optional: replicas to set in the same change, so that a pool whose replicas are
 *   outside the new bounds is moved within them (R-AS-4).
 * - `resourceVersion`: the MachineDeployment's as the user saw it.
 */
const size = z.number().int().min(0).max(MAX_AUTOSCALER_SIZE).nullable().optional();

export const AutoscaleRequestSchema = bounded(
  z
    .strictObject({
      /** The MachineDeployment's resourceVersion as the user saw it. */
      resourceVersion: z.string().min(1),
      minSize: size,
      maxSize: size,
      replicas: replicasField().optional(),
    })
    .superRefine((req, ctx) => {
      // R-AS-2: both numbers, or both null; a field left out is as missing as a null one.
      const given = (v: number | null | undefined) => typeof v === 'number';
      const min = given(req.minSize);
      const max = given(req.maxSize);
      const removing = req.minSize === null && req.maxSize === null;
      if (min && max) return;
      if (removing) {
        if (req.replicas !== undefined) {
          refuse(ctx, R_AS_BOTH_OR_NEITHER, 'autoscale.replicasWithoutBounds', {}, ['replicas']);
        }
        return;
      }
      const missing = !min ? 'minSize' : 'maxSize';
      refuse(ctx, R_AS_BOTH_OR_NEITHER, 'autoscale.bothOrNeither', { field: missing }, [missing]);
    }),
);
export type AutoscaleRequest = z.infer<typeof AutoscaleRequestSchema>;

/** The bounds a request sets, or undefined when it removes them. */
export function requestedBounds(
  req: AutoscaleRequest,
): { minSize: number; maxSize: number } | undefined {
  return typeof req.minSize === 'number' && typeof req.maxSize === 'number'
    ? { minSize: req.minSize, maxSize: req.maxSize }
    : undefined;
}
