import { z } from 'zod';
import { KubeadmConfigSpecSchema } from '../schemas/bootstrap';
import { bounded } from './fields';

/**
 * O-EDIT-CP-CONFIG (issue 12): the control plane's `spec.kubeadmConfigSpec` as the user wants
 * it (files, the kubelet patch of R-BOOT-1, users, commands, kubelet arguments), with the
 * KubeadmControlPlane's resourceVersion as the user saw it. Fields the user did not touch come
 * back as they were: the plan writes only the top-level fields that differ, each guarded by a
 * test of its current value.
 */
export const EditControlPlaneConfigRequestSchema = bounded(
  z.object({
    resourceVersion: z.string().min(1),
    kubeadmConfigSpec: KubeadmConfigSpecSchema,
  }),
);
export type EditControlPlaneConfigRequest = z.infer<typeof EditControlPlaneConfigRequestSchema>;
