import { z } from 'zod';
import {
  ConditionSchema,
  IntOrStringSchema,
  LabelSelectorSchema,
  ObjectMetaSchema,
  ObjectReferenceSchema,
  objectSchema,
  V1Beta2StatusSchema,
} from './meta';

/** Cluster API core (cluster.x-k8s.io/v1beta1): Cluster, MachineDeployment, MachineSet, Machine. */

const capiApiVersion = 'cluster.x-k8s.io/v1beta1';
const conditions = z.array(ConditionSchema).optional();

export const MachinePhaseSchema = z.enum([
  'Pending',
  'Provisioning',
  'Provisioned',
  'Running',
  'Deleting',
  'Deleted',
  'Failed',
  'Unknown',
]);
export type MachinePhase = z.infer<typeof MachinePhaseSchema>;

export const ClusterSchema = objectSchema(
  capiApiVersion,
  'Cluster',
  z.looseObject({
    paused: z.boolean().optional(),
    clusterNetwork: z.looseObject({}).optional(),
    controlPlaneEndpoint: z.looseObject({ host: z.string(), port: z.number().int() }).optional(),
    controlPlaneRef: ObjectReferenceSchema.optional(),
    infrastructureRef: ObjectReferenceSchema.optional(),
    topology: z
      .looseObject({ class: z.string().optional(), version: z.string().optional() })
      .optional(),
  }),
  z.looseObject({
    phase: z.string().optional(),
    infrastructureReady: z.boolean().optional(),
    controlPlaneReady: z.boolean().optional(),
    failureReason: z.string().optional(),
    failureMessage: z.string().optional(),
    observedGeneration: z.number().int().optional(),
    conditions,
    v1beta2: V1Beta2StatusSchema,
  }),
);
export type Cluster = z.infer<typeof ClusterSchema>;

/** The machine spec shared by Machine and the templates of MachineSet / MachineDeployment. */
export const MachineSpecSchema = z.looseObject({
  clusterName: z.string(),
  bootstrap: z.looseObject({
    configRef: ObjectReferenceSchema.optional(),
    dataSecretName: z.string().optional(),
  }),
  infrastructureRef: ObjectReferenceSchema,
  version: z.string().optional(),
  providerID: z.string().optional(),
  failureDomain: z.string().optional(),
  nodeDrainTimeout: z.string().optional(),
  nodeVolumeDetachTimeout: z.string().optional(),
  nodeDeletionTimeout: z.string().optional(),
});
export type MachineSpec = z.infer<typeof MachineSpecSchema>;

export const MachineTemplateSpecSchema = z.looseObject({
  metadata: z
    .looseObject({
      labels: z.record(z.string(), z.string()).optional(),
      annotations: z.record(z.string(), z.string()).optional(),
    })
    .optional(),
  spec: MachineSpecSchema,
});

export const DeletePolicySchema = z.enum(['Random', 'Newest', 'Oldest']);
export type DeletePolicy = z.infer<typeof DeletePolicySchema>;

export const MachineDeploymentStrategySchema = z.looseObject({
  type: z.enum(['RollingUpdate', 'OnDelete']).optional(),
  rollingUpdate: z
    .looseObject({
      maxSurge: IntOrStringSchema.optional(),
      maxUnavailable: IntOrStringSchema.optional(),
      deletePolicy: DeletePolicySchema.optional(),
    })
    .optional(),
});

const replicaStatus = {
  selector: z.string().optional(),
  replicas: z.number().int().optional(),
  readyReplicas: z.number().int().optional(),
  availableReplicas: z.number().int().optional(),
  observedGeneration: z.number().int().optional(),
  conditions,
  v1beta2: V1Beta2StatusSchema,
};

export const MachineDeploymentSchema = objectSchema(
  capiApiVersion,
  'MachineDeployment',
  z.looseObject({
    clusterName: z.string(),
    replicas: z.number().int().optional(),
    selector: LabelSelectorSchema.optional(),
    template: MachineTemplateSpecSchema,
    strategy: MachineDeploymentStrategySchema.optional(),
    minReadySeconds: z.number().int().optional(),
    revisionHistoryLimit: z.number().int().optional(),
    paused: z.boolean().optional(),
    progressDeadlineSeconds: z.number().int().optional(),
    /** O-RESTART: machines of MachineSets created before this time are rolled once it passes. */
    rolloutAfter: z.string().optional(),
  }),
  z.looseObject({
    ...replicaStatus,
    updatedReplicas: z.number().int().optional(),
    unavailableReplicas: z.number().int().optional(),
    phase: z.string().optional(),
  }),
);
export type MachineDeployment = z.infer<typeof MachineDeploymentSchema>;

export const MachineSetSchema = objectSchema(
  capiApiVersion,
  'MachineSet',
  z.looseObject({
    clusterName: z.string(),
    replicas: z.number().int().optional(),
    deletePolicy: DeletePolicySchema.optional(),
    selector: LabelSelectorSchema,
    template: MachineTemplateSpecSchema.optional(),
    minReadySeconds: z.number().int().optional(),
  }),
  z.looseObject({
    ...replicaStatus,
    fullyLabeledReplicas: z.number().int().optional(),
    failureReason: z.string().optional(),
    failureMessage: z.string().optional(),
  }),
);
export type MachineSet = z.infer<typeof MachineSetSchema>;

export const MachineSchema = objectSchema(
  capiApiVersion,
  'Machine',
  MachineSpecSchema,
  z.looseObject({
    nodeRef: ObjectReferenceSchema.optional(),
    nodeInfo: z.looseObject({}).optional(),
    lastUpdated: z.string().optional(),
    failureReason: z.string().optional(),
    failureMessage: z.string().optional(),
    addresses: z.array(z.looseObject({ type: z.string(), address: z.string() })).optional(),
    // A string, not the enum: a phase from a newer Cluster API must still parse.
    phase: z.string().optional(),
    bootstrapReady: z.boolean().optional(),
    infrastructureReady: z.boolean().optional(),
    observedGeneration: z.number().int().optional(),
    deletion: z
      .looseObject({
        nodeDrainStartTime: z.string().optional(),
        waitForNodeVolumeDetachStartTime: z.string().optional(),
      })
      .optional(),
    conditions,
    v1beta2: V1Beta2StatusSchema,
  }),
);
export type Machine = z.infer<typeof MachineSchema>;

/** One of a MachineHealthCheck's unhealthy node conditions (v1beta1: a Go duration). */
export const UnhealthyConditionSchema = z.looseObject({
  type: z.string(),
  status: z.string(),
  timeout: z.string(),
});
export type UnhealthyCondition = z.infer<typeof UnhealthyConditionSchema>;

/**
 * MachineHealthCheck (issue 26 item 1), as the hub (v1beta1) holds it: which machines it checks
 * (selector, in cluster clusterName), when one is unhealthy (its Node's conditions held past their
 * timeouts, no Node past nodeStartupTimeout), and how many may be remediated at once
 * (maxUnhealthy or unhealthyRange).
 */
export const MachineHealthCheckSchema = objectSchema(
  capiApiVersion,
  'MachineHealthCheck',
  z.looseObject({
    clusterName: z.string(),
    selector: LabelSelectorSchema,
    unhealthyConditions: z.array(UnhealthyConditionSchema).optional(),
    maxUnhealthy: IntOrStringSchema.optional(),
    unhealthyRange: z.string().optional(),
    nodeStartupTimeout: z.string().optional(),
    remediationTemplate: ObjectReferenceSchema.optional(),
  }),
  z.looseObject({
    expectedMachines: z.number().int().optional(),
    currentHealthy: z.number().int().optional(),
    remediationsAllowed: z.number().int().optional(),
    observedGeneration: z.number().int().optional(),
    targets: z.array(z.string()).optional(),
    conditions,
    v1beta2: V1Beta2StatusSchema,
  }),
);
export type MachineHealthCheck = z.infer<typeof MachineHealthCheckSchema>;

export { ObjectMetaSchema };
