import { z } from 'zod';
import { KUBEADM_CONFIG_SPEC_FIELDS, KubeadmConfigSpecSchema } from '../schemas/bootstrap';
import { DeletePolicySchema } from '../schemas/capi';
import { AdditionNicSchema, DCSMachineSpecSchema, IpPoolEntrySchema } from '../schemas/dcs';
import { bounded, durationField, intOrPercentField, knownFieldsOnly } from './fields';

export * from './fields';
export * from './issues';
export * from './edit-strategy';
export * from './field-rules';
export * from './control-plane-config';

/**
 * Request bodies of the BFF's mutating routes, shared by the browser's forms (zodResolver) and the
 * routes (the Fastify type provider). They check shape, the formats Cluster API decodes (durations,
 * int-or-percent: `./fields`) and the bounds on content (`bounded`, JSON_LIMITS); the rules R-*
 * judge the values against the cluster, so that every message names its rule. Every request carries the resourceVersion of each object the
 * user saw: a change made meanwhile by someone else is never overwritten silently.
 */

const name = z.string().min(1).max(253);

/** Addresses and names as typed, stored without the spaces and newlines around them (R-POOL-3). */
const trimmed = z.string().trim();

/** An extra NIC as a request writes it: its strings trimmed, unknown fields kept. */
export const AdditionNicInputSchema = AdditionNicSchema.extend({
  ip: trimmed.optional(),
  mask: trimmed.optional(),
  gateway: trimmed.optional(),
  dns: trimmed.optional(),
  dvSwitchName: trimmed.optional(),
  portGroupName: trimmed.optional(),
});

/**
 * An IP pool entry as a request writes it (R-POOL-3): `" 24"` is stored as `"24"`,
 * `"10.0.0.1\n"` as `"10.0.0.1"`; the rules then judge the trimmed values.
 */
export const IpPoolEntryInputSchema = IpPoolEntrySchema.extend({
  ip: trimmed,
  mask: trimmed,
  gateway: trimmed,
  dns: trimmed.optional(),
  hostname: trimmed.optional(),
  machineName: trimmed.optional(),
  additionNic: z.array(AdditionNicInputSchema).optional(),
});
export type IpPoolEntryInput = z.infer<typeof IpPoolEntryInputSchema>;
const resourceVersion = z.string().min(1);

/** A DCSMachineTemplate body as a form edits it; the plan sets `ipHostPoolRef` itself. */
export const MachineTemplateSpecInputSchema = DCSMachineSpecSchema.omit({
  ipHostPoolRef: true,
  providerID: true,
});
export type MachineTemplateSpecInput = z.infer<typeof MachineTemplateSpecInputSchema>;

export const NewMachineTemplateSchema = z.object({ name, spec: MachineTemplateSpecInputSchema });
export type NewMachineTemplate = z.infer<typeof NewMachineTemplateSchema>;

/** A new bootstrap template: only fields Cluster API's KubeadmConfigSpec has (issue 11). */
export const NewBootstrapTemplateSchema = z.object({
  name,
  spec: knownFieldsOnly(KubeadmConfigSpecSchema, 'KubeadmConfigSpec', KUBEADM_CONFIG_SPEC_FIELDS),
});
export type NewBootstrapTemplate = z.infer<typeof NewBootstrapTemplateSchema>;

export const StrategyInputSchema = z.object({
  maxSurge: intOrPercentField('maxSurge'),
  maxUnavailable: intOrPercentField('maxUnavailable'),
  deletePolicy: DeletePolicySchema.optional(),
});
export type StrategyInput = z.infer<typeof StrategyInputSchema>;

/** O-CREATE-POOL */
export const CreatePoolRequestSchema = bounded(
  z.object({
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
        append: z.array(IpPoolEntryInputSchema).default([]),
      }),
      z.object({ mode: z.literal('new'), name, entries: z.array(IpPoolEntryInputSchema).min(1) }),
    ]),
    strategy: StrategyInputSchema,
    nodeDrainTimeout: durationField('nodeDrainTimeout').optional(),
    nodeDeletionTimeout: durationField('nodeDeletionTimeout').optional(),
    nodeVolumeDetachTimeout: durationField('nodeVolumeDetachTimeout').optional(),
  }),
);
export type CreatePoolRequest = z.infer<typeof CreatePoolRequestSchema>;
export type CreatePoolRequestInput = z.input<typeof CreatePoolRequestSchema>;

/** O-SCALE-UP / O-SCALE-DOWN-RANDOM: a new replica count, optionally extending the IP pool first. */
export const ScaleReplicasRequestSchema = bounded(
  z.object({
    replicas: z.number().int().min(0),
    resourceVersion,
    ipPoolAppend: z
      .object({ name, resourceVersion, entries: z.array(IpPoolEntryInputSchema).min(1) })
      .optional(),
  }),
);
export type ScaleReplicasRequest = z.infer<typeof ScaleReplicasRequestSchema>;

/** O-SCALE-DOWN-TARGETED (R-MD-6): delete exactly these machines. */
export const DeleteMachinesRequestSchema = bounded(
  z.object({
    deleteMachines: z.array(name).min(1),
    resourceVersion,
    /** The resourceVersion of each selected Machine as the user saw it. */
    machineResourceVersions: z.record(z.string(), resourceVersion),
  }),
);
export type DeleteMachinesRequest = z.infer<typeof DeleteMachinesRequestSchema>;

export const ScaleRequestSchema = bounded(
  z.union([ScaleReplicasRequestSchema, DeleteMachinesRequestSchema]),
);
export type ScaleRequest = z.infer<typeof ScaleRequestSchema>;

/** Upgrades of a worker pool (O-UPGRADE-INFRA, O-UPGRADE-K8S, O-UPDATE-BOOTSTRAP) or of the control plane (O-UPGRADE-CP). */
export const UpgradeRequestSchema = bounded(
  z.discriminatedUnion('operation', [
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
  ]),
);
export type UpgradeRequest = z.infer<typeof UpgradeRequestSchema>;

/** O-DELETE-POOL, with the optional clean-up of what only this pool used. */
export const DeletePoolRequestSchema = bounded(
  z.object({
    resourceVersion,
    removeMachineTemplate: z.boolean().default(false),
    removeBootstrapTemplate: z.boolean().default(false),
    removeIpPool: z.boolean().default(false),
  }),
);
export type DeletePoolRequest = z.infer<typeof DeletePoolRequestSchema>;

export const CreateIpPoolRequestSchema = bounded(
  z.object({
    name,
    entries: z.array(IpPoolEntryInputSchema).min(1),
  }),
);
export type CreateIpPoolRequest = z.infer<typeof CreateIpPoolRequestSchema>;

/** The fields of an entry itself, as an edit of an unclaimed entry sets them. */
export const ENTRY_OWN_FIELDS = [
  'ip',
  'mask',
  'gateway',
  'dns',
  'hostname',
  'machineName',
] as const;
export type EntryOwnField = (typeof ENTRY_OWN_FIELDS)[number];

/**
 * New values of an unclaimed entry's own fields (R-POOL-4, R-POOL-5: a claimed entry's stay as
 * they are); a field left out is kept, `""` clears an optional one (dns, hostname, machineName).
 */
export const EntryFieldsInputSchema = z.object({
  ip: trimmed.optional(),
  mask: trimmed.optional(),
  gateway: trimmed.optional(),
  dns: trimmed.optional(),
  hostname: trimmed.optional(),
  machineName: trimmed.optional(),
});
export type EntryFieldsInput = z.infer<typeof EntryFieldsInputSchema>;

/** Edits of an IP pool (R-POOL-4..6, R-NIC-*, R-DISK-*): never a blind replacement of `spec.pool`. */
export const PatchIpPoolRequestSchema = bounded(
  z.object({
    resourceVersion,
    append: z.array(IpPoolEntryInputSchema).default([]),
    /** ips of unclaimed entries to remove (R-POOL-6). */
    remove: z.array(z.string()).default([]),
    /** New additionNic / persistentDisk / own fields of existing entries, keyed by their ip. */
    update: z
      .array(
        z.object({
          ip: z.string(),
          additionNic: IpPoolEntryInputSchema.shape.additionNic,
          persistentDisk: IpPoolEntryInputSchema.shape.persistentDisk,
          /** The entry's own fields (issue 12: edit an unclaimed entry without losing anything). */
          set: EntryFieldsInputSchema.optional(),
        }),
      )
      .default([]),
  }),
);
export type PatchIpPoolRequest = z.infer<typeof PatchIpPoolRequestSchema>;
