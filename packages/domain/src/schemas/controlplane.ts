import { z } from 'zod';
import {
  ConditionSchema,
  IntOrStringSchema,
  ObjectReferenceSchema,
  objectSchema,
  V1Beta2StatusSchema,
} from './meta';
import { KubeadmConfigSpecSchema } from './bootstrap';

/** controlplane.cluster.x-k8s.io/v1beta1 KubeadmControlPlane. */
export const KubeadmControlPlaneSchema = objectSchema(
  'controlplane.cluster.x-k8s.io/v1beta1',
  'KubeadmControlPlane',
  z.looseObject({
    replicas: z.number().int().optional(),
    version: z.string(),
    machineTemplate: z.looseObject({
      metadata: z.looseObject({}).optional(),
      infrastructureRef: ObjectReferenceSchema,
      nodeDrainTimeout: z.string().optional(),
      nodeVolumeDetachTimeout: z.string().optional(),
      nodeDeletionTimeout: z.string().optional(),
    }),
    kubeadmConfigSpec: KubeadmConfigSpecSchema.optional(),
    rolloutAfter: z.string().optional(),
    rolloutStrategy: z
      .looseObject({
        type: z.string().optional(),
        rollingUpdate: z.looseObject({ maxSurge: IntOrStringSchema.optional() }).optional(),
      })
      .optional(),
  }),
  z.looseObject({
    selector: z.string().optional(),
    replicas: z.number().int().optional(),
    version: z.string().optional(),
    updatedReplicas: z.number().int().optional(),
    readyReplicas: z.number().int().optional(),
    unavailableReplicas: z.number().int().optional(),
    initialized: z.boolean().optional(),
    ready: z.boolean().optional(),
    failureReason: z.string().optional(),
    failureMessage: z.string().optional(),
    observedGeneration: z.number().int().optional(),
    conditions: z.array(ConditionSchema).optional(),
    v1beta2: V1Beta2StatusSchema,
  }),
);
export type KubeadmControlPlane = z.infer<typeof KubeadmControlPlaneSchema>;
