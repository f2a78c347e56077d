import type { MachineDeployment, MachineSet } from '@dcs/domain';
import { falseCondition, mirror, setConditions, trueCondition, withSummary } from './conditions';
import { maxUnavailableOf, type DeploymentState } from './rollout';
import { effectiveSelector } from './machineset-desired';
import { selectorString } from './selectors';

/**
 * A MachineDeployment's status as Cluster API v1.10 computes it (machinedeployment_sync.go
 * calculateStatus and syncDeploymentStatus, v1beta1 conditions), from its MachineSets.
 */

export const MD_AVAILABLE = 'Available';
export const MACHINE_SET_READY = 'MachineSetReady';

export type MachineDeploymentStatus = NonNullable<MachineDeployment['status']>;

const statusOf = (ms: MachineSet | undefined) => ms?.status ?? {};

export function deploymentStatus(
  md: MachineDeployment,
  state: DeploymentState,
  allSets: readonly MachineSet[],
  newSet: MachineSet | undefined,
  nowISO: string,
): MachineDeploymentStatus {
  const available = allSets.reduce((n, ms) => n + (statusOf(ms).availableReplicas ?? 0), 0);
  const specTotal = allSets.reduce((n, ms) => n + (ms.spec?.replicas ?? 0), 0);
  const replicas = allSets.reduce((n, ms) => n + (statusOf(ms).replicas ?? 0), 0);
  const ready = allSets.reduce((n, ms) => n + (statusOf(ms).readyReplicas ?? 0), 0);
  const desired = state.replicas;

  let phase = md.status?.phase;
  if (desired === ready) phase = 'Running';
  if (desired > ready) phase = 'ScalingUp';
  // Cluster API compares the sets' desired total, not the machines, with what is available.
  if (specTotal - available < 0) phase = 'ScalingDown';
  if (allSets.some((ms) => Boolean(statusOf(ms).failureReason ?? statusOf(ms).failureMessage))) {
    phase = 'Failed';
  }

  const minAvailable = desired - maxUnavailableOf(state);
  const availableCondition =
    available >= minAvailable
      ? trueCondition(MD_AVAILABLE)
      : falseCondition(
          MD_AVAILABLE,
          'WaitingForAvailableMachines',
          'Warning',
          `Minimum availability requires ${minAvailable} replicas, current ${available} available`,
        );
  const setReady = newSet
    ? mirror(
        newSet.status?.conditions,
        MACHINE_SET_READY,
        falseCondition(MACHINE_SET_READY, 'WaitingForMachineSet', 'Info'),
      )
    : falseCondition(MACHINE_SET_READY, 'WaitingForMachineSet', 'Info', 'MachineSet not found');
  const conditions = withSummary(
    setConditions(md.status?.conditions, [availableCondition, setReady], nowISO),
    { conditions: [MD_AVAILABLE] },
    nowISO,
  );
  return {
    ...md.status,
    observedGeneration: md.metadata.generation ?? 0,
    // The selector after the webhook's defaulting: never empty (upstream requires 1–4096 chars).
    selector: selectorString(effectiveSelector(md)),
    replicas,
    updatedReplicas: statusOf(newSet).replicas ?? 0,
    readyReplicas: ready,
    availableReplicas: available,
    unavailableReplicas: Math.max(0, specTotal - available),
    ...(phase ? { phase } : {}),
    conditions,
  };
}
