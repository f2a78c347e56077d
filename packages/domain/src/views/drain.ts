import { parseGoDurationExact } from '../conversion/duration';

/**
 * The deletion step of a deleting Machine and, while it drains, what the drain waits for: the
 * Pods still being evicted and the evictions refused (a PodDisruptionBudget's 429), parsed from
 * the message Cluster API (v1.14 `EvictionResult.ConditionMessage`) writes into v1beta2's
 * `Deleting` condition and v1beta1's `DrainingSucceeded` condition. Pure: the caller passes the
 * clock.
 */

/** The annotation that makes Cluster API skip the drain of a Machine's Node. */
export const ANNOTATION_EXCLUDE_NODE_DRAINING = 'machine.cluster.x-k8s.io/exclude-node-draining';

/** v1beta2 `Deleting` reasons (api/core/v1beta2/machine_types.go), in the order they happen. */
export const DELETING_STEPS = [
  'WaitingForPreDrainHook',
  'DrainingNode',
  'WaitingForVolumeDetach',
  'WaitingForPreTerminateHook',
  'WaitingForInfrastructureDeletion',
  'WaitingForBootstrapDeletion',
  'DeletingNode',
] as const;
export type DeletingStep = (typeof DELETING_STEPS)[number] | 'Unknown';

/** A list of Pods as upstream's ListToString writes it: at most 3 names, then "... (N more)". */
export interface PodList {
  pods: string[];
  /** Pods the message left off ("... (N more)"). */
  more: number;
}

export interface PdbRefusal {
  name: string;
  needs: number;
  has: number;
}

export interface EvictionFailure extends PodList {
  /** The error the eviction got, as the message says it. */
  error: string;
  /** Set when the error is a PodDisruptionBudget's refusal (429). */
  pdb?: PdbRefusal | undefined;
}

export interface DrainMessage {
  /** RFC 3339 start time in the header, when present. */
  startedAt?: string | undefined;
  /** "Pods with deletionTimestamp that still exist": being evicted. */
  evicting: PodList;
  /** "Pods with eviction failed": one entry per distinct error (upstream keeps 5). */
  failed: EvictionFailure[];
  /** "(N more errors applying to M Pods)". */
  moreErrors?: { errors: number; pods: number } | undefined;
  /** Pods to evict once the above are gone (a later drain order). */
  later: PodList;
}

const HEADER = /^Drain not completed yet \(started at ([^)]*)\):/;
const PDB_CAUSE = /The disruption budget (\S+) needs (\d+) healthy pods and has (\d+) currently/;
const PDB_REFUSED = /cannot evict pod as it would violate the pod's disruption budget/i;
const MORE = /^\.\.\. \((\d+) more\)$/;
const MORE_ERRORS = /^\.\.\. \((\d+) more errors? applying to (\d+) Pods?\)$/;

const MAX_MESSAGE = 64 * 1024;
/** The per-Pod lines this simulator (and older drain messages) write: "* Pod ns/name: message". */
const LEGACY_POD = /^Pod (\S+\/\S+): (.+)$/;

function legacy(out: DrainMessage, line: string): void {
  const m = LEGACY_POD.exec(line);
  if (!m) return;
  const pod = m[1] ?? '';
  const text = m[2] ?? '';
  if (text.includes('deletionTimestamp set')) {
    out.evicting.pods.push(pod);
    return;
  }
  const f = failure(`${text}: ${pod}`);
  const same = out.failed.find((x) => x.error === f.error);
  if (same) same.pods.push(pod);
  else out.failed.push(f);
}

function podList(text: string): PodList {
  const out: PodList = { pods: [], more: 0 };
  for (const part of text.split(', ')) {
    const item = part.trim();
    if (!item) continue;
    const more = MORE.exec(item);
    if (more) out.more += Number(more[1]);
    else out.pods.push(item);
  }
  return out;
}

/** Splits "error: pod, pod" at the last ": " that precedes a namespace/name list. */
function failure(line: string): EvictionFailure {
  const idx = line.lastIndexOf(': ');
  const error = idx < 0 ? line : line.slice(0, idx);
  const list = idx < 0 ? { pods: [], more: 0 } : podList(line.slice(idx + 2));
  const cause = PDB_CAUSE.exec(error);
  const pdb =
    cause && PDB_REFUSED.test(error)
      ? { name: cause[1] ?? '', needs: Number(cause[2]), has: Number(cause[3]) }
      : undefined;
  return { error, ...list, pdb };
}

/** Parses a drain condition message (v1beta1 DrainingSucceeded or v1beta2 Deleting). */
export function parseDrainMessage(message: string | undefined): DrainMessage {
  const out: DrainMessage = {
    evicting: { pods: [], more: 0 },
    failed: [],
    later: { pods: [], more: 0 },
  };
  if (!message) return out;
  const lines = message.slice(0, MAX_MESSAGE).split('\n');
  const header = HEADER.exec(lines[0] ?? '');
  if (header) out.startedAt = header[1];
  let inFailed = false;
  for (const raw of lines.slice(header ? 1 : 0)) {
    if (raw.startsWith('  * ') && inFailed) {
      const body = raw.slice(4);
      const more = MORE_ERRORS.exec(body);
      if (more) out.moreErrors = { errors: Number(more[1]), pods: Number(more[2]) };
      else out.failed.push(failure(body));
      continue;
    }
    inFailed = false;
    const line = raw.startsWith('* ') ? raw.slice(2) : raw;
    const evicting = 'Pods with deletionTimestamp that still exist: ';
    const later =
      'After above Pods have been removed from the Node, the following Pods will be evicted: ';
    if (line.startsWith(evicting)) out.evicting = podList(line.slice(evicting.length));
    else if (line.startsWith('Pods with eviction failed:')) inFailed = true;
    else if (line.startsWith(later)) out.later = podList(line.slice(later.length));
    else if (LEGACY_POD.test(line)) legacy(out, line);
  }
  return out;
}

export type DeletionAction = 'wait' | 'fix-pdb' | 'set-drain-timeout' | 'exclude-node-draining';

export interface DeletionInput {
  deletionTimestamp?: string | undefined;
  annotations?: Record<string, string> | undefined;
  /** v1beta2 Deleting condition. */
  deleting?: { status: string; reason?: string; message?: string } | undefined;
  /** v1beta1 DrainingSucceeded condition. */
  drainingSucceeded?: { status: string; reason?: string; message?: string } | undefined;
  nodeDrainStartTime?: string | undefined;
  /** The Machine's (from the pool's template) nodeDrainTimeout, a Go duration ("0s" or unset: none). */
  nodeDrainTimeout?: string | undefined;
  nowMs: number;
}

export interface DeletionView {
  step: DeletingStep;
  draining: boolean;
  drain?: DrainMessage | undefined;
  drainingForMs?: number | undefined;
  /** 0 or undefined: no timeout (the drain waits for ever). */
  drainTimeoutMs?: number | undefined;
  /** True once the drain ran past its timeout (Cluster API goes on deleting). */
  timedOut: boolean;
  excluded: boolean;
  actions: DeletionAction[];
}

function timeoutMs(text: string | undefined): number | undefined {
  if (!text) return undefined;
  try {
    return Number(parseGoDurationExact(text) / 1_000_000n);
  } catch {
    return undefined;
  }
}

/** The deletion view of a Machine; undefined when it is not being deleted. */
export function deletionView(input: DeletionInput): DeletionView | undefined {
  if (!input.deletionTimestamp) return undefined;
  const reason = input.deleting?.status === 'True' ? input.deleting.reason : undefined;
  const v1 = input.drainingSucceeded;
  const v1Draining = v1?.status === 'False' && v1.reason === 'Draining';
  const step: DeletingStep = (DELETING_STEPS as readonly string[]).includes(reason ?? '')
    ? (reason as DeletingStep)
    : v1Draining
      ? 'DrainingNode'
      : 'Unknown';
  const draining = step === 'DrainingNode';
  const message = reason === 'DrainingNode' ? input.deleting?.message : v1?.message;
  const drain = draining ? parseDrainMessage(message) : undefined;
  const start = input.nodeDrainStartTime ? Date.parse(input.nodeDrainStartTime) : NaN;
  const drainingForMs = Number.isFinite(start) ? Math.max(0, input.nowMs - start) : undefined;
  const drainTimeoutMs = timeoutMs(input.nodeDrainTimeout);
  const timedOut =
    v1?.reason === 'DrainingFailed' ||
    (drainTimeoutMs !== undefined &&
      drainTimeoutMs > 0 &&
      drainingForMs !== undefined &&
      drainingForMs >= drainTimeoutMs);
  const excluded = Object.hasOwn(input.annotations ?? {}, ANNOTATION_EXCLUDE_NODE_DRAINING);
  const actions: DeletionAction[] = [];
  if (draining) {
    actions.push('wait');
    if (drain?.failed.some((f) => f.pdb)) actions.push('fix-pdb');
    if (!drainTimeoutMs) actions.push('set-drain-timeout');
    if (!excluded) actions.push('exclude-node-draining');
  }
  return { step, draining, drain, drainingForMs, drainTimeoutMs, timedOut, excluded, actions };
}
