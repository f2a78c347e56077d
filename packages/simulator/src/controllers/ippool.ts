import {
  DCS_CONDITIONS,
  DCS_REASONS,
  type DCSIpHostnamePool,
  type DCSMachine,
  type PersistentDiskStatus,
} from '@dcs/domain';
import {
  falseCondition,
  getCondition,
  setConditions,
  trueCondition,
  withSummary,
} from '../logic/conditions';
import { REASON, VM_PROVISIONED } from '../logic/dcs';
import {
  attachAppended,
  attachForNewVm,
  detachForDeletedVm,
  type DiskChange,
} from '../logic/disks';
import { poolUsage } from '../logic/ippool';
import { stepDuration } from '../logic/timings';
import { BY_POOL, indexKey } from '../runtime/caches';
import { splitKey, watch, type Context, type Controller } from '../runtime/context';
import type { ReconcileResult } from '../runtime/queue';
import { SUMMARY_BATCH_SIM_MS, remaining, same } from './util';

/**
 * The DCS provider's side of a DCSIpHostnamePool: which entries are claimed (status.total /
 * status.free), and the persistent volumes of its entries (status.persistentDiskStatus, R-DISK-*):
 * created the first time an (ip, slot) is used, attached to the VM holding the entry, detached
 * when that VM is deleted and attached again to its replacement (O-UPGRADE-INFRA); a disk
 * appended to a running VM's entry is attached but not mounted (R-DISK-6).
 */

const COMPONENT = 'dcsiphostnamepool-controller';
export const POOL_ENTRIES_AVAILABLE = DCS_CONDITIONS.freeEntriesAvailable;

type Status = NonNullable<DCSIpHostnamePool['status']>;

/** A VM exists on DCS for this machine (being created, running, failed, or not yet deleted). */
function hasVm(dm: DCSMachine): boolean {
  const state = dm.status?.vmState;
  if (!state) return false;
  return getCondition(dm.status?.conditions, VM_PROVISIONED)?.reason !== REASON.vmDeleted;
}

export function ipPoolController(ctx: Context): Controller {
  const pools = ctx.caches.get('DCSIpHostnamePool');
  const dms = ctx.caches.get('DCSMachine');

  function emit(
    pool: DCSIpHostnamePool,
    changes: readonly DiskChange[],
    mountedNote: boolean,
  ): void {
    for (const c of changes) {
      if (c.type === 'created') {
        ctx.events.emit(
          pool,
          'Normal',
          'PersistentDiskCreated',
          `Created volume ${c.volumeName} for ${c.ip} slot ${String(c.slot)}`,
          COMPONENT,
        );
      } else if (c.type === 'attached') {
        const note =
          !c.mounted && mountedNote
            ? ' (not formatted or mounted in the guest until the VM is replaced, R-DISK-6)'
            : '';
        ctx.events.emit(
          pool,
          'Normal',
          'PersistentDiskAttached',
          `Attached volume ${c.volumeName} to VM of ${c.machineName}${note}`,
          COMPONENT,
        );
      } else {
        ctx.events.emit(
          pool,
          'Normal',
          'PersistentDiskDetached',
          `Detached volume ${c.volumeName} from VM of ${c.machineName}`,
          COMPONENT,
        );
      }
    }
  }

  async function reconcile(key: string): Promise<ReconcileResult | undefined> {
    const { namespace, name } = splitKey(key);
    const pool = pools.get(namespace, name);
    if (!pool || pool.metadata.deletionTimestamp) return undefined;
    const now = ctx.clock.now();
    const entries = pool.spec?.pool ?? [];
    const machines = dms
      .byIndex(BY_POOL, indexKey(namespace, name))
      .sort((a, b) => ((a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1));
    let records: PersistentDiskStatus[] = [...(pool.status?.persistentDiskStatus ?? [])];
    let requeueAfterMs: number | undefined;
    const holders = new Set<string>();
    // Lookups by ip (and slot): a pool has hundreds of entries and is reconciled often.
    const entryByIp = new Map(entries.map((e) => [e.ip, e]));
    let recordIndex: Map<string, PersistentDiskStatus> | undefined;
    let recordsIndexed = records;
    const recordAt = (ip: string, slot: number) => {
      if (!recordIndex || recordsIndexed !== records) {
        recordIndex = new Map(records.map((r) => [`${r.ip}#${String(r.slot)}`, r]));
        recordsIndexed = records;
      }
      return recordIndex.get(`${ip}#${String(slot)}`);
    };

    for (const dm of machines) {
      const ip = dm.status?.networkConfig?.ip;
      const entry = ip ? entryByIp.get(ip) : undefined;
      const dmName = dm.metadata.name ?? '';
      if (!ip || !entry || !hasVm(dm)) continue;
      holders.add(dmName);
      const disks = entry.persistentDisk ?? [];
      if (!disks.length && !records.length) continue;
      const recordOf = (slot: number) => recordAt(ip, slot);
      if (dm.status?.vmState === 'creating') {
        if (disks.some((d) => recordOf(d.slot)?.machineName !== dmName)) {
          const result = attachForNewVm(name, records, entry, dmName);
          const created = new Set(
            result.changes.filter((c) => c.type === 'created').map((c) => c.slot),
          );
          // A new volume is being created on DCS before it can be attached.
          records = result.records.map((r) =>
            r.ip === ip && created.has(r.slot) ? { ...r, phase: 'Creating' } : r,
          );
          emit(
            pool,
            result.changes.filter((c) => c.type === 'created' || !created.has(c.slot)),
            false,
          );
        }
      } else if (disks.some((d) => !recordOf(d.slot))) {
        const result = attachAppended(name, records, entry, dmName);
        records = result.records;
        emit(pool, result.changes, true);
      }
      // Volumes being created become attached once DCS is done.
      const vmSince = ctx.timeline.since(dm, VM_PROVISIONED) ?? now;
      for (const r of records.filter(
        (x) => x.ip === ip && x.phase === 'Creating' && x.machineName === dmName,
      )) {
        const wait = remaining(
          vmSince,
          stepDuration(
            ctx.options.timings,
            ctx.options.randomSeed,
            `${dmName}#${String(r.slot)}`,
            'volumeCreate',
          ),
          now,
        );
        if (wait > 0) {
          requeueAfterMs = Math.min(requeueAfterMs ?? wait, wait);
          continue;
        }
        records = records.map((x) => (x === r ? { ...x, phase: 'Attached' } : x));
        emit(
          pool,
          [
            {
              type: 'attached',
              ip,
              slot: r.slot,
              volumeName: r.volumeName ?? '',
              machineName: dmName,
              mounted: true,
            },
          ],
          false,
        );
      }
    }

    // Volumes of VMs that are gone are detached; they stay on DCS for the entry's next VM.
    const orphans = records.filter(
      (r) => r.phase !== 'Detached' && !holders.has(r.machineName ?? ''),
    );
    for (const { ip, machineName } of orphans) {
      const result = detachForDeletedVm(records, ip, machineName ?? '');
      records = result.records;
      emit(pool, result.changes, false);
    }

    const claimed = new Set(
      machines.map((m) => m.status?.networkConfig?.ip).filter((ip): ip is string => Boolean(ip)),
    );
    const usage = poolUsage(entries, claimed);
    const waiting = machines
      .filter((m) => !m.status?.networkConfig?.ip && !m.metadata.deletionTimestamp)
      .map((m) => m.metadata.name ?? '');
    const nowISO = ctx.clock.stamp();
    const conditions = withSummary(
      setConditions(
        pool.status?.conditions,
        [
          usage.free > 0 || waiting.length === 0
            ? trueCondition(POOL_ENTRIES_AVAILABLE)
            : falseCondition(
                POOL_ENTRIES_AVAILABLE,
                DCS_REASONS.poolExhausted,
                'Warning',
                `all ${String(usage.total)} entries are claimed; ${String(waiting.length)} machine(s) wait for an entry: ${waiting.slice(0, 5).join(', ')}${waiting.length > 5 ? ', …' : ''} (R-POOL-1)`,
              ),
        ],
        nowISO,
      ),
      { conditions: [POOL_ENTRIES_AVAILABLE] },
      nowISO,
    );
    const status: Status = {
      ...(pool.status ?? {}),
      total: usage.total,
      free: usage.free,
      persistentDiskStatus: records,
      conditions,
    };
    if (!records.length && !pool.status?.persistentDiskStatus) delete status.persistentDiskStatus;
    if (!same(status, pool.status))
      await ctx.writer.updateStatus('DCSIpHostnamePool', { ...pool, status });
    return requeueAfterMs !== undefined ? { requeueAfterMs } : undefined;
  }

  return {
    name: 'dcsiphostnamepool',
    primary: 'DCSIpHostnamePool',
    batchSimMs: SUMMARY_BATCH_SIM_MS,
    watches: [
      watch('DCSMachine', (dm) =>
        dm.spec?.ipHostPoolRef.name
          ? [`${dm.metadata.namespace ?? ''}/${dm.spec.ipHostPoolRef.name}`]
          : [],
      ),
    ],
    reconcile,
  };
}
