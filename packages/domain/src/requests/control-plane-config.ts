import { z } from 'zod';
import { KUBEADM_CONFIG_SPEC_FIELDS, KubeadmConfigSpecSchema } from '../schemas/bootstrap';
import { bounded, knownFieldsOnly } from './fields';

/**
 * O-EDIT-CP-CONFIG (issue 12): the control plane's `spec.kubeadmConfigSpec` as the user wants
 * it (files, the kubelet patch of R-BOOT-1, users, commands, kubelet arguments), with the
 * KubeadmControlPlane's resourceVersion as the user saw it. Fields the user did not touch come
 * back as they were: the plan writes only the top-level fields that differ, each guarded by a
 * test of its current value. Only upstream's KubeadmConfigSpec fields are taken, as for a new
 * bootstrap template: a typo would be pruned silently by a real API server (issue 11).
 */
export const EditControlPlaneConfigRequestSchema = bounded(
  z.object({
    resourceVersion: z.string().min(1),
    kubeadmConfigSpec: knownFieldsOnly(
      KubeadmConfigSpecSchema,
      'KubeadmConfigSpec',
      KUBEADM_CONFIG_SPEC_FIELDS,
    ),
  }),
);
export type EditControlPlaneConfigRequest = z.infer<typeof EditControlPlaneConfigRequestSchema>;
