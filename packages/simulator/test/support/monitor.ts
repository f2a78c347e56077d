import { InformerFactory, type Informer } from '@dcs/informer';
import type { KubeConfig } from '@kubernetes/client-node';
import {
  LABEL_DEPLOYMENT_NAME,
  kindTable,
  type Machine,
  type MachineDeployment,
} from '@dcs/domain';
import { isTrue } from '../../src/logic/conditions';
import { deploymentState } from '../../src/logic/machineset-desired';
import { maxSurgeOf, maxUnavailableOf } from '../../src/logic/rollout';

/**
 * Watches a MachineDeployment's machines through their own informer (what a kubectl watch sees)
 * and checks the rolling-update invariants on every event, not only when the test looks:
 * never more than replicas + maxSurge machines (those being deleted included), never fewer
 * than replicas − maxUnavailable available (Ready node, not being deleted).
 */
export class RolloutMonitor {
  readonly violations: string[] = [];
  maxMachines = 0;
  minAvailable = Infinity;
  events = 0;
  private readonly factory: InformerFactory;
  private readonly machines: Informer<Machine>;
  private armed = false;

  constructor(
    kc: KubeConfig,
    private readonly deployment: () => MachineDeployment | undefined,
    private readonly name: string,
  ) {
    this.factory = new InformerFactory(kc);
    const info = kindTable.Machine;
    this.machines = this.factory.informer<Machine>({
      group: info.group,
      version: info.version,
      plural: info.plural,
      labelSelector: `${LABEL_DEPLOYMENT_NAME}=${name}`,
    });
    this.machines.addEventHandler({
      add: () => {
        this.check();
      },
      update: () => {
        this.check();
      },
      delete: () => {
        this.check();
      },
    });
  }

  synced(): Promise<void> {
    return this.machines.synced;
  }

  /** Starts checking (call once the deployment is fully available, before changing it). */
  arm(): void {
    this.armed = true;
    this.check();
  }

  disarm(): void {
    this.armed = false;
  }

  stop(): Promise<void> {
    return this.factory.stop();
  }

  private check(): void {
    if (!this.armed) return;
    const md = this.deployment();
    if (!md) return;
    this.events++;
    const state = deploymentState(md);
    const all = this.machines.list();
    const available = all.filter(
      (m) =>
        !m.metadata.deletionTimestamp &&
        m.status?.nodeRef &&
        isTrue(m.status.conditions, 'NodeHealthy'),
    ).length;
    this.maxMachines = Math.max(this.maxMachines, all.length);
    this.minAvailable = Math.min(this.minAvailable, available);
    const maxTotal = state.replicas + maxSurgeOf(state);
    const minAvailable = state.replicas - maxUnavailableOf(state);
    if (all.length > maxTotal) {
      this.violations.push(
        `${this.name}: ${String(all.length)} machines > ${String(state.replicas)} + maxSurge ${String(maxSurgeOf(state))}`,
      );
    }
    if (state.strategy === 'RollingUpdate' && available < minAvailable) {
      this.violations.push(
        `${this.name}: ${String(available)} available < ${String(state.replicas)} - maxUnavailable ${String(maxUnavailableOf(state))}`,
      );
    }
  }
}
