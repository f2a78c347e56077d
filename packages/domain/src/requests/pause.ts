import { z } from 'zod';
import { bounded } from './fields';

/**
 * O-PAUSE / O-RESUME (issue 26): stop or restart Cluster API's reconciliation of a cluster
 * (`spec.paused`) or of one object of it (the `cluster.x-k8s.io/paused` annotation on a pool's
 * MachineDeployment or on the control plane's KubeadmControlPlane). `paused` is the state the user
 * wants; the resourceVersion is the target's as the user saw it.
 */
export const PauseRequestSchema = bounded(
  z.strictObject({
    /** The target's resourceVersion as the user saw it. */
    resourceVersion: z.string().min(1),
    paused: z.boolean(),
  }),
);
export type PauseRequest = z.infer<typeof PauseRequestSchema>;
