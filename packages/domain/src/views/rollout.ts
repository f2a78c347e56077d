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

/**
 * Live machines (not being deleted) counted as a rollout and a pool's replicas read them, kept
 * by adding and removing each machine's facts: a pool built incrementally updates the counts of
 * one machine's event instead of walking the pool (issue 28). Availability depends on the clock
 * when minReadySeconds > 0: the ready machines whose Ready transition is known are kept aside and
 * judged at each count (factsAvailable), the others count as they are.
 */
export class LiveCounts {
  live = 0;
  ready = 0;
  /** Ready machines available whatever the clock (no Ready transition known). */
  #readyAlways = 0;
  /** Ready machines whose availability depends on the clock and minReadySeconds. */
  readonly #timed = new Set<MachineFacts>();

  /** Counts `f` in (nothing when it is being deleted). */
  add(f: MachineFacts): void {
    if (f.deleting) return;
    this.live++;
    if (!f.ready) return;
    this.ready++;
    if (f.readySince === undefined) this.#readyAlways++;
    else this.#timed.add(f);
  }

  /** Counts `f` out: the inverse of add(f), for the same facts. */
  remove(f: MachineFacts): void {
    if (f.deleting) return;
    this.live--;
    if (!f.ready) return;
    this.ready--;
    if (f.readySince === undefined) this.#readyAlways--;
    else this.#timed.delete(f);
  }

  /** Ready machines that are available (factsAvailable) at `now`. */
  available(minReadySeconds: number, now: Date): number {
    if (minReadySeconds <= 0) return this.ready;
    let n = this.#readyAlways;
    for (const f of this.#timed) if (factsAvailable(f, minReadySeconds, now)) n++;
    return n;
  }
}

/** A worker pool's live machines, in all and by MachineSet (their set-name label). */
export class RolloutTally {
  readonly all = new LiveCounts();
  readonly #bySet = new Map<string | undefined, LiveCounts>();

  static of(machines: readonly MachineFacts[]): RolloutTally {
    const t = new RolloutTally();
    for (const f of machines) t.add(f);
    return t;
  }

  add(f: MachineFacts): void {
    if (f.deleting) return;
    this.all.add(f);
    let c = this.#bySet.get(f.set);
    if (!c) {
      c = new LiveCounts();
      this.#bySet.set(f.set, c);
    }
    c.add(f);
  }

  remove(f: MachineFacts): void {
    if (f.deleting) return;
    this.all.remove(f);
    const c = this.#bySet.get(f.set);
    if (!c) return;
    c.remove(f);
    if (c.live === 0) this.#bySet.delete(f.set);
  }

  /** Live machines labelled with set `name` exactly (undefined: unlabelled). */
  ofSet(name: string | undefined): LiveCounts | undefined {
    return this.#bySet.get(name);
  }
}

function rolloutCounts(
  all: LiveCounts,
  updated: LiveCounts | undefined,
  desired: number,
  minReadySeconds: number,
  allowed: { maxSurge: number; maxUnavailable: number } | undefined,
  now: Date,
) {
  const updatedCount = updated?.live ?? 0;
  const available = all.available(minReadySeconds, now);
  return {
    desired,
    updated: updatedCount,
    updatedReady: updated?.ready ?? 0,
    progress: desired === 0 ? 1 : Math.min(1, updatedCount / desired),
    // Machines being deleted are left out: Cluster API has already given them up.
    surge: {
      inUse: Math.max(0, all.live - desired),
      ...(allowed ? { allowed: allowed.maxSurge } : {}),
    },
    unavailable: {
      inUse: Math.max(0, desired - available),
      ...(allowed ? { allowed: allowed.maxUnavailable } : {}),
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
  return rolloutOfTally(md, machineSets, RolloutTally.of(machines), now);
}

/** rolloutOfFacts over the pool's counts, as a pool built incrementally keeps them (issue 28). */
export function rolloutOfTally(
  md: MachineDeployment,
  machineSets: readonly MachineSet[],
  tally: RolloutTally,
  now: Date,
): RolloutView {
  const desired = replicasOf(md);
  const minReadySeconds = md.spec?.minReadySeconds ?? 0;
  const strategyType: StrategyType = md.spec?.strategy?.type ?? 'RollingUpdate';
  const newMs = findNewMachineSet(md, machineSets, now);
  const newName = newMs?.metadata.name;

  const setView = (ms: MachineSet): MachineSetView => {
    const name = ms.metadata.name ?? '';
    // A set without a name counts the machines without the label too (as `set ?? ''`).
    const own = name === '' ? [tally.ofSet(''), tally.ofSet(undefined)] : [tally.ofSet(name)];
    let current = 0;
    let ready = 0;
    let available = 0;
    for (const c of own) {
      if (!c) continue;
      current += c.live;
      ready += c.ready;
      available += c.available(minReadySeconds, now);
    }
    const revision = ms.metadata.annotations?.[ANNOTATION_REVISION];
    const version = ms.spec?.template?.spec.version;
    const infrastructureTemplate = ms.spec?.template?.spec.infrastructureRef.name;
    const bootstrapTemplate = ms.spec?.template?.spec.bootstrap.configRef?.name;
    return {
      name,
      replicas: ms.spec?.replicas ?? 0,
      current,
      ready,
      available,
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
  // Live machines of the current template: labelled with the new set's name exactly.
  const updated = newName !== undefined ? tally.ofSet(newName) : undefined;
  const strayMachines = tally.all.live > (updated?.live ?? 0);
  const updatedAvailable = updated?.available(minReadySeconds, now) ?? 0;
  const inProgress =
    oldSets.some((s) => s.current > 0 || s.replicas > 0) ||
    strayMachines ||
    (newMs === undefined && machineSets.length > 0 && desired > 0) ||
    // The last old machine is gone but its replacement is still provisioning: the rollout is
    // not done until every machine of the new template is available (as `kubectl rollout
    // status` waits). Only after a template change — an earlier set exists — not on a scale-up
    // of a pool that never rolled.
    (oldSets.length > 0 && updatedAvailable < desired);

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
    ...rolloutCounts(tally.all, updated, desired, minReadySeconds, allowed, now),
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
  const all = new LiveCounts();
  const upToDate = new LiveCounts();
  for (const m of machines) {
    all.add(m.facts);
    if (m.upToDate) upToDate.add(m.facts);
  }
  return controlPlaneRolloutOfCounts(kcp, all, upToDate, now);
}

/**
 * controlPlaneRolloutOf over the counts of the live machines and of those current among them,
 * as a pool built incrementally keeps them (issue 28).
 */
export function controlPlaneRolloutOfCounts(
  kcp: KubeadmControlPlane,
  all: LiveCounts,
  upToDate: LiveCounts,
  now: Date,
): RolloutView {
  const desired = kcp.spec?.replicas ?? 1;
  const allowed = fenceposts(kcp.spec?.rolloutStrategy?.rollingUpdate?.maxSurge ?? 1, 0, desired);
  // KubeadmControlPlane says a rolling update is under way until its last replacement is up.
  const rolling =
    findCondition(kcp.status?.conditions, 'MachinesSpecUpToDate')?.reason ===
    'RollingUpdateInProgress';
  return {
    strategyType: 'RollingUpdate',
    oldMachineSets: [],
    inProgress: all.live > upToDate.live || (rolling && upToDate.available(0, now) < desired),
    ...rolloutCounts(all, upToDate, desired, 0, allowed, now),
  };
}
