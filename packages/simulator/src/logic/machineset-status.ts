import type { Condition, Machine, MachineSet } from '@dcs/domain';
import {
  aggregate,
  falseCondition,
  getCondition,
  isTrue,
  setConditions,
  trueCondition,
  withSummary,
} from './conditions';
import { NODE_HEALTHY } from './deletion-order';
import { effectiveSetSelector, selectorString } from './selectors';

/**
 * A MachineSet's status as Cluster API v1.10 computes it (machineset_controller.go updateStatus,
 * v1beta1 conditions). A machine is ready when its node is (NodeHealthy True: the simulation's
 * node), and available once it has been ready for minReadySeconds and is not being deleted.
 */

export const MACHINES_CREATED = 'MachinesCreated';
export const RESIZED = 'Resized';
export const MACHINES_READY = 'MachinesReady';

export function isMachineReady(m: Machine): boolean {
  return Boolean(m.status?.nodeRef) && isTrue(m.status?.conditions, NODE_HEALTHY);
}

/** When the machine's node became ready, in ms: by default its NodeHealthy lastTransitionTime. */
export type ReadySince = (m: Machine) => number | undefined;

const stampedReadySince: ReadySince = (m) => {
  const t = getCondition(m.status?.conditions, NODE_HEALTHY)?.lastTransitionTime;
  const ms = t ? Date.parse(t) : NaN;
  return Number.isNaN(ms) ? undefined : ms;
};

/** Ready for minReadySeconds by `now`, both on the clock `readySince` answers on. */
export function isMachineAvailable(
  m: Machine,
  minReadySeconds: number,
  now: number,
  readySince: ReadySince = stampedReadySince,
): boolean {
  if (!isMachineReady(m)) return false;
  if (minReadySeconds <= 0) return true;
  const since = readySince(m);
  return since !== undefined && since + minReadySeconds * 1000 <= now;
}

export interface MachineSetStatusInput {
  ms: MachineSet;
  /** Machines the set owns, including those being deleted. */
  machines: readonly Machine[];
  now: number;
  /** The timestamp written for transitions (wall clock). */
  nowISO: string;
  /** On the clock of `now`; default: parsed from NodeHealthy's lastTransitionTime. */
  readySince?: ReadySince;
  /** Set when creating machines failed in this reconcile. */
  creationError?: string;
}

export type MachineSetStatus = NonNullable<MachineSet['status']>;

export function machineSetStatus(input: MachineSetStatusInput): MachineSetStatus {
  const { ms, machines, now, nowISO } = input;
  const spec = ms.spec;
  const desired = spec?.replicas ?? 1;
  const templateLabels = spec?.template?.metadata?.labels ?? {};
  const minReady = spec?.minReadySeconds ?? 0;
  let fullyLabeled = 0;
  let ready = 0;
  let available = 0;
  for (const m of machines) {
    const labels = m.metadata.labels ?? {};
    if (Object.entries(templateLabels).every(([k, v]) => labels[k] === v)) fullyLabeled++;
    if (isMachineReady(m)) {
      ready++;
      // Cluster API v1.10 still counts a machine being deleted as available while its node is
      // Ready; the simulation does not: a draining node is cordoned and about to go, and counting
      // it lets a roll-over scale old sets below replicas - maxUnavailable (see rollout.test.ts).
      if (!m.metadata.deletionTimestamp && isMachineAvailable(m, minReady, now, input.readySince))
        available++;
    }
  }
  const replicas = machines.length;
  const previous = ms.status?.conditions;
  const updates: (Condition | undefined)[] = [];
  if (input.creationError) {
    updates.push(
      falseCondition(MACHINES_CREATED, 'MachineCreationFailed', 'Error', input.creationError),
    );
  }
  if (replicas < desired) {
    updates.push(
      falseCondition(
        RESIZED,
        'ScalingUp',
        'Warning',
        `Scaling up MachineSet to ${desired} replicas (actual ${replicas})`,
      ),
    );
  } else if (replicas > desired) {
    updates.push(
      falseCondition(
        RESIZED,
        'ScalingDown',
        'Warning',
        `Scaling down MachineSet to ${desired} replicas (actual ${replicas})`,
      ),
    );
    if (!input.creationError) updates.push(trueCondition(MACHINES_CREATED));
  } else {
    // Resized only once the machines are provisioned, not when their objects exist (as KCP does).
    if (ready === replicas) updates.push(trueCondition(RESIZED));
    if (!input.creationError) updates.push(trueCondition(MACHINES_CREATED));
  }
  updates.push(
    aggregate(
      machines.map((m) => ({
        kind: 'Machine',
        name: m.metadata.name ?? '',
        conditions: m.status?.conditions,
      })),
      MACHINES_READY,
    ),
  );
  const conditions = withSummary(
    setConditions(previous, updates, nowISO),
    { conditions: [MACHINES_CREATED, RESIZED, MACHINES_READY] },
    nowISO,
  );
  return {
    ...ms.status,
    // The selector after the webhook's defaulting: never empty (upstream requires 1–4096 chars).
    selector: selectorString(effectiveSetSelector(ms)),
    replicas,
    fullyLabeledReplicas: fullyLabeled,
    readyReplicas: ready,
    availableReplicas: available,
    observedGeneration: ms.metadata.generation ?? 0,
    conditions,
  };
}
