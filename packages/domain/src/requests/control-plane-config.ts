import { z } from 'zod';
import { KubeadmConfigSpecSchema } from '../schemas/bootstrap';
import type { RequestFieldTrees } from './field-trees';
import { bounded } from './fields';
import { knownFieldsOnly } from './known-fields';

/**
 * A KubeadmConfigSpec as a request writes it (a new bootstrap template, the control plane's
 * config): only fields the KubeadmConfigSpec tree has (upstream's, or the served CRD's), at every
 * level (issue 11: a typo such as `postKubeadmCommand` or `users.0.sshAuthorizedKey` would be
 * pruned silently by a real API server). Maps (kubeletExtraArgs, extraArgs, featureGates) take
 * any key.
 *
 * O-EDIT-CP-CONFIG (issue 12): the control plane's `spec.kubeadmConfigSpec` as the user wants
 * it (files, the kubelet patch of R-BOOT-1, users, commands, kubelet arguments), with the
 * KubeadmControlPlane's resourceVersion as the user saw it. Fields the user did not touch come
 * back as they were: the plan writes only the top-level fields that differ, each guarded by a
 * test of its current value. Only the KubeadmControlPlane's KubeadmConfigSpec fields are taken.
 */
export function controlPlaneConfigSchemasFor(trees: RequestFieldTrees) {
  const KubeadmConfigSpecInputSchema = knownFieldsOnly(
    KubeadmConfigSpecSchema,
    'KubeadmConfigSpec',
    trees.kubeadmConfigSpec,
  );
  const EditControlPlaneConfigRequestSchema = bounded(
    z.strictObject({
      resourceVersion: z.string().min(1),
      kubeadmConfigSpec: knownFieldsOnly(
        KubeadmConfigSpecSchema,
        'KubeadmConfigSpec',
        trees.controlPlaneConfigSpec,
      ),
    }),
  );
  return { KubeadmConfigSpecInputSchema, EditControlPlaneConfigRequestSchema };
}
