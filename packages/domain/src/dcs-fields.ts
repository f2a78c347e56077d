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
