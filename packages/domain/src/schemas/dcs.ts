import { z } from 'zod';
import { ConditionSchema, ObjectReferenceSchema, objectSchema } from './meta';

/**
 * infrastructure.cluster.x-k8s.io/v1beta1: the DCS provider's kinds. Field names follow the
 * reference documents; the fields they do not name are this project's choice and are declared
 * in `../dcs-fields.ts`, the one place to change them for a real provider.
 */

const infraApiVersion = 'infrastructure.cluster.x-k8s.io/v1beta1';

export const AdditionNicSchema = z.looseObject({
  ip: z
    .string()
    .optional()
    .describe('IPv4 address of the extra NIC (recommended: used for static guest network config).'),
  mask: z
    .string()
    .optional()
    .describe('CIDR prefix length of the extra NIC, "0"–"32" (recommended).'),
  gateway: z
    .string()
    .optional()
    .describe(
      'Gateway of the extra NIC; the guest default route must stay on the primary network.',
    ),
  dns: z
    .string()
    .optional()
    .describe('DNS servers of the extra NIC, comma-separated IPv4 addresses.'),
  dvSwitchName: z
    .string()
    .optional()
    .describe('DCS distributed virtual switch of the NIC (required, R-NIC-1).'),
  portGroupName: z
    .string()
    .optional()
    .describe('DCS port group of the NIC, on dvSwitchName (required, R-NIC-1).'),
});
export type AdditionNic = z.infer<typeof AdditionNicSchema>;

export const PersistentDiskSchema = z.looseObject({
  slot: z
    .number()
    .int()
    .describe('Slot of the disk; (ip, slot) identifies the persistent volume (R-DISK-1).'),
  quantityGB: z.number().int().describe('Size in GB; a change affects rolling updates (R-DISK-4).'),
  datastoreClusterName: z.string().optional(),
  path: z.string().optional(),
  format: z.string().optional(),
  options: z.string().optional(),
  pciType: z.string().optional(),
  isThin: z
    .boolean()
    .optional()
    .describe('Thin provisioning of a new volume; takes effect only at creation (R-DISK-3).'),
});
export type PersistentDisk = z.infer<typeof PersistentDiskSchema>;

export const IpPoolEntrySchema = z.looseObject({
  ip: z.string().describe('IPv4 address of the worker VM.'),
  mask: z
    .string()
    .describe('CIDR prefix length, "0"–"32" (a dotted netmask of older pools is kept).'),
  gateway: z.string().describe('Gateway IPv4 address.'),
  dns: z.string().optional().describe('DNS servers, comma-separated IPv4 addresses.'),
  hostname: z
    .string()
    .optional()
    .describe('Hostname of the VM (DNS-1123 label), unique in the pool.'),
  machineName: z.string().optional().describe("The VM's name on DCS, unique in the pool."),
  additionNic: z
    .array(AdditionNicSchema)
    .optional()
    .describe('Extra NICs, applied only when a VM is created (R-NIC-2).'),
  persistentDisk: z
    .array(PersistentDiskSchema)
    .optional()
    .describe('Disks kept across VM replacement (provider ≥ 1.0.16); append only (R-DISK-2).'),
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
  z.looseObject({
    pool: z
      .array(IpPoolEntrySchema)
      .optional()
      .describe('One entry per worker VM: its address, name, extra NICs and persistent disks.'),
  }),
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
  vmTemplateName: z
    .string()
    .describe('DCS VM template to clone; it carries the Kubernetes version (R-MD-4).'),
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
  ipHostPoolRef: z
    .looseObject({ name: z.string() })
    .describe('The DCSIpHostnamePool the VMs take their addresses from.'),
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
