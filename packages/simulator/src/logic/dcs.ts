import { DCS_CONDITIONS, DCS_REASONS, type AdditionNic, type IpPoolEntry } from '@dcs/domain';

/**
 * The simulated DCS provider's own vocabulary: its finalizer and how it names things on DCS.
 * DOMAIN.md leaves these to the project; the conditions and reasons it reports and the fields
 * they live in (vmState, failure, persistentDiskStatus) are named in domain's dcs-fields module.
 */

export const DCS_MACHINE_FINALIZER = 'dcsmachine.infrastructure.cluster.x-k8s.io';

/** DCSMachine condition types (named in domain's dcs-fields). */
export const IP_CLAIMED = DCS_CONDITIONS.ipHostnameClaimed;
export const ISO_UPLOADED = DCS_CONDITIONS.bootstrapIsoUploaded;
export const VM_PROVISIONED = DCS_CONDITIONS.vmProvisioned;

/** Reasons (False unless said otherwise). */
export const REASON = DCS_REASONS;

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
