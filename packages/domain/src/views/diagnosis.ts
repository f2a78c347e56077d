import { REASON_NO_FREE_POOL_ENTRY, failureOf, vmStateOf, type VmState } from '../dcs-fields';
import type { Machine } from '../schemas/capi';
import type { DCSMachine } from '../schemas/dcs';
import type { Condition } from '../schemas/meta';
import { findCondition } from './conditions';
import type { ViewMessageKey } from './messages';
import { viewProblem, type ViewProblem } from './problem';
import { MINUTE_MS, isMachineDeleting, latestTime, parseTime } from './util';

/**
 * Why a machine is stuck (T-1 and its neighbours), decided from the Machine, its DCSMachine and
 * the current time only. The same for control-plane and worker machines, for a new cluster's
 * first machine, scale-up and rolling-update replacements alike.
 */

export type DiagnosisCode =
  'placement-stall' | 'early-failure' | 'waiting-for-ip' | 'vm-failed' | 'node-not-healthy';

export interface Diagnosis extends ViewProblem {
  code: DiagnosisCode;
  /** Message keys of the checks to go through, in order. */
  checklist: ViewMessageKey[];
  /**
   * Since when the machine has been in the state diagnosed (RFC 3339), when known. The view says
   * "since", not "for N minutes", so that it changes only when the objects do.
   */
  since?: string;
}

export interface DiagnosisOptions {
  /** How long a machine may stay Provisioning before it counts as stuck. Default 10 minutes. */
  stuckAfterMs?: number;
  /** How long a Provisioned/Running machine's node may stay unhealthy. Default 10 minutes (Cluster API's nodeStartupTimeout). */
  nodeUnhealthyAfterMs?: number;
  /**
   * Free entries of the machine's IP-hostname pool, when the caller knows them: a machine that
   * has claimed no entry while none is free waits for one even without a condition saying so.
   */
  ipPoolFree?: number;
}

export const DEFAULT_STUCK_AFTER_MS = 10 * MINUTE_MS;
export const DEFAULT_NODE_UNHEALTHY_AFTER_MS = 10 * MINUTE_MS;

export { REASON_NO_FREE_POOL_ENTRY } from '../dcs-fields';

const VM_CREATING: VmState = 'creating';
const VM_FAILED: VmState = 'failed';

export const PLACEMENT_STALL_CHECKLIST: ViewMessageKey[] = [
  'view.check.confirmPlacementStall',
  'view.check.datastoreFreeSpace',
  'view.check.hostUtilization',
  'view.check.rebalanceHost',
  'view.check.escalateDeadlock',
];
export const EARLY_FAILURE_CHECKLIST: ViewMessageKey[] = [
  'view.check.dcsCredentials',
  'view.check.isoUpload',
  'view.check.providerLogs',
];
export const WAITING_FOR_IP_CHECKLIST: ViewMessageKey[] = [
  'view.check.extendIpPool',
  'view.check.lowerReplicas',
  'view.check.releasedEntries',
];
export const VM_FAILED_CHECKLIST: ViewMessageKey[] = [
  'view.check.failureDetails',
  'view.check.dcsTaskLog',
  'view.check.replaceMachine',
];
export const NODE_NOT_HEALTHY_CHECKLIST: ViewMessageKey[] = [
  'view.check.kubeletLogs',
  'view.check.apiServerReachable',
  'view.check.versionMatchesTemplate',
  'view.check.kubeletPatch',
  'view.check.magicTokens',
];

const noFreeEntry = (c: Condition) =>
  c.status === 'False' && c.reason === REASON_NO_FREE_POOL_ENTRY;

/** When the machine entered its current phase: Cluster API's `status.lastUpdated`, else its birth. */
function phaseSince(machine: Machine, dcsMachine: DCSMachine | undefined): number | undefined {
  return latestTime(
    machine.status?.lastUpdated,
    machine.metadata.creationTimestamp,
    dcsMachine?.metadata.creationTimestamp,
  );
}

const iso = (ms: number) => new Date(ms).toISOString();

function diagnosis(
  code: DiagnosisCode,
  severity: Diagnosis['severity'],
  messageKey: ViewMessageKey,
  params: Record<string, string>,
  checklist: ViewMessageKey[],
  rule: string | undefined,
  since: number | undefined,
): Diagnosis {
  return {
    ...viewProblem(code, severity, messageKey, params, rule),
    code,
    checklist,
    ...(since !== undefined ? { since: iso(since) } : {}),
  };
}

/**
 * The diagnosis of a machine that is failed or stuck, or undefined when it is fine or not stuck
 * yet. `now` is a parameter: views never read the clock.
 */
export function diagnoseMachine(
  machine: Machine,
  dcsMachine: DCSMachine | undefined,
  now: Date,
  options: DiagnosisOptions = {},
): Diagnosis | undefined {
  if (isMachineDeleting(machine)) return undefined;
  const name = machine.metadata.name ?? '';
  const phase = machine.status?.phase;
  const nowMs = now.getTime();
  const stuckAfter = options.stuckAfterMs ?? DEFAULT_STUCK_AFTER_MS;
  const vmState = dcsMachine ? vmStateOf(dcsMachine) : undefined;

  // A failure reported by Cluster API or the provider is terminal: say so at once.
  const dcsFailure = dcsMachine ? failureOf(dcsMachine) : {};
  const failureReason = machine.status?.failureReason ?? dcsFailure.reason;
  const failureMessage = machine.status?.failureMessage ?? dcsFailure.message;
  if (phase === 'Failed' || failureReason || failureMessage || vmState === VM_FAILED) {
    return diagnosis(
      'vm-failed',
      'error',
      'view.diagnosis.vmFailed',
      {
        machine: name,
        reason: failureReason ?? (vmState === VM_FAILED ? 'VMFailed' : 'Failed'),
        message: failureMessage ?? '—',
      },
      VM_FAILED_CHECKLIST,
      undefined,
      parseTime(machine.status?.lastUpdated),
    );
  }

  const since = phaseSince(machine, dcsMachine);
  const pool = dcsMachine?.spec?.ipHostPoolRef.name ?? '';
  const coming = phase === 'Pending' || phase === 'Provisioning' || phase === undefined;

  // R-POOL-1: the provider says it found no free entry.
  const infraReady = findCondition(machine.status?.conditions, 'InfrastructureReady');
  const waiting =
    dcsMachine?.status?.conditions?.find(noFreeEntry) ??
    (infraReady && noFreeEntry(infraReady) ? infraReady : undefined);
  if (coming && waiting) {
    return diagnosis(
      'waiting-for-ip',
      'error',
      'view.diagnosis.waitingForIp',
      { machine: name, pool },
      WAITING_FOR_IP_CHECKLIST,
      'R-POOL-1',
      parseTime(waiting.lastTransitionTime) ?? since,
    );
  }

  const overdue = since !== undefined && nowMs - since >= stuckAfter;

  // R-POOL-1, inferred: no entry claimed while none is free. Only once overdue, since an entry
  // held by a machine being deleted frees up within moments during a maxSurge-0 rollout.
  if (
    coming &&
    overdue &&
    options.ipPoolFree === 0 &&
    !dcsMachine?.status?.networkConfig?.ip &&
    !dcsMachine?.status?.cdRomFile
  ) {
    return diagnosis(
      'waiting-for-ip',
      'error',
      'view.diagnosis.waitingForIp',
      { machine: name, pool },
      WAITING_FOR_IP_CHECKLIST,
      'R-POOL-1',
      since,
    );
  }

  // T-1: stuck in Provisioning.
  if (phase === 'Provisioning' && overdue) {
    if (!dcsMachine?.status?.cdRomFile) {
      return diagnosis(
        'early-failure',
        'error',
        'view.diagnosis.earlyFailure',
        { machine: name, since: iso(since) },
        EARLY_FAILURE_CHECKLIST,
        'T-1',
        since,
      );
    }
    if (vmState === VM_CREATING) {
      return diagnosis(
        'placement-stall',
        'warning',
        'view.diagnosis.placementStall',
        { machine: name, since: iso(since) },
        PLACEMENT_STALL_CHECKLIST,
        'T-1',
        since,
      );
    }
    return undefined;
  }

  // The VM is up but its node never became (or stopped being) healthy.
  if (phase === 'Provisioned' || phase === 'Running') {
    const nodeHealthy = findCondition(machine.status?.conditions, 'NodeHealthy');
    if (nodeHealthy?.status === 'True') return undefined;
    if (!nodeHealthy && phase === 'Running') return undefined;
    const unhealthySince =
      latestTime(nodeHealthy?.lastTransitionTime) ?? (phase === 'Provisioned' ? since : undefined);
    if (unhealthySince === undefined) return undefined;
    if (nowMs - unhealthySince < (options.nodeUnhealthyAfterMs ?? DEFAULT_NODE_UNHEALTHY_AFTER_MS))
      return undefined;
    const joined = machine.status?.nodeRef !== undefined;
    return diagnosis(
      'node-not-healthy',
      // A node that never joined will not recover by itself; one that did may come back.
      joined ? 'warning' : 'error',
      'view.diagnosis.nodeNotHealthy',
      {
        machine: name,
        since: iso(unhealthySince),
        reason: nodeHealthy?.reason ?? (joined ? 'NodeNotReady' : 'WaitingForNodeRef'),
      },
      NODE_NOT_HEALTHY_CHECKLIST,
      undefined,
      unhealthySince,
    );
  }
  return undefined;
}

/**
 * When, at the earliest, the machine's diagnosis may change by the passage of time alone (it
 * crosses a threshold), as epoch milliseconds; undefined when time alone changes nothing. Lets
 * the BFF rebuild views at that moment instead of polling.
 */
export function diagnosisDueAt(
  machine: Machine,
  dcsMachine: DCSMachine | undefined,
  now: Date,
  options: DiagnosisOptions = {},
): number | undefined {
  if (isMachineDeleting(machine)) return undefined;
  const phase = machine.status?.phase;
  const nowMs = now.getTime();
  let due: number | undefined;
  if (phase === 'Pending' || phase === 'Provisioning' || phase === undefined) {
    const since = phaseSince(machine, dcsMachine);
    if (since !== undefined) due = since + (options.stuckAfterMs ?? DEFAULT_STUCK_AFTER_MS);
  } else if (phase === 'Provisioned' || phase === 'Running') {
    const nodeHealthy = findCondition(machine.status?.conditions, 'NodeHealthy');
    const since =
      nodeHealthy && nodeHealthy.status !== 'True'
        ? parseTime(nodeHealthy.lastTransitionTime)
        : !nodeHealthy && phase === 'Provisioned'
          ? phaseSince(machine, dcsMachine)
          : undefined;
    if (since !== undefined)
      due = since + (options.nodeUnhealthyAfterMs ?? DEFAULT_NODE_UNHEALTHY_AFTER_MS);
  }
  return due !== undefined && due > nowMs ? due : undefined;
}
