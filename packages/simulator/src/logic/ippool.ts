import type { IpPoolEntry, PersistentDiskStatus } from '@dcs/domain';

/**
 * Which DCSIpHostnamePool entry a new DCSMachine claims (R-POOL-1). An entry is claimed while a
 * DCSMachine that took it exists; it is free again once that DCSMachine is gone. Among free
 * entries the provider prefers one whose persistent volumes already exist and are detached, so
 * that kept disks follow the fixed IP slot to the replacement VM (R-MD-3, O-UPGRADE-INFRA);
 * otherwise it takes the first free entry in pool order.
 */

export interface PoolUsage {
  total: number;
  claimed: number;
  free: number;
}

export function poolUsage(
  entries: readonly IpPoolEntry[],
  claimedIps: ReadonlySet<string>,
): PoolUsage {
  const claimed = entries.filter((e) => claimedIps.has(e.ip)).length;
  return { total: entries.length, claimed, free: entries.length - claimed };
}

export function chooseEntry(
  entries: readonly IpPoolEntry[],
  claimedIps: ReadonlySet<string>,
  volumes: readonly PersistentDiskStatus[],
): IpPoolEntry | undefined {
  const free = entries.filter((e) => !claimedIps.has(e.ip));
  const hasDetachedVolume = (e: IpPoolEntry) =>
    volumes.some((v) => v.ip === e.ip && v.phase === 'Detached');
  return free.find(hasDetachedVolume) ?? free[0];
}

/** The message of the condition a DCSMachine waits with when its pool is exhausted (R-POOL-1). */
export function noFreeEntryMessage(poolName: string, usage: PoolUsage): string {
  return (
    `DCSIpHostnamePool ${poolName} has no free entry (${usage.total} entries, ${usage.claimed} claimed): ` +
    'add entries to the pool or lower the replicas (R-POOL-1)'
  );
}
