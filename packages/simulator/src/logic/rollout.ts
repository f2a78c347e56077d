import { resolveFenceposts, scaledValue, DEFAULT_MAX_SURGE, type IntOrString } from '@dcs/domain';

/**
 * The MachineDeployment rollout of Cluster API v1.10, ported from
 * internal/controllers/machinedeployment (machinedeployment_rolling.go, the OnDelete rollout,
 * mdutil/util.go). Pure: it reads a snapshot of the MachineSets and returns the scale changes
 * the controller writes, in the order Cluster API makes them. Each change is applied to the
 * snapshot before the next decision, exactly as Cluster API mutates its in-memory objects.
 */

export type StrategyType = 'RollingUpdate' | 'OnDelete';

export interface DeploymentState {
  replicas: number;
  strategy: StrategyType;
  maxSurge?: IntOrString;
  maxUnavailable?: IntOrString;
}

export interface MachineSetState {
  name: string;
  /** creationTimestamp in ms: old sets are scaled down oldest first. */
  createdAt: number;
  /** spec.replicas */
  replicas: number;
  /** status.replicas: machines that exist, including those being deleted. */
  statusReplicas: number;
  availableReplicas: number;
  readyReplicas: number;
  /** OnDelete only: machines selected by the set, and how many of them are being deleted. */
  machines?: number;
  deletingMachines?: number;
  /** OnDelete disables machine creation on old sets with an annotation. */
  machineCreationDisabled?: boolean;
}

export type ScaleReason =
  | 'scale new MachineSet'
  | 'clean up unhealthy replicas'
  | 'scale down old MachineSet'
  | 'align to deleted machines'
  | 'align to MachineDeployment replicas';

export interface ScaleStep {
  machineSet: string;
  from: number;
  to: number;
  reason: ScaleReason;
}

export interface RolloutPlan {
  steps: ScaleStep[];
  /** Old sets that must get the disable-machine-create annotation (OnDelete). */
  disableCreation: string[];
  /** Set when Cluster API would return an error and requeue; steps before it still apply. */
  error?: string;
}

/** mdutil.MaxUnavailable: 0 for OnDelete or 0 replicas, never more than the replicas. */
export function maxUnavailableOf(md: DeploymentState): number {
  if (md.strategy !== 'RollingUpdate' || md.replicas === 0) return 0;
  const { maxUnavailable } = resolveFenceposts(md.maxSurge, md.maxUnavailable, md.replicas);
  return Math.min(maxUnavailable, md.replicas);
}

/** mdutil.MaxSurge: 0 for OnDelete. */
export function maxSurgeOf(md: DeploymentState): number {
  if (md.strategy !== 'RollingUpdate') return 0;
  return resolveFenceposts(md.maxSurge, md.maxUnavailable, md.replicas).maxSurge;
}

/** MachineSetsByCreationTimestamp: oldest first, ties by name. */
export function byCreation(a: MachineSetState, b: MachineSetState): number {
  if (a.createdAt === b.createdAt) return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
  return a.createdAt - b.createdAt;
}

const sum = (sets: readonly MachineSetState[], f: (ms: MachineSetState) => number) =>
  sets.reduce((n, ms) => n + f(ms), 0);

/** mdutil.TotalMachineSetsReplicaSum: max(spec, status) per set, so deleting machines still count. */
export function totalMachineSetsReplicaSum(sets: readonly MachineSetState[]): number {
  return sum(sets, (ms) => Math.max(ms.replicas, ms.statusReplicas));
}

/**
 * mdutil.NewMSNewReplicas: how far the new set may grow. RollingUpdate: up to replicas +
 * maxSurge machines in all; OnDelete: up to replicas.
 */
export function newMSNewReplicas(
  md: DeploymentState,
  allSets: readonly MachineSetState[],
  newReplicas: number,
): number {
  const current = totalMachineSetsReplicaSum(allSets);
  if (md.strategy === 'RollingUpdate') {
    // Cluster API scales maxSurge here directly (rounding up), without the fence post.
    const maxSurge = scaledValue(md.maxSurge ?? DEFAULT_MAX_SURGE, md.replicas, true);
    const maxTotal = md.replicas + maxSurge;
    if (current >= maxTotal) return newReplicas;
    const scaleUp = Math.min(maxTotal - current, md.replicas - newReplicas);
    return newReplicas + scaleUp;
  }
  if (current >= md.replicas) return newReplicas;
  return newReplicas + (md.replicas - current);
}

/** The replicas a MachineSet gets when it is created for a new template (computeDesiredMachineSet). */
export function initialNewMachineSetReplicas(
  md: DeploymentState,
  oldSets: readonly MachineSetState[],
): number {
  return newMSNewReplicas(md, oldSets, 0);
}

class Planner {
  readonly steps: ScaleStep[] = [];
  readonly disableCreation: string[] = [];
  error: string | undefined;

  constructor(readonly md: DeploymentState) {}

  scale(ms: MachineSetState, to: number, reason: ScaleReason): void {
    if (ms.replicas === to) return;
    this.steps.push({ machineSet: ms.name, from: ms.replicas, to, reason });
    ms.replicas = to;
  }

  /** reconcileNewMachineSet */
  reconcileNew(all: MachineSetState[], newMS: MachineSetState): void {
    if (newMS.replicas === this.md.replicas) return;
    if (newMS.replicas > this.md.replicas) {
      this.scale(newMS, this.md.replicas, 'scale new MachineSet');
      return;
    }
    this.scale(newMS, newMSNewReplicas(this.md, all, newMS.replicas), 'scale new MachineSet');
  }

  /** reconcileOldMachineSets (RollingUpdate) */
  reconcileOld(all: MachineSetState[], old: MachineSetState[], newMS: MachineSetState): void {
    if (sum(old, (ms) => ms.replicas) === 0) return;
    const allMachinesCount = sum(all, (ms) => ms.replicas);
    const minAvailable = this.md.replicas - maxUnavailableOf(this.md);
    const newUnavailable = newMS.replicas - newMS.availableReplicas;
    // Scale down only what neither breaks minimum availability nor counts the new set's
    // unavailable machines as headroom (see the worked example in machinedeployment_rolling.go).
    const maxScaledDown = allMachinesCount - minAvailable - newUnavailable;
    if (maxScaledDown <= 0) return;
    if (!this.cleanupUnhealthy(old, maxScaledDown)) return;
    this.scaleDownOld([...old, newMS], old);
  }

  /** cleanupUnhealthyReplicas: unavailable machines of old sets go first, oldest set first. */
  private cleanupUnhealthy(old: MachineSetState[], maxCleanup: number): boolean {
    old.sort(byCreation);
    let total = 0;
    for (const ms of old) {
      if (total >= maxCleanup) break;
      if (ms.replicas === 0) continue;
      if (ms.replicas === ms.availableReplicas) continue;
      const scaledDown = Math.min(maxCleanup - total, ms.replicas - ms.availableReplicas);
      const to = ms.replicas - scaledDown;
      if (to > ms.replicas) {
        this.error = `when cleaning up unhealthy replicas, got invalid request to scale down ${ms.name}: ${ms.replicas} -> ${to}`;
        return false;
      }
      this.scale(ms, to, 'clean up unhealthy replicas');
      total += scaledDown;
    }
    return true;
  }

  /** scaleDownOldMachineSetsForRollingUpdate */
  private scaleDownOld(all: MachineSetState[], old: MachineSetState[]): void {
    const minAvailable = this.md.replicas - maxUnavailableOf(this.md);
    const available = sum(all, (ms) => ms.availableReplicas);
    if (available <= minAvailable) return;
    old.sort(byCreation);
    const totalScaleDown = available - minAvailable;
    let total = 0;
    for (const ms of old) {
      if (total >= totalScaleDown) break;
      if (ms.replicas === 0) continue;
      const count = Math.min(ms.replicas, totalScaleDown - total);
      this.scale(ms, ms.replicas - count, 'scale down old MachineSet');
      total += count;
    }
  }

  /** reconcileOldMachineSetsOnDelete: old sets follow the machines the user deletes. */
  reconcileOldOnDelete(all: MachineSetState[], old: MachineSetState[]): void {
    let scaleDownAmount = sum(all, (ms) => ms.replicas) - this.md.replicas;
    for (const ms of old) {
      if (ms.replicas <= 0) continue;
      if (!ms.machineCreationDisabled) {
        this.disableCreation.push(ms.name);
        ms.machineCreationDisabled = true;
      }
      const updated = (ms.machines ?? ms.statusReplicas) - (ms.deletingMachines ?? 0);
      if (updated < 0) {
        this.error = `negative updated replica count ${updated} for MachineSet ${ms.name}`;
        return;
      }
      scaleDownAmount -= ms.replicas - updated;
      this.scale(ms, updated, 'align to deleted machines');
    }
    for (const ms of old) {
      if (scaleDownAmount <= 0) break;
      if (ms.replicas <= 0) continue;
      let updated = ms.replicas;
      if (updated >= scaleDownAmount) {
        updated -= scaleDownAmount;
        scaleDownAmount = 0;
      } else {
        scaleDownAmount -= updated;
        updated = 0;
      }
      this.scale(ms, updated, 'align to MachineDeployment replicas');
    }
  }
}

/**
 * One reconcile of a MachineDeployment's rollout (rolloutRolling / rolloutOnDelete) once the new
 * MachineSet exists. The input sets are not modified.
 */
export function planRollout(
  md: DeploymentState,
  newMS: MachineSetState,
  oldSets: readonly MachineSetState[],
): RolloutPlan {
  const planner = new Planner(md);
  const fresh = { ...newMS };
  const old = oldSets.map((ms) => ({ ...ms }));
  const all = [...old, fresh];
  planner.reconcileNew(all, fresh);
  if (md.strategy === 'RollingUpdate') planner.reconcileOld(all, old, fresh);
  else planner.reconcileOldOnDelete(all, old);
  return {
    steps: planner.steps,
    disableCreation: planner.disableCreation,
    ...(planner.error ? { error: planner.error } : {}),
  };
}
