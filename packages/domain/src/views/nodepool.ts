import { resolveFenceposts } from '../intstr';
import { CONTROL_PLANE_POOL_ID, LABEL_CLUSTER_NAME, LABEL_SET_NAME } from '../labels';
import { parseRfc3339 } from '../rules/restart';
import type { VersionsCatalog } from '../schemas/catalog';
import type {
  Cluster,
  Machine,
  MachineDeployment,
  MachineHealthCheck,
  MachineSet,
} from '../schemas/capi';
import type { KubeadmConfigTemplate } from '../schemas/bootstrap';
import type { KubeadmControlPlane } from '../schemas/controlplane';
import type { DCSMachine, DCSMachineTemplate } from '../schemas/dcs';
import type { Condition, IntOrString } from '../schemas/meta';
import {
  compareKubeVersions,
  compareProviderVersions,
  minorSkew,
  PROVIDER_MIN_PERSISTENT_DISKS,
} from '../versions';
import { conditionViews, v1beta2ConditionViews, type ConditionView } from './conditions';
import type { DiagnosisOptions } from './diagnosis';
import type { IpPoolEntryView, IpPoolView } from './ippool';
import type { MachineView, MachineViewOptions } from './machine';
import { machineFactsVia, machineViewVia, type MachineViewMemo } from './machine-memo';
import { autoscalerProblems, poolAutoscalerView, type PoolAutoscalerView } from './autoscaler';
import { poolHealthCheckSummary, type PoolHealthCheckSummary } from './health-check';
import { pauseView, type PauseView } from './pause';
import { controlPlaneRuleProblems, workerPoolRuleProblems } from './pool-rules';
import { sortProblems, viewProblem, type ViewProblem } from './problem';
import { PoolTally, type PoolMachine, type PoolStatusCounts } from './pool-tally';

export type { PoolMachine } from './pool-tally';
import {
  controlPlaneRolloutOfCounts,
  findNewMachineSet,
  isCurrentControlPlaneMachine,
  rolloutOfTally,
  type LiveCounts,
  type RolloutView,
  type StrategyType,
} from './rollout';
import { optional, replicasOf } from './util';
import { catalogVersionOfTemplate, newestUpgrade } from './versions';

/** What a pool is doing, computed from its objects; never `Running` while a machine is not Ready. */
export type PoolStatus =
  | 'Running'
  | 'ScalingUp'
  | 'ScalingDown'
  | 'Updating'
  | 'Provisioning'
  | 'Degraded'
  | 'Failed'
  | 'Deleting'
  | 'Paused'
  | 'Unknown';

export interface PoolReplicas {
  desired: number;
  /** Machines that exist and are not being deleted. */
  current: number;
  ready: number;
  /** Machines of the current template. */
  updated: number;
  /** Ready for at least minReadySeconds. */
  available: number;
  /** desired − available, never negative. */
  unavailable: number;
}

export interface DiskSummary {
  quantityGB: number;
  systemVolume: boolean;
  path?: string;
  datastoreClusterName?: string;
  format?: string;
}

export interface MachineTemplateSummary {
  name: string;
  /** False when the DCSMachineTemplate the pool names does not exist; then only `name` is set. */
  found: boolean;
  vmTemplateName?: string;
  cpu?: number;
  memoryMB?: number;
  disks: DiskSummary[];
  ipPoolName?: string;
}

export interface PoolStrategy {
  type: StrategyType;
  maxSurge?: IntOrString;
  maxUnavailable?: IntOrString;
  /** As Cluster API resolves them for the desired replicas; absent when invalid or OnDelete. */
  resolved?: { maxSurge: number; maxUnavailable: number };
}

/** One card of the Node Pools tab (U-2, U-3). */
export interface NodePoolView {
  /** `control-plane` (reserved, R-MD-5) or the MachineDeployment's name. */
  id: string;
  kind: 'control-plane' | 'worker';
  /** The KubeadmControlPlane's or the MachineDeployment's name. */
  name: string;
  cluster: string;
  namespace: string;
  replicas: PoolReplicas;
  version?: string;
  /** The newest catalog version this pool may be upgraded to (workers: not above the control plane). */
  upgradeAvailable?: string;
  machineTemplate: MachineTemplateSummary;
  bootstrapTemplate?: string;
  ipPool?: { name: string; used: number; total: number; free: number; found: boolean };
  rollout: RolloutView;
  status: PoolStatus;
  problems: ViewProblem[];
  badges: { legacyDiskLayout: boolean; stuckMachines: number; failedMachines: number };
  conditions: ConditionView[];
  /**
   * Cluster API v1beta2's status of the pool (issue 23), where the cluster's Cluster API writes
   * it (v1.9 and later): its conditions (stale ones marked) and the counters it takes from the
   * Machines' Available, Ready and UpToDate conditions. Absent where only v1beta1 status exists
   * (Cluster API v1.8 and older, or not yet written): the card says what is missing.
   */
  v1beta2?: PoolV1Beta2Status;
  /** What the UI sends back with a mutation as preconditions. */
  resourceVersions: {
    md?: string;
    kcp?: string;
    template?: string;
    bootstrap?: string;
    ipPool?: string;
  };
  strategy: PoolStrategy;
  nodeDrainTimeout?: string;
  nodeDeletionTimeout?: string;
  /** Worker pools only: what O-EDIT-STRATEGY edits besides the two above. */
  nodeVolumeDetachTimeout?: string;
  paused: boolean;
  /** Why it is paused, and the v1beta2 Paused condition (issue 26). */
  pause: PauseView;
  /**
   * Worker pools: the cluster autoscaler's bounds its MachineDeployment carries (issue 26 item 2,
   * R-AS-1..7); absent when it carries neither annotation.
   */
  autoscaler?: PoolAutoscalerView;
  /**
   * Worker pools: the MachineHealthCheck watching its machines and its last counts (issue 26
   * item 1); absent when none does, or when the health checks were not given.
   */
  healthCheck?: PoolHealthCheckSummary;
  /**
   * O-RESTART: the object's rolloutAfter, and whether it is still to come by the console server's
   * clock (a scheduled restart); absent when none is set.
   */
  restart?: { after: string; scheduled: boolean };
  createdAt?: string;
}

export interface PoolV1Beta2Status {
  conditions: ConditionView[];
  /** Machines Available (Ready for minReadySeconds), by Cluster API's count. */
  available?: number;
  ready?: number;
  /** Machines whose spec matches the pool's (UpToDate): the rollout's progress. */
  upToDate?: number;
}

/**
 * The v1beta2 status of a MachineDeployment or KubeadmControlPlane (the hub's `status.v1beta2`),
 * or undefined when the object carries none.
 */
export function poolV1Beta2Status(
  object: MachineDeployment | KubeadmControlPlane,
): PoolV1Beta2Status | undefined {
  const block = object.status?.v1beta2;
  const conditions = v1beta2ConditionViews(object);
  if (!block || (!conditions && block.availableReplicas === undefined)) return undefined;
  return {
    conditions: conditions ?? [],
    ...optional('available', block.availableReplicas),
    ...optional('ready', block.readyReplicas),
    ...optional('upToDate', block.upToDateReplicas),
  };
}

/** What a pool view needs besides its own objects. */
export interface PoolViewContext {
  now: Date;
  /** The versions catalog (upgrade indicator, R-MD-4). */
  versions?: VersionsCatalog;
  /** The DCS provider's version (R-DISK-5). */
  providerVersion?: string;
  /** The control plane's version (see controlPlaneVersionOf): caps workers' upgrades (R-MD-4). */
  controlPlaneVersion?: string;
  /** The pool's Cluster, for `spec.paused`. */
  cluster?: Cluster;
  diagnosis?: Omit<DiagnosisOptions, 'ipPoolFree'>;
  /** Machine views kept between rebuilds by a long-lived caller (the BFF's cluster model). */
  machineViews?: MachineViewMemo;
}

export interface WorkerPoolObjects {
  machineDeployment: MachineDeployment;
  /** Its MachineSets (labelled `cluster.x-k8s.io/deployment-name`). */
  machineSets: readonly MachineSet[];
  /** Its Machines (labelled `cluster.x-k8s.io/deployment-name`). */
  machines: readonly Machine[];
  /** The DCSMachines of those machines (more do no harm). */
  dcsMachines: readonly DCSMachine[];
  machineTemplate?: DCSMachineTemplate;
  bootstrapTemplate?: KubeadmConfigTemplate;
  /** The view of the IP pool the machine template names. */
  ipPool?: IpPoolView;
  /** The health checks of its cluster (those matching its machines are shown). */
  healthChecks?: readonly MachineHealthCheck[];
}

export interface ControlPlanePoolObjects {
  controlPlane: KubeadmControlPlane;
  /** Its Machines (labelled `cluster.x-k8s.io/control-plane`). */
  machines: readonly Machine[];
  dcsMachines: readonly DCSMachine[];
  machineTemplate?: DCSMachineTemplate;
  ipPool?: IpPoolView;
}

/** A pool view together with the views of its machines, built in one pass. */
export interface PoolWithMachines {
  pool: NodePoolView;
  machines: MachineView[];
}

const LEGACY_CPAAS_PATH = '/var/cpaas';

function summarizeTemplate(
  name: string,
  t: DCSMachineTemplate | undefined,
): MachineTemplateSummary {
  const spec = t?.spec?.template.spec;
  if (!spec) return { name, found: false, disks: [] };
  const vm = spec.vmConfig;
  const cpu = vm?.dcsMachineCpuSpec?.quantity;
  const memoryMB = vm?.dcsMachineMemorySpec?.quantity;
  return {
    name,
    found: true,
    vmTemplateName: spec.vmTemplateName,
    ...(cpu !== undefined ? { cpu } : {}),
    ...(memoryMB !== undefined ? { memoryMB } : {}),
    disks: (vm?.dcsMachineDiskSpec ?? []).map((d) => ({
      quantityGB: d.quantity,
      systemVolume: d.systemVolume === true,
      ...(d.path !== undefined ? { path: d.path } : {}),
      ...(d.datastoreClusterName !== undefined
        ? { datastoreClusterName: d.datastoreClusterName }
        : {}),
      ...(d.format !== undefined ? { format: d.format } : {}),
    })),
    ipPoolName: spec.ipHostPoolRef.name,
  };
}

const normalizePath = (p: string) => p.replace(/\/+$/, '') || '/';

/** R-DISK-5: the template mounts /var/cpaas while the provider expects it in the IP pool. */
export function isLegacyDiskLayout(
  template: DCSMachineTemplate | undefined,
  providerVersion: string | undefined,
): boolean {
  if (
    !providerVersion ||
    compareProviderVersions(providerVersion, PROVIDER_MIN_PERSISTENT_DISKS) < 0
  )
    return false;
  return (template?.spec?.template.spec.vmConfig?.dcsMachineDiskSpec ?? []).some(
    (d) => d.path !== undefined && normalizePath(d.path) === LEGACY_CPAAS_PATH,
  );
}

/** Conditions False with severity Error/Warning of the pool's owner object, as problems. */
function conditionProblems(conditions: readonly Condition[] | undefined): ViewProblem[] {
  const bad = (conditions ?? []).filter(
    (c) => c.status === 'False' && (c.severity === 'Error' || c.severity === 'Warning'),
  );
  // Ready summarizes the others in Cluster API v1beta1: do not say the same thing twice.
  const reasons = new Set(bad.filter((c) => c.type !== 'Ready').map((c) => c.reason));
  return bad
    .filter((c) => c.type !== 'Ready' || !reasons.has(c.reason))
    .map((c) =>
      viewProblem(
        `condition-${c.type}`,
        c.severity === 'Error' ? 'error' : 'warning',
        c.message ? 'view.problem.condition' : 'view.problem.conditionNoMessage',
        {
          type: c.type,
          status: c.status,
          reason: c.reason ?? '',
          ...(c.message ? { message: c.message } : {}),
        },
      ),
    );
}

/** R-MD-4: the version against the control plane and against the VM template it boots. */
function versionProblems(
  version: string | undefined,
  vmTemplateName: string | undefined,
  ctx: PoolViewContext,
  isWorker: boolean,
): ViewProblem[] {
  const out: ViewProblem[] = [];
  if (!version) return out;
  const cp = ctx.controlPlaneVersion;
  if (isWorker && cp) {
    if (compareKubeVersions(version, cp) > 0) {
      out.push(
        viewProblem(
          'newer-than-control-plane',
          'error',
          'view.problem.newerThanControlPlane',
          { version, controlPlaneVersion: cp },
          'R-MD-4',
        ),
      );
    } else {
      const skew = minorSkew(cp, version);
      if (skew !== undefined && skew > 3) {
        out.push(
          viewProblem(
            'too-old-for-control-plane',
            'error',
            'view.problem.tooOldForControlPlane',
            { version, controlPlaneVersion: cp, skew },
            'R-MD-4',
          ),
        );
      }
    }
  }
  const templateVersion = catalogVersionOfTemplate(ctx.versions ?? [], vmTemplateName);
  if (templateVersion && vmTemplateName && compareKubeVersions(templateVersion, version) !== 0) {
    out.push(
      viewProblem(
        'vm-template-version-mismatch',
        'error',
        'view.problem.vmTemplateVersionMismatch',
        { vmTemplateName, templateVersion, version },
        'R-MD-4',
      ),
    );
  }
  return out;
}

interface StatusFacts {
  deleting: boolean;
  paused: boolean;
  ownerFailed: boolean;
  ownerHasStatus: boolean;
  errorCondition: boolean;
  desired: number;
  /** What the pool's machines' views count (PoolTally). */
  machines: PoolStatusCounts;
  rolloutInProgress: boolean;
}

/**
 * The honest status of a pool. Precedence: Deleting, Paused, Failed, Degraded (failed or stuck
 * machines, an Error condition), Updating, ScalingUp/ScalingDown, Provisioning, Running. It is
 * never Running while a machine is not Ready or fewer than desired are Ready.
 */
export function poolStatus(f: StatusFacts): PoolStatus {
  if (f.deleting) return 'Deleting';
  if (f.paused) return 'Paused';
  const m = f.machines;
  const live = m.machines - m.deleting;
  if (f.ownerFailed || (f.desired > 0 && m.ready === 0 && m.failed > 0)) return 'Failed';
  if (m.failed > 0 || m.stuck > 0 || f.errorCondition) return 'Degraded';
  if (f.rolloutInProgress) return 'Updating';
  if (!f.ownerHasStatus && m.machines === 0 && f.desired > 0) return 'Unknown';
  if (live < f.desired) return 'ScalingUp';
  if (live > f.desired) return 'ScalingDown';
  if (m.notReady > 0) return m.notReadyComingUp > 0 ? 'Provisioning' : 'Degraded';
  if (m.deleting > 0) return 'ScalingDown';
  if (m.ready < f.desired) return 'Provisioning';
  return 'Running';
}

function strategyOf(
  type: StrategyType,
  maxSurge: IntOrString | undefined,
  maxUnavailable: IntOrString | undefined,
  desired: number,
): { strategy: PoolStrategy; invalid: boolean } {
  const given = {
    type,
    ...(maxSurge !== undefined ? { maxSurge } : {}),
    ...(maxUnavailable !== undefined ? { maxUnavailable } : {}),
  };
  if (type === 'OnDelete') return { strategy: given, invalid: false };
  try {
    return {
      strategy: { ...given, resolved: resolveFenceposts(maxSurge, maxUnavailable, desired) },
      invalid: false,
    };
  } catch {
    return { strategy: given, invalid: true };
  }
}

/**
 * One machine's view options. Built by assignment, not by spreading conditional literals: a pool
 * rebuild runs this for each of its machines on every change (issue 14's stream latency).
 */
function machineOptions(
  ctx: PoolViewContext,
  o: { ipPool?: IpPoolView },
  entry: IpPoolEntryView | undefined,
  upToDate: boolean,
): MachineViewOptions {
  const options: MachineViewOptions = { ...ctx.diagnosis, upToDate };
  if (o.ipPool) options.ipPoolFree = o.ipPool.free;
  if (entry) options.ipPoolEntry = entry;
  return options;
}

/** Whether an IP pool's entries keep persistent disks (R-MD-3), read once per view. */
const persistentDisksOf = new WeakMap<IpPoolView, boolean>();

function hasPersistentDisks(ipPool: IpPoolView): boolean {
  let has = persistentDisksOf.get(ipPool);
  if (has === undefined) {
    has = ipPool.entries.some((e) => e.persistentDisk.length > 0);
    persistentDisksOf.set(ipPool, has);
  }
  return has;
}

/** Views are never changed once built: an IP pool's entries are indexed once per view. */
const entriesIndex = new WeakMap<IpPoolView, Map<string, IpPoolEntryView>>();
const NO_ENTRIES = new Map<string, IpPoolEntryView>();

function entriesByIp(ipPool: IpPoolView | undefined): Map<string, IpPoolEntryView> {
  if (!ipPool) return NO_ENTRIES;
  let index = entriesIndex.get(ipPool);
  if (!index) {
    index = new Map(ipPool.entries.map((e) => [e.ip, e]));
    entriesIndex.set(ipPool, index);
  }
  return index;
}

function dcsIndex(dcsMachines: readonly DCSMachine[]): Map<string, DCSMachine> {
  return new Map(dcsMachines.map((d) => [d.metadata.name ?? '', d]));
}

const dcsOf = (index: Map<string, DCSMachine>, m: Machine) =>
  index.get(m.spec?.infrastructureRef.name ?? m.metadata.name ?? '');

function replicaCounts(
  desired: number,
  machines: LiveCounts,
  updated: number,
  minReadySeconds: number,
  now: Date,
): PoolReplicas {
  const available = machines.available(minReadySeconds, now);
  return {
    desired,
    current: machines.live,
    ready: machines.ready,
    updated,
    available,
    unavailable: Math.max(0, desired - available),
  };
}

function ipPoolUsage(name: string | undefined, ipPool: IpPoolView | undefined) {
  if (name === undefined) return {};
  return {
    ipPool: ipPool
      ? { name, used: ipPool.used, total: ipPool.total, free: ipPool.free, found: true }
      : { name, used: 0, total: 0, free: 0, found: false },
  };
}

/** A worker pool (U-3) and its machines' views. */
export function buildWorkerPool(o: WorkerPoolObjects, ctx: PoolViewContext): PoolWithMachines {
  const dcs = dcsIndex(o.dcsMachines);
  const newName = findNewMachineSet(o.machineDeployment, o.machineSets, ctx.now)?.metadata.name;
  const byIp = entriesByIp(o.ipPool);
  const machines = o.machines.map((m) => workerMachineOf(o, ctx, newName, byIp, m, dcsOf(dcs, m)));
  return buildWorkerPoolFrom(o, machines, ctx);
}

/** A worker pool's own objects: what its machines are judged against. */
export type WorkerPoolOwnObjects = Omit<WorkerPoolObjects, 'machines' | 'dcsMachines'>;
export type ControlPlanePoolOwnObjects = Omit<ControlPlanePoolObjects, 'machines' | 'dcsMachines'>;

function workerMachineOf(
  o: WorkerPoolOwnObjects,
  ctx: PoolViewContext,
  newName: string | undefined,
  byIp: Map<string, IpPoolEntryView>,
  m: Machine,
  dm: DCSMachine | undefined,
): PoolMachine {
  const upToDate = newName !== undefined && m.metadata.labels?.[LABEL_SET_NAME] === newName;
  return poolMachineOf(o, ctx, byIp, m, dm, upToDate);
}

/** A machine's entry in its pool, either kind: its view (with its IP-pool entry) and facts. */
function poolMachineOf(
  o: { ipPool?: IpPoolView },
  ctx: PoolViewContext,
  byIp: ReadonlyMap<string, IpPoolEntryView>,
  m: Machine,
  dm: DCSMachine | undefined,
  upToDate: boolean,
): PoolMachine {
  const ip = dm?.status?.networkConfig?.ip;
  const entry = ip !== undefined ? byIp.get(ip) : undefined;
  return {
    view: machineViewVia(ctx.machineViews, m, dm, ctx.now, machineOptions(ctx, o, entry, upToDate)),
    facts: machineFactsVia(ctx.machineViews, m),
    upToDate,
  };
}

/** One machine of a worker pool, as buildWorkerPool builds it (for a pool kept incrementally). */
export function workerPoolMachine(
  o: WorkerPoolOwnObjects,
  ctx: PoolViewContext,
  m: Machine,
  dm: DCSMachine | undefined,
): PoolMachine {
  const newName = findNewMachineSet(o.machineDeployment, o.machineSets, ctx.now)?.metadata.name;
  return workerMachineOf(o, ctx, newName, entriesByIp(o.ipPool), m, dm);
}

/**
 * A worker pool's card from its machines' entries (workerPoolMachine): buildWorkerPool's second
 * half, so that a pool kept incrementally counts exactly as the full rebuild does.
 */
export function buildWorkerPoolFrom(
  o: WorkerPoolOwnObjects,
  entries: readonly PoolMachine[],
  ctx: PoolViewContext,
): PoolWithMachines {
  const tally = PoolTally.of(entries);
  return { pool: workerPoolCard(o, tally, ctx), machines: tally.views() };
}

/**
 * A worker pool's card from the tally of its machines' entries: what buildWorkerPoolFrom builds,
 * without walking the machines (issue 28: a pool kept incrementally updates the tally).
 */
export function workerPoolCard(
  o: WorkerPoolOwnObjects,
  tally: PoolTally,
  ctx: PoolViewContext,
): NodePoolView {
  const md = o.machineDeployment;
  const name = md.metadata.name ?? '';
  const spec = md.spec;
  const tplSpec = spec?.template.spec;
  const desired = replicasOf(md);
  const templateName = tplSpec?.infrastructureRef.name ?? '';
  const template = summarizeTemplate(templateName, o.machineTemplate);
  const poolName = template.ipPoolName;
  const rollout = rolloutOfTally(md, o.machineSets, tally.rollout, ctx.now);
  const { strategy, invalid } = strategyOf(
    spec?.strategy?.type ?? 'RollingUpdate',
    spec?.strategy?.rollingUpdate?.maxSurge,
    spec?.strategy?.rollingUpdate?.maxUnavailable,
    desired,
  );
  const legacyDiskLayout = isLegacyDiskLayout(o.machineTemplate, ctx.providerVersion);
  const version = tplSpec?.version;
  const bootstrapName = tplSpec?.bootstrap.configRef?.name;

  const problems: ViewProblem[] = [...tally.machineProblems(), ...tally.drainProblems()];
  if (!template.found) {
    problems.push(
      viewProblem('machine-template-missing', 'error', 'view.problem.machineTemplateMissing', {
        name: templateName,
      }),
    );
  }
  if (bootstrapName !== undefined && !o.bootstrapTemplate) {
    problems.push(
      viewProblem('bootstrap-template-missing', 'error', 'view.problem.bootstrapTemplateMissing', {
        name: bootstrapName,
      }),
    );
  }
  if (poolName !== undefined && !o.ipPool) {
    problems.push(
      viewProblem(
        'ip-pool-missing',
        'error',
        'view.problem.ipPoolMissing',
        { pool: poolName },
        'R-POOL-1',
      ),
    );
  }
  if (o.ipPool) {
    const { total, demand, demandWithSurge } = o.ipPool;
    if (demand > total) {
      problems.push(
        viewProblem(
          'ip-pool-short',
          'error',
          'view.problem.ipPoolShort',
          { pool: o.ipPool.name, total, demand },
          'R-POOL-1',
        ),
      );
    } else if (demandWithSurge > total) {
      problems.push(
        viewProblem(
          'ip-pool-short-for-rollout',
          'warning',
          'view.problem.ipPoolShortForRollout',
          { pool: o.ipPool.name, total, demandWithSurge },
          'R-POOL-1',
        ),
      );
    }
    const persistentDisks = hasPersistentDisks(o.ipPool);
    const surge = strategy.resolved?.maxSurge ?? 0;
    if (persistentDisks && surge > 0) {
      problems.push(
        viewProblem(
          'surge-with-persistent-disks',
          'warning',
          'view.problem.surgeWithPersistentDisks',
          { maxSurge: surge },
          'R-MD-3',
        ),
      );
    }
  }
  if (invalid) {
    problems.push(
      viewProblem(
        'invalid-strategy',
        'error',
        'view.problem.invalidStrategy',
        {
          maxSurge: String(strategy.maxSurge ?? ''),
          maxUnavailable: String(strategy.maxUnavailable ?? ''),
        },
        'R-MD-2',
      ),
    );
  }
  if (legacyDiskLayout) {
    problems.push(
      viewProblem(
        'legacy-disk-layout',
        'warning',
        'view.problem.legacyDiskLayout',
        { template: templateName, providerVersion: ctx.providerVersion ?? '' },
        'R-DISK-5',
      ),
    );
  }
  problems.push(
    ...(ctx.machineViews
      ? ctx.machineViews.poolRuleProblems(o.machineTemplate, o.ipPool, ctx.providerVersion)
      : workerPoolRuleProblems(o.machineTemplate, o.ipPool, ctx.providerVersion)),
  );
  problems.push(...versionProblems(version, template.vmTemplateName, ctx, true));
  problems.push(...conditionProblems(md.status?.conditions));
  const autoscaler = poolAutoscalerView(md);
  problems.push(...autoscalerProblems(autoscaler, desired));

  const counts = tally.statusCounts();
  const pause = pauseView(md, ctx.cluster, spec?.paused === true);
  const paused = pause.paused;
  const status = poolStatus({
    deleting: md.metadata.deletionTimestamp !== undefined,
    paused,
    ownerFailed: md.status?.phase === 'Failed',
    ownerHasStatus: md.status !== undefined,
    errorCondition: (md.status?.conditions ?? []).some(
      (c) => c.status === 'False' && c.severity === 'Error',
    ),
    desired,
    machines: counts,
    rolloutInProgress: rollout.inProgress,
  });

  const pool: NodePoolView = {
    id: name,
    kind: 'worker',
    name,
    cluster: spec?.clusterName ?? '',
    namespace: md.metadata.namespace ?? '',
    replicas: replicaCounts(
      desired,
      tally.rollout.all,
      rollout.updated,
      spec?.minReadySeconds ?? 0,
      ctx.now,
    ),
    ...(version !== undefined ? { version } : {}),
    ...optional(
      'upgradeAvailable',
      newestUpgrade(version, ctx.versions ?? [], { version: ctx.controlPlaneVersion }),
    ),
    machineTemplate: template,
    ...optional('bootstrapTemplate', bootstrapName),
    ...ipPoolUsage(poolName, o.ipPool),
    rollout,
    status,
    problems: sortProblems(problems),
    badges: {
      legacyDiskLayout,
      stuckMachines: counts.stuckMachines,
      failedMachines: counts.failedMachines,
    },
    conditions: conditionViews(md.status?.conditions),
    ...optional('v1beta2', poolV1Beta2Status(md)),
    resourceVersions: {
      ...optional('md', md.metadata.resourceVersion),
      ...optional('template', o.machineTemplate?.metadata.resourceVersion),
      ...optional('bootstrap', o.bootstrapTemplate?.metadata.resourceVersion),
      ...optional('ipPool', o.ipPool?.resourceVersion),
    },
    strategy,
    ...optional('nodeDrainTimeout', tplSpec?.nodeDrainTimeout),
    ...optional('nodeDeletionTimeout', tplSpec?.nodeDeletionTimeout),
    ...optional('nodeVolumeDetachTimeout', tplSpec?.nodeVolumeDetachTimeout),
    paused,
    pause,
    ...optional('autoscaler', autoscaler),
    ...optional('healthCheck', o.healthChecks && poolHealthCheckSummary(md, o.healthChecks)),
    ...restartOf(spec?.rolloutAfter, ctx.now),
    ...optional('createdAt', md.metadata.creationTimestamp),
  };
  return pool;
}

/** The control-plane pool (U-2) and its machines' views. */
export function buildControlPlanePool(
  o: ControlPlanePoolObjects,
  ctx: PoolViewContext,
): PoolWithMachines {
  const dcs = dcsIndex(o.dcsMachines);
  const machines = o.machines.map((m) => controlPlanePoolMachine(o, ctx, m, dcsOf(dcs, m)));
  return buildControlPlanePoolFrom(o, machines, ctx);
}

/** One machine of the control-plane pool, as buildControlPlanePool builds it. */
export function controlPlanePoolMachine(
  o: ControlPlanePoolOwnObjects,
  ctx: PoolViewContext,
  m: Machine,
  dm: DCSMachine | undefined,
): PoolMachine {
  const upToDate = isCurrentControlPlaneMachine(o.controlPlane, m, dm, ctx.now);
  return poolMachineOf(o, ctx, entriesByIp(o.ipPool), m, dm, upToDate);
}

/** The control-plane pool's card from its machines' entries (controlPlanePoolMachine). */
export function buildControlPlanePoolFrom(
  o: ControlPlanePoolOwnObjects,
  entries: readonly PoolMachine[],
  ctx: PoolViewContext,
): PoolWithMachines {
  const tally = PoolTally.of(entries);
  return { pool: controlPlanePoolCard(o, tally, ctx), machines: tally.views() };
}

/** The control-plane pool's card from the tally of its machines' entries (workerPoolCard). */
export function controlPlanePoolCard(
  o: ControlPlanePoolOwnObjects,
  tally: PoolTally,
  ctx: PoolViewContext,
): NodePoolView {
  const kcp = o.controlPlane;
  const spec = kcp.spec;
  const desired = spec?.replicas ?? 1;
  const templateName = spec?.machineTemplate.infrastructureRef.name ?? '';
  const template = summarizeTemplate(templateName, o.machineTemplate);
  const rollout = controlPlaneRolloutOfCounts(kcp, tally.rollout.all, tally.upToDate, ctx.now);
  const { strategy, invalid } = strategyOf(
    'RollingUpdate',
    spec?.rolloutStrategy?.rollingUpdate?.maxSurge ?? 1,
    0,
    desired,
  );
  const version = spec?.version;
  const problems: ViewProblem[] = [...tally.machineProblems(), ...tally.drainProblems()];
  if (!template.found) {
    problems.push(
      viewProblem('machine-template-missing', 'error', 'view.problem.machineTemplateMissing', {
        name: templateName,
      }),
    );
  }
  if (invalid) {
    problems.push(
      viewProblem(
        'invalid-strategy',
        'error',
        'view.problem.invalidStrategy',
        { maxSurge: String(strategy.maxSurge ?? ''), maxUnavailable: '0' },
        'R-MD-2',
      ),
    );
  }
  problems.push(...controlPlaneRuleProblems(kcp));
  problems.push(...versionProblems(version, template.vmTemplateName, ctx, false));
  problems.push(...conditionProblems(kcp.status?.conditions));

  const counts = tally.statusCounts();
  const pause = pauseView(kcp, ctx.cluster);
  const paused = pause.paused;
  const status = poolStatus({
    deleting: kcp.metadata.deletionTimestamp !== undefined,
    paused,
    ownerFailed: kcp.status?.failureReason !== undefined,
    ownerHasStatus: kcp.status !== undefined,
    errorCondition: (kcp.status?.conditions ?? []).some(
      (c) => c.status === 'False' && c.severity === 'Error',
    ),
    desired,
    machines: counts,
    rolloutInProgress: rollout.inProgress,
  });
  const pool: NodePoolView = {
    id: CONTROL_PLANE_POOL_ID,
    kind: 'control-plane',
    name: kcp.metadata.name ?? '',
    cluster: clusterOfControlPlane(kcp, ctx.cluster),
    namespace: kcp.metadata.namespace ?? '',
    replicas: replicaCounts(desired, tally.rollout.all, rollout.updated, 0, ctx.now),
    ...optional('version', version),
    ...optional('upgradeAvailable', newestUpgrade(version, ctx.versions ?? [])),
    machineTemplate: template,
    ...ipPoolUsage(template.ipPoolName, o.ipPool),
    rollout,
    status,
    problems: sortProblems(problems),
    badges: {
      legacyDiskLayout: false,
      stuckMachines: counts.stuckMachines,
      failedMachines: counts.failedMachines,
    },
    conditions: conditionViews(kcp.status?.conditions),
    ...optional('v1beta2', poolV1Beta2Status(kcp)),
    resourceVersions: {
      ...optional('kcp', kcp.metadata.resourceVersion),
      ...optional('template', o.machineTemplate?.metadata.resourceVersion),
      ...optional('ipPool', o.ipPool?.resourceVersion),
    },
    strategy,
    ...optional('nodeDrainTimeout', spec?.machineTemplate.nodeDrainTimeout),
    ...optional('nodeDeletionTimeout', spec?.machineTemplate.nodeDeletionTimeout),
    paused,
    pause,
    ...restartOf(spec?.rolloutAfter, ctx.now),
    ...optional('createdAt', kcp.metadata.creationTimestamp),
  };
  return pool;
}

/** A pool's rolloutAfter and whether it is still to come (O-RESTART). */
function restartOf(
  after: string | undefined,
  now: Date,
): { restart?: { after: string; scheduled: boolean } } {
  if (after === undefined) return {};
  const at = parseRfc3339(after);
  return { restart: { after, scheduled: at !== undefined && at > now.getTime() } };
}

function clusterOfControlPlane(kcp: KubeadmControlPlane, cluster: Cluster | undefined): string {
  return (
    cluster?.metadata.name ??
    kcp.metadata.labels?.[LABEL_CLUSTER_NAME] ??
    kcp.metadata.ownerReferences?.find((r) => r.kind === 'Cluster')?.name ??
    ''
  );
}

/** The worker pool's card (U-3). */
export function workerPoolView(o: WorkerPoolObjects, ctx: PoolViewContext): NodePoolView {
  return buildWorkerPool(o, ctx).pool;
}

/** The control-plane pool's card (U-2). */
export function controlPlanePoolView(
  o: ControlPlanePoolObjects,
  ctx: PoolViewContext,
): NodePoolView {
  return buildControlPlanePool(o, ctx).pool;
}
