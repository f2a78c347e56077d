import {
  LABEL_CONTROL_PLANE,
  type Condition,
  type Machine,
  type MachineDeployment,
  type MachineSet,
} from '@dcs/domain';
import { effectiveTemplate, rolloutAfterExpired } from './machineset-desired';
import { DELETING_DRAINING_NODE, drainDelayReasons } from './machine-status';
import { canonicalJson, rolloutFields, sameRolloutFields, type MachineTemplate } from './names';
import {
  AVAILABLE,
  DELETING,
  MACHINES_READY as MACHINES_READY_V2,
  MACHINES_UP_TO_DATE,
  READY,
  REMEDIATING,
  SCALING_DOWN,
  SCALING_UP,
  UP_TO_DATE,
  aggregateV2,
  getV2,
  listToString,
  pausedCondition,
  setV2Conditions,
  v1beta2Of,
  v2,
  v2ConditionsOf,
  type AggregateSource,
  type V1Beta2Block,
  type V2Update,
} from './v1beta2';
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

// --- v1beta2 (internal/controllers/machineset/machineset_controller_status.go, v1.14.0) ------

const dropTemplate = (kind: string | undefined) => (kind ?? '').replace(/Template$/, '');

/**
 * mdutil.MachineTemplateUpToDate's condition messages: what a machine made from `current` lacks
 * against `desired` (empty when up to date).
 */
export function templateDiff(current: MachineTemplate, desired: MachineTemplate): string[] {
  if (sameRolloutFields(current, desired)) return [];
  const a = rolloutFields(current);
  const b = rolloutFields(desired);
  const out: string[] = [];
  if (a.version !== b.version)
    out.push(`Version ${current.spec.version ?? 'nil'}, ${desired.spec.version ?? 'nil'} required`);
  if (canonicalJson(a.bootstrap) !== canonicalJson(b.bootstrap)) {
    const ref = current.spec.bootstrap.configRef;
    out.push(
      ref
        ? `${dropTemplate(ref.kind)} is not up-to-date`
        : `spec.bootstrap.dataSecretName ${current.spec.bootstrap.dataSecretName ?? 'nil'}, ${desired.spec.bootstrap.dataSecretName ?? 'nil'} required`,
    );
  }
  if (canonicalJson(a.infrastructureRef) !== canonicalJson(b.infrastructureRef))
    out.push(`${dropTemplate(current.spec.infrastructureRef.kind)} is not up-to-date`);
  if ((a.failureDomain ?? '') !== (b.failureDomain ?? ''))
    out.push(
      `Failure domain ${current.spec.failureDomain ?? 'nil'}, ${desired.spec.failureDomain ?? 'nil'} required`,
    );
  // Any other rollout field (e.g. readiness gates are in place; minReadySeconds is not a rollout field).
  if (out.length === 0)
    out.push(`${dropTemplate(current.spec.infrastructureRef.kind)} is not up-to-date`);
  return out;
}

/**
 * The UpToDate condition the MachineSet controller sets on its machines: whether the set's
 * template is its deployment's (a set without a deployment is its own template: up to date).
 */
export function machineUpToDate(
  ms: MachineSet | undefined,
  md: MachineDeployment | undefined,
  wallNow = Date.now(),
): V2Update | undefined {
  const current = ms?.spec?.template;
  if (!current) return undefined;
  if (!md) return v2(UP_TO_DATE, 'True', 'UpToDate');
  const diff = templateDiff(current, effectiveTemplate(md));
  // O-RESTART: the set is out of date once its deployment's rolloutAfter has passed.
  if (rolloutAfterExpired(md.spec?.rolloutAfter, ms.metadata.creationTimestamp, wallNow))
    diff.push('MachineDeployment spec.rolloutAfter expired');
  return diff.length === 0
    ? v2(UP_TO_DATE, 'True', 'UpToDate')
    : v2(UP_TO_DATE, 'False', 'NotUpToDate', diff.map((d) => `* ${d}`).join('\n'));
}

/** aggregateStaleMachines: machines deleting for more than 15 minutes, and why. */
export function staleMachinesMessage(
  machines: readonly Machine[],
  deletingFor: (m: Machine) => number | undefined,
  drainingFor: (m: Machine) => number | undefined,
): string {
  const names: string[] = [];
  const delays = new Set<string>();
  for (const m of machines) {
    if (!m.metadata.deletionTimestamp || (deletingFor(m) ?? 0) <= 15 * 60_000) continue;
    names.push(m.metadata.name ?? '');
    const d = getV2(v2ConditionsOf(m), DELETING);
    if (
      d?.status === 'True' &&
      d.reason === DELETING_DRAINING_NODE &&
      (drainingFor(m) ?? 0) > 5 * 60_000
    )
      for (const r of drainDelayReasons(d.message)) delays.add(r);
  }
  if (names.length === 0) return '';
  names.sort();
  let message = `${names.length > 1 ? 'Machines' : 'Machine'} ${listToString(names)} ${names.length > 1 ? 'are' : 'is'} in deletion since more than 15m`;
  if (delays.size) {
    const order = [
      'PodDisruptionBudgets',
      'Pods not terminating',
      'Pod eviction errors',
      'Pods not completed yet',
    ];
    message += `, delay likely due to ${order.filter((r) => delays.has(r)).join(', ')}`;
  }
  return message;
}

export const machineSources = (machines: readonly Machine[]): AggregateSource[] =>
  machines.map((m) => ({
    kind: 'Machine',
    name: m.metadata.name ?? '',
    conditions: v2ConditionsOf(m),
    controlPlane: m.metadata.labels?.[LABEL_CONTROL_PLANE] !== undefined,
  }));

/** MachinesReady, MachinesUpToDate: the machines' Ready and UpToDate conditions aggregated. */
export function machinesAggregates(machines: readonly Machine[], wallNow: number): V2Update[] {
  const sources = machineSources(machines);
  const ready =
    machines.length === 0
      ? v2(MACHINES_READY_V2, 'True', 'NoReplicas')
      : aggregateV2(sources, READY, MACHINES_READY_V2, ['NotReady', 'ReadyUnknown', 'Ready']);
  // Only machines with an UpToDate condition or older than 10 s (no flicker after a create).
  const considered = sources.filter((s, i) => {
    if (getV2(s.conditions, UP_TO_DATE)) return true;
    const created = Date.parse(machines[i]?.metadata.creationTimestamp ?? '');
    return !Number.isNaN(created) && wallNow - created > 10_000;
  });
  const upToDate =
    considered.length === 0
      ? v2(MACHINES_UP_TO_DATE, 'True', 'NoReplicas')
      : aggregateV2(considered, UP_TO_DATE, MACHINES_UP_TO_DATE, [
          'NotUpToDate',
          'UpToDateUnknown',
          'UpToDate',
        ]);
  return [ready, upToDate];
}

/** The counters of v1beta2: machines whose Ready, Available and UpToDate are True. */
export function v2Counters(machines: readonly Machine[]): {
  readyReplicas: number;
  availableReplicas: number;
  upToDateReplicas: number;
} {
  let readyReplicas = 0;
  let availableReplicas = 0;
  let upToDateReplicas = 0;
  for (const m of machines) {
    const c = v2ConditionsOf(m);
    if (!c) continue;
    for (const x of c) {
      if (x.status !== 'True') continue;
      if (x.type === READY) readyReplicas++;
      else if (x.type === AVAILABLE) availableReplicas++;
      else if (x.type === UP_TO_DATE) upToDateReplicas++;
    }
  }
  return { readyReplicas, availableReplicas, upToDateReplicas };
}

export interface MachineSetV2Input {
  ms: MachineSet;
  machines: readonly Machine[];
  clusterPaused: boolean;
  /** Wall-clock now (machines' creationTimestamp). */
  wallNow: number;
  deletingFor: (m: Machine) => number | undefined;
  drainingFor: (m: Machine) => number | undefined;
  nowISO: string;
}

/** The MachineSet's `status.v1beta2` (updateStatus). */
export function machineSetV2Status(input: MachineSetV2Input): V1Beta2Block {
  const { ms, machines } = input;
  const desired = ms.metadata.deletionTimestamp ? 0 : (ms.spec?.replicas ?? 1);
  const current = machines.length;
  const stale = () => staleMachinesMessage(machines, input.deletingFor, input.drainingFor);
  const updates: V2Update[] = [
    current >= desired
      ? v2(SCALING_UP, 'False', 'NotScalingUp')
      : v2(SCALING_UP, 'True', 'ScalingUp', `Scaling up from ${current} to ${desired} replicas`),
  ];
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
  // No MachineHealthCheck in the simulation: nothing is unhealthy or to be remediated.
  updates.push(v2(REMEDIATING, 'False', 'NotRemediating'));
  if (!ms.metadata.deletionTimestamp) updates.push(v2(DELETING, 'False', 'NotDeleting'));
  else {
    const s = stale();
    const message =
      current > 0
        ? `Deleting ${current} Machine${current === 1 ? '' : 's'}${s ? `\n* ${s}` : ''}`
        : 'Deletion completed';
    updates.push(v2(DELETING, 'True', 'Deleting', message));
  }
  updates.push(pausedCondition(input.clusterPaused, ms.metadata.annotations, 'MachineSet'));
  const previous = v1beta2Of(ms.status)?.conditions;
  return {
    conditions: setV2Conditions(previous, updates, ms.metadata.generation ?? 0, input.nowISO),
    ...v2Counters(machines),
  };
}
