import { z } from 'zod';
import { parseRfc3339 } from '../rules/restart';
import { bounded, refuse } from './fields';

/**
 * O-RESTART (issue 26 item 4): a rollout restart of a worker pool (its MachineDeployment) or of
 * the control plane (its KubeadmControlPlane) through `rolloutAfter`. Without `at`, "now": the BFF
 * sets the time from its own clock (never the browser's). With `at`, a restart scheduled for that
 * time (RFC 3339; R-RESTART-3: later than the BFF's clock). The resourceVersion is the target's as
 * the user saw it.
 */
export const RestartRequestSchema = bounded(
  z.strictObject({
    /** The target's resourceVersion as the user saw it. */
    resourceVersion: z.string().min(1),
    at: z
      .string()
      .superRefine((value, ctx) => {
        if (parseRfc3339(value) === undefined)
          refuse(ctx, 'R-RESTART-3', 'request.restartTimeInvalid', { value });
      })
      .optional(),
  }),
);
export type RestartRequest = z.infer<typeof RestartRequestSchema>;
