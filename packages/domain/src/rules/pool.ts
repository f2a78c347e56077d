import { DEFAULT_MAX_SURGE, scaledValue } from '../intstr';
import type { AdditionNic, IpPoolEntry, PersistentDisk } from '../schemas/dcs';
import type { IntOrString } from '../schemas/meta';
import type { IpPoolContext, ValidationContext } from './context';
import type { RuleIssue } from './issue';
import { error, warning } from './make';
import {
  dcsNameProblem,
  invalidDnsItems,
  isDns1123Label,
  isDns1123Subdomain,
  visible,
  isNetworkOrBroadcast,
  parseIPv4,
  parseMask,
  sameSubnet,
} from './net';
import { diffLeafPaths, joinPath, laterDuplicates, normalizeMountPath } from './util';
import { checkPersistentDiskSupport } from './version';

/* ------------------------------------------------------------------------------------------ */
/* R-POOL-1: demand vs entries                                                                 */
/* ------------------------------------------------------------------------------------------ */

/** One MachineDeployment drawing on a pool: its replicas and its (unresolved) maxSurge. */
export interface PoolDemand {
  deployment: string;
  replicas: number;
  maxSurge: IntOrString | undefined;
}

/**
 * maxSurge resolved as Cluster API does (percent of replicas, rounded up; default 1). A value that
 * R-MD-2 rejects counts as 0 here: R-MD-2 reports it, and a second message would only add noise.
 */
export function resolvedMaxSurge(maxSurge: IntOrString | undefined, replicas: number): number {
  try {
    return scaledValue(maxSurge ?? DEFAULT_MAX_SURGE, replicas, true);
  } catch {
    return 0;
  }
}

export interface PoolCapacity {
  entries: number;
  /** Σ replicas of every deployment whose machine template names the pool. */
  demand: number;
  /** Σ resolved maxSurge of those deployments: the extra addresses a rollout may take. */
  surge: number;
  claimed: number;
  /** What forms show: entries − claimed. */
  free: number;
}

/** R-POOL-1: the figures forms show for a pool. */
export function poolCapacity(pool: IpPoolContext): PoolCapacity {
  const ips = new Set(pool.entries.map((e) => e.ip));
  const claimed = new Set(pool.claims.filter((c) => ips.has(c.ip)).map((c) => c.ip)).size;
  return {
    entries: pool.entries.length,
    demand: sum(pool.consumers.map((c) => c.replicas)),
    surge: sum(pool.consumers.map((c) => resolvedMaxSurge(c.maxSurge, c.replicas))),
    claimed,
    free: pool.entries.length - claimed,
  };
}

const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);

/** What one deployment of a pool may draw on (R-POOL-1, R-MD-1). */
export interface ReplicaRoom {
  entries: number;
  /** entries − claimed: what forms show as free (R-POOL-1). */
  free: number;
  /** What the pool's other deployments need: the sum of their replicas. */
  heldByOthers: number;
  /** The most replicas the deployment can have: entries − heldByOthers. */
  room: number;
}

/**
 * R-POOL-1, R-MD-1 for one deployment of the pool, with `appended` entries about to be added:
 * the one derivation behind the scale form's figures and the rule's message, so that the two
 * never disagree (the deployment's own claimed entries are not free, but are room for it).
 */
export function replicaRoom(pool: IpPoolContext, deployment: string, appended = 0): ReplicaRoom {
  const entries = pool.entries.length + appended;
  const heldByOthers = sum(
    pool.consumers.filter((c) => c.deployment !== deployment).map((c) => c.replicas),
  );
  return {
    entries,
    free: poolCapacity(pool).free + appended,
    heldByOthers,
    room: Math.max(0, entries - heldByOthers),
  };
}

/**
 * R-POOL-1: demand > entries is an error (surplus machines wait without an address); demand +
 * Σ resolved maxSurge > entries is a warning (a rolling update would wait for addresses).
 */
export function checkPoolDemand(
  poolName: string,
  entryCount: number,
  consumers: readonly PoolDemand[],
  path: string,
): RuleIssue[] {
  const demand = sum(consumers.map((c) => c.replicas));
  const surge = sum(consumers.map((c) => resolvedMaxSurge(c.maxSurge, c.replicas)));
  if (demand > entryCount) {
    return [
      error('R-POOL-1', path, 'pool.demandExceedsEntries', {
        pool: poolName,
        entries: entryCount,
        demand,
        missing: demand - entryCount,
      }),
    ];
  }
  if (demand + surge > entryCount) {
    return [
      warning('R-POOL-1', path, 'pool.surgeExceedsEntries', {
        pool: poolName,
        entries: entryCount,
        demand,
        surge,
        missing: demand + surge - entryCount,
      }),
    ];
  }
  return [];
}

/**
 * R-MD-1 (with R-POOL-1): the replicas of one deployment against what its pool can serve.
 * `used` is what the others hold: the greater of their replicas and the entries already claimed
 * by machines that are not this deployment's. The rollout headroom warning (R-POOL-1) goes to
 * `surgePath`.
 */
export function checkReplicasFitPool(args: {
  poolName: string;
  entryCount: number;
  used: number;
  deployment: PoolDemand;
  others: readonly PoolDemand[];
  path: string;
  surgePath?: string;
}): RuleIssue[] {
  const { poolName, entryCount, used, deployment, others, path } = args;
  const available = Math.max(0, entryCount - used);
  if (deployment.replicas > available) {
    return [
      error('R-MD-1', path, 'md.replicasExceedPool', {
        replicas: deployment.replicas,
        pool: poolName,
        entries: entryCount,
        used,
        available,
        missing: deployment.replicas - available,
      }),
    ];
  }
  const all = [...others, deployment];
  const demand = used + deployment.replicas;
  const surge = sum(all.map((c) => resolvedMaxSurge(c.maxSurge, c.replicas)));
  if (demand + surge > entryCount) {
    return [
      warning('R-POOL-1', args.surgePath ?? path, 'pool.surgeExceedsEntries', {
        pool: poolName,
        entries: entryCount,
        demand,
        surge,
        missing: demand + surge - entryCount,
      }),
    ];
  }
  return [];
}

/* ------------------------------------------------------------------------------------------ */
/* R-POOL-2 / R-POOL-3 / R-NIC-1 / R-DISK-1: the entries themselves                            */
/* ------------------------------------------------------------------------------------------ */

export interface PoolEntriesOptions {
  /**
   * The existing pool the entries are added to, left out of the namespace-wide ip check
   * (R-POOL-2); undefined for the entries of a new pool.
   */
  poolName?: string | undefined;
  /** Entries already in the pool: the checked entries must not collide with them (R-POOL-2). */
  existing?: readonly IpPoolEntry[];
  /**
   * Whether the user writes these entries now (default). New entries write the mask as a prefix
   * length; a dotted netmask is accepted on entries that already exist (R-POOL-3). One flag per
   * entry when they differ (edits of existing entries: new only where the mask is edited).
   */
  newEntries?: boolean | readonly boolean[];
}

/**
 * Every check of a list of entries that a form or request writes: formats (R-POOL-3),
 * uniqueness in the pool and the namespace (R-POOL-2), extra NICs (R-NIC-1), persistent disk
 * slots (R-DISK-1) and the provider's support for them (R-VER-2).
 */
export function validatePoolEntries(
  entries: readonly IpPoolEntry[],
  ctx: ValidationContext,
  basePath: string,
  opts: PoolEntriesOptions,
): RuleIssue[] {
  const flags = opts.newEntries ?? true;
  const isNew = (i: number) => (typeof flags === 'boolean' ? flags : (flags[i] ?? true));
  return [
    ...entries.flatMap((entry, i) =>
      validateEntryFields(entry, ctx, joinPath(basePath, i), { newEntry: isNew(i) }),
    ),
    ...checkEntryUniqueness(entries, basePath, opts.existing ?? []),
    ...checkIpsFreeInNamespace(entries, ctx, basePath, opts.poolName),
    ...checkPersistentDiskSupport(entries, ctx, basePath),
  ];
}

interface Addressing {
  ip?: string | undefined;
  mask?: string | undefined;
  gateway?: string | undefined;
  dns?: string | undefined;
}

/** R-POOL-3: ip, mask, gateway and dns of an entry or an extra NIC (absent fields are skipped). */
export function checkAddressing(
  a: Addressing,
  path: string,
  opts: { newEntry: boolean },
): RuleIssue[] {
  const out: RuleIssue[] = [];
  const ip = a.ip === undefined ? undefined : parseIPv4(a.ip);
  if (a.ip !== undefined && ip === undefined) {
    out.push(error('R-POOL-3', joinPath(path, 'ip'), 'pool.ipInvalid', { value: a.ip }));
  }
  const mask = a.mask === undefined ? undefined : parseMask(a.mask.trim());
  if (a.mask !== undefined) {
    if (mask === undefined) {
      out.push(error('R-POOL-3', joinPath(path, 'mask'), 'pool.maskInvalid', { value: a.mask }));
    } else if (mask.dotted && opts.newEntry) {
      out.push(
        error('R-POOL-3', joinPath(path, 'mask'), 'pool.maskDottedOnNewEntry', {
          value: a.mask,
          prefix: mask.prefix,
        }),
      );
    }
  }
  if (ip !== undefined && mask !== undefined && isNetworkOrBroadcast(ip, mask.prefix)) {
    out.push(
      error('R-POOL-3', joinPath(path, 'ip'), 'pool.ipNotHostAddress', {
        ip: a.ip ?? '',
        prefix: mask.prefix,
      }),
    );
  }
  if (a.gateway !== undefined && a.gateway.trim() !== '') {
    const gw = parseIPv4(a.gateway);
    if (gw === undefined) {
      out.push(
        error('R-POOL-3', joinPath(path, 'gateway'), 'pool.gatewayInvalid', { value: a.gateway }),
      );
    } else if (ip !== undefined && gw === ip) {
      out.push(
        warning('R-POOL-3', joinPath(path, 'gateway'), 'pool.gatewayIsOwnIp', { ip: a.ip ?? '' }),
      );
    } else if (ip !== undefined && mask !== undefined && !sameSubnet(ip, gw, mask.prefix)) {
      out.push(
        warning('R-POOL-3', joinPath(path, 'gateway'), 'pool.gatewayOutsideSubnet', {
          gateway: a.gateway,
          ip: a.ip ?? '',
          prefix: mask.prefix,
        }),
      );
    }
  }
  // An empty dns is "not set": forms send '' for a field the user left blank.
  if (a.dns !== undefined && a.dns.trim() !== '') {
    const bad = invalidDnsItems(a.dns);
    if (bad.length > 0) {
      out.push(
        error('R-POOL-3', joinPath(path, 'dns'), 'pool.dnsInvalid', {
          value: a.dns,
          invalid: bad.map((b) => (b === '' ? '""' : b)).join(', '),
        }),
      );
    }
  }
  return out;
}

/** R-POOL-3, R-NIC-1, R-DISK-1 on one entry. */
export function validateEntryFields(
  entry: IpPoolEntry,
  ctx: ValidationContext,
  path: string,
  opts: { newEntry: boolean },
): RuleIssue[] {
  const out = checkAddressing(entry, path, opts);
  if (entry.gateway.trim() === '') {
    out.push(
      error('R-POOL-3', joinPath(path, 'gateway'), 'pool.gatewayRequired', { ip: entry.ip }),
    );
  }
  if (entry.hostname !== undefined && entry.hostname !== '' && !isDns1123Label(entry.hostname)) {
    out.push(
      error('R-POOL-3', joinPath(path, 'hostname'), 'pool.hostnameInvalid', {
        value: entry.hostname,
      }),
    );
  }
  // The VM's name on DCS is a Kubernetes-style name: NUL, newlines, "/", "..", bidi overrides
  // or a leading "-" would reach the platform (issue 10).
  if (entry.machineName !== undefined && !isDns1123Subdomain(entry.machineName)) {
    out.push(
      error('R-POOL-3', joinPath(path, 'machineName'), 'pool.machineNameInvalid', {
        value: visible(entry.machineName),
      }),
    );
  }
  (entry.additionNic ?? []).forEach((nic, j) => {
    out.push(...validateNic(nic, ctx, joinPath(path, 'additionNic', j), opts));
  });
  out.push(
    ...validateEntryDisks(entry.persistentDisk ?? [], entry.ip, joinPath(path, 'persistentDisk')),
  );
  return out;
}

/**
 * R-NIC-1: an extra NIC needs dvSwitchName and portGroupName (the provider resolves the port
 * group before cloning); ip and mask are recommended; a gateway risks moving the default route.
 * Formats are R-POOL-3's.
 */
export function validateNic(
  nic: AdditionNic,
  ctx: ValidationContext,
  path: string,
  opts: { newEntry: boolean } = { newEntry: true },
): RuleIssue[] {
  const out: RuleIssue[] = [];
  const blank = (s: string | undefined) => s === undefined || s.trim() === '';
  if (blank(nic.dvSwitchName)) {
    out.push(error('R-NIC-1', joinPath(path, 'dvSwitchName'), 'nic.dvSwitchRequired'));
  }
  if (blank(nic.portGroupName)) {
    out.push(error('R-NIC-1', joinPath(path, 'portGroupName'), 'nic.portGroupRequired'));
  }
  for (const field of ['dvSwitchName', 'portGroupName'] as const) {
    const value = nic[field];
    if (!blank(value) && value !== undefined && dcsNameProblem(value)) {
      out.push(
        error('R-NIC-1', joinPath(path, field), 'dcs.nameInvalid', {
          field,
          value: visible(value),
        }),
      );
    }
  }
  if (!blank(nic.dvSwitchName) && !blank(nic.portGroupName)) {
    out.push(
      ...checkPortGroupInSwitch(
        nic.dvSwitchName ?? '',
        nic.portGroupName ?? '',
        ctx,
        'R-NIC-1',
        joinPath(path, 'portGroupName'),
      ),
    );
  }
  if (blank(nic.ip)) out.push(warning('R-NIC-1', joinPath(path, 'ip'), 'nic.ipRecommended'));
  if (blank(nic.mask)) out.push(warning('R-NIC-1', joinPath(path, 'mask'), 'nic.maskRecommended'));
  if (!blank(nic.gateway)) {
    out.push(
      warning('R-NIC-1', joinPath(path, 'gateway'), 'nic.gatewaySet', {
        gateway: nic.gateway ?? '',
      }),
    );
  }
  out.push(
    ...checkAddressing(
      {
        ...(blank(nic.ip) ? {} : { ip: nic.ip }),
        ...(blank(nic.mask) ? {} : { mask: nic.mask }),
        gateway: nic.gateway,
        dns: nic.dns,
      },
      path,
      opts,
    ),
  );
  return out;
}

/** R-TPL-3 / R-NIC-1: the port group belongs to the switch, when the inventory is known. */
export function checkPortGroupInSwitch(
  dvSwitchName: string,
  portGroupName: string,
  ctx: ValidationContext,
  rule: 'R-TPL-3' | 'R-NIC-1',
  path: string,
): RuleIssue[] {
  const inventory = ctx.dcsInventory;
  if (!inventory) return [];
  const sw = inventory.dvSwitches.find((s) => s.name === dvSwitchName);
  if (!sw) return [error(rule, path, 'net.dvSwitchUnknown', { dvSwitch: dvSwitchName })];
  if (sw.portGroups.includes(portGroupName)) return [];
  return [
    error(rule, path, 'net.portGroupNotInSwitch', {
      portGroup: portGroupName,
      dvSwitch: dvSwitchName,
      portGroups: sw.portGroups.join(', '),
    }),
  ];
}

/**
 * R-DISK-1: a persistent disk's identity is (ip, slot), so slots are unique within an entry.
 * R-POOL-3 for its fields (a size, an absolute mount path); R-TPL-2 for unique mount paths.
 */
export function validateEntryDisks(
  disks: readonly PersistentDisk[],
  ip: string,
  path: string,
): RuleIssue[] {
  const out: RuleIssue[] = [];
  disks.forEach((d, j) => {
    const p = joinPath(path, j);
    if (d.slot < 0) {
      out.push(error('R-DISK-1', joinPath(p, 'slot'), 'disk.slotInvalid', { ip, slot: d.slot }));
    }
    if (d.quantityGB < 1) {
      out.push(
        error('R-POOL-3', joinPath(p, 'quantityGB'), 'disk.quantityInvalid', {
          ip,
          slot: d.slot,
          value: d.quantityGB,
        }),
      );
    }
    if (d.path !== undefined && !d.path.startsWith('/')) {
      out.push(error('R-POOL-3', joinPath(p, 'path'), 'disk.pathInvalid', { ip, value: d.path }));
    }
    if (d.datastoreClusterName !== undefined && dcsNameProblem(d.datastoreClusterName)) {
      out.push(
        error('R-POOL-3', joinPath(p, 'datastoreClusterName'), 'dcs.nameInvalid', {
          field: 'datastoreClusterName',
          value: visible(d.datastoreClusterName),
        }),
      );
    }
  });
  for (const dup of laterDuplicates(disks, (d) => d.slot)) {
    out.push(
      error('R-DISK-1', joinPath(path, dup.index, 'slot'), 'disk.slotDuplicate', {
        ip,
        slot: dup.key,
      }),
    );
  }
  for (const dup of laterDuplicates(disks, (d) =>
    d.path ? normalizeMountPath(d.path) : undefined,
  )) {
    out.push(
      error('R-TPL-2', joinPath(path, dup.index, 'path'), 'disk.pathDuplicate', {
        ip,
        path: dup.key,
      }),
    );
  }
  return out;
}

const UNIQUE_FIELDS = ['ip', 'hostname', 'machineName'] as const;

/**
 * R-POOL-2: ip, hostname and machineName are each unique within a pool (an entry without a
 * hostname or machineName does not collide). Reported on the later duplicate, or on the checked
 * entry when it collides with one already in the pool.
 */
export function checkEntryUniqueness(
  entries: readonly IpPoolEntry[],
  basePath: string,
  existing: readonly IpPoolEntry[] = [],
): RuleIssue[] {
  const out: RuleIssue[] = [];
  for (const field of UNIQUE_FIELDS) {
    const taken = new Set(existing.map((e) => e[field]).filter((v) => v !== undefined && v !== ''));
    const seen = new Set<string>();
    entries.forEach((entry, i) => {
      const value = entry[field];
      if (value === undefined || value === '') return;
      if (taken.has(value)) {
        out.push(
          error('R-POOL-2', joinPath(basePath, i, field), 'pool.duplicateOfExisting', {
            field,
            value,
          }),
        );
      } else if (seen.has(value)) {
        out.push(
          error('R-POOL-2', joinPath(basePath, i, field), 'pool.duplicate', { field, value }),
        );
      }
      seen.add(value);
    });
  }
  return out;
}

/** R-POOL-2: an ip that another pool of the namespace also holds is an error. */
export function checkIpsFreeInNamespace(
  entries: readonly IpPoolEntry[],
  ctx: ValidationContext,
  basePath: string,
  poolName?: string,
): RuleIssue[] {
  const holder = new Map<string, string>();
  for (const pool of ctx.ipPools) {
    if (pool.name === poolName) continue;
    for (const e of pool.entries) if (!holder.has(e.ip)) holder.set(e.ip, pool.name);
  }
  return entries.flatMap((entry, i) => {
    const other = holder.get(entry.ip);
    return other === undefined
      ? []
      : [
          error('R-POOL-2', joinPath(basePath, i, 'ip'), 'pool.ipInOtherPool', {
            ip: entry.ip,
            pool: other,
          }),
        ];
  });
}

/* ------------------------------------------------------------------------------------------ */
/* R-POOL-4 / R-POOL-5 / R-POOL-6: editing a pool                                              */
/* ------------------------------------------------------------------------------------------ */

/** What the user meant to change in a pool; anything else must come through unchanged. */
export interface PoolEditIntent {
  append?: readonly IpPoolEntry[];
  /** ips of the entries to remove. */
  remove?: readonly string[];
  /** New additionNic / persistentDisk lists of existing entries, keyed by ip. */
  update?: readonly {
    ip: string;
    additionNic?: readonly AdditionNic[] | undefined;
    persistentDisk?: readonly PersistentDisk[] | undefined;
  }[];
}

/**
 * The persistent disks of an entry after an update, as the planners write it: disks are matched
 * by slot (R-DISK-1); a field the update leaves out keeps its value, a disk it leaves out stays
 * (R-DISK-2: disks are never removed), a new slot is appended.
 */
export function mergePersistentDisks(
  base: readonly PersistentDisk[],
  update: readonly PersistentDisk[],
): PersistentDisk[] {
  const merged = base.map((disk) => {
    const u = update.find((d) => d.slot === disk.slot);
    if (!u) return disk;
    const given = Object.fromEntries(Object.entries(u).filter(([, v]) => v !== undefined));
    return { ...disk, ...given };
  });
  const added = update.filter((d) => !base.some((b) => b.slot === d.slot));
  return [...merged, ...added];
}

/**
 * The entries an edit asks for, keyed by ip, in order: the base entries (updated, minus the
 * removed ones), then the appended ones. What forms preview and R-POOL-4 compares with.
 */
export function poolEntriesAfterEdit(
  base: readonly IpPoolEntry[],
  intent: PoolEditIntent,
): IpPoolEntry[] {
  const remove = new Set(intent.remove ?? []);
  const updates = new Map((intent.update ?? []).map((u) => [u.ip, u]));
  const out = new Map<string, IpPoolEntry>();
  for (const e of base) {
    if (remove.has(e.ip) || out.has(e.ip)) continue;
    const u = updates.get(e.ip);
    out.set(e.ip, {
      ...e,
      ...(u?.additionNic !== undefined ? { additionNic: [...u.additionNic] } : {}),
      ...(u?.persistentDisk !== undefined
        ? { persistentDisk: mergePersistentDisks(e.persistentDisk ?? [], u.persistentDisk) }
        : {}),
    });
  }
  for (const e of intent.append ?? []) out.set(e.ip, e);
  return [...out.values()];
}

/**
 * R-POOL-4: editing a pool never loses an entry. Given the entries the edit started from and the
 * `spec.pool` array about to be written, reports every entry or persistentDisk block (isThin
 * included) that was lost, altered or added beyond the user's intent (`poolEntriesAfterEdit`). Entries are matched by ip
 * and disks by slot, so order does not matter; an empty additionNic list equals an absent one.
 * `basePath` is the path of the proposed array (`spec.pool`).
 */
export function checkEntriesPreserved(
  base: readonly IpPoolEntry[],
  proposed: readonly IpPoolEntry[],
  basePath: string,
  intent: PoolEditIntent = {},
): RuleIssue[] {
  const out: RuleIssue[] = [];
  const expected = new Map(poolEntriesAfterEdit(base, intent).map((e) => [e.ip, e]));
  const proposedIndex = new Map<string, number>();
  proposed.forEach((p, i) => {
    if (!proposedIndex.has(p.ip)) proposedIndex.set(p.ip, i);
  });
  for (const [ip, want] of expected) {
    const index = proposedIndex.get(ip);
    const got = index === undefined ? undefined : proposed[index];
    if (index === undefined || got === undefined) {
      out.push(error('R-POOL-4', basePath, 'pool.entryLost', { ip }));
      continue;
    }
    const entryPath = joinPath(basePath, index);
    const { persistentDisk: wantDisks, additionNic: wantNics, ...wantRest } = want;
    const { persistentDisk: gotDisks, additionNic: gotNics, ...gotRest } = got;
    for (const field of [
      ...diffLeafPaths(wantRest, gotRest),
      ...diffLeafPaths(wantNics ?? [], gotNics ?? [], 'additionNic'),
    ]) {
      out.push(error('R-POOL-4', joinPath(entryPath, field), 'pool.entryAltered', { ip, field }));
    }
    out.push(
      ...compareDisks(wantDisks ?? [], gotDisks ?? [], ip, joinPath(entryPath, 'persistentDisk')),
    );
  }
  proposed.forEach((p, i) => {
    if (!expected.has(p.ip) || proposedIndex.get(p.ip) !== i) {
      out.push(error('R-POOL-4', joinPath(basePath, i), 'pool.entryUnexpected', { ip: p.ip }));
    }
  });
  return out;
}

function compareDisks(
  want: readonly PersistentDisk[],
  got: readonly PersistentDisk[],
  ip: string,
  path: string,
): RuleIssue[] {
  const out: RuleIssue[] = [];
  for (const w of want) {
    const index = got.findIndex((g) => g.slot === w.slot);
    const g = got[index];
    if (g === undefined) {
      out.push(error('R-POOL-4', path, 'pool.diskLost', { ip, slot: w.slot }));
      continue;
    }
    for (const field of diffLeafPaths(w, g)) {
      out.push(
        error('R-POOL-4', joinPath(path, index, field), 'pool.diskAltered', {
          ip,
          slot: w.slot,
          field,
        }),
      );
    }
  }
  got.forEach((g, index) => {
    if (!want.some((w) => w.slot === g.slot)) {
      out.push(
        error('R-POOL-4', joinPath(path, index), 'pool.diskUnexpected', { ip, slot: g.slot }),
      );
    }
  });
  return out;
}

/** R-POOL-5: an entry claimed by a live machine cannot be removed or have its ip changed. */
export function checkClaimedEntriesKept(
  base: readonly IpPoolEntry[],
  proposed: readonly IpPoolEntry[],
  claims: IpPoolContext['claims'],
  path: string,
): RuleIssue[] {
  const baseIps = new Set(base.map((e) => e.ip));
  const kept = new Set(proposed.map((e) => e.ip));
  return claims
    .filter((c) => baseIps.has(c.ip) && !kept.has(c.ip))
    .map((c) =>
      error('R-POOL-5', path, 'pool.claimedEntryRemoved', { ip: c.ip, machine: c.machine }),
    );
}

/**
 * R-POOL-5 / R-POOL-6 on a list of ips to remove: a claimed entry cannot go; an unclaimed one
 * may, with a warning when volumes were made for its persistent disks (they stay on DCS).
 */
export function checkEntryRemovals(
  remove: readonly string[],
  pool: IpPoolContext,
  basePath: string,
): RuleIssue[] {
  const out: RuleIssue[] = [];
  // By ip, once: the checks stay linear in the pool and the removals (issue 25, item 6).
  const entries = new Map(pool.entries.map((e) => [e.ip, e]));
  const claims = new Map(pool.claims.map((c) => [c.ip, c]));
  const seen = new Set<string>();
  const repeated = new Set<string>();
  remove.forEach((ip, i) => {
    const path = joinPath(basePath, i);
    if (seen.has(ip)) {
      // Said once per address: a list of one address repeated is one mistake, not thousands.
      if (!repeated.has(ip)) out.push(error('R-POOL-4', path, 'pool.removedTwice', { ip }));
      repeated.add(ip);
      return;
    }
    seen.add(ip);
    const entry = entries.get(ip);
    if (!entry) {
      out.push(error('R-POOL-4', path, 'pool.entryNotFound', { ip, pool: pool.name }));
      return;
    }
    const claim = claims.get(ip);
    if (claim) {
      out.push(error('R-POOL-5', path, 'pool.claimedEntryRemoved', { ip, machine: claim.machine }));
      return;
    }
    const disks = entry.persistentDisk ?? [];
    if (disks.length > 0) {
      out.push(
        warning('R-POOL-6', path, 'pool.removedEntryVolumesStay', {
          ip,
          slots: disks.map((d) => d.slot).join(', '),
        }),
      );
    }
  });
  return out;
}

/**
 * R-NIC-2: additionNic applies only when a VM is created; a running machine keeps its NICs.
 * A warning whenever the NICs of a claimed entry are edited.
 */
export function checkNicEditOfClaimedEntry(
  base: IpPoolEntry,
  nics: readonly AdditionNic[],
  claims: IpPoolContext['claims'],
  path: string,
): RuleIssue[] {
  const claim = claims.find((c) => c.ip === base.ip);
  if (!claim || diffLeafPaths(base.additionNic ?? [], nics).length === 0) return [];
  return [
    warning('R-NIC-2', path, 'nic.claimedEntryNotHotUpdated', {
      ip: base.ip,
      machine: claim.machine,
    }),
  ];
}

/** Whether a pool relies on persistent disks (R-MD-3): any entry declares one. */
export function reliesOnPersistentDisks(entries: readonly IpPoolEntry[]): boolean {
  return entries.some((e) => (e.persistentDisk?.length ?? 0) > 0);
}
