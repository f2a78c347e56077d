import { resolveFenceposts } from '../intstr';
import { ANNOTATION_REVISION } from '../labels';
import type { Machine, MachineDeployment, MachineSet, MachineSpec } from '../schemas/capi';
import type { KubeadmControlPlane } from '../schemas/controlplane';
import type { DCSMachine } from '../schemas/dcs';
import type { IntOrString } from '../schemas/meta';
import { rolloutAfterExpired } from '../rules/restart';
import { conditionViews, findCondition, type ConditionView } from './conditions';
import { factsAvailable, machineFacts, type MachineFacts } from './machine';
import { compareStrings, replicasOf } from './util';

/** One MachineSet of a MachineDeployment; counts come from its machines, not its status. */
export interface MachineSetView {
  name: string;
  /** spec.replicas: what the MachineDeployment currently wants of this set. */
  replicas: number;
  /** Its machines that exist and are not being deleted. */
  current: number;
  ready: number;
  available: number;
  revision?: string;
  version?: string;
  createdAt?: string;
  /** The templates the set's machines are built from: what tells an old set from the new. */
  infrastructureTemplate?: string;
  bootstrapTemplate?: string;
  /** The MachineSet's own conditions, problems first; absent when it reports none. */
  conditions?: ConditionView[];
}

export type StrategyType = 'RollingUpdate' | 'OnDelete';

/** A rolling update (or its absence) of a pool's machines. */
export interface RolloutView {
  strategyType: StrategyType;
  /** The set built from the current template; absent until Cluster API creates it. */
  newMachineSet?: MachineSetView;
  /** Sets of earlier templates, newest revision first. Always empty for the control plane. */
  oldMachineSets: MachineSetView[];
  /** Machines of an earlier template remain (or the new set is yet to be created). */
  inProgress: boolean;
  desired: number;
  /** Live machines of the current template. */
  updated: number;
  /** …of which are ready. */
  updatedReady: number;
  /** updated / desired, in [0, 1]; 1 when nothing is desired. */
  progress: number;
  /** Live machines above desired, vs the resolved maxSurge (absent with OnDelete or invalid values). */
  surge: { inUse: number; allowed?: number };
  /** desired − available machines (never negative), vs the resolved maxUnavailable. */
  unavailable: { inUse: number; allowed?: number };
}

/** The fields that make a machine template "current" (the pool's update triggers). */
function templateKey(spec: Pick<MachineSpec, 'infrastructureRef' | 'bootstrap' | 'version'>) {
  return [
    spec.infrastructureRef.name ?? '',
    spec.bootstrap.configRef?.name ?? '',
    spec.version ?? '',
  ].join('\u0000');
}

/**
 * Whether a MachineSet was made from the MachineDeployment's current template: same machine
 * template, same bootstrap template, same version (what O-UPGRADE-INFRA, O-UPDATE-BOOTSTRAP and
 * O-UPGRADE-K8S change), and, at `now`, not created before a rolloutAfter that has passed
 * (O-RESTART: upstream's FindNewAndOldMachineSets).
 */
export function isCurrentMachineSet(ms: MachineSet, md: MachineDeployment, now?: Date): boolean {
  const msSpec = ms.spec?.template?.spec;
  const mdSpec = md.spec?.template.spec;
  if (msSpec === undefined || mdSpec === undefined || templateKey(msSpec) !== templateKey(mdSpec))
    return false;
  return (
    now === undefined ||
    !rolloutAfterExpired(md.spec?.rolloutAfter, ms.metadata.creationTimestamp, now.getTime())
  );
}

function revisionOf(ms: MachineSet): number {
  const n = Number(ms.metadata.annotations?.[ANNOTATION_REVISION]);
  return Number.isFinite(n) ? n : -1;
}

/**
 * Cluster API's new set: of the current ones (isCurrentMachineSet), the one with the most
 * replicas, then the oldest (MachineSetsByDecreasingReplicas), by name on a tie. After a restart
 * two sets of one template exist; the older one, scaled to 0, is not the new one.
 */
export function findNewMachineSet(
  md: MachineDeployment,
  machineSets: readonly MachineSet[],
  now?: Date,
): MachineSet | undefined {
  let found: MachineSet | undefined;
  for (const ms of machineSets) {
    if (!isCurrentMachineSet(ms, md, now)) continue;
    if (found === undefined) {
      found = ms;
      continue;
    }
    const more = (ms.spec?.replicas ?? 0) - (found.spec?.replicas ?? 0);
    const a = ms.metadata.creationTimestamp ?? '';
    const b = found.metadata.creationTimestamp ?? '';
    if (
      more > 0 ||
      (more === 0 && (a < b || (a === b && (ms.metadata.name ?? '') < (found.metadata.name ?? ''))))
    )
      found = ms;
  }
  return found;
}

function fenceposts(
  maxSurge: IntOrString | undefined,
  maxUnavailable: IntOrString | undefined,
  desired: number,
): { maxSurge: number; maxUnavailable: number } | undefined {
  try {
    return resolveFenceposts(maxSurge, maxUnavailable, desired);
  } catch {
    return undefined;
  }
}

interface Counts {
  live: MachineFacts[];
  isUpdated: (f: MachineFacts) => boolean;
  desired: number;
  minReadySeconds: number;
  allowed: { maxSurge: number; maxUnavailable: number } | undefined;
  now: Date;
}

/** Live machines of the current template that are available. */
function updatedAvailable(c: Omit<Counts, 'allowed'>): number {
  let n = 0;
  for (const f of c.live) if (c.isUpdated(f) && factsAvailable(f, c.minReadySeconds, c.now)) n++;
  return n;
}

function rolloutCounts(c: Counts) {
  let updated = 0;
  let updatedReady = 0;
  let available = 0;
  for (const f of c.live) {
    if (c.isUpdated(f)) {
      updated++;
      if (f.ready) updatedReady++;
    }
    if (factsAvailable(f, c.minReadySeconds, c.now)) available++;
  }
  return {
    desired: c.desired,
    updated,
    updatedReady,
    progress: c.desired === 0 ? 1 : Math.min(1, updated / c.desired),
    // Machines being deleted are left out: Cluster API has already given them up.
    surge: {
      inUse: Math.max(0, c.live.length - c.desired),
      ...(c.allowed ? { allowed: c.allowed.maxSurge } : {}),
    },
    unavailable: {
      inUse: Math.max(0, c.desired - available),
      ...(c.allowed ? { allowed: c.allowed.maxUnavailable } : {}),
    },
  };
}

/**
 * The rollout of a worker pool.
 * @param machineSets the MachineDeployment's sets (labelled with its name)
 * @param machines the pool's machines (labelled with its name)
 */
export function rolloutView(
  md: MachineDeployment,
  machineSets: readonly MachineSet[],
  machines: readonly Machine[],
  now: Date,
): RolloutView {
  return rolloutOfFacts(md, machineSets, machines.map(machineFacts), now);
}

/** rolloutView over the machines' facts (kept between rebuilds by a pool built incrementally). */
export function rolloutOfFacts(
  md: MachineDeployment,
  machineSets: readonly MachineSet[],
  machines: readonly MachineFacts[],
  now: Date,
): RolloutView {
  const desired = replicasOf(md);
  const minReadySeconds = md.spec?.minReadySeconds ?? 0;
  const strategyType: StrategyType = md.spec?.strategy?.type ?? 'RollingUpdate';
  const newMs = findNewMachineSet(md, machineSets, now);
  const newName = newMs?.metadata.name;

  const bySet = new Map<string, MachineFacts[]>();
  const live: MachineFacts[] = [];
  for (const f of machines) {
    if (f.deleting) continue;
    live.push(f);
    const set = f.set ?? '';
    const list = bySet.get(set);
    if (list) list.push(f);
    else bySet.set(set, [f]);
  }
  const setView = (ms: MachineSet): MachineSetView => {
    const name = ms.metadata.name ?? '';
    const own = bySet.get(name) ?? [];
    const ready = own.filter((f) => f.ready);
    const revision = ms.metadata.annotations?.[ANNOTATION_REVISION];
    const version = ms.spec?.template?.spec.version;
    const infrastructureTemplate = ms.spec?.template?.spec.infrastructureRef.name;
    const bootstrapTemplate = ms.spec?.template?.spec.bootstrap.configRef?.name;
    return {
      name,
      replicas: ms.spec?.replicas ?? 0,
      current: own.length,
      ready: ready.length,
      available: ready.filter((f) => factsAvailable(f, minReadySeconds, now)).length,
      ...(revision !== undefined ? { revision } : {}),
      ...(version !== undefined ? { version } : {}),
      ...(ms.metadata.creationTimestamp ? { createdAt: ms.metadata.creationTimestamp } : {}),
      ...(infrastructureTemplate ? { infrastructureTemplate } : {}),
      ...(bootstrapTemplate ? { bootstrapTemplate } : {}),
      ...(ms.status?.conditions?.length
        ? { conditions: conditionViews(ms.status.conditions) }
        : {}),
    };
  };
  const oldSets = machineSets
    .filter((ms) => ms !== newMs)
    .sort(
      (a, b) =>
        revisionOf(b) - revisionOf(a) ||
        compareStrings(b.metadata.creationTimestamp ?? '', a.metadata.creationTimestamp ?? '') ||
        compareStrings(a.metadata.name ?? '', b.metadata.name ?? ''),
    )
    .map(setView);
  const isUpdated = (f: MachineFacts) => newName !== undefined && f.set === newName;
  const strayMachines = live.some((f) => !isUpdated(f));
  const rollout = { live, isUpdated, desired, minReadySeconds, now };
  const inProgress =
    oldSets.some((s) => s.current > 0 || s.replicas > 0) ||
    strayMachines ||
    (newMs === undefined && machineSets.length > 0 && desired > 0) ||
    // The last old machine is gone but its replacement is still provisioning: the rollout is
    // not done until every machine of the new template is available (as `kubectl rollout
    // status` waits). Only after a template change — an earlier set exists — not on a scale-up
    // of a pool that never rolled.
    (oldSets.length > 0 && updatedAvailable(rollout) < desired);

  const rollingUpdate = md.spec?.strategy?.rollingUpdate;
  const allowed =
    strategyType === 'RollingUpdate'
      ? fenceposts(rollingUpdate?.maxSurge, rollingUpdate?.maxUnavailable, desired)
      : undefined;
  return {
    strategyType,
    ...(newMs ? { newMachineSet: setView(newMs) } : {}),
    oldMachineSets: oldSets,
    inProgress,
    ...rolloutCounts({ live, isUpdated, desired, minReadySeconds, allowed, now }),
  };
}

/** Where the infrastructure machine was cloned from (Cluster API's annotation). */
export const ANNOTATION_CLONED_FROM_NAME = 'cluster.x-k8s.io/cloned-from-name';

/**
 * Whether a control-plane machine is built from the KubeadmControlPlane's current spec: its
 * version, (when the DCSMachine says what it was cloned from) its machine template, and, at
 * `now`, not created before a rolloutAfter that has passed (O-RESTART: upstream's
 * ShouldRolloutAfter).
 */
export function isCurrentControlPlaneMachine(
  kcp: KubeadmControlPlane,
  machine: Machine,
  dcsMachine: DCSMachine | undefined,
  now?: Date,
): boolean {
  if (machine.spec?.version !== kcp.spec?.version) return false;
  if (
    now !== undefined &&
    rolloutAfterExpired(kcp.spec?.rolloutAfter, machine.metadata.creationTimestamp, now.getTime())
  )
    return false;
  const clonedFrom = dcsMachine?.metadata.annotations?.[ANNOTATION_CLONED_FROM_NAME];
  return (
    clonedFrom === undefined || clonedFrom === kcp.spec?.machineTemplate.infrastructureRef.name
  );
}

/**
 * The rollout of the control plane: KubeadmControlPlane replaces machines one at a time, with
 * maxSurge from its rolloutStrategy (default 1) and never below the desired count otherwise.
 */
export function controlPlaneRolloutView(
  kcp: KubeadmControlPlane,
  machines: readonly Machine[],
  dcsMachineOf: (m: Machine) => DCSMachine | undefined,
  now: Date,
): RolloutView {
  return controlPlaneRolloutOf(
    kcp,
    machines.map((m) => ({
      facts: machineFacts(m),
      upToDate: isCurrentControlPlaneMachine(kcp, m, dcsMachineOf(m), now),
    })),
    now,
  );
}

/**
 * controlPlaneRolloutView over the machines' facts and whether each is current
 * (isCurrentControlPlaneMachine), as a pool built incrementally keeps them.
 */
export function controlPlaneRolloutOf(
  kcp: KubeadmControlPlane,
  machines: readonly { facts: MachineFacts; upToDate: boolean }[],
  now: Date,
): RolloutView {
  const desired = kcp.spec?.replicas ?? 1;
  const current = new Set<MachineFacts>();
  const live: MachineFacts[] = [];
  for (const m of machines) {
    if (m.facts.deleting) continue;
    live.push(m.facts);
    if (m.upToDate) current.add(m.facts);
  }
  const isUpdated = (f: MachineFacts) => current.has(f);
  const allowed = fenceposts(kcp.spec?.rolloutStrategy?.rollingUpdate?.maxSurge ?? 1, 0, desired);
  // KubeadmControlPlane says a rolling update is under way until its last replacement is up.
  const rolling =
    findCondition(kcp.status?.conditions, 'MachinesSpecUpToDate')?.reason ===
    'RollingUpdateInProgress';
  const counts = { live, isUpdated, desired, minReadySeconds: 0, now };
  return {
    strategyType: 'RollingUpdate',
    oldMachineSets: [],
    inProgress: live.some((f) => !isUpdated(f)) || (rolling && updatedAvailable(counts) < desired),
    ...rolloutCounts({ live, isUpdated, desired, minReadySeconds: 0, allowed, now }),
  };
}
