import { z } from 'zod';
import { ConditionSchema, ObjectReferenceSchema, objectSchema } from './meta';

/**
 * infrastructure.cluster.x-k8s.io/v1beta1: the DCS provider's kinds. Field names follow the
 * reference documents; the fields they do not name are this project's choice and are declared
 * in `../dcs-fields.ts`, the one place to change them for a real provider.
 */

const infraApiVersion = 'infrastructure.cluster.x-k8s.io/v1beta1';

export const AdditionNicSchema = z.looseObject({
  ip: z.string().optional(),
  mask: z.string().optional(),
  gateway: z.string().optional(),
  dns: z.string().optional(),
  dvSwitchName: z.string().optional(),
  portGroupName: z.string().optional(),
});
export type AdditionNic = z.infer<typeof AdditionNicSchema>;

export const PersistentDiskSchema = z.looseObject({
  slot: z.number().int(),
  quantityGB: z.number().int(),
  datastoreClusterName: z.string().optional(),
  path: z.string().optional(),
  format: z.string().optional(),
  options: z.string().optional(),
  pciType: z.string().optional(),
  isThin: z.boolean().optional(),
});
export type PersistentDisk = z.infer<typeof PersistentDiskSchema>;

export const IpPoolEntrySchema = z.looseObject({
  ip: z.string(),
  mask: z.string(),
  gateway: z.string(),
  dns: z.string().optional(),
  hostname: z.string().optional(),
  machineName: z.string().optional(),
  additionNic: z.array(AdditionNicSchema).optional(),
  persistentDisk: z.array(PersistentDiskSchema).optional(),
});
export type IpPoolEntry = z.infer<typeof IpPoolEntrySchema>;

/** One persistent volume as the provider reports it (inner fields: this project's, see dcs-fields). */
export const PersistentDiskStatusSchema = z.looseObject({
  ip: z.string(),
  slot: z.number().int(),
  volumeName: z.string().optional(),
  machineName: z.string().optional(),
  phase: z.string().optional(),
  mounted: z.boolean().optional(),
  message: z.string().optional(),
});
export type PersistentDiskStatus = z.infer<typeof PersistentDiskStatusSchema>;

export const DCSIpHostnamePoolSchema = objectSchema(
  infraApiVersion,
  'DCSIpHostnamePool',
  z.looseObject({ pool: z.array(IpPoolEntrySchema).optional() }),
  z.looseObject({
    persistentDiskStatus: z.array(PersistentDiskStatusSchema).optional(),
    total: z.number().int().optional(),
    free: z.number().int().optional(),
    conditions: z.array(ConditionSchema).optional(),
  }),
);
export type DCSIpHostnamePool = z.infer<typeof DCSIpHostnamePoolSchema>;

export const DiskSpecSchema = z.looseObject({
  quantity: z.number().int(),
  datastoreClusterName: z.string().optional(),
  systemVolume: z.boolean().optional(),
  path: z.string().optional(),
  format: z.string().optional(),
});
export type DiskSpec = z.infer<typeof DiskSpecSchema>;

export const DCSMachineSpecSchema = z.looseObject({
  vmTemplateName: z.string(),
  location: z.looseObject({ type: z.string().optional(), name: z.string().optional() }).optional(),
  resource: z.looseObject({ type: z.string().optional(), name: z.string().optional() }).optional(),
  vmConfig: z
    .looseObject({
      dvSwitchName: z.string().optional(),
      portGroupName: z.string().optional(),
      dcsMachineCpuSpec: z.looseObject({ quantity: z.number().int() }).optional(),
      dcsMachineMemorySpec: z.looseObject({ quantity: z.number().int() }).optional(),
      dcsMachineDiskSpec: z.array(DiskSpecSchema).optional(),
    })
    .optional(),
  ipHostPoolRef: z.looseObject({ name: z.string() }),
  providerID: z.string().optional(),
});
export type DCSMachineSpec = z.infer<typeof DCSMachineSpecSchema>;

export const DCSMachineTemplateSchema = objectSchema(
  infraApiVersion,
  'DCSMachineTemplate',
  z.looseObject({
    template: z.looseObject({
      metadata: z.looseObject({}).optional(),
      spec: DCSMachineSpecSchema,
    }),
  }),
  z.looseObject({}),
);
export type DCSMachineTemplate = z.infer<typeof DCSMachineTemplateSchema>;

export const DCSMachineSchema = objectSchema(
  infraApiVersion,
  'DCSMachine',
  DCSMachineSpecSchema,
  z.looseObject({
    ready: z.boolean().optional(),
    networkConfig: z.looseObject({ ip: z.string().optional() }).optional(),
    additionalNic: z.array(z.looseObject({})).optional(),
    cdRomFile: z.string().optional(),
    vmState: z.string().optional(),
    failureReason: z.string().optional(),
    failureMessage: z.string().optional(),
    addresses: z.array(z.looseObject({ type: z.string(), address: z.string() })).optional(),
    conditions: z.array(ConditionSchema).optional(),
  }),
);
export type DCSMachine = z.infer<typeof DCSMachineSchema>;

export const DCSClusterSchema = objectSchema(
  infraApiVersion,
  'DCSCluster',
  z.looseObject({
    controlPlaneEndpoint: z.looseObject({ host: z.string(), port: z.number().int() }).optional(),
    credentialSecretRef: z.looseObject({ name: z.string() }).optional(),
    server: z.string().optional(),
  }),
  z.looseObject({
    ready: z.boolean().optional(),
    conditions: z.array(ConditionSchema).optional(),
  }),
);
export type DCSCluster = z.infer<typeof DCSClusterSchema>;

export { ObjectReferenceSchema };
