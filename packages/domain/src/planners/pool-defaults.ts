import type { CreatePoolRequestInput, MachineTemplateSpecInput } from '../requests';
import { CPAAS_MOUNT, templateMountIndex } from '../rules/disk';
import type { ValidationContext } from '../rules/context';
import { providerSupportsPersistentDisks } from '../rules/version';
import type { DCSMachineSpec, DiskSpec, IpPoolEntry, PersistentDisk } from '../schemas/dcs';
import { compareKubeVersions } from '../versions';
import { defaultBootstrapSpec } from './bootstrap-defaults';
import { DEFAULT_NODE_DELETION_TIMEOUT, DEFAULT_NODE_DRAIN_TIMEOUT } from './create-pool';
import { defaultPoolObjectNames } from './names';
import { suggestEntries } from './suggest';

/**
 * What a new worker pool of a cluster looks like before the user changes anything (O-CREATE-POOL,
 * issue 11 "forms that mislead"): the most common current layout of the cluster's own worker
 * pools (machine template shape, where /var/cpaas lives, the extra NICs and persistent disks of
 * their IP pool entries), or the documents' defaults when the cluster has none. Never another
 * cluster's template: all clusters share the namespace, so "the namespace's last template" is
 * anybody's legacy layout.
 */
export interface PoolLayout {
  /** The pools of the cluster that share the chosen layout (empty: the documents' defaults). */
  from: readonly string[];
  /** The machine template (its VM template is the version's, set by the caller). */
  template: MachineTemplateSpecInput;
  /**
   * The shape of an IP pool entry: network settings of an entry of a pool with this layout
   * (mask, gateway, dns, its extra NICs' switch and port group) and its persistent disks; its
   * `ip` is that entry's, a start for the next free address, never written as is.
   */
  entry: IpPoolEntry | undefined;
}

/** The documents' worker template: 4 cores, 8 GiB, system disk at the VM template's size. */
const DOCUMENT_DISKS: DiskSpec[] = [
  { quantity: 0, systemVolume: true },
  { quantity: 100, path: '/var/lib/kubelet', format: 'xfs' },
  { quantity: 100, path: '/var/lib/containerd', format: 'xfs' },
];
const DOCUMENT_CPAAS_GB = 40;

function templateInput(spec: DCSMachineSpec): MachineTemplateSpecInput {
  const { ipHostPoolRef: _ref, providerID: _id, ...input } = spec;
  return structuredClone(input);
}

/** What makes two pools' layouts the same: everything but the VM template (it follows the version). */
function layoutKey(spec: MachineTemplateSpecInput, entry: IpPoolEntry | undefined): string {
  const { vmTemplateName: _vm, ...shape } = spec;
  const nics = (entry?.additionNic ?? []).map((n) => [n.dvSwitchName, n.portGroupName]);
  const disks = (entry?.persistentDisk ?? []).map(({ isThin: _t, ...d }) => d);
  return JSON.stringify([shape, nics, disks]);
}

/**
 * The entry shape of a pool: its last entry's network settings, extra NICs (switch, port group,
 * mask, and the ip to continue from) and persistent disks; names are the new pool's own.
 */
function entryShape(entries: readonly IpPoolEntry[]): IpPoolEntry | undefined {
  const last = entries.at(-1);
  if (!last) return undefined;
  const { hostname: _h, machineName: _m, ...shape } = last;
  return structuredClone(shape);
}

/**
 * The cluster's most common current worker layout (ties: the layout of the pool first by name),
 * moved to where the provider wants /var/cpaas (R-DISK-5): with provider ≥ 1.0.16 a legacy
 * template's /var/cpaas disk becomes a persistent disk of the entries; below it, the template
 * mounts it (entries carry no persistent disk, R-VER-2).
 */
export function clusterPoolLayout(ctx: ValidationContext): PoolLayout {
  const groups = new Map<
    string,
    { pools: string[]; template: MachineTemplateSpecInput; entry: IpPoolEntry | undefined }
  >();
  const pools = [...(ctx.workerPools ?? [])].sort((a, b) => a.name.localeCompare(b.name));
  for (const pool of pools) {
    const spec = ctx.machineTemplates.find((t) => t.name === pool.machineTemplate)?.spec;
    if (!spec) continue;
    const ipPool = ctx.ipPools.find((p) => p.name === spec.ipHostPoolRef.name);
    const template = templateInput(spec);
    const entry = entryShape(ipPool?.entries ?? []);
    const key = layoutKey(template, entry);
    const group = groups.get(key);
    if (group) group.pools.push(pool.name);
    else groups.set(key, { pools: [pool.name], template, entry });
  }
  let best:
    | { pools: string[]; template: MachineTemplateSpecInput; entry: IpPoolEntry | undefined }
    | undefined;
  for (const g of groups.values()) if (!best || g.pools.length > best.pools.length) best = g;
  const layout: PoolLayout = best
    ? { from: best.pools, template: best.template, entry: best.entry }
    : {
        from: [],
        template: {
          vmTemplateName: '',
          vmConfig: {
            dcsMachineCpuSpec: { quantity: 4 },
            dcsMachineMemorySpec: { quantity: 8192 },
            dcsMachineDiskSpec: structuredClone(DOCUMENT_DISKS),
          },
        },
        entry: undefined,
      };
  return placeCpaas(layout, ctx);
}

/** R-DISK-5 / R-VER-2: /var/cpaas once, where this provider wants it. */
function placeCpaas(layout: PoolLayout, ctx: ValidationContext): PoolLayout {
  const template = structuredClone(layout.template);
  const disks = template.vmConfig?.dcsMachineDiskSpec ?? [];
  const index = templateMountIndex(disks, CPAAS_MOUNT);
  const entryDisks = layout.entry?.persistentDisk ?? [];
  const entryHasCpaas = entryDisks.some((d) => d.path === CPAAS_MOUNT);
  if (providerSupportsPersistentDisks(ctx)) {
    const legacy = disks[index];
    const kept = disks.filter((_d, i) => i !== index);
    if (template.vmConfig) template.vmConfig.dcsMachineDiskSpec = kept;
    if (entryHasCpaas) return { ...layout, template };
    const datastore =
      legacy?.datastoreClusterName ??
      kept.find((d) => d.datastoreClusterName)?.datastoreClusterName;
    const cpaas: PersistentDisk = {
      slot: entryDisks.reduce((m, d) => Math.max(m, d.slot + 1), 0),
      quantityGB: legacy && legacy.quantity > 0 ? legacy.quantity : DOCUMENT_CPAAS_GB,
      ...(datastore ? { datastoreClusterName: datastore } : {}),
      path: CPAAS_MOUNT,
      format: legacy?.format ?? 'xfs',
    };
    const entry: IpPoolEntry = layout.entry
      ? { ...layout.entry, persistentDisk: [...entryDisks, cpaas] }
      : { ip: '', mask: '24', gateway: '', persistentDisk: [cpaas] };
    return { ...layout, template, entry };
  }
  // Below 1.0.16 the pool carries no persistent disk and the template is the only place.
  const entry = layout.entry ? withoutDisks(layout.entry) : undefined;
  if (index < 0) {
    const from = entryDisks.find((d) => d.path === CPAAS_MOUNT);
    const datastore =
      from?.datastoreClusterName ?? disks.find((d) => d.datastoreClusterName)?.datastoreClusterName;
    const cpaas: DiskSpec = {
      quantity: from?.quantityGB ?? DOCUMENT_CPAAS_GB,
      ...(datastore ? { datastoreClusterName: datastore } : {}),
      path: CPAAS_MOUNT,
      format: from?.format ?? 'xfs',
    };
    if (template.vmConfig) template.vmConfig.dcsMachineDiskSpec = [...disks, cpaas];
  }
  return { ...layout, template, entry };
}

function withoutDisks(entry: IpPoolEntry): IpPoolEntry {
  const { persistentDisk: _d, ...rest } = entry;
  return rest;
}

/** Versions a new pool may run: the catalog's, not above the control plane (R-MD-4), newest first. */
export function offeredVersions(ctx: ValidationContext): string[] {
  return ctx.versions
    .map((v) => v.version)
    .filter(
      (v) =>
        ctx.controlPlaneVersion === undefined ||
        compareKubeVersions(v, ctx.controlPlaneVersion) <= 0,
    )
    .sort((a, b) => compareKubeVersions(b, a));
}

/** The VM template that carries `version` in the catalog (R-MD-4), or "". */
export const vmTemplateOf = (ctx: ValidationContext, version: string): string =>
  ctx.versions.find((v) => compareKubeVersions(v.version, version) === 0)?.vmTemplateName ?? '';

/** A free name `<cluster>-worker-N` (R-MD-5 recommends the cluster-name prefix). */
export function suggestPoolName(ctx: ValidationContext): string {
  const taken = new Set([...ctx.namesInUse.machineDeployments, ...ctx.namesInUse.ipPools]);
  for (let n = 1; ; n++) {
    const name = `${ctx.clusterName}-worker-${String(n)}`;
    const names = defaultPoolObjectNames(name);
    if (!taken.has(name) && !taken.has(names.ipPool)) return name;
  }
}

/**
 * The Add Worker Node Pool form's start (U-4): a free name, new templates and a new IP pool named
 * after it, the newest version the control plane allows, the cluster's layout
 * ({@link clusterPoolLayout}) on that version's VM template, maxSurge 0 (R-MD-3: the layout's
 * entries carry persistent disks with provider ≥ 1.0.16). The entries are the user's to give:
 * {@link suggestNewPoolEntries} offers them.
 */
export function createPoolDefaults(ctx: ValidationContext): CreatePoolRequestInput {
  const name = suggestPoolName(ctx);
  const names = defaultPoolObjectNames(name);
  const version = offeredVersions(ctx)[0] ?? ctx.controlPlaneVersion ?? '';
  const layout = clusterPoolLayout(ctx);
  const filesSecret = ctx.versions.find(
    (v) => compareKubeVersions(v.version, version) === 0,
  )?.bootstrapFilesSecret;
  return {
    name,
    replicas: 1,
    version,
    machineTemplate: {
      mode: 'new',
      name: names.machineTemplate,
      spec: { ...layout.template, vmTemplateName: vmTemplateOf(ctx, version) },
    },
    bootstrap: {
      mode: 'new',
      name: names.bootstrapTemplate,
      spec: defaultBootstrapSpec({
        version,
        sshAuthorizedKeys: [],
        ...(filesSecret ? { filesSecret } : {}),
      }),
    },
    ipPool: { mode: 'new', name: names.ipPool, entries: [] },
    strategy: { maxSurge: 0, maxUnavailable: 1 },
    nodeDrainTimeout: DEFAULT_NODE_DRAIN_TIMEOUT,
    nodeDeletionTimeout: DEFAULT_NODE_DELETION_TIMEOUT,
  };
}

/**
 * `n` entries for a new IP pool named `pool`, shaped like the cluster's layout (extra NICs,
 * persistent disks, network settings), on the next addresses free in the whole namespace
 * (R-POOL-2), named `<pool>-k` / `<pool>-vm-k`. Without a layout entry (a cluster with no worker
 * pool) there is no network to continue: the user types the first address.
 */
export function suggestNewPoolEntries(
  ctx: ValidationContext,
  pool: string,
  n: number,
  layout: PoolLayout = clusterPoolLayout(ctx),
): IpPoolEntry[] {
  const takenIps = ctx.ipPools.flatMap((p) =>
    p.entries.flatMap((e) => [e.ip, ...(e.additionNic ?? []).map((nic) => nic.ip ?? '')]),
  );
  const shape = layout.entry;
  const seed: IpPoolEntry[] = shape
    ? [{ ...shape, hostname: `${pool}-0`, machineName: `${pool}-vm-0` }]
    : [];
  const suggested = suggestEntries(seed, n, { takenIps });
  return suggested.map((e, i) =>
    shape
      ? e
      : {
          ...e,
          hostname: `${pool}-${String(i + 1)}`,
          machineName: `${pool}-vm-${String(i + 1)}`,
        },
  );
}
