import { z } from 'zod';
import { ObjectMetaSchema, ObjectReferenceSchema } from './meta';

/** The core kinds the product reads: Secret, ConfigMap, Event, and the provider's Deployment. */

export const SecretSchema = z.looseObject({
  apiVersion: z.literal('v1'),
  kind: z.literal('Secret'),
  metadata: ObjectMetaSchema,
  type: z.string().optional(),
  data: z.record(z.string(), z.string()).optional(),
  stringData: z.record(z.string(), z.string()).optional(),
});
export type Secret = z.infer<typeof SecretSchema>;

export const ConfigMapSchema = z.looseObject({
  apiVersion: z.literal('v1'),
  kind: z.literal('ConfigMap'),
  metadata: ObjectMetaSchema,
  data: z.record(z.string(), z.string()).optional(),
});
export type ConfigMap = z.infer<typeof ConfigMapSchema>;

export const EventSchema = z.looseObject({
  apiVersion: z.literal('v1'),
  kind: z.literal('Event'),
  metadata: ObjectMetaSchema,
  involvedObject: ObjectReferenceSchema,
  reason: z.string().optional(),
  message: z.string().optional(),
  type: z.string().optional(),
  count: z.number().int().optional(),
  firstTimestamp: z.string().nullable().optional(),
  lastTimestamp: z.string().nullable().optional(),
  eventTime: z.string().nullable().optional(),
  source: z
    .looseObject({ component: z.string().optional(), host: z.string().optional() })
    .optional(),
  reportingComponent: z.string().optional(),
});
export type KubeEvent = z.infer<typeof EventSchema>;

export const DeploymentSchema = z.looseObject({
  apiVersion: z.literal('apps/v1'),
  kind: z.literal('Deployment'),
  metadata: ObjectMetaSchema,
  spec: z
    .looseObject({
      replicas: z.number().int().optional(),
      template: z
        .looseObject({
          spec: z
            .looseObject({
              containers: z
                .array(z.looseObject({ name: z.string(), image: z.string().optional() }))
                .optional(),
            })
            .optional(),
        })
        .optional(),
    })
    .optional(),
  status: z.looseObject({}).optional(),
});
export type Deployment = z.infer<typeof DeploymentSchema>;

/** The workload cluster's core/v1 Node, as the console reads it (issue 12: a machine's Node). */
export const NodeConditionSchema = z.looseObject({
  type: z.string(),
  status: z.string(),
  reason: z.string().optional(),
  message: z.string().optional(),
  lastHeartbeatTime: z.string().nullable().optional(),
  lastTransitionTime: z.string().nullable().optional(),
});
export type NodeCondition = z.infer<typeof NodeConditionSchema>;

export const TaintSchema = z.looseObject({
  key: z.string(),
  value: z.string().optional(),
  effect: z.string(),
  timeAdded: z.string().nullable().optional(),
});
export type Taint = z.infer<typeof TaintSchema>;

export const NodeSchema = z.looseObject({
  apiVersion: z.literal('v1'),
  kind: z.literal('Node'),
  metadata: ObjectMetaSchema,
  spec: z
    .looseObject({
      providerID: z.string().optional(),
      unschedulable: z.boolean().optional(),
      taints: z.array(TaintSchema).optional(),
    })
    .optional(),
  status: z
    .looseObject({
      conditions: z.array(NodeConditionSchema).optional(),
      addresses: z.array(z.looseObject({ type: z.string(), address: z.string() })).optional(),
      nodeInfo: z.looseObject({ kubeletVersion: z.string().optional() }).optional(),
    })
    .optional(),
});
export type Node = z.infer<typeof NodeSchema>;
