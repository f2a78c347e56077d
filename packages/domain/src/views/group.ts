import { LABEL_CLUSTER_NAME, LABEL_CONTROL_PLANE, LABEL_DEPLOYMENT_NAME } from '../labels';
import type { KubeadmConfigTemplate } from '../schemas/bootstrap';
import type {
  Cluster,
  Machine,
  MachineDeployment,
  MachineHealthCheck,
  MachineSet,
} from '../schemas/capi';
import type { KubeadmControlPlane } from '../schemas/controlplane';
import type { DCSIpHostnamePool, DCSMachine, DCSMachineTemplate } from '../schemas/dcs';
import { clusterView, type ClusterView } from './cluster';
import { diagnosisDueAt, type DiagnosisOptions } from './diagnosis';
import { ipPoolView, type IpPoolConsumerObject, type IpPoolView } from './ippool';
import type { MachineView } from './machine';
import { machineViewVia } from './machine-memo';
import {
  buildControlPlanePool,
  buildWorkerPool,
  type NodePoolView,
  type PoolViewContext,
} from './nodepool';
import { compareStrings } from './util';
import { controlPlaneVersionOf } from './versions';

/** Cached objects, one array per kind, of any namespaces and clusters (as the informers hold them). */
export interface ObjectSet {
  clusters?: readonly Cluster[];
  kubeadmControlPlanes?: readonly KubeadmControlPlane[];
  machineDeployments?: readonly MachineDeployment[];
  machineSets?: readonly MachineSet[];
  machines?: readonly Machine[];
  dcsMachines?: readonly DCSMachine[];
  machineTemplates?: readonly DCSMachineTemplate[];
  bootstrapTemplates?: readonly KubeadmConfigTemplate[];
  ipPools?: readonly DCSIpHostnamePool[];
  /** The health checks (a worker pool's card names the one watching its machines). */
  healthChecks?: readonly MachineHealthCheck[];
}

/** What views need besides the objects. */
export type ViewContext = Omit<PoolViewContext, 'cluster' | 'controlPlaneVersion'>;

/**
 * An ObjectSet indexed once by namespace, name and labels: every lookup after that is a map
 * access, so building the views of a cluster, or of all clusters, is O(objects).
 */
export interface ObjectIndex {
  clusters: Map<string, Cluster>;
  controlPlanes: Map<string, KubeadmControlPlane>;
  /** namespace/cluster → its KubeadmControlPlane, by the cluster-name label. */
  controlPlaneByCluster: Map<string, KubeadmControlPlane>;
  machineDeployments: Map<string, MachineDeployment>;
  /** namespace/cluster → its MachineDeployments (`spec.clusterName`). */
  deploymentsByCluster: Map<string, MachineDeployment[]>;
  /** namespace/deployment → its MachineSets (deployment-name label). */
  setsByDeployment: Map<string, MachineSet[]>;
  /** namespace/deployment → its Machines (deployment-name label, control-plane label absent). */
  machinesByDeployment: Map<string, Machine[]>;
  /** namespace/cluster → its control-plane Machines. */
  controlPlaneMachines: Map<string, Machine[]>;
  /** namespace/cluster → every Machine of the cluster. */
  machinesByCluster: Map<string, Machine[]>;
  dcsMachines: Map<string, DCSMachine>;
  /** namespace/pool → DCSMachines naming that IP pool. */
  dcsMachinesByPool: Map<string, DCSMachine[]>;
  machineTemplates: Map<string, DCSMachineTemplate>;
  bootstrapTemplates: Map<string, KubeadmConfigTemplate>;
  ipPools: Map<string, DCSIpHostnamePool>;
  /** namespace/pool → MachineDeployments and KubeadmControlPlanes whose machine template names it (R-POOL-1). */
  consumersByPool: Map<string, IpPoolConsumerObject[]>;
  /** IP pool views, built on first use: they depend on every cluster's machines. */
  ipPoolViews: Map<string, IpPoolView>;
  /** namespace/cluster → its MachineHealthChecks (`spec.clusterName`). */
  healthChecksByCluster: Map<string, MachineHealthCheck[]>;
}

const key = (namespace: string | undefined, name: string | undefined) =>
  `${namespace ?? ''}/${name ?? ''}`;

function push<T>(map: Map<string, T[]>, k: string, value: T): void {
  const list = map.get(k);
  if (list) list.push(value);
  else map.set(k, [value]);
}

function byKey<T extends { metadata: { namespace?: string; name?: string } }>(
  items: readonly T[] | undefined,
): Map<string, T> {
  return new Map((items ?? []).map((o) => [key(o.metadata.namespace, o.metadata.name), o]));
}

const clusterOfMachine = (m: Machine) =>
  m.spec?.clusterName ?? m.metadata.labels?.[LABEL_CLUSTER_NAME];

/** Index the objects once; reuse the index for every view built from the same snapshot. */
export function indexObjects(objects: ObjectSet): ObjectIndex {
  const machineTemplates = byKey(objects.machineTemplates);
  const controlPlanes = byKey(objects.kubeadmControlPlanes);
  const controlPlaneByCluster = new Map<string, KubeadmControlPlane>();
  for (const kcp of controlPlanes.values()) {
    const cluster = kcp.metadata.labels?.[LABEL_CLUSTER_NAME];
    if (cluster !== undefined) controlPlaneByCluster.set(key(kcp.metadata.namespace, cluster), kcp);
  }
  const deploymentsByCluster = new Map<string, MachineDeployment[]>();
  const consumersByPool = new Map<string, IpPoolConsumerObject[]>();
  const poolOfTemplate = (ns: string | undefined, template: string | undefined) =>
    machineTemplates.get(key(ns, template))?.spec?.template.spec.ipHostPoolRef.name;
  for (const kcp of controlPlanes.values()) {
    const ns = kcp.metadata.namespace;
    const pool = poolOfTemplate(ns, kcp.spec?.machineTemplate.infrastructureRef.name);
    if (pool !== undefined) push(consumersByPool, key(ns, pool), kcp);
  }
  for (const md of objects.machineDeployments ?? []) {
    const ns = md.metadata.namespace;
    push(deploymentsByCluster, key(ns, md.spec?.clusterName), md);
    const pool = poolOfTemplate(ns, md.spec?.template.spec.infrastructureRef.name);
    if (pool !== undefined) push(consumersByPool, key(ns, pool), md);
  }
  const setsByDeployment = new Map<string, MachineSet[]>();
  for (const ms of objects.machineSets ?? []) {
    const md = ms.metadata.labels?.[LABEL_DEPLOYMENT_NAME];
    if (md !== undefined) push(setsByDeployment, key(ms.metadata.namespace, md), ms);
  }
  const machinesByDeployment = new Map<string, Machine[]>();
  const controlPlaneMachines = new Map<string, Machine[]>();
  const machinesByCluster = new Map<string, Machine[]>();
  for (const m of objects.machines ?? []) {
    const ns = m.metadata.namespace;
    const labels = m.metadata.labels ?? {};
    const cluster = key(ns, clusterOfMachine(m));
    push(machinesByCluster, cluster, m);
    if (LABEL_CONTROL_PLANE in labels) push(controlPlaneMachines, cluster, m);
    else {
      const md = labels[LABEL_DEPLOYMENT_NAME];
      if (md !== undefined) push(machinesByDeployment, key(ns, md), m);
    }
  }
  const healthChecksByCluster = new Map<string, MachineHealthCheck[]>();
  for (const c of objects.healthChecks ?? [])
    push(healthChecksByCluster, key(c.metadata.namespace, c.spec?.clusterName), c);
  const dcsMachinesByPool = new Map<string, DCSMachine[]>();
  for (const dm of objects.dcsMachines ?? []) {
    const pool = dm.spec?.ipHostPoolRef.name;
    if (pool !== undefined) push(dcsMachinesByPool, key(dm.metadata.namespace, pool), dm);
  }
  return {
    clusters: byKey(objects.clusters),
    controlPlanes,
    controlPlaneByCluster,
    machineDeployments: byKey(objects.machineDeployments),
    deploymentsByCluster,
    setsByDeployment,
    machinesByDeployment,
    controlPlaneMachines,
    machinesByCluster,
    dcsMachines: byKey(objects.dcsMachines),
    dcsMachinesByPool,
    machineTemplates,
    bootstrapTemplates: byKey(objects.bootstrapTemplates),
    ipPools: byKey(objects.ipPools),
    consumersByPool,
    ipPoolViews: new Map(),
    healthChecksByCluster,
  };
}

/** The view of the IP pool `namespace/name`, built once per index. */
export function ipPoolViewOf(
  index: ObjectIndex,
  namespace: string,
  name: string,
): IpPoolView | undefined {
  const k = key(namespace, name);
  const cached = index.ipPoolViews.get(k);
  if (cached) return cached;
  const pool = index.ipPools.get(k);
  if (!pool) return undefined;
  const view = ipPoolView(
    pool,
    index.dcsMachinesByPool.get(k) ?? [],
    index.consumersByPool.get(k) ?? [],
  );
  index.ipPoolViews.set(k, view);
  return view;
}

/** Every IP pool of a namespace (`GET /namespaces/{namespace}/ippools`), by name. */
export function ipPoolViewsIn(index: ObjectIndex, namespace: string): IpPoolView[] {
  const out: IpPoolView[] = [];
  for (const pool of index.ipPools.values()) {
    if ((pool.metadata.namespace ?? '') !== namespace) continue;
    const view = ipPoolViewOf(index, namespace, pool.metadata.name ?? '');
    if (view) out.push(view);
  }
  return out.sort((a, b) => compareStrings(a.name, b.name));
}

/** Everything the console shows of one cluster. */
export interface ClusterViews {
  cluster: ClusterView;
  /** The control-plane pool first, then worker pools by name. */
  pools: NodePoolView[];
  /** Every machine of the cluster by name, including those of no pool. */
  machines: MachineView[];
  /** The IP pools its machine templates name, by name. */
  ipPools: IpPoolView[];
  /**
   * The earliest time (epoch ms) at which these views may change with no object changing: a
   * machine crossing a diagnosis threshold. Rebuild then; absent when nothing is pending.
   */
  recheckAt?: number;
}

/** The KubeadmControlPlane of a cluster: by `spec.controlPlaneRef`, else by label. */
function controlPlaneOf(index: ObjectIndex, cluster: Cluster): KubeadmControlPlane | undefined {
  const ns = cluster.metadata.namespace;
  const ref = cluster.spec?.controlPlaneRef;
  const byRef =
    ref?.kind === 'KubeadmControlPlane' ? index.controlPlanes.get(key(ns, ref.name)) : undefined;
  return byRef ?? index.controlPlaneByCluster.get(key(ns, cluster.metadata.name));
}

/**
 * The views of one cluster (`namespace/name`): its pools, machines and IP pools, and its row of
 * the cluster list. Undefined when there is no such Cluster.
 */
export function buildClusterViews(
  index: ObjectIndex,
  ref: { namespace: string; name: string },
  ctx: ViewContext,
): ClusterViews | undefined {
  const ck = key(ref.namespace, ref.name);
  const cluster = index.clusters.get(ck);
  if (!cluster) return undefined;
  const ns = ref.namespace;
  const kcp = controlPlaneOf(index, cluster);
  const poolCtx: PoolViewContext = {
    ...ctx,
    cluster,
    ...(kcp ? { controlPlaneVersion: controlPlaneVersionOf(kcp) } : {}),
  };
  const pools: NodePoolView[] = [];
  const machines: MachineView[] = [];
  const seen = new Set<Machine>();
  const poolNames = new Set<string>();
  const dcsOf = (m: Machine) =>
    index.dcsMachines.get(key(ns, m.spec?.infrastructureRef.name ?? m.metadata.name));
  const dcsFor = (list: readonly Machine[]) =>
    list.flatMap((m) => {
      const dm = dcsOf(m);
      return dm ? [dm] : [];
    });
  const templatePool = (t: DCSMachineTemplate | undefined) => {
    const name = t?.spec?.template.spec.ipHostPoolRef.name;
    if (name !== undefined) poolNames.add(name);
    return name === undefined ? undefined : ipPoolViewOf(index, ns, name);
  };

  if (kcp) {
    const list = index.controlPlaneMachines.get(ck) ?? [];
    const template = index.machineTemplates.get(
      key(ns, kcp.spec?.machineTemplate.infrastructureRef.name),
    );
    const ipPool = templatePool(template);
    const built = buildControlPlanePool(
      {
        controlPlane: kcp,
        machines: list,
        dcsMachines: dcsFor(list),
        ...(template ? { machineTemplate: template } : {}),
        ...(ipPool ? { ipPool } : {}),
      },
      poolCtx,
    );
    pools.push(built.pool);
    machines.push(...built.machines);
    for (const m of list) seen.add(m);
  }

  const deployments = [...(index.deploymentsByCluster.get(ck) ?? [])].sort((a, b) =>
    compareStrings(a.metadata.name ?? '', b.metadata.name ?? ''),
  );
  for (const md of deployments) {
    const mk = key(ns, md.metadata.name);
    const list = index.machinesByDeployment.get(mk) ?? [];
    const tplSpec = md.spec?.template.spec;
    const template = index.machineTemplates.get(key(ns, tplSpec?.infrastructureRef.name));
    const bootstrapName = tplSpec?.bootstrap.configRef?.name;
    const bootstrap =
      bootstrapName !== undefined
        ? index.bootstrapTemplates.get(key(ns, bootstrapName))
        : undefined;
    const ipPool = templatePool(template);
    const built = buildWorkerPool(
      {
        machineDeployment: md,
        machineSets: index.setsByDeployment.get(mk) ?? [],
        machines: list,
        dcsMachines: dcsFor(list),
        ...(template ? { machineTemplate: template } : {}),
        ...(bootstrap ? { bootstrapTemplate: bootstrap } : {}),
        ...(ipPool ? { ipPool } : {}),
        healthChecks: index.healthChecksByCluster.get(ck) ?? [],
      },
      poolCtx,
    );
    pools.push(built.pool);
    machines.push(...built.machines);
    for (const m of list) seen.add(m);
  }

  // Machines of the cluster that belong to no pool still show on the Nodes tab.
  const all = index.machinesByCluster.get(ck) ?? [];
  const diagnosisOptions: DiagnosisOptions = ctx.diagnosis ?? {};
  let recheckAt: number | undefined;
  for (const m of all) {
    const dm = dcsOf(m);
    if (!seen.has(m))
      machines.push(machineViewVia(ctx.machineViews, m, dm, ctx.now, diagnosisOptions));
    const due = diagnosisDueAt(m, dm, ctx.now, diagnosisOptions);
    if (due !== undefined && (recheckAt === undefined || due < recheckAt)) recheckAt = due;
  }
  machines.sort((a, b) => compareStrings(a.name, b.name));

  const ipPools = [...poolNames].sort(compareStrings).flatMap((name) => {
    const view = ipPoolViewOf(index, ns, name);
    return view ? [view] : [];
  });
  return {
    cluster: clusterView(cluster, kcp, pools, machines),
    pools,
    machines,
    ipPools,
    ...(recheckAt !== undefined ? { recheckAt } : {}),
  };
}

/** The cluster list (`GET /api/v1/clusters`): every Cluster of the index, by namespace and name. */
export function buildClusterList(index: ObjectIndex, ctx: ViewContext): ClusterView[] {
  const out: ClusterView[] = [];
  for (const c of index.clusters.values()) {
    const views = buildClusterViews(
      index,
      { namespace: c.metadata.namespace ?? '', name: c.metadata.name ?? '' },
      ctx,
    );
    if (views) out.push(views.cluster);
  }
  return out.sort((a, b) => compareStrings(a.id, b.id));
}
