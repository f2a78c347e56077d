import { z } from 'zod';
import { DeletePolicySchema } from '../schemas/capi';
import { AdditionNicSchema, DCSMachineSpecSchema, IpPoolEntrySchema } from '../schemas/dcs';
import { controlPlaneConfigSchemasFor } from './control-plane-config';
import { DOMAIN_FIELD_TREES, planOwnedFieldsOf, type RequestFieldTrees } from './field-trees';
import { bounded, durationField, intOrPercentField, refuse, replicasField } from './fields';
import type { FieldTree } from './known-fields';
import { knownFieldsOnly } from './known-fields';

export * from './fields';
export * from './known-fields';
export * from './field-trees';
export { KUBEADM_CONFIG_SPEC_TREE } from '../generated/kubeadm-config-spec-fields';
export * from './issues';
export * from './edit-strategy';
export * from './field-rules';
export * from './control-plane-config';
export * from './pause';
export * from './autoscale';
export * from './restart';
export * from './health-check';

/**
 * Request bodies of the BFF's mutating routes, shared by the browser's forms (zodResolver) and the
 * routes (the Fastify type provider). They check shape, the formats Cluster API decodes (durations,
 * int-or-percent: `./fields`) and the bounds on content (`bounded`, JSON_LIMITS); the rules R-*
 * judge the values against the cluster, so that every message names its rule. Every request carries the resourceVersion of each object the
 * user saw: a change made meanwhile by someone else is never overwritten silently.
 *
 * No field is ignored (issue 11, R-REQUEST): the request's own objects are strict (zod refuses a
 * key they do not have: the console would drop it), and each part written into an object (an IP
 * pool entry, a machine template spec, a KubeadmConfigSpec) refuses, at any depth, every field the
 * kind's structural schema does not have (`knownFieldsOnly`: a real API server would prune it, so
 * Preview would show what Apply does not write). The known fields are a {@link RequestFieldTrees}:
 * the schemas exported here judge by the domain's (its zod shapes for the DCS kinds, upstream's
 * CRD for KubeadmConfigSpec); {@link requestSchemasFor} builds the same schemas judging by other
 * trees, such as those the management cluster serves (the BFF's). A field the plan sets
 * (`PLAN_OWNED_FIELDS`) is refused as such.
 */

const name = z.string().min(1).max(253);

/** Addresses and names as typed, stored without the spaces and newlines around them (R-POOL-3). */
const trimmed = z.string().trim();

/** An extra NIC as a request writes it: its strings trimmed (its fields judged with its entry's). */
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
 * `"10.0.0.1\n"` as `"10.0.0.1"`; the rules then judge the trimmed values. Only the fields of
 * DCSIpHostnamePool's entries, at any depth (its extra NICs', its persistent disks').
 */
const IpPoolEntryShape = IpPoolEntrySchema.extend({
  ip: trimmed,
  mask: trimmed,
  gateway: trimmed,
  dns: trimmed.optional(),
  hostname: trimmed.optional(),
  machineName: trimmed.optional(),
  additionNic: z.array(AdditionNicInputSchema).optional(),
});

/**
 * The subtree of one field of an entry, for a part of an entry sent alone (an update's NICs). An
 * entry tree without it (a served schema that does not have the field) refuses the field itself.
 */
function entryTree(tree: FieldTree, field: 'additionNic' | 'persistentDisk'): FieldTree {
  if (tree.open) return tree;
  const sub =
    tree.properties && Object.hasOwn(tree.properties, field) ? tree.properties[field] : undefined;
  return sub ?? { items: { properties: {} } };
}

const resourceVersion = z.string().min(1);

/**
 * A DCSMachineTemplate body as a form edits it; the plan sets `ipHostPoolRef` itself (and the
 * provider `providerID`): both refused as such (PLAN_OWNED_FIELDS). Only the fields the
 * DCSMachineSpec tree knows, at any depth.
 */
const MachineTemplateSpecShape = DCSMachineSpecSchema.omit({
  ipHostPoolRef: true,
  providerID: true,
});

export const StrategyInputSchema = z.strictObject({
  maxSurge: intOrPercentField('maxSurge'),
  maxUnavailable: intOrPercentField('maxUnavailable'),
  deletePolicy: DeletePolicySchema.optional(),
});
export type StrategyInput = z.infer<typeof StrategyInputSchema>;

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
export const EntryFieldsInputSchema = z.strictObject({
  ip: trimmed.optional(),
  mask: trimmed.optional(),
  gateway: trimmed.optional(),
  dns: trimmed.optional(),
  hostname: trimmed.optional(),
  machineName: trimmed.optional(),
});
export type EntryFieldsInput = z.infer<typeof EntryFieldsInputSchema>;

const built = new WeakMap<RequestFieldTrees, ReturnType<typeof buildRequestSchemas>>();

/**
 * The request schemas judging the parts they write by `trees` (built once per trees object):
 * the BFF's, by the schemas the management cluster serves. Everything else (shape, formats,
 * bounds, the fields the plan sets) is the same as the exported schemas'.
 */
export function requestSchemasFor(trees: RequestFieldTrees) {
  let schemas = built.get(trees);
  if (!schemas) {
    schemas = buildRequestSchemas(trees);
    built.set(trees, schemas);
  }
  return schemas;
}

function buildRequestSchemas(trees: RequestFieldTrees) {
  const IpPoolEntryInputSchema = knownFieldsOnly(
    IpPoolEntryShape,
    'DCSIpHostnamePool entry',
    trees.ipPoolEntry,
    [],
    planOwnedFieldsOf('ipPoolEntry'),
  );
  const MachineTemplateSpecInputSchema = knownFieldsOnly(
    MachineTemplateSpecShape,
    'DCSMachineTemplate spec',
    trees.machineTemplateSpec,
    [],
    planOwnedFieldsOf('machineTemplateSpec'),
  );
  const { KubeadmConfigSpecInputSchema, EditControlPlaneConfigRequestSchema } =
    controlPlaneConfigSchemasFor(trees);
  const NewMachineTemplateSchema = z.strictObject({
    name,
    spec: MachineTemplateSpecInputSchema,
  });
  /** A new bootstrap template: only fields Cluster API's KubeadmConfigSpec has (issue 11). */
  const NewBootstrapTemplateSchema = z.strictObject({
    name,
    spec: KubeadmConfigSpecInputSchema,
  });

  /** O-CREATE-POOL */
  const CreatePoolRequestSchema = bounded(
    z.strictObject({
      name,
      replicas: replicasField(),
      version: z.string().min(1),
      machineTemplate: z.discriminatedUnion('mode', [
        z.strictObject({ mode: z.literal('existing'), name }),
        z.strictObject({ mode: z.literal('new'), ...NewMachineTemplateSchema.shape }),
      ]),
      bootstrap: z.discriminatedUnion('mode', [
        z.strictObject({ mode: z.literal('existing'), name }),
        z.strictObject({ mode: z.literal('new'), ...NewBootstrapTemplateSchema.shape }),
      ]),
      ipPool: z.discriminatedUnion('mode', [
        z.strictObject({
          mode: z.literal('existing'),
          name,
          resourceVersion,
          /** Entries to append to the existing pool in the same operation (R-POOL-4). */
          append: z.array(IpPoolEntryInputSchema).default([]),
        }),
        z.strictObject({
          mode: z.literal('new'),
          name,
          entries: z.array(IpPoolEntryInputSchema).min(1),
        }),
      ]),
      strategy: StrategyInputSchema,
      nodeDrainTimeout: durationField('nodeDrainTimeout').optional(),
      nodeDeletionTimeout: durationField('nodeDeletionTimeout').optional(),
      nodeVolumeDetachTimeout: durationField('nodeVolumeDetachTimeout').optional(),
    }),
  );

  /** O-SCALE-UP / O-SCALE-DOWN-RANDOM: a new replica count, optionally extending the IP pool first. */
  const ScaleReplicasRequestSchema = bounded(
    z.strictObject({
      replicas: replicasField(),
      resourceVersion,
      ipPoolAppend: z
        .strictObject({ name, resourceVersion, entries: z.array(IpPoolEntryInputSchema).min(1) })
        .optional(),
    }),
  );

  /** O-SCALE-DOWN-TARGETED (R-MD-6): delete exactly these machines. */
  const DeleteMachinesRequestSchema = bounded(
    z
      .strictObject({
        deleteMachines: z.array(name).min(1),
        resourceVersion,
        /** The resourceVersion of each selected Machine as the user saw it. */
        machineResourceVersions: z.record(z.string(), resourceVersion),
      })
      .superRefine((req, ctx) => {
        // R-MD-6: a version is the guard of a machine to delete; one for any other machine guards
        // nothing and is a mistake of the client's (issue 11: no part of a request is ignored).
        const deleting = new Set(req.deleteMachines);
        for (const machine of Object.keys(req.machineResourceVersions)) {
          if (!deleting.has(machine)) {
            refuse(ctx, 'R-MD-6', 'request.versionWithoutMachine', { machine }, [
              'machineResourceVersions',
              machine,
            ]);
          }
        }
      }),
  );

  const ScaleRequestSchema = bounded(
    z.union([ScaleReplicasRequestSchema, DeleteMachinesRequestSchema]),
  );

  /** Upgrades of a worker pool (O-UPGRADE-INFRA, O-UPGRADE-K8S, O-UPDATE-BOOTSTRAP) or of the control plane (O-UPGRADE-CP). */
  const UpgradeRequestSchema = bounded(
    z.discriminatedUnion('operation', [
      z.strictObject({
        operation: z.literal('infrastructure'),
        resourceVersion,
        machineTemplate: NewMachineTemplateSchema,
      }),
      z.strictObject({
        operation: z.literal('kubernetes'),
        resourceVersion,
        version: z.string().min(1),
        machineTemplate: NewMachineTemplateSchema,
        bootstrap: NewBootstrapTemplateSchema.optional(),
      }),
      z.strictObject({
        operation: z.literal('bootstrap'),
        resourceVersion,
        bootstrap: NewBootstrapTemplateSchema,
      }),
      z.strictObject({
        operation: z.literal('control-plane'),
        resourceVersion,
        version: z.string().min(1),
        machineTemplate: NewMachineTemplateSchema,
      }),
    ]),
  );

  /** O-DELETE-POOL, with the optional clean-up of what only this pool used. */
  const DeletePoolRequestSchema = bounded(
    z.strictObject({
      resourceVersion,
      removeMachineTemplate: z.boolean().default(false),
      removeBootstrapTemplate: z.boolean().default(false),
      removeIpPool: z.boolean().default(false),
    }),
  );

  const CreateIpPoolRequestSchema = bounded(
    z.strictObject({
      name,
      entries: z.array(IpPoolEntryInputSchema).min(1),
    }),
  );

  /** Edits of an IP pool (R-POOL-4..6, R-NIC-*, R-DISK-*): never a blind replacement of `spec.pool`. */
  const PatchIpPoolRequestSchema = bounded(
    z.strictObject({
      resourceVersion,
      append: z.array(IpPoolEntryInputSchema).default([]),
      /** ips of unclaimed entries to remove (R-POOL-6). */
      remove: z.array(z.string()).default([]),
      /** New additionNic / persistentDisk / own fields of existing entries, keyed by their ip. */
      update: z
        .array(
          z.strictObject({
            ip: z.string(),
            additionNic: knownFieldsOnly(
              IpPoolEntryShape.shape.additionNic,
              'DCSIpHostnamePool entry',
              entryTree(trees.ipPoolEntry, 'additionNic'),
              ['additionNic'],
            ),
            persistentDisk: knownFieldsOnly(
              IpPoolEntryShape.shape.persistentDisk,
              'DCSIpHostnamePool entry',
              entryTree(trees.ipPoolEntry, 'persistentDisk'),
              ['persistentDisk'],
            ),
            /** The entry's own fields (issue 12: edit an unclaimed entry without losing anything). */
            set: EntryFieldsInputSchema.optional(),
          }),
        )
        .default([]),
    }),
  );

  return {
    IpPoolEntryInputSchema,
    MachineTemplateSpecInputSchema,
    KubeadmConfigSpecInputSchema,
    NewMachineTemplateSchema,
    NewBootstrapTemplateSchema,
    CreatePoolRequestSchema,
    ScaleReplicasRequestSchema,
    DeleteMachinesRequestSchema,
    ScaleRequestSchema,
    UpgradeRequestSchema,
    DeletePoolRequestSchema,
    CreateIpPoolRequestSchema,
    PatchIpPoolRequestSchema,
    EditControlPlaneConfigRequestSchema,
  };
}

/** The schemas judging by the domain's trees: the browser's forms, and the types of every request. */
export const {
  IpPoolEntryInputSchema,
  MachineTemplateSpecInputSchema,
  KubeadmConfigSpecInputSchema,
  NewMachineTemplateSchema,
  NewBootstrapTemplateSchema,
  CreatePoolRequestSchema,
  ScaleReplicasRequestSchema,
  DeleteMachinesRequestSchema,
  ScaleRequestSchema,
  UpgradeRequestSchema,
  DeletePoolRequestSchema,
  CreateIpPoolRequestSchema,
  PatchIpPoolRequestSchema,
  EditControlPlaneConfigRequestSchema,
} = requestSchemasFor(DOMAIN_FIELD_TREES);
export type IpPoolEntryInput = z.infer<typeof IpPoolEntryInputSchema>;
export type MachineTemplateSpecInput = z.infer<typeof MachineTemplateSpecInputSchema>;
export type NewMachineTemplate = z.infer<typeof NewMachineTemplateSchema>;
export type NewBootstrapTemplate = z.infer<typeof NewBootstrapTemplateSchema>;
export type EditControlPlaneConfigRequest = z.infer<typeof EditControlPlaneConfigRequestSchema>;
export type CreatePoolRequest = z.infer<typeof CreatePoolRequestSchema>;
export type CreatePoolRequestInput = z.input<typeof CreatePoolRequestSchema>;
export type ScaleReplicasRequest = z.infer<typeof ScaleReplicasRequestSchema>;
export type DeleteMachinesRequest = z.infer<typeof DeleteMachinesRequestSchema>;
export type ScaleRequest = z.infer<typeof ScaleRequestSchema>;
export type UpgradeRequest = z.infer<typeof UpgradeRequestSchema>;
export type DeletePoolRequest = z.infer<typeof DeletePoolRequestSchema>;
export type CreateIpPoolRequest = z.infer<typeof CreateIpPoolRequestSchema>;
export type PatchIpPoolRequest = z.infer<typeof PatchIpPoolRequestSchema>;
