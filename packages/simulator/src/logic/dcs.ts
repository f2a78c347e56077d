import type { AdditionNic, IpPoolEntry } from '@dcs/domain';

/**
 * The simulated DCS provider's own vocabulary: the DCSMachine conditions it reports, its
 * finalizer, and how it names things on DCS. DOMAIN.md leaves these to the project; the fields
 * they live in (vmState, failure, persistentDiskStatus) go through domain's dcs-fields module.
 */

export const DCS_MACHINE_FINALIZER = 'dcsmachine.infrastructure.cluster.x-k8s.io';

/** DCSMachine condition types. */
export const IP_CLAIMED = 'IpHostnameClaimed';
export const ISO_UPLOADED = 'BootstrapISOUploaded';
export const VM_PROVISIONED = 'VMProvisioned';

/** Reasons (False unless said otherwise). */
export const REASON = {
  poolNotFound: 'PoolNotFound',
  waitingForFreeEntry: 'WaitingForFreeEntry',
  waitingForClusterInfrastructure: 'WaitingForClusterInfrastructure',
  waitingForBootstrapData: 'WaitingForBootstrapData',
  isoUploading: 'ISOUploading',
  isoUploadFailed: 'ISOUploadFailed',
  waitingForISO: 'WaitingForBootstrapISO',
  vmCreating: 'VMCreating',
  waitingForDisks: 'WaitingForPersistentDisks',
  vmCreateFailed: 'VMCreateFailed',
  vmDeleting: 'Deleting',
  vmDeleted: 'VMDeleted',
} as const;

/** Cluster API's MachineStatusError for a VM DCS could not create. */
export const FAILURE_CREATE_ERROR = 'CreateError';

/** The VM's name on DCS: the entry's machineName, else the DCSMachine's name. */
export const vmNameOf = (entry: IpPoolEntry | undefined, dcsMachineName: string) =>
  entry?.machineName ?? dcsMachineName;

export const providerIdOf = (vmName: string) => `dcs://${vmName}`;

/** Where DCS keeps the uploaded bootstrap ISO of a VM (what status.cdRomFile shows). */
export const cdRomFileOf = (datastore: string | undefined, vmName: string) =>
  `[${datastore ?? 'datastore'}] cluster-api/${vmName}/bootstrap.iso`;

/** status.additionalNic: the extra NICs of the claimed entry, as attached at creation (R-NIC-2). */
export function additionalNicsOf(entry: IpPoolEntry): (AdditionNic & { name: string })[] {
  return (entry.additionNic ?? []).map((nic, i) => ({ name: `eth${String(i + 1)}`, ...nic }));
}
