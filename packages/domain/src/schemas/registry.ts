import type { z } from 'zod';
import type { KindName } from '../kinds';
import { KubeadmConfigSchema, KubeadmConfigTemplateSchema } from './bootstrap';
import {
  ClusterSchema,
  MachineDeploymentSchema,
  MachineHealthCheckSchema,
  MachineSchema,
  MachineSetSchema,
} from './capi';
import { KubeadmControlPlaneSchema } from './controlplane';
import { ConfigMapSchema, DeploymentSchema, EventSchema, SecretSchema } from './core';
import {
  DCSClusterSchema,
  DCSIpHostnamePoolSchema,
  DCSMachineSchema,
  DCSMachineTemplateSchema,
} from './dcs';

/** The wire schema of each kind the product parses (Namespace needs none). */
export const kindSchemas = {
  Cluster: ClusterSchema,
  MachineDeployment: MachineDeploymentSchema,
  MachineSet: MachineSetSchema,
  Machine: MachineSchema,
  MachineHealthCheck: MachineHealthCheckSchema,
  KubeadmControlPlane: KubeadmControlPlaneSchema,
  KubeadmConfigTemplate: KubeadmConfigTemplateSchema,
  KubeadmConfig: KubeadmConfigSchema,
  DCSMachineTemplate: DCSMachineTemplateSchema,
  DCSMachine: DCSMachineSchema,
  DCSIpHostnamePool: DCSIpHostnamePoolSchema,
  DCSCluster: DCSClusterSchema,
  ConfigMap: ConfigMapSchema,
  Secret: SecretSchema,
  Event: EventSchema,
  Deployment: DeploymentSchema,
} as const satisfies Partial<Record<KindName, z.ZodType>>;

export type ParsedKind = keyof typeof kindSchemas;
export type ObjectOf<K extends ParsedKind> = z.infer<(typeof kindSchemas)[K]>;

/** Parses an object from the wire by its kind; unknown fields are kept. */
export function parseObject<K extends ParsedKind>(kind: K, raw: unknown): ObjectOf<K> {
  return kindSchemas[kind].parse(raw) as ObjectOf<K>;
}

export function safeParseObject<K extends ParsedKind>(
  kind: K,
  raw: unknown,
): { success: true; data: ObjectOf<K> } | { success: false; error: z.ZodError } {
  const result = kindSchemas[kind].safeParse(raw);
  return result.success
    ? { success: true, data: result.data as ObjectOf<K> }
    : { success: false, error: result.error };
}
