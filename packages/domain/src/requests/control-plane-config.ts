import { z } from 'zod';
import { BootstrapFileSchema, KubeadmConfigSpecSchema } from '../schemas/bootstrap';
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
/**
 * What a request may write of a KubeadmConfigSpec's lists and their strings: Cluster API
 * v1.14.0's bounds (its KubeadmConfig and KubeadmControlPlane CRDs, both versions: files ≤ 200,
 * a file's content ≤ 10,240 characters and path ≤ 512, pre/postKubeadmCommands ≤ 1,000 of
 * ≤ 10,240, users ≤ 100). Without them a body of 100,000 one-word commands passed, and planning
 * it (cloned, bounded, checked, patched and inverted several times) held the process ~0.5 s
 * before the stale resourceVersion was found (issue 25, the timing guard).
 */
const RequestKubeadmConfigSpecSchema = KubeadmConfigSpecSchema.extend({
  users: KubeadmConfigSpecSchema.shape.users.unwrap().max(100).optional(),
  files: z
    .array(
      BootstrapFileSchema.extend({
        path: z.string().max(512),
        content: z.string().max(10_240).optional(),
      }),
    )
    .max(200)
    .optional(),
  preKubeadmCommands: z.array(z.string().max(10_240)).max(1000).optional(),
  postKubeadmCommands: z.array(z.string().max(10_240)).max(1000).optional(),
});

export function controlPlaneConfigSchemasFor(trees: RequestFieldTrees) {
  const KubeadmConfigSpecInputSchema = knownFieldsOnly(
    RequestKubeadmConfigSpecSchema,
    'KubeadmConfigSpec',
    trees.kubeadmConfigSpec,
  );
  const EditControlPlaneConfigRequestSchema = bounded(
    z.strictObject({
      resourceVersion: z.string().min(1),
      kubeadmConfigSpec: knownFieldsOnly(
        RequestKubeadmConfigSpecSchema,
        'KubeadmConfigSpec',
        trees.controlPlaneConfigSpec,
      ),
    }),
  );
  return { KubeadmConfigSpecInputSchema, EditControlPlaneConfigRequestSchema };
}
