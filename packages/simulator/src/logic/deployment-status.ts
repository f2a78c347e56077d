import type { Machine, MachineDeployment, MachineSet } from '@dcs/domain';
import { machinesAggregates, staleMachinesMessage } from './machineset-status';
import {
  DELETING,
  REMEDIATING,
  ROLLING_OUT,
  SCALING_DOWN,
  SCALING_UP,
  UP_TO_DATE,
  getV2,
  pausedCondition,
  setV2Conditions,
  v1beta2Of,
  v2,
  v2ConditionsOf,
  type V1Beta2Block,
  type V2Update,
} from './v1beta2';
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

// --- v1beta2 (internal/controllers/machinedeployment/machinedeployment_status.go, v1.14.0) ---

export interface DeploymentV2Input {
  md: MachineDeployment;
  state: DeploymentState;
  sets: readonly MachineSet[];
  /** The machines of every set of the deployment. */
  machines: readonly Machine[];
  clusterPaused: boolean;
  wallNow: number;
  deletingFor: (m: Machine) => number | undefined;
  drainingFor: (m: Machine) => number | undefined;
  nowISO: string;
}

const sumOf = (
  sets: readonly MachineSet[],
  key: 'readyReplicas' | 'availableReplicas' | 'upToDateReplicas',
) => {
  let total: number | undefined;
  for (const ms of sets) {
    const v = v1beta2Of(ms.status)?.[key];
    if (typeof v === 'number') total = (total ?? 0) + v;
  }
  return total;
};

/** RollingOut: the machines whose UpToDate is False, with their reasons (a version change first). */
export function rollingOutCondition(machines: readonly Machine[]): V2Update {
  let rolling = 0;
  const reasons = new Set<string>();
  for (const m of machines) {
    const c = getV2(v2ConditionsOf(m), UP_TO_DATE);
    if (c?.status !== 'False') continue;
    rolling++;
    if (c.message) for (const line of c.message.split('\n')) reasons.add(line);
  }
  if (rolling === 0) return v2(ROLLING_OUT, 'False', 'NotRollingOut');
  const sorted = [...reasons].sort((a, b) => {
    const va = a.startsWith('* Version');
    const vb = b.startsWith('* Version');
    if (va !== vb) return va ? -1 : 1;
    return a < b ? -1 : a > b ? 1 : 0;
  });
  return v2(
    ROLLING_OUT,
    'True',
    'RollingOut',
    `Rolling out ${rolling} not up-to-date replicas${sorted.length ? `\n${sorted.join('\n')}` : ''}`,
  );
}

/** The MachineDeployment's `status.v1beta2` (updateStatus). */
export function deploymentV2Status(input: DeploymentV2Input): V1Beta2Block {
  const { md, state, sets, machines } = input;
  const readyReplicas = sumOf(sets, 'readyReplicas');
  const availableReplicas = sumOf(sets, 'availableReplicas');
  const upToDateReplicas = sumOf(sets, 'upToDateReplicas');
  const deleting = Boolean(md.metadata.deletionTimestamp);
  const updates: V2Update[] = [];

  // setAvailableCondition
  const minNeeded = state.replicas - maxUnavailableOf(state);
  if (availableReplicas === undefined) {
    updates.push(
      v2(
        MD_AVAILABLE,
        'Unknown',
        'WaitingForAvailableReplicasSet',
        'Waiting for status.availableReplicas set',
      ),
    );
  } else if (availableReplicas >= minNeeded) {
    updates.push(v2(MD_AVAILABLE, 'True', 'Available'));
  } else {
    let message = `${availableReplicas} available replicas, at least ${minNeeded} required`;
    if (state.strategy === 'RollingUpdate') {
      const mu = state.maxUnavailable ?? 0;
      message += ` (spec.strategy.rollout.maxUnavailable is ${String(mu)}, spec.replicas is ${String(state.replicas)})`;
    }
    if (deleting) message = 'Deletion in progress';
    updates.push(v2(MD_AVAILABLE, 'False', 'NotAvailable', message));
  }
  updates.push(rollingOutCondition(machines));

  const desired = deleting ? 0 : state.replicas;
  const current = sets.reduce((n, ms) => n + (ms.status?.replicas ?? 0), 0);
  updates.push(
    current >= desired
      ? v2(SCALING_UP, 'False', 'NotScalingUp')
      : v2(SCALING_UP, 'True', 'ScalingUp', `Scaling up from ${current} to ${desired} replicas`),
  );
  const stale = () => staleMachinesMessage(machines, input.deletingFor, input.drainingFor);
  if (current > desired) {
    const s = stale();
    updates.push(
      v2(
        SCALING_DOWN,
        'True',
        'ScalingDown',
        `Scaling down from ${current} to ${desired} replicas${s ? `\n* ${s}` : ''}`,
      ),
    );
  } else updates.push(v2(SCALING_DOWN, 'False', 'NotScalingDown'));
  updates.push(...machinesAggregates(machines, input.wallNow));
  updates.push(v2(REMEDIATING, 'False', 'NotRemediating'));
  if (!deleting) updates.push(v2(DELETING, 'False', 'NotDeleting'));
  else {
    const n = sets.length;
    const m = machines.length;
    const s = stale();
    const message =
      n === 0 && m === 0
        ? 'Deletion completed'
        : `Deleting ${n} MachineSet${n === 1 ? '' : 's'}${m ? ` and ${m} Machine${m === 1 ? '' : 's'}` : ''}${s ? `\n* ${s}` : ''}`;
    updates.push(v2(DELETING, 'True', 'Deleting', message));
  }
  updates.push(pausedCondition(input.clusterPaused, md.metadata.annotations, 'MachineDeployment'));

  const previous = v1beta2Of(md.status)?.conditions;
  return {
    conditions: setV2Conditions(previous, updates, md.metadata.generation ?? 0, input.nowISO),
    ...(readyReplicas !== undefined ? { readyReplicas } : {}),
    ...(availableReplicas !== undefined ? { availableReplicas } : {}),
    ...(upToDateReplicas !== undefined ? { upToDateReplicas } : {}),
  };
}
