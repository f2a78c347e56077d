import type { IpPoolEntry, PersistentDisk, PersistentDiskStatus } from '@dcs/domain';

/**
 * Persistent disks of DCSIpHostnamePool entries (R-DISK-*): a volume's identity is (ip, slot)
 * (R-DISK-1). It is created the first time a VM takes that entry, detached when that VM is
 * deleted, and attached to the next VM that takes the entry, so data survives a rolling
 * replacement (O-UPGRADE-INFRA). A disk appended to the entry of a running VM is attached on
 * the DCS side but the guest neither formats nor mounts it until the VM is replaced (R-DISK-6).
 * Each function returns the new `status.persistentDiskStatus` and what happened, for events.
 */

export type DiskChange =
  | { type: 'created'; ip: string; slot: number; volumeName: string; machineName: string }
  | {
      type: 'attached';
      ip: string;
      slot: number;
      volumeName: string;
      machineName: string;
      mounted: boolean;
    }
  | { type: 'detached'; ip: string; slot: number; volumeName: string; machineName: string };

export const APPENDED_DISK_MESSAGE =
  'attached on DCS to the running VM; formatted and mounted in the guest only when the VM is replaced (R-DISK-6)';

/** A DCS volume name for (pool, ip, slot): stable, so a replacement VM finds the same volume. */
export function volumeNameFor(poolName: string, ip: string, slot: number): string {
  return `${poolName}-${ip.replace(/[.:]/g, '-')}-slot${slot}`;
}

const key = (ip: string, slot: number) => `${ip}#${slot}`;

function sortRecords(records: PersistentDiskStatus[]): PersistentDiskStatus[] {
  return records.sort((a, b) => (a.ip === b.ip ? a.slot - b.slot : a.ip < b.ip ? -1 : 1));
}

/** Disks of `entry` as the new VM `machineName` boots with them: created or re-attached, mounted. */
export function attachForNewVm(
  poolName: string,
  records: readonly PersistentDiskStatus[],
  entry: IpPoolEntry,
  machineName: string,
): { records: PersistentDiskStatus[]; changes: DiskChange[] } {
  const byKey = new Map(records.map((r) => [key(r.ip, r.slot), { ...r }]));
  const changes: DiskChange[] = [];
  for (const disk of entry.persistentDisk ?? []) {
    const k = key(entry.ip, disk.slot);
    const existing = byKey.get(k);
    const volumeName = existing?.volumeName ?? volumeNameFor(poolName, entry.ip, disk.slot);
    if (!existing) {
      changes.push({ type: 'created', ip: entry.ip, slot: disk.slot, volumeName, machineName });
    }
    changes.push({
      type: 'attached',
      ip: entry.ip,
      slot: disk.slot,
      volumeName,
      machineName,
      mounted: true,
    });
    byKey.set(k, {
      ...(existing ?? {}),
      ip: entry.ip,
      slot: disk.slot,
      volumeName,
      machineName,
      phase: 'Attached',
      mounted: true,
    });
    const rec = byKey.get(k);
    if (rec) delete rec.message;
  }
  return { records: sortRecords([...byKey.values()]), changes };
}

/** Disks appended to the entry of a VM that is already running: attached, not mounted (R-DISK-6). */
export function attachAppended(
  poolName: string,
  records: readonly PersistentDiskStatus[],
  entry: IpPoolEntry,
  machineName: string,
): { records: PersistentDiskStatus[]; changes: DiskChange[] } {
  const byKey = new Map(records.map((r) => [key(r.ip, r.slot), r]));
  const changes: DiskChange[] = [];
  for (const disk of entry.persistentDisk ?? []) {
    if (byKey.has(key(entry.ip, disk.slot))) continue;
    const volumeName = volumeNameFor(poolName, entry.ip, disk.slot);
    changes.push({ type: 'created', ip: entry.ip, slot: disk.slot, volumeName, machineName });
    changes.push({
      type: 'attached',
      ip: entry.ip,
      slot: disk.slot,
      volumeName,
      machineName,
      mounted: false,
    });
    byKey.set(key(entry.ip, disk.slot), {
      ip: entry.ip,
      slot: disk.slot,
      volumeName,
      machineName,
      phase: 'Attached',
      mounted: false,
      message: APPENDED_DISK_MESSAGE,
    });
  }
  return { records: sortRecords([...byKey.values()]), changes };
}

/**
 * The VM holding `ip` (optionally: the VM of `machineName`) is gone: its volumes stay on DCS,
 * detached, waiting for the next VM.
 */
export function detachForDeletedVm(
  records: readonly PersistentDiskStatus[],
  ip: string,
  machineName?: string,
): { records: PersistentDiskStatus[]; changes: DiskChange[] } {
  const changes: DiskChange[] = [];
  const next = records.map((r) => {
    if (r.ip !== ip || r.phase === 'Detached') return r;
    if (machineName !== undefined && r.machineName !== machineName) return r;
    changes.push({
      type: 'detached',
      ip: r.ip,
      slot: r.slot,
      volumeName: r.volumeName ?? '',
      machineName: r.machineName ?? '',
    });
    const { machineName: _m, message: _msg, ...rest } = r;
    return { ...rest, phase: 'Detached', mounted: false };
  });
  return { records: next, changes };
}

/** Disks an entry declares that no volume exists for yet. */
export function missingVolumes(
  records: readonly PersistentDiskStatus[],
  entry: IpPoolEntry,
): PersistentDisk[] {
  const have = new Set(records.map((r) => key(r.ip, r.slot)));
  return (entry.persistentDisk ?? []).filter((d) => !have.has(key(entry.ip, d.slot)));
}
