import { persistentDiskStatusOf } from '../dcs-fields';
import { resolveFenceposts } from '../intstr';
import type { IpPoolContext } from '../rules/context';
import type { MachineDeployment } from '../schemas/capi';
import type { KubeadmControlPlane } from '../schemas/controlplane';
import { LABEL_CLUSTER_NAME } from '../labels';
import type {
  AdditionNic,
  DCSIpHostnamePool,
  DCSMachine,
  PersistentDisk,
  PersistentDiskStatus,
} from '../schemas/dcs';
import type { IntOrString } from '../schemas/meta';
import { replicasOf } from './util';
import { conditionViews, type ConditionView } from './conditions';

/** One entry of a DCSIpHostnamePool, with the machine that holds it. */
export interface IpPoolEntryView {
  ip: string;
  mask: string;
  gateway: string;
  dns?: string;
  hostname?: string;
  machineName?: string;
  additionNic: AdditionNic[];
  persistentDisk: PersistentDisk[];
  /** The Machine whose DCSMachine claimed this entry (`status.networkConfig.ip`), if any. */
  claimedBy?: string;
}

/**
 * An owner of machines whose machine template names the pool (R-POOL-1 demand): a worker pool's
 * MachineDeployment, or a cluster's KubeadmControlPlane (its `machineTemplate.infrastructureRef`).
 */
export interface IpPoolConsumer {
  kind: 'MachineDeployment' | 'KubeadmControlPlane';
  /** The MachineDeployment's (the worker pool's) or the KubeadmControlPlane's name. */
  deployment: string;
  cluster: string;
  /** The machine template its new machines are made from (R-TPL-2: mounts against the entries). */
  machineTemplate?: string;
  replicas: number;
  /** As written on the MachineDeployment (undefined: Cluster API's default). */
  maxSurge?: IntOrString;
  /**
   * Resolved as Cluster API does; 0 when the strategy is not valid or is OnDelete. A control
   * plane surges by its rolloutStrategy's maxSurge (0 or 1, default 1).
   */
  maxSurgeResolved: number;
}

export interface IpPoolView {
  /** The pool's name: unique in its namespace. */
  id: string;
  name: string;
  namespace: string;
  resourceVersion?: string;
  createdAt?: string;
  entries: IpPoolEntryView[];
  total: number;
  /** Entries claimed by a live DCSMachine. */
  used: number;
  /** total − used: what forms offer (R-POOL-1). */
  free: number;
  consumers: IpPoolConsumer[];
  /** Σ replicas of the consumers (R-POOL-1). */
  demand: number;
  /** demand + Σ resolved maxSurge: what a rolling update of every consumer may need at once. */
  demandWithSurge: number;
  /** The provider's report of each persistent volume (through dcs-fields). */
  persistentDiskStatus: PersistentDiskStatus[];
  /** The pool's own conditions, problems first; absent when it reports none. */
  conditions?: ConditionView[];
}

/** A MachineDeployment or KubeadmControlPlane whose machine template names an IP pool. */
export type IpPoolConsumerObject = MachineDeployment | KubeadmControlPlane;

const isControlPlane = (o: IpPoolConsumerObject): o is KubeadmControlPlane =>
  o.kind === 'KubeadmControlPlane';

/** The resolved maxSurge of a MachineDeployment, 0 when OnDelete or when the values are invalid. */
function resolvedMaxSurge(md: MachineDeployment): number {
  const strategy = md.spec?.strategy;
  if (strategy?.type === 'OnDelete') return 0;
  try {
    return resolveFenceposts(
      strategy?.rollingUpdate?.maxSurge,
      strategy?.rollingUpdate?.maxUnavailable,
      replicasOf(md),
    ).maxSurge;
  } catch {
    return 0;
  }
}

/** The Machine that owns a DCSMachine (Cluster API names them alike, but the owner is the truth). */
export function claimantOf(dcsMachine: DCSMachine): string {
  return (
    dcsMachine.metadata.ownerReferences?.find((r) => r.kind === 'Machine')?.name ??
    dcsMachine.metadata.name ??
    ''
  );
}

/**
 * The view of one IP-hostname pool.
 * @param claimants DCSMachines that may hold entries of it (those naming another pool are skipped)
 * @param consumers MachineDeployments and KubeadmControlPlanes whose machine template names it
 */
export function ipPoolView(
  pool: DCSIpHostnamePool,
  claimants: readonly DCSMachine[],
  consumers: readonly IpPoolConsumerObject[],
): IpPoolView {
  const name = pool.metadata.name ?? '';
  const claimedBy = new Map<string, string>();
  for (const dm of claimants) {
    const ip = dm.status?.networkConfig?.ip;
    if (!ip || dm.spec?.ipHostPoolRef.name !== name) continue;
    // Two claims of one ip (should not happen): keep the first by name, so the view is stable.
    const who = claimantOf(dm);
    const previous = claimedBy.get(ip);
    if (previous === undefined || who < previous) claimedBy.set(ip, who);
  }
  const entries = (pool.spec?.pool ?? []).map<IpPoolEntryView>((e) => {
    const holder = claimedBy.get(e.ip);
    return {
      ip: e.ip,
      mask: e.mask,
      gateway: e.gateway,
      ...(e.dns !== undefined ? { dns: e.dns } : {}),
      ...(e.hostname !== undefined ? { hostname: e.hostname } : {}),
      ...(e.machineName !== undefined ? { machineName: e.machineName } : {}),
      additionNic: e.additionNic ?? [],
      persistentDisk: e.persistentDisk ?? [],
      ...(holder !== undefined ? { claimedBy: holder } : {}),
    };
  });
  // An ip listed twice (R-POOL-2 forbids it) is one address: count it once.
  const ips = new Set(entries.map((e) => e.ip));
  const used = [...ips].filter((ip) => claimedBy.has(ip)).length;
  const consumerViews = consumers
    .map<IpPoolConsumer>((md) => {
      if (isControlPlane(md)) return controlPlaneConsumer(md);
      const maxSurge = md.spec?.strategy?.rollingUpdate?.maxSurge;
      const template = md.spec?.template.spec.infrastructureRef.name;
      return {
        kind: 'MachineDeployment',
        deployment: md.metadata.name ?? '',
        cluster: md.spec?.clusterName ?? '',
        ...(template !== undefined ? { machineTemplate: template } : {}),
        replicas: replicasOf(md),
        ...(maxSurge !== undefined ? { maxSurge } : {}),
        maxSurgeResolved: resolvedMaxSurge(md),
      };
    })
    // The control plane first, then worker pools by name.
    .sort((a, b) =>
      a.kind !== b.kind
        ? a.kind === 'KubeadmControlPlane'
          ? -1
          : 1
        : a.deployment < b.deployment
          ? -1
          : a.deployment > b.deployment
            ? 1
            : 0,
    );
  const demand = consumerViews.reduce((n, c) => n + c.replicas, 0);
  return {
    id: name,
    name,
    namespace: pool.metadata.namespace ?? '',
    ...(pool.metadata.resourceVersion ? { resourceVersion: pool.metadata.resourceVersion } : {}),
    ...(pool.metadata.creationTimestamp ? { createdAt: pool.metadata.creationTimestamp } : {}),
    entries,
    total: ips.size,
    used,
    free: ips.size - used,
    consumers: consumerViews,
    demand,
    demandWithSurge: demand + consumerViews.reduce((n, c) => n + c.maxSurgeResolved, 0),
    persistentDiskStatus: persistentDiskStatusOf(pool),
    ...(pool.status?.conditions?.length
      ? { conditions: conditionViews(pool.status.conditions) }
      : {}),
  };
}

/** A control plane's demand: its replicas, surging by 0 or 1 machine as KubeadmControlPlane does. */
function controlPlaneConsumer(kcp: KubeadmControlPlane): IpPoolConsumer {
  const maxSurge = kcp.spec?.rolloutStrategy?.rollingUpdate?.maxSurge;
  const replicas = kcp.spec?.replicas ?? 1;
  const template = kcp.spec?.machineTemplate.infrastructureRef.name;
  return {
    kind: 'KubeadmControlPlane',
    deployment: kcp.metadata.name ?? '',
    cluster: kcp.metadata.labels?.[LABEL_CLUSTER_NAME] ?? '',
    ...(template !== undefined ? { machineTemplate: template } : {}),
    replicas,
    ...(maxSurge !== undefined ? { maxSurge } : {}),
    maxSurgeResolved:
      kcp.spec?.rolloutStrategy?.type === 'OnDelete'
        ? 0
        : typeof maxSurge === 'number'
          ? Math.min(1, Math.max(0, maxSurge))
          : 1,
  };
}

/** The pool as the rules see it (ValidationContext), from the pool and its view. */
export function ipPoolContextOf(pool: DCSIpHostnamePool, view: IpPoolView): IpPoolContext {
  return {
    name: view.name,
    resourceVersion: view.resourceVersion ?? '',
    entries: pool.spec?.pool ?? [],
    claims: view.entries.flatMap((e) =>
      e.claimedBy !== undefined ? [{ ip: e.ip, machine: e.claimedBy }] : [],
    ),
    consumers: view.consumers.map((c) => ({
      deployment: c.deployment,
      replicas: c.replicas,
      maxSurge: c.maxSurge,
      ...(c.machineTemplate !== undefined ? { machineTemplate: c.machineTemplate } : {}),
    })),
  };
}

/** Whether any entry of the pool declares a persistent disk (R-MD-3). */
export const poolHasPersistentDisks = (pool: DCSIpHostnamePool): boolean =>
  (pool.spec?.pool ?? []).some((e) => (e.persistentDisk?.length ?? 0) > 0);

/** A namespace's IP pools as one cluster's IP Pools tab shows them. */
export interface IpPoolsOfCluster {
  /** Pools a control plane or worker pool of this cluster draws on (R-POOL-1). */
  used: IpPoolView[];
  /** Every other pool of the namespace: another cluster's, or no one's yet. */
  others: IpPoolView[];
}

/**
 * Splits a namespace's pools by whether `cluster` uses them: a namespace may hold several
 * clusters, and one cluster's tab must not present another's pools as its own.
 */
export function ipPoolsOfCluster(pools: readonly IpPoolView[], cluster: string): IpPoolsOfCluster {
  const used: IpPoolView[] = [];
  const others: IpPoolView[] = [];
  for (const p of pools) (p.consumers.some((c) => c.cluster === cluster) ? used : others).push(p);
  return { used, others };
}
