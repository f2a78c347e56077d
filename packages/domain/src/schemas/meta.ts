import { z } from 'zod';

/**
 * Building blocks shared by every kind. Every object schema is loose: fields this project does
 * not know pass through untouched, so reading an object and writing it back loses nothing.
 */

export const OwnerReferenceSchema = z.looseObject({
  apiVersion: z.string(),
  kind: z.string(),
  name: z.string(),
  uid: z.string(),
  controller: z.boolean().optional(),
  blockOwnerDeletion: z.boolean().optional(),
});
export type OwnerReference = z.infer<typeof OwnerReferenceSchema>;

export const ObjectMetaSchema = z.looseObject({
  name: z.string().optional(),
  generateName: z.string().optional(),
  namespace: z.string().optional(),
  uid: z.string().optional(),
  resourceVersion: z.string().optional(),
  generation: z.number().int().optional(),
  creationTimestamp: z.string().optional(),
  deletionTimestamp: z.string().optional(),
  deletionGracePeriodSeconds: z.number().int().optional(),
  labels: z.record(z.string(), z.string()).optional(),
  annotations: z.record(z.string(), z.string()).optional(),
  ownerReferences: z.array(OwnerReferenceSchema).optional(),
  finalizers: z.array(z.string()).optional(),
  managedFields: z.array(z.unknown()).optional(),
});
export type ObjectMeta = z.infer<typeof ObjectMetaSchema>;

/** corev1.ObjectReference as Cluster API uses it for infrastructureRef, configRef, nodeRef. */
export const ObjectReferenceSchema = z.looseObject({
  apiVersion: z.string().optional(),
  kind: z.string().optional(),
  name: z.string().optional(),
  namespace: z.string().optional(),
  uid: z.string().optional(),
  resourceVersion: z.string().optional(),
  fieldPath: z.string().optional(),
});
export type ObjectReference = z.infer<typeof ObjectReferenceSchema>;

/** Cluster API v1beta1 condition (with severity, unlike metav1.Condition). */
export const ConditionSchema = z.looseObject({
  type: z.string(),
  status: z.enum(['True', 'False', 'Unknown']),
  severity: z.enum(['Error', 'Warning', 'Info', '']).optional(),
  lastTransitionTime: z.string().optional(),
  reason: z.string().optional(),
  message: z.string().optional(),
});
export type Condition = z.infer<typeof ConditionSchema>;

/**
 * metav1.Condition, as Cluster API v1beta2 writes its conditions (no severity; `reason` always
 * set; `observedGeneration`: the generation the controller had seen when it wrote it). In the
 * hub (v1beta1 as Cluster API >= v1.9 serves it) they are under `status.v1beta2.conditions`.
 */
export const V1Beta2ConditionSchema = z.looseObject({
  type: z.string(),
  status: z.enum(['True', 'False', 'Unknown']),
  reason: z.string().optional(),
  message: z.string().optional(),
  lastTransitionTime: z.string().optional(),
  observedGeneration: z.number().int().optional(),
});
export type V1Beta2Condition = z.infer<typeof V1Beta2ConditionSchema>;

/**
 * The hub's `status.v1beta2` block: the new conditions and, for the kinds that count machines,
 * the new counters. A block this console cannot read is dropped, not the whole object: the
 * object's v1beta1 status still says what it can.
 */
export const V1Beta2StatusSchema = z
  .looseObject({
    conditions: z.array(V1Beta2ConditionSchema).optional(),
    readyReplicas: z.number().int().optional(),
    availableReplicas: z.number().int().optional(),
    upToDateReplicas: z.number().int().optional(),
  })
  .optional()
  .catch(undefined);
export type V1Beta2Status = z.infer<typeof V1Beta2StatusSchema>;

/** intstr.IntOrString: the wire allows either; R-MD-2 says which values are valid. */
export const IntOrStringSchema = z.union([z.number().int(), z.string()]);
export type IntOrString = z.infer<typeof IntOrStringSchema>;

export const LabelSelectorSchema = z.looseObject({
  matchLabels: z.record(z.string(), z.string()).nullable().optional(),
  matchExpressions: z
    .array(
      z.looseObject({
        key: z.string(),
        operator: z.string(),
        values: z.array(z.string()).optional(),
      }),
    )
    .optional(),
});

/** A Kubernetes object as it travels on the wire. */
export function objectSchema<const K extends string, S extends z.ZodType, St extends z.ZodType>(
  apiVersion: string,
  kind: K,
  spec: S,
  status: St,
) {
  return z.looseObject({
    apiVersion: z.literal(apiVersion),
    kind: z.literal(kind),
    metadata: ObjectMetaSchema,
    spec: spec.optional(),
    status: status.optional(),
  });
}

/** The minimum every object has; used where the kind does not matter (YAML view, owner walks). */
export const AnyObjectSchema = z.looseObject({
  apiVersion: z.string(),
  kind: z.string(),
  metadata: ObjectMetaSchema,
});
export type AnyObject = z.infer<typeof AnyObjectSchema>;
