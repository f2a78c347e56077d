import {
  LABEL_CLUSTER_NAME,
  vmStatusFields,
  type Condition,
  type DCSIpHostnamePool,
  type DCSMachine,
  type IpPoolEntry,
  type Machine,
} from '@dcs/domain';
import {
  falseCondition,
  getCondition,
  setConditions,
  trueCondition,
  withSummary,
} from '../logic/conditions';
import {
  DCS_MACHINE_FINALIZER,
  FAILURE_CREATE_ERROR,
  IP_CLAIMED,
  ISO_UPLOADED,
  REASON,
  VM_PROVISIONED,
  additionalNicsOf,
  cdRomFileOf,
  providerIdOf,
  vmNameOf,
} from '../logic/dcs';
import { failureModes } from '../logic/failures';
import { chooseEntry, noFreeEntryMessage, poolUsage } from '../logic/ippool';
import { stepDuration } from '../logic/timings';
import { BY_POOL, indexKey } from '../runtime/caches';
import { splitKey, watch, type Context, type Controller } from '../runtime/context';
import type { ReconcileResult } from '../runtime/queue';
import { PausedKeys } from './paused';
import { controlPlaneFirst, keyFor, remaining, same } from './util';

/**
 * The DCS infrastructure provider's DCSMachine controller, simulated: claims a free entry of the
 * DCSIpHostnamePool (R-POOL-1), uploads the bootstrap ISO (status.cdRomFile), creates the VM
 * (creating → running) with the entry's extra NICs and its persistent disks attached, reports
 * providerID and addresses; on deletion removes the VM, waits for its disks to be detached, and
 * releases the entry. Failure injection picks the troubleshooting paths (T-1 and others).
 */

const COMPONENT = 'dcsmachine-controller';
/** How often a machine waiting for a free entry looks again; pool edits and released claims wake it sooner. */
const WAIT_FOR_ENTRY_MS = 5 * 60_000;
/** How often a failing ISO upload is retried. */
const ISO_RETRY_MS = 60_000;

type Status = NonNullable<DCSMachine['status']>;

/** One claim at a time per pool, so two machines never take the same entry. */
class PoolLocks {
  private readonly tails = new Map<string, Promise<void>>();
  async with<T>(pool: string, fn: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(pool) ?? Promise.resolve();
    let release: () => void = () => undefined;
    const next = new Promise<void>((r) => {
      release = r;
    });
    const tail = previous.then(() => next);
    this.tails.set(pool, tail);
    await previous;
    try {
      return await fn();
    } finally {
      release();
      if (this.tails.get(pool) === tail) this.tails.delete(pool);
    }
  }
}

export function dcsMachineController(ctx: Context): Controller {
  const dms = ctx.caches.get('DCSMachine');
  const machines = ctx.caches.get('Machine');
  const pools = ctx.caches.get('DCSIpHostnamePool');
  const clusters = ctx.caches.get('Cluster');
  const locks = new PoolLocks();
  // A provider honours pausing (annotations.IsPaused(cluster, dcsMachine)), its deletion too.
  const paused = new PausedKeys();
  const seed = ctx.options.randomSeed;
  const duration = (name: string, step: Parameters<typeof stepDuration>[3]) =>
    stepDuration(ctx.options.timings, seed, name, step);

  const ownerMachine = (dm: DCSMachine): Machine | undefined => {
    const ref = dm.metadata.ownerReferences?.find((r) => r.kind === 'Machine');
    return ref ? machines.get(dm.metadata.namespace, ref.name) : undefined;
  };

  const poolOf = (dm: DCSMachine) => {
    const name = dm.spec?.ipHostPoolRef.name;
    return name ? pools.get(dm.metadata.namespace, name) : undefined;
  };

  const entryOf = (dm: DCSMachine): IpPoolEntry | undefined => {
    const ip = dm.status?.networkConfig?.ip;
    return ip ? poolOf(dm)?.spec?.pool?.find((e) => e.ip === ip) : undefined;
  };

  function failuresOf(dm: DCSMachine, machine: Machine | undefined) {
    const pool = poolOf(dm);
    return failureModes(
      {
        machine: machine?.metadata.name ?? dm.metadata.name ?? '',
        machineAnnotations: machine?.metadata.annotations,
        infraAnnotations: dm.metadata.annotations,
        pool: dm.spec?.ipHostPoolRef.name,
        poolAnnotations: pool?.metadata.annotations,
        ip: dm.status?.networkConfig?.ip,
      },
      ctx.options.failures,
      seed,
    );
  }

  async function write(
    dm: DCSMachine,
    status: Status,
    updates: readonly Condition[],
  ): Promise<DCSMachine> {
    const nowISO = ctx.clock.stamp();
    const conditions = withSummary(
      setConditions(dm.status?.conditions, updates, nowISO),
      {
        conditions: [IP_CLAIMED, ISO_UPLOADED, VM_PROVISIONED],
      },
      nowISO,
    );
    const next = { ...status, conditions };
    if (same(next, dm.status)) return dm;
    return ctx.writer.updateStatus('DCSMachine', { ...dm, status: next });
  }

  /**
   * What follows a claim, or a machine that has its entry: waiting for the bootstrap data, or
   * starting the ISO upload. Its conditions go out with the claim's in one status write, so the
   * DCSMachine is never Ready between the two (no VMProvisioned condition yet).
   */
  function bootstrapStep(
    name: string,
    machine: Machine,
    vmName: string,
  ): { conditions: Condition[]; result: ReconcileResult | undefined } {
    if (!machine.spec?.bootstrap.dataSecretName) {
      return {
        conditions: [
          falseCondition(ISO_UPLOADED, REASON.waitingForBootstrapData, 'Info'),
          falseCondition(VM_PROVISIONED, REASON.waitingForIso, 'Info'),
        ],
        result: undefined,
      };
    }
    return {
      conditions: [
        falseCondition(
          ISO_UPLOADED,
          REASON.isoUploading,
          'Info',
          `Uploading the bootstrap ISO of VM ${vmName} to DCS`,
        ),
        falseCondition(VM_PROVISIONED, REASON.waitingForIso, 'Info'),
      ],
      result: { requeueAfterMs: duration(name, 'isoUpload') },
    };
  }

  /** R-POOL-1: take a free entry, or wait with a condition that says why. */
  async function claim(dm: DCSMachine, machine: Machine): Promise<ReconcileResult | undefined> {
    const poolName = dm.spec?.ipHostPoolRef.name ?? '';
    const ns = dm.metadata.namespace;
    return locks.with(indexKey(ns, poolName), async () => {
      const fresh = dms.get(ns, dm.metadata.name ?? '') ?? dm;
      if (fresh.status?.networkConfig?.ip) return { requeue: true };
      const pool = pools.get(ns, poolName);
      if (!pool) {
        await write(fresh, { ...(fresh.status ?? {}) }, [
          falseCondition(
            IP_CLAIMED,
            REASON.poolNotFound,
            'Warning',
            `DCSIpHostnamePool ${poolName} not found`,
          ),
        ]);
        return { requeueAfterMs: WAIT_FOR_ENTRY_MS };
      }
      const entries = pool.spec?.pool ?? [];
      const claimed = new Set(
        dms
          .byIndex(BY_POOL, indexKey(ns, poolName))
          .map((o) => o.status?.networkConfig?.ip)
          .filter((ip): ip is string => Boolean(ip)),
      );
      const entry = chooseEntry(entries, claimed, pool.status?.persistentDiskStatus ?? []);
      if (!entry) {
        const message = noFreeEntryMessage(poolName, poolUsage(entries, claimed));
        const written = await write(fresh, { ...(fresh.status ?? {}) }, [
          falseCondition(IP_CLAIMED, REASON.noFreePoolEntry, 'Warning', message),
        ]);
        if (written !== fresh)
          ctx.events.emit(fresh, 'Warning', 'WaitingForIPAddress', message, COMPONENT);
        return { requeueAfterMs: WAIT_FOR_ENTRY_MS };
      }
      const addresses = [
        { type: 'InternalIP', address: entry.ip },
        ...(entry.hostname ? [{ type: 'Hostname', address: entry.hostname }] : []),
      ];
      const freshName = fresh.metadata.name ?? '';
      const next = bootstrapStep(freshName, machine, vmNameOf(entry, freshName));
      await write(
        fresh,
        {
          ...(fresh.status ?? {}),
          networkConfig: { ...(fresh.status?.networkConfig ?? {}), ip: entry.ip },
          additionalNic: additionalNicsOf(entry),
          addresses,
        },
        [trueCondition(IP_CLAIMED), ...next.conditions],
      );
      ctx.events.emit(
        fresh,
        'Normal',
        'IPAddressClaimed',
        `Claimed ${entry.ip}${entry.hostname ? ` (hostname ${entry.hostname})` : ''} from DCSIpHostnamePool ${poolName}`,
        COMPONENT,
      );
      return next.result;
    });
  }

  async function reconcile(key: string): Promise<ReconcileResult | undefined> {
    const { namespace, name } = splitKey(key);
    let dm = dms.get(namespace, name);
    if (!dm?.spec) return undefined;
    const clusterOf =
      dm.metadata.labels?.[LABEL_CLUSTER_NAME] ?? ownerMachine(dm)?.spec?.clusterName ?? '';
    const cluster = clusters.get(namespace, clusterOf);
    if (paused.skip(key, `${namespace ?? ''}/${clusterOf}`, dm, cluster)) return undefined;
    if (dm.metadata.deletionTimestamp) return reconcileDelete(dm);
    if (!dm.metadata.finalizers?.includes(DCS_MACHINE_FINALIZER)) {
      dm = await ctx.writer.update('DCSMachine', {
        ...dm,
        metadata: {
          ...dm.metadata,
          finalizers: [...(dm.metadata.finalizers ?? []), DCS_MACHINE_FINALIZER],
        },
      });
    }
    const machine = ownerMachine(dm);
    if (!machine) return undefined; // waiting for the Machine controller to set the owner
    const status: Status = { ...(dm.status ?? {}) };
    const now = ctx.clock.now();

    const clusterName = machine.spec?.clusterName ?? '';
    if (!clusters.get(namespace, clusterName)?.status?.infrastructureReady) {
      await write(dm, status, [
        falseCondition(VM_PROVISIONED, REASON.waitingForClusterInfrastructure, 'Info'),
      ]);
      return undefined;
    }
    if (!status.networkConfig?.ip) return claim(dm, machine);
    const entry = entryOf(dm);
    const vmName = vmNameOf(entry, name);
    if (!machine.spec?.bootstrap.dataSecretName) {
      await write(dm, status, bootstrapStep(name, machine, vmName).conditions);
      return undefined;
    }
    const modes = failuresOf(dm, machine);
    const datastore = dm.spec?.vmConfig?.dcsMachineDiskSpec?.find(
      (d) => d.systemVolume,
    )?.datastoreClusterName;

    // The bootstrap ISO: DCS authentication, then the upload; then status.cdRomFile is set.
    if (!status.cdRomFile) {
      const iso = getCondition(status.conditions, ISO_UPLOADED);
      if (iso?.reason !== REASON.isoUploading && iso?.reason !== REASON.isoUploadFailed) {
        const start = bootstrapStep(name, machine, vmName);
        await write(dm, status, start.conditions);
        return start.result;
      }
      const started = ctx.timeline.since(dm, ISO_UPLOADED) ?? now;
      const wait = remaining(
        started,
        iso.reason === REASON.isoUploadFailed ? ISO_RETRY_MS : duration(name, 'isoUpload'),
        now,
      );
      if (wait > 0) return { requeueAfterMs: wait };
      if (modes.has('iso-upload')) {
        const message = `uploading the bootstrap ISO of VM ${vmName} failed: DCS rejected the session (authentication failed for the DCS account); retrying`;
        await write(dm, status, [
          falseCondition(ISO_UPLOADED, REASON.isoUploadFailed, 'Error', message),
        ]);
        ctx.events.emit(dm, 'Warning', REASON.isoUploadFailed, message, COMPONENT);
        return { requeueAfterMs: ISO_RETRY_MS };
      }
      // The ISO is there: DCS starts creating the VM at once (one status write for both).
      status.cdRomFile = cdRomFileOf(datastore, vmName);
    }

    // The VM: cloned from the VM template, placed on a host, powered on.
    if (!status.vmState) {
      const creating = `Creating VM ${vmName} from VM template ${dm.spec?.vmTemplateName ?? ''}`;
      Object.assign(status, vmStatusFields('creating'));
      dm = await write(dm, status, [
        trueCondition(ISO_UPLOADED),
        falseCondition(VM_PROVISIONED, REASON.vmCreating, 'Info', creating),
      ]);
      ctx.events.emit(
        dm,
        'Normal',
        REASON.vmCreating,
        `Uploaded the bootstrap ISO to ${status.cdRomFile ?? ''}; ${creating}`,
        COMPONENT,
      );
      return { requeueAfterMs: duration(name, 'vmCreate') };
    }
    if (status.vmState === 'creating') {
      // T-1: the ISO is there, the VM is never placed on a host: it stays `creating`.
      if (modes.has('placement-stall')) return undefined;
      const started = ctx.timeline.since(dm, VM_PROVISIONED) ?? now;
      const create = duration(name, 'vmCreate');
      if (modes.has('vm-create-error')) {
        const wait = remaining(started, Math.round(create / 3), now);
        if (wait > 0) return { requeueAfterMs: wait };
        const message = `DCS task CreateVM for VM ${vmName} failed: no host in the resource pool has enough free memory for ${String(dm.spec?.vmConfig?.dcsMachineMemorySpec?.quantity ?? 0)} MB`;
        Object.assign(status, vmStatusFields('failed', { reason: FAILURE_CREATE_ERROR, message }), {
          ready: false,
        });
        await write(dm, status, [
          falseCondition(VM_PROVISIONED, REASON.vmCreateFailed, 'Error', message),
        ]);
        ctx.events.emit(dm, 'Warning', REASON.vmCreateFailed, message, COMPONENT);
        return undefined;
      }
      const wait = remaining(started, create, now);
      if (wait > 0) return { requeueAfterMs: wait };
      // Persistent disks of the entry must be attached (the pool controller does it) before power-on.
      if (!disksAttached(dm, entry)) return { requeueAfterMs: 2000 };
      const providerID = providerIdOf(vmName);
      if (dm.spec?.providerID !== providerID && dm.spec) {
        dm = await ctx.writer.update('DCSMachine', { ...dm, spec: { ...dm.spec, providerID } });
      }
      Object.assign(status, vmStatusFields('running'), { ready: true });
      dm = await write(dm, status, [trueCondition(VM_PROVISIONED)]);
      ctx.events.emit(
        dm,
        'Normal',
        'VMRunning',
        `VM ${vmName} is running (${providerID})`,
        COMPONENT,
      );
    }
    return undefined;
  }

  function disksAttached(
    dm: DCSMachine,
    entry: IpPoolEntry | undefined,
    pool = poolOf(dm),
  ): boolean {
    if (!entry?.persistentDisk?.length) return true;
    const records = pool?.status?.persistentDiskStatus ?? [];
    return entry.persistentDisk.every((d) =>
      records.some(
        (r) =>
          r.ip === entry.ip &&
          r.slot === d.slot &&
          r.machineName === dm.metadata.name &&
          r.phase === 'Attached',
      ),
    );
  }

  async function reconcileDelete(dm: DCSMachine): Promise<ReconcileResult | undefined> {
    const name = dm.metadata.name ?? '';
    const status: Status = { ...(dm.status ?? {}) };
    const now = ctx.clock.now();
    const vm = getCondition(status.conditions, VM_PROVISIONED);
    const hadVm = Boolean(status.vmState) && vm?.reason !== REASON.vmDeleted;
    const vmName = vmNameOf(entryOf(dm), name);
    if (hadVm && status.vmState !== 'deleting') {
      Object.assign(status, vmStatusFields('deleting'), { ready: false });
      await write(dm, status, [
        falseCondition(VM_PROVISIONED, REASON.vmDeleting, 'Info', `Deleting VM ${vmName}`),
      ]);
      ctx.events.emit(dm, 'Normal', 'VMDeleting', `Deleting VM ${vmName}`, COMPONENT);
      return { requeueAfterMs: duration(name, 'vmDelete') };
    }
    if (hadVm) {
      const wait = remaining(
        ctx.timeline.since(dm, VM_PROVISIONED) ?? now,
        duration(name, 'vmDelete'),
        now,
      );
      if (wait > 0) return { requeueAfterMs: wait };
      await write(dm, status, [
        falseCondition(VM_PROVISIONED, REASON.vmDeleted, 'Info', `VM ${vmName} was deleted`),
      ]);
      ctx.events.emit(dm, 'Normal', REASON.vmDeleted, `Deleted VM ${vmName}`, COMPONENT);
      return { requeue: true };
    }
    // The VM is gone; its persistent disks must be detached (by the pool controller) before the entry is free.
    const ip = status.networkConfig?.ip;
    const attached = (poolOf(dm)?.status?.persistentDiskStatus ?? []).some(
      (r) => r.ip === ip && r.machineName === name && r.phase !== 'Detached',
    );
    if (ip && attached) return { requeueAfterMs: 2000 };
    if (ip) {
      ctx.events.emit(
        dm,
        'Normal',
        'IPAddressReleased',
        `Released ${ip} back to DCSIpHostnamePool ${dm.spec?.ipHostPoolRef.name ?? ''}`,
        COMPONENT,
      );
    }
    const finalizers = (dm.metadata.finalizers ?? []).filter((f) => f !== DCS_MACHINE_FINALIZER);
    await ctx.writer.update('DCSMachine', { ...dm, metadata: { ...dm.metadata, finalizers } });
    return undefined;
  }

  /**
   * Whether a change of its pool can let the machine go on: a free entry for one waiting to
   * claim, its volumes attached for a VM being created, detached for one being deleted. Pools
   * change with every claim, so waking every machine of the pool each time would flood the queue.
   */
  function unblockedBy(o: DCSMachine, pool: DCSIpHostnamePool, anyFree: () => boolean): boolean {
    const ip = o.status?.networkConfig?.ip;
    const name = o.metadata.name ?? '';
    if (o.metadata.deletionTimestamp) {
      return !(pool.status?.persistentDiskStatus ?? []).some(
        (r) => r.ip === ip && r.machineName === name && r.phase !== 'Detached',
      );
    }
    // A machine not told to wait for an entry yet is queued already (it was just created).
    if (!ip) return getCondition(o.status?.conditions, IP_CLAIMED)?.status === 'False' && anyFree();
    // A VM being created waits for its creation time on its own timer; a pool change matters
    // only after that (its disks attached, or a fault on the pool removed). Waking every VM of
    // the pool at each pool write makes thousands of no-op reconciles when the host is busy.
    if (!overdue(o)) return false;
    const entry = pool.spec?.pool?.find((e) => e.ip === ip);
    return !entry?.persistentDisk?.length || disksAttached(o, entry, pool);
  }

  /**
   * A VM still creating after its creation time: held by a fault (placement stall) or waiting
   * for disks. An annotation change (the fault removed) on its pool or Machine lets it go on.
   */
  function overdue(o: DCSMachine): boolean {
    if (o.status?.vmState !== 'creating') return false;
    const started = ctx.timeline.since(o, VM_PROVISIONED);
    return (
      started !== undefined &&
      ctx.clock.now() >= started + duration(o.metadata.name ?? '', 'vmCreate')
    );
  }

  /** The DCSMachine waits for its Machine's bootstrap data (it has not started the ISO upload). */
  function waitsForBootstrapData(o: DCSMachine | undefined): boolean {
    if (!o) return false;
    const iso = getCondition(o.status?.conditions, ISO_UPLOADED);
    return (
      iso?.status !== 'True' &&
      iso?.reason !== REASON.isoUploading &&
      iso?.reason !== REASON.isoUploadFailed
    );
  }

  /** Machines waiting for an entry of this pool (claims are released and entries added). */
  const waitingOn = (ns: string | undefined, pool: string) =>
    dms
      .byIndex(BY_POOL, indexKey(ns, pool))
      .filter((o) => !o.status?.networkConfig?.ip && !o.metadata.deletionTimestamp)
      .map(keyFor);

  return {
    name: 'dcsmachine',
    primary: 'DCSMachine',
    isPriority: controlPlaneFirst(dms),
    concurrency: 16,
    watches: [
      // The Machine's bootstrap data (dataSecretName) for a DCSMachine that waits for it, and its
      // annotations for one held by a fault.
      watch('Machine', (m) => {
        const ref = m.spec?.infrastructureRef;
        if (ref?.kind !== 'DCSMachine' || !ref.name) return [];
        const ns = m.metadata.namespace;
        const dm = dms.get(ns, ref.name);
        const relevant =
          Boolean(m.spec?.bootstrap.dataSecretName) &&
          !m.status?.infrastructureReady &&
          dm !== undefined &&
          (waitsForBootstrapData(dm) || overdue(dm));
        return relevant ? [`${ns ?? ''}/${ref.name}`] : [];
      }),
      // Entries added or released, disks attached or detached: the machines this unblocks.
      watch('DCSIpHostnamePool', (p) => {
        const members = dms.byIndex(BY_POOL, indexKey(p.metadata.namespace, p.metadata.name ?? ''));
        let free: boolean | undefined;
        const anyFree = () => {
          if (free === undefined) {
            const claimed = new Set(members.map((o) => o.status?.networkConfig?.ip));
            free = (p.spec?.pool ?? []).some((e) => !claimed.has(e.ip));
          }
          return free;
        };
        return members.filter((o) => unblockedBy(o, p, anyFree)).map(keyFor);
      }),
      // A released entry lets the next waiting machine claim it.
      watch('DCSMachine', (o) =>
        o.metadata.deletionTimestamp
          ? waitingOn(o.metadata.namespace, o.spec?.ipHostPoolRef.name ?? '')
          : [],
      ),
      // The cluster's infrastructure becoming ready (or not) gates machines without a VM. Only
      // those whose condition it changes: the cluster's status changes with every control-plane
      // step, and waking thousands of machines each time floods the queue.
      watch('Cluster', (c) => {
        const ready = Boolean(c.status?.infrastructureReady);
        return dms
          .byIndex('cluster', indexKey(c.metadata.namespace, c.metadata.name ?? ''))
          .filter((o) => {
            if (o.status?.vmState) return false;
            const waiting =
              getCondition(o.status?.conditions, VM_PROVISIONED)?.reason ===
              REASON.waitingForClusterInfrastructure;
            return ready === waiting;
          })
          .map(keyFor)
          .concat(paused.wake(c));
      }),
    ],
    reconcile,
  };
}
