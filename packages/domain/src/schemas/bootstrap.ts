import { z } from 'zod';
import { KUBEADM_CONFIG_SPEC_TREE } from '../generated/kubeadm-config-spec-fields';
import { ConditionSchema, objectSchema } from './meta';

/** bootstrap.cluster.x-k8s.io/v1beta1: KubeadmConfigTemplate and KubeadmConfig. */

export const BootstrapFileSchema = z.looseObject({
  path: z.string(),
  owner: z.string().optional(),
  permissions: z.string().optional(),
  encoding: z.string().optional(),
  append: z.boolean().optional(),
  content: z.string().optional(),
  contentFrom: z
    .looseObject({
      secret: z.looseObject({ name: z.string(), key: z.string() }),
    })
    .optional(),
});
export type BootstrapFile = z.infer<typeof BootstrapFileSchema>;

/**
 * Every top-level field of Cluster API's KubeadmConfigSpec (bootstrap.cluster.x-k8s.io/v1beta1),
 * including those this package does not model: derived from upstream's CRD (the generated
 * {@link KUBEADM_CONFIG_SPEC_TREE}, which a request's spec is judged by at every level).
 */
export const KUBEADM_CONFIG_SPEC_FIELDS: readonly string[] = Object.keys(
  KUBEADM_CONFIG_SPEC_TREE.properties ?? {},
);

export const KubeadmConfigSpecSchema = z.looseObject({
  format: z.enum(['cloud-config', 'ignition']).optional(),
  users: z
    .array(
      z.looseObject({
        name: z.string(),
        sshAuthorizedKeys: z.array(z.string()).optional(),
      }),
    )
    .optional(),
  files: z.array(BootstrapFileSchema).optional(),
  preKubeadmCommands: z.array(z.string()).optional(),
  postKubeadmCommands: z.array(z.string()).optional(),
  joinConfiguration: z
    .looseObject({
      patches: z.looseObject({ directory: z.string().optional() }).optional(),
      nodeRegistration: z
        .looseObject({
          name: z.string().optional(),
          kubeletExtraArgs: z.record(z.string(), z.string()).optional(),
        })
        .optional(),
    })
    .optional(),
  initConfiguration: z.looseObject({}).optional(),
  clusterConfiguration: z.looseObject({}).optional(),
});
export type KubeadmConfigSpec = z.infer<typeof KubeadmConfigSpecSchema>;

export const KubeadmConfigTemplateSchema = objectSchema(
  'bootstrap.cluster.x-k8s.io/v1beta1',
  'KubeadmConfigTemplate',
  z.looseObject({
    template: z.looseObject({
      metadata: z.looseObject({}).optional(),
      spec: KubeadmConfigSpecSchema.optional(),
    }),
  }),
  z.looseObject({}),
);
export type KubeadmConfigTemplate = z.infer<typeof KubeadmConfigTemplateSchema>;

export const KubeadmConfigSchema = objectSchema(
  'bootstrap.cluster.x-k8s.io/v1beta1',
  'KubeadmConfig',
  KubeadmConfigSpecSchema,
  z.looseObject({
    ready: z.boolean().optional(),
    dataSecretName: z.string().optional(),
    failureReason: z.string().optional(),
    failureMessage: z.string().optional(),
    observedGeneration: z.number().int().optional(),
    conditions: z.array(ConditionSchema).optional(),
  }),
);
export type KubeadmConfig = z.infer<typeof KubeadmConfigSchema>;
