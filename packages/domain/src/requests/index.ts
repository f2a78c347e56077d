import { z } from 'zod';
import { KubeadmConfigSpecSchema } from '../schemas/bootstrap';
import { DeletePolicySchema } from '../schemas/capi';
import { DCSMachineSpecSchema, IpPoolEntrySchema } from '../schemas/dcs';
import { IntOrStringSchema } from '../schemas/meta';

/**
 * Request bodies of the BFF's mutating routes, shared by the browser's forms (zodResolver) and the
 * routes (the Fastify type provider). They check shape only; the rules R-* judge the values, so
 * that every message names its rule. Every request carries the resourceVersion of each object the
 * user saw: a change made meanwhile by someone else is never overwritten silently.
 */

const name = z.string().min(1).max(253);
const resourceVersion = z.string().min(1);

/** A DCSMachineTemplate body as a form edits it; the plan sets `ipHostPoolRef` itself. */
export const MachineTemplateSpecInputSchema = DCSMachineSpecSchema.omit({
  ipHostPoolRef: true,
  providerID: true,
});
export type MachineTemplateSpecInput = z.infer<typeof MachineTemplateSpecInputSchema>;

export const NewMachineTemplateSchema = z.object({ name, spec: MachineTemplateSpecInputSchema });
export type NewMachineTemplate = z.infer<typeof NewMachineTemplateSchema>;

export const NewBootstrapTemplateSchema = z.object({ name, spec: KubeadmConfigSpecSchema });
export type NewBootstrapTemplate = z.infer<typeof NewBootstrapTemplateSchema>;

export const StrategyInputSchema = z.object({
  maxSurge: IntOrStringSchema,
  maxUnavailable: IntOrStringSchema,
  deletePolicy: DeletePolicySchema.optional(),
});
export type StrategyInput = z.infer<typeof StrategyInputSchema>;

/** O-CREATE-POOL */
export const CreatePoolRequestSchema = z.object({
  name,
  replicas: z.number().int().min(0),
  version: z.string().min(1),
  machineTemplate: z.discriminatedUnion('mode', [
    z.object({ mode: z.literal('existing'), name }),
    z.object({ mode: z.literal('new'), ...NewMachineTemplateSchema.shape }),
  ]),
  bootstrap: z.discriminatedUnion('mode', [
    z.object({ mode: z.literal('existing'), name }),
    z.object({ mode: z.literal('new'), ...NewBootstrapTemplateSchema.shape }),
  ]),
  ipPool: z.discriminatedUnion('mode', [
    z.object({
      mode: z.literal('existing'),
      name,
      resourceVersion,
      /** Entries to append to the existing pool in the same operation (R-POOL-4). */
      append: z.array(IpPoolEntrySchema).default([]),
    }),
    z.object({ mode: z.literal('new'), name, entries: z.array(IpPoolEntrySchema).min(1) }),
  ]),
  strategy: StrategyInputSchema,
  nodeDrainTimeout: z.string().optional(),
  nodeDeletionTimeout: z.string().optional(),
});
export type CreatePoolRequest = z.infer<typeof CreatePoolRequestSchema>;
export type CreatePoolRequestInput = z.input<typeof CreatePoolRequestSchema>;

/** O-SCALE-UP / O-SCALE-DOWN-RANDOM: a new replica count, optionally extending the IP pool first. */
export const ScaleReplicasRequestSchema = z.object({
  replicas: z.number().int().min(0),
  resourceVersion,
  ipPoolAppend: z
    .object({ name, resourceVersion, entries: z.array(IpPoolEntrySchema).min(1) })
    .optional(),
});
export type ScaleReplicasRequest = z.infer<typeof ScaleReplicasRequestSchema>;

/** O-SCALE-DOWN-TARGETED (R-MD-6): delete exactly these machines. */
export const DeleteMachinesRequestSchema = z.object({
  deleteMachines: z.array(name).min(1),
  resourceVersion,
  /** The resourceVersion of each selected Machine as the user saw it. */
  machineResourceVersions: z.record(z.string(), resourceVersion),
});
export type DeleteMachinesRequest = z.infer<typeof DeleteMachinesRequestSchema>;

export const ScaleRequestSchema = z.union([
  ScaleReplicasRequestSchema,
  DeleteMachinesRequestSchema,
]);
export type ScaleRequest = z.infer<typeof ScaleRequestSchema>;

/** Upgrades of a worker pool (O-UPGRADE-INFRA, O-UPGRADE-K8S, O-UPDATE-BOOTSTRAP) or of the control plane (O-UPGRADE-CP). */
export const UpgradeRequestSchema = z.discriminatedUnion('operation', [
  z.object({
    operation: z.literal('infrastructure'),
    resourceVersion,
    machineTemplate: NewMachineTemplateSchema,
  }),
  z.object({
    operation: z.literal('kubernetes'),
    resourceVersion,
    version: z.string().min(1),
    machineTemplate: NewMachineTemplateSchema,
    bootstrap: NewBootstrapTemplateSchema.optional(),
  }),
  z.object({
    operation: z.literal('bootstrap'),
    resourceVersion,
    bootstrap: NewBootstrapTemplateSchema,
  }),
  z.object({
    operation: z.literal('control-plane'),
    resourceVersion,
    version: z.string().min(1),
    machineTemplate: NewMachineTemplateSchema,
  }),
]);
export type UpgradeRequest = z.infer<typeof UpgradeRequestSchema>;

/** O-DELETE-POOL, with the optional clean-up of what only this pool used. */
export const DeletePoolRequestSchema = z.object({
  resourceVersion,
  removeMachineTemplate: z.boolean().default(false),
  removeBootstrapTemplate: z.boolean().default(false),
  removeIpPool: z.boolean().default(false),
});
export type DeletePoolRequest = z.infer<typeof DeletePoolRequestSchema>;

export const CreateIpPoolRequestSchema = z.object({
  name,
  entries: z.array(IpPoolEntrySchema).min(1),
});
export type CreateIpPoolRequest = z.infer<typeof CreateIpPoolRequestSchema>;

/** Edits of an IP pool (R-POOL-4..6, R-NIC-*, R-DISK-*): never a blind replacement of `spec.pool`. */
export const PatchIpPoolRequestSchema = z.object({
  resourceVersion,
  append: z.array(IpPoolEntrySchema).default([]),
  /** ips of unclaimed entries to remove (R-POOL-6). */
  remove: z.array(z.string()).default([]),
  /** New additionNic / persistentDisk of existing entries, keyed by ip. */
  update: z
    .array(
      z.object({
        ip: z.string(),
        additionNic: IpPoolEntrySchema.shape.additionNic,
        persistentDisk: IpPoolEntrySchema.shape.persistentDisk,
      }),
    )
    .default([]),
});
export type PatchIpPoolRequest = z.infer<typeof PatchIpPoolRequestSchema>;
