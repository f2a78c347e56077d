import type { DCSIpHostnamePool, DCSMachine, PersistentDiskStatus } from './schemas/dcs';

/**
 * Fields this project defines (DOMAIN.md, "Fields this project defines").
 *
 * The public DCS documents do not name the fields for a VM's state on DCS, a DCSMachine's failure
 * details, the inside of `DCSIpHostnamePool.status.persistentDiskStatus`, the pool's entry counts,
 * or DCSCluster. Every path of theirs that the rest of the product reads or writes goes through
 * this module, so that adopting a real provider's fields is a change here only.
 */
export const dcsFieldPaths = {
  /** DCSMachine: the VM's state on DCS (`creating`, `running`, `deleting`, `failed`). */
  vmState: '.status.vmState',
  failureReason: '.status.failureReason',
  failureMessage: '.status.failureMessage',
  /** DCSIpHostnamePool: counts of entries, for `kubectl get` columns. */
  poolTotal: '.status.total',
  poolFree: '.status.free',
  /** DCSIpHostnamePool: one record per persistent volume: ip, slot, volumeName, machineName, phase, mounted. */
  persistentDiskStatus: '.status.persistentDiskStatus',
  /** DCSCluster: endpoint and the Secret holding DCS credentials. */
  dcsClusterEndpoint: '.spec.controlPlaneEndpoint',
  dcsClusterCredentials: '.spec.credentialSecretRef.name',
} as const;

/**
 * Condition types the DCS provider reports on its objects (DCSMachine, DCSIpHostnamePool,
 * DCSCluster). The public documents name none; these are the project's.
 */
export const DCS_CONDITIONS = {
  /** DCSMachine: an entry of its DCSIpHostnamePool is claimed (ip, hostname, machineName). */
  ipHostnameClaimed: 'IpHostnameClaimed',
  /** DCSMachine: the bootstrap ISO is on DCS (status.cdRomFile). */
  bootstrapIsoUploaded: 'BootstrapISOUploaded',
  /** DCSMachine: the VM exists and runs. */
  vmProvisioned: 'VMProvisioned',
  /** DCSIpHostnamePool: no machine waits for an entry (R-POOL-1). */
  freeEntriesAvailable: 'FreeEntriesAvailable',
  /** DCSCluster: the provider reaches DCS with its credentials. */
  dcsConnectionReady: 'DCSConnectionReady',
} as const;

/**
 * Reasons of those conditions (False unless said otherwise), and of the Machine's
 * InfrastructureReady, which mirrors the DCSMachine's Ready.
 */
export const DCS_REASONS = {
  /** The DCSMachine waits for a free entry of its pool (R-POOL-1). */
  noFreePoolEntry: 'NoFreePoolEntry',
  /** DCSIpHostnamePool: every entry is claimed and machines wait (R-POOL-1). */
  poolExhausted: 'PoolExhausted',
  poolNotFound: 'PoolNotFound',
  waitingForClusterInfrastructure: 'WaitingForClusterInfrastructure',
  waitingForBootstrapData: 'WaitingForBootstrapData',
  isoUploading: 'ISOUploading',
  isoUploadFailed: 'ISOUploadFailed',
  waitingForIso: 'WaitingForBootstrapISO',
  vmCreating: 'VMCreating',
  waitingForDisks: 'WaitingForPersistentDisks',
  vmCreateFailed: 'VMCreateFailed',
  vmDeleting: 'Deleting',
  vmDeleted: 'VMDeleted',
} as const;

/**
 * The reason a DCSMachine condition (or the Machine's InfrastructureReady, which mirrors it)
 * carries while the machine waits for a free IP-hostname pool entry (R-POOL-1).
 */
export const REASON_NO_FREE_POOL_ENTRY = DCS_REASONS.noFreePoolEntry;

/** VM states the simulated provider reports and the console interprets. */
export const VM_STATES = ['creating', 'running', 'deleting', 'failed'] as const;
export type VmState = (typeof VM_STATES)[number];

/** Phases of a persistent volume in `persistentDiskStatus`. */
export const DISK_PHASES = ['Creating', 'Attached', 'Detached'] as const;
export type DiskPhase = (typeof DISK_PHASES)[number];

export function vmStateOf(m: DCSMachine): string | undefined {
  return m.status?.vmState;
}

export function failureOf(m: DCSMachine): { reason?: string; message?: string } {
  const { failureReason: reason, failureMessage: message } = m.status ?? {};
  return { ...(reason ? { reason } : {}), ...(message ? { message } : {}) };
}

export function persistentDiskStatusOf(pool: DCSIpHostnamePool): PersistentDiskStatus[] {
  return pool.status?.persistentDiskStatus ?? [];
}

/** The status fields a provider writes for a VM's state and failure, as a status patch fragment. */
export function vmStatusFields(state: VmState, failure?: { reason: string; message: string }) {
  return {
    vmState: state,
    ...(failure ? { failureReason: failure.reason, failureMessage: failure.message } : {}),
  };
}
