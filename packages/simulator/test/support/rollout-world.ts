import type { IntOrString, Machine } from '@dcs/domain';
import { machinesToDelete } from '../../src/logic/deletion-order';
import { seeded, type Random } from '../../src/logic/random';
import {
  initialNewMachineSetReplicas,
  maxSurgeOf,
  maxUnavailableOf,
  planRollout,
  type DeploymentState,
  type MachineSetState,
} from '../../src/logic/rollout';

/**
 * A discrete-time model of one MachineDeployment, its MachineSets and machines, driven by the
 * pure rollout logic: each tick the deployment controller plans, the set controllers create or
 * delete machines, and machines finish provisioning or deleting after seeded delays. It checks
 * the rolling-update invariants after every action, not only at the end.
 */

interface SimMachine {
  name: string;
  set: string;
  createdAt: number;
  readyAt: number;
  deletingSince?: number;
  goneAt?: number;
}

interface SimSet {
  name: string;
  template: number;
  createdAt: number;
  replicas: number;
  creationDisabled: boolean;
}

export interface WorldOptions {
  replicas: number;
  strategy?: 'RollingUpdate' | 'OnDelete';
  maxSurge?: IntOrString;
  maxUnavailable?: IntOrString;
  seed: number;
  /** Ticks a machine takes to become available, and to be gone once deleted. */
  provisionTicks?: readonly [number, number];
  deleteTicks?: readonly [number, number];
  /**
   * Ready machines count as available while being deleted, as Cluster API v1.10's MachineSet
   * status does. The simulation does not (see machineset-status.ts); this shows why.
   */
  deletingCountsAsAvailable?: boolean;
}

export interface Violation {
  tick: number;
  what: string;
}

export class RolloutWorld {
  readonly md: DeploymentState;
  template = 0;
  tick = 0;
  readonly sets: SimSet[] = [];
  readonly machines: SimMachine[] = [];
  readonly violations: Violation[] = [];
  /** When false, the invariants are not checked (e.g. right after a scale change). */
  checking = true;
  private readonly rng: Random;
  private seq = 0;

  constructor(private readonly o: WorldOptions) {
    this.md = {
      replicas: o.replicas,
      strategy: o.strategy ?? 'RollingUpdate',
      ...(o.maxSurge !== undefined ? { maxSurge: o.maxSurge } : {}),
      ...(o.maxUnavailable !== undefined ? { maxUnavailable: o.maxUnavailable } : {}),
    };
    this.rng = seeded(o.seed, 'world');
  }

  /** Brings the deployment to a steady state on template 0, then starts checking. */
  settle(maxTicks = 500): boolean {
    return this.runUntil(() => this.converged(), maxTicks);
  }

  changeTemplate(): void {
    this.template++;
  }

  available(): number {
    return this.machines.filter((m) => !m.deletingSince && m.readyAt <= this.tick).length;
  }

  converged(): boolean {
    const live = this.machines.filter((m) => !m.deletingSince);
    return (
      live.length === this.md.replicas &&
      this.machines.length === this.md.replicas &&
      live.every((m) => this.setOf(m).template === this.template && m.readyAt <= this.tick) &&
      this.sets.filter((s) => s.template !== this.template).every((s) => s.replicas === 0)
    );
  }

  runUntil(done: () => boolean, maxTicks: number, each?: () => void): boolean {
    for (let i = 0; i < maxTicks; i++) {
      this.step();
      each?.();
      if (done()) return true;
    }
    return false;
  }

  step(): void {
    this.tick++;
    for (const m of [...this.machines]) {
      if (m.goneAt !== undefined && m.goneAt <= this.tick) {
        this.machines.splice(this.machines.indexOf(m), 1);
      }
    }
    this.check('machines finished');
    this.reconcileDeployment();
    this.check('deployment reconciled');
    for (const s of [...this.sets]) {
      this.reconcileSet(s);
      this.check(`set ${s.name} reconciled`);
    }
  }

  /** The user deletes one machine of an old set (OnDelete rollouts are driven that way). */
  deleteOneOldMachine(): boolean {
    const m = this.machines.find(
      (x) => !x.deletingSince && this.setOf(x).template !== this.template,
    );
    if (!m) return false;
    this.markDeleting(m);
    return true;
  }

  private setOf(m: SimMachine): SimSet {
    const s = this.sets.find((x) => x.name === m.set);
    if (!s) throw new Error(`machine ${m.name} has no set`);
    return s;
  }

  private stateOf(s: SimSet): MachineSetState {
    const ms = this.machines.filter((m) => m.set === s.name);
    const ready = ms.filter(
      (m) =>
        m.readyAt <= this.tick && (this.o.deletingCountsAsAvailable === true || !m.deletingSince),
    ).length;
    return {
      name: s.name,
      createdAt: s.createdAt,
      replicas: s.replicas,
      statusReplicas: ms.length,
      availableReplicas: ready,
      readyReplicas: ready,
      machines: ms.length,
      deletingMachines: ms.filter((m) => m.deletingSince !== undefined).length,
      machineCreationDisabled: s.creationDisabled,
    };
  }

  private reconcileDeployment(): void {
    let newSet = this.sets.find((s) => s.template === this.template);
    const old = () => this.sets.filter((s) => s !== newSet);
    if (!newSet) {
      newSet = {
        name: `ms-${this.template}`,
        template: this.template,
        createdAt: this.tick,
        replicas: initialNewMachineSetReplicas(
          this.md,
          old().map((s) => this.stateOf(s)),
        ),
        creationDisabled: false,
      };
      this.sets.push(newSet);
    }
    newSet.creationDisabled = false;
    const plan = planRollout(
      this.md,
      this.stateOf(newSet),
      old().map((s) => this.stateOf(s)),
    );
    for (const name of plan.disableCreation) {
      const s = this.sets.find((x) => x.name === name);
      if (s) s.creationDisabled = true;
    }
    for (const step of plan.steps) {
      const s = this.sets.find((x) => x.name === step.machineSet);
      if (s) s.replicas = step.to;
    }
  }

  private reconcileSet(s: SimSet): void {
    const mine = this.machines.filter((m) => m.set === s.name);
    const diff = mine.length - s.replicas;
    if (diff < 0 && !s.creationDisabled) {
      for (let i = 0; i < -diff; i++) {
        const [lo, hi] = this.o.provisionTicks ?? [1, 6];
        this.machines.push({
          name: `${s.name}-m${String(this.seq++).padStart(4, '0')}`,
          set: s.name,
          createdAt: this.tick,
          readyAt: this.tick + this.rng.int(lo, hi),
        });
      }
    } else if (diff > 0) {
      const asMachines = mine.map((m) => this.asMachine(m));
      for (const victim of machinesToDelete(asMachines, diff, 'Random', this.tick * 1000)) {
        const m = mine.find((x) => x.name === victim.metadata.name);
        if (m && !m.deletingSince) this.markDeleting(m);
      }
    }
  }

  private markDeleting(m: SimMachine): void {
    const [lo, hi] = this.o.deleteTicks ?? [1, 4];
    m.deletingSince = this.tick;
    m.goneAt = this.tick + this.rng.int(lo, hi);
  }

  private asMachine(m: SimMachine): Machine {
    const ready = m.readyAt <= this.tick;
    return {
      apiVersion: 'cluster.x-k8s.io/v1beta1',
      kind: 'Machine',
      metadata: {
        name: m.name,
        creationTimestamp: new Date(m.createdAt * 1000).toISOString(),
        ...(m.deletingSince !== undefined
          ? { deletionTimestamp: new Date(m.deletingSince * 1000).toISOString() }
          : {}),
      },
      spec: { clusterName: 'c', bootstrap: {}, infrastructureRef: {} },
      status: ready
        ? {
            nodeRef: { kind: 'Node', name: m.name },
            conditions: [{ type: 'NodeHealthy', status: 'True' }],
          }
        : {},
    };
  }

  /** The invariants of a rolling update (RollingUpdate) or an OnDelete rollout. */
  private check(when: string): void {
    if (!this.checking) return;
    const surge = maxSurgeOf(this.md);
    const maxTotal = this.md.replicas + surge;
    if (this.machines.length > maxTotal) {
      this.violations.push({
        tick: this.tick,
        what: `${when}: ${this.machines.length} machines > replicas ${this.md.replicas} + maxSurge ${surge}`,
      });
    }
    const minAvailable = this.md.replicas - maxUnavailableOf(this.md);
    if (this.md.strategy === 'RollingUpdate' && this.available() < minAvailable) {
      this.violations.push({
        tick: this.tick,
        what: `${when}: ${this.available()} available < replicas ${this.md.replicas} - maxUnavailable ${maxUnavailableOf(this.md)}`,
      });
    }
  }
}
