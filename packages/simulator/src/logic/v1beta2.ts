/**
 * Cluster API's v1beta2 conditions (metav1.Condition, `util/conditions` of v1.14.0): the
 * conditions every controller writes under the hub's `status.v1beta2` (v1beta1 as Cluster API
 * ≥ 1.9 serves it; the domain's conversion moves them to `status.conditions` for v1beta2
 * clients). Set with metav1 semantics (lastTransitionTime changes only when status does;
 * observedGeneration = the object's generation at the write), kept in upstream's order
 * (`sort.go`), summarized and aggregated with upstream's default merge strategy
 * (`merge_strategies.go`: issues, then unknown, then info; "* Type: message" summaries;
 * "* Machines a, b: message" aggregates of at most three messages). Pure.
 */

export type V2Status = 'True' | 'False' | 'Unknown';

// A type, not an interface: it is assignable to the domain's loose (index-signed) schema types.
// eslint-disable-next-line @typescript-eslint/consistent-type-definitions
export type V2Condition = {
  type: string;
  status: V2Status;
  reason: string;
  message: string;
  lastTransitionTime?: string;
  observedGeneration?: number;
};

/** What a controller sets: the time and generation are added by `setV2Conditions`. */
export type V2Update = Omit<V2Condition, 'lastTransitionTime' | 'observedGeneration'>;

export const v2 = (type: string, status: V2Status, reason: string, message = ''): V2Update => ({
  type,
  status,
  reason,
  message,
});

// Condition types (api/core/v1beta2, KCP's and the kubeadm bootstrap provider's).
export const AVAILABLE = 'Available';
export const READY = 'Ready';
export const UP_TO_DATE = 'UpToDate';
export const BOOTSTRAP_CONFIG_READY = 'BootstrapConfigReady';
export const INFRASTRUCTURE_READY = 'InfrastructureReady';
export const NODE_READY = 'NodeReady';
export const NODE_HEALTHY = 'NodeHealthy';
export const HEALTH_CHECK_SUCCEEDED = 'HealthCheckSucceeded';
export const OWNER_REMEDIATED = 'OwnerRemediated';
export const DELETING = 'Deleting';
export const PAUSED = 'Paused';
export const MACHINES_READY = 'MachinesReady';
export const MACHINES_UP_TO_DATE = 'MachinesUpToDate';
export const ROLLING_OUT = 'RollingOut';
export const SCALING_UP = 'ScalingUp';
export const SCALING_DOWN = 'ScalingDown';
export const REMEDIATING = 'Remediating';

/** sort.go: Available and Ready first, Paused and Deleting last, the rest as upstream lists them. */
const ORDER = [
  AVAILABLE,
  READY,
  UP_TO_DATE,
  'RemoteConnectionProbe',
  BOOTSTRAP_CONFIG_READY,
  INFRASTRUCTURE_READY,
  'ControlPlaneInitialized',
  'ControlPlaneAvailable',
  'WorkersAvailable',
  'CertificatesAvailable',
  'Initialized',
  'EtcdClusterHealthy',
  'ControlPlaneComponentsHealthy',
  NODE_HEALTHY,
  NODE_READY,
  'NodeKubeadmLabelsAndTaintsSet',
  'EtcdPodHealthy',
  'EtcdMemberHealthy',
  'APIServerPodHealthy',
  'ControllerManagerPodHealthy',
  'SchedulerPodHealthy',
  HEALTH_CHECK_SUCCEEDED,
  OWNER_REMEDIATED,
  'TopologyReconciled',
  'Updating',
  ROLLING_OUT,
  REMEDIATING,
  SCALING_DOWN,
  SCALING_UP,
  MACHINES_READY,
  'ControlPlaneMachinesReady',
  'WorkerMachinesReady',
  MACHINES_UP_TO_DATE,
  'ControlPlaneMachinesUpToDate',
  'WorkerMachinesUpToDate',
  '', // readiness and availability gates, and any other type
  PAUSED,
  DELETING,
];
const ORDER_INDEX = new Map(ORDER.map((t, i) => [t, i]));
const GATES = ORDER_INDEX.get('') ?? 0;
const rank = (type: string) => ORDER_INDEX.get(type) ?? GATES;

function lessV2(a: V2Condition, b: V2Condition): number {
  const d = rank(a.type) - rank(b.type);
  if (d !== 0) return d;
  return a.type < b.type ? -1 : a.type > b.type ? 1 : 0;
}

export const getV2 = (conditions: readonly V2Condition[] | undefined, type: string) =>
  conditions?.find((c) => c.type === type);

export const isTrueV2 = (conditions: readonly V2Condition[] | undefined, type: string) =>
  getV2(conditions, type)?.status === 'True';

/**
 * conditions.Set, several at once: a copy of `previous` with each update set. The last transition
 * time changes only when the status changes (meta.SetStatusCondition); reason, message and
 * observedGeneration are updated in place. One copy and, when a type is added, one sort.
 */
export function setV2Conditions(
  previous: readonly V2Condition[] | undefined,
  updates: readonly (V2Update | undefined)[],
  generation: number,
  nowISO: string,
): V2Condition[] {
  const list = previous ? [...previous] : [];
  let added = false;
  for (const u of updates) {
    if (!u) continue;
    const i = list.findIndex((c) => c.type === u.type);
    const existing = i >= 0 ? list[i] : undefined;
    if (
      existing?.status === u.status &&
      existing.reason === u.reason &&
      existing.message === u.message &&
      existing.observedGeneration === generation
    )
      continue;
    const next: V2Condition = {
      type: u.type,
      status: u.status,
      reason: u.reason,
      message: u.message,
      lastTransitionTime:
        existing?.status === u.status ? (existing.lastTransitionTime ?? nowISO) : nowISO,
      observedGeneration: generation,
    };
    if (existing) list[i] = next;
    else {
      list.push(next);
      added = true;
    }
  }
  return added ? list.sort(lessV2) : list;
}

// --- Merging (merge_strategies.go) ------------------------------------------------------

type Priority = 0 | 1 | 2; // issue, unknown, info

function defaultPriority(c: V2Condition | V2Update, negative: ReadonlySet<string>): Priority {
  if (c.status === 'Unknown') return 1;
  const issue = c.status === 'True' ? negative.has(c.type) : !negative.has(c.type);
  return issue ? 0 : 2;
}

const BULLET = /\s*\*\s+/;

/** indentIfMultiline: a multi-line or bulleted message goes on its own indented lines. */
export function indentIfMultiline(m: string): string {
  if (!m.includes('\n') && !BULLET.test(m)) return ` ${m}`;
  const lines = m.split('\n');
  const withoutBullet = lines.some((l) => !BULLET.test(l));
  return (
    '\n' +
    lines.map((l) => (withoutBullet ? (BULLET.test(l) ? '    ' : '  * ') : '  ') + l).join('\n')
  );
}

export interface SummaryOptions {
  /** The types summarized, in order of relevance. */
  types: readonly string[];
  /** Types that may be missing (IgnoreTypesIfMissing); any other missing type counts as Unknown. */
  ignoreIfMissing?: readonly string[];
  negativePolarity?: readonly string[];
  /** Reasons for issue, unknown and info (ComputeReasonFunc); default IssuesReported, … */
  reasons?: readonly [string, string, string];
  /** Replaces conditions in the summary (OverrideConditions). */
  overrides?: readonly V2Update[];
  /** The priority of a condition, when not the default (a custom merge strategy). */
  priority?: (c: V2Condition | V2Update) => Priority | undefined;
  /** SummaryMessageTransformFunc. */
  transform?: (messages: string[]) => string[];
}

const DEFAULT_REASONS = ['IssuesReported', 'UnknownReported', 'InfoReported'] as const;

/** conditions.NewSummaryCondition with the default merge strategy. */
export function summaryV2(
  conditions: readonly V2Condition[] | undefined,
  target: string,
  options: SummaryOptions,
): V2Update {
  const negative = new Set(options.negativePolarity ?? []);
  const prio = (c: V2Condition | V2Update) => options.priority?.(c) ?? defaultPriority(c, negative);
  const picked: (V2Condition | V2Update)[] = [];
  for (const type of options.types) {
    const override = options.overrides?.find((o) => o.type === type);
    const c = override ?? getV2(conditions, type);
    if (c) picked.push(c);
    else if (!options.ignoreIfMissing?.includes(type))
      picked.push(v2(type, 'Unknown', 'NotYetReported', 'Condition not yet reported'));
  }
  let issues = 0;
  let unknown = 0;
  for (const c of picked) {
    const p = prio(c);
    if (p === 0) issues++;
    else if (p === 1) unknown++;
  }
  const status: V2Status = issues > 0 ? 'False' : unknown > 0 ? 'Unknown' : 'True';
  const [issueReason, unknownReason, infoReason] = options.reasons ?? DEFAULT_REASONS;
  const reason = issues > 0 ? issueReason : unknown > 0 ? unknownReason : infoReason;
  let messages: string[] = [];
  for (const c of picked) {
    if (prio(c) === 2 && (status !== 'True' || c.message === '')) continue;
    messages.push(`* ${c.type}:${c.message ? indentIfMultiline(c.message) : ` ${c.reason}`}`);
  }
  if (options.transform) messages = options.transform(messages);
  return v2(target, status, reason, messages.join('\n'));
}

export interface AggregateSource {
  kind: string;
  name: string;
  conditions: readonly V2Condition[] | undefined;
  /** A control-plane Machine: its messages go first. */
  controlPlane?: boolean;
}

const plural = (kind: string) => (kind.endsWith('s') ? `${kind}es` : `${kind}s`);

/**
 * conditions.NewAggregateCondition with the default merge strategy: the condition `type` of many
 * objects merged into `target`; the message names at most three messages, each with at most three
 * objects, then how many more objects report issues / unknown (or, all being fine, info).
 * A missing condition counts as Unknown ("Condition <type> not yet reported").
 */
export function aggregateV2(
  sources: readonly AggregateSource[],
  type: string,
  target: string,
  reasons: readonly [string, string, string],
  negativePolarity = false,
): V2Update {
  const negative = new Set(negativePolarity ? [type] : []);
  const items: AggregateItem[] = [];
  let issues = 0;
  let unknown = 0;
  for (const s of sources) {
    const c = getV2(s.conditions, type);
    const cond = c ?? v2(type, 'Unknown', 'NotYetReported', `Condition ${type} not yet reported`);
    const prio = defaultPriority(cond, negative);
    if (prio === 0) issues++;
    else if (prio === 1) unknown++;
    items.push({
      kind: s.kind,
      name: s.name,
      message: cond.message,
      prio,
      cp: Boolean(s.controlPlane),
    });
  }
  const positive = !negativePolarity;
  const status: V2Status =
    issues > 0
      ? positive
        ? 'False'
        : 'True'
      : unknown > 0
        ? 'Unknown'
        : positive
          ? 'True'
          : 'False';
  const reason = issues > 0 ? reasons[0] : unknown > 0 ? reasons[1] : reasons[2];
  const bad = issues > 0 || unknown > 0;
  const inScope = items.filter((i) => (bad ? i.prio !== 2 : i.message !== ''));
  const others = bad
    ? { 0: 'with other issues', 1: 'with status unknown' }
    : { 2: 'with additional info' };
  return v2(target, status, reason, aggregateMessages(inScope, others).join('\n'));
}

interface AggregateItem {
  kind: string;
  name: string;
  message: string;
  prio: Priority;
  cp: boolean;
}

interface MessageEntry {
  names: string[];
  prio: Priority;
  first: boolean;
}

function aggregateMessages(
  items: readonly AggregateItem[],
  otherMessages: Partial<Record<Priority, string>>,
): string[] {
  let n = 3;
  const byKind = new Map<string, Map<string, MessageEntry>>();
  const cpNames = new Set<string>();
  for (const i of items) {
    let byMessage = byKind.get(i.kind);
    if (!byMessage) byKind.set(i.kind, (byMessage = new Map<string, MessageEntry>()));
    let entry = byMessage.get(i.message);
    if (!entry) byMessage.set(i.message, (entry = { names: [], prio: i.prio, first: false }));
    entry.names.push(i.name);
    if (i.prio < entry.prio) entry.prio = i.prio;
    if (i.cp) {
      entry.first = true;
      cpNames.add(i.name);
    }
  }
  const out: string[] = [];
  for (const kind of [...byKind.keys()].sort()) {
    const byMessage = byKind.get(kind) ?? new Map<string, MessageEntry>();
    const keys = [...byMessage.keys()].sort((a, b) => {
      const x = byMessage.get(a);
      const y = byMessage.get(b);
      if (!x || !y) return 0;
      if (x.first !== y.first) return x.first ? -1 : 1;
      if (x.prio !== y.prio) return x.prio - y.prio;
      if (x.names.length !== y.names.length) return y.names.length - x.names.length;
      const xs = x.names.join(',');
      const ys = y.names.join(',');
      return xs < ys ? -1 : xs > ys ? 1 : 0;
    });
    const others = new Map<Priority, number>();
    for (const m of keys) {
      const entry = byMessage.get(m);
      if (!entry) continue;
      if (n === 0) {
        others.set(entry.prio, (others.get(entry.prio) ?? 0) + entry.names.length);
        continue;
      }
      const names = [...entry.names].sort((a, b) => {
        const ca = cpNames.has(a);
        const cb = cpNames.has(b);
        if (ca !== cb) return ca ? -1 : 1;
        return a < b ? -1 : a > b ? 1 : 0;
      });
      const head =
        names.length === 1
          ? `* ${kind} ${names[0] ?? ''}:`
          : names.length <= 3
            ? `* ${plural(kind)} ${names.join(', ')}:`
            : `* ${plural(kind)} ${names.slice(0, 3).join(', ')}, ... (${names.length - 3} more):`;
      out.push(head + indentIfMultiline(m));
      n--;
    }
    for (const p of [0, 1, 2] as const) {
      const count = others.get(p);
      const text = otherMessages[p];
      if (!count || !text) continue;
      out.push(`And ${count} ${count === 1 ? kind : plural(kind)} ${text}`);
    }
  }
  return out;
}

/** clog.ListToString: at most `max` names, then "... (n more)". */
export function listToString(names: readonly string[], max = 3): string {
  if (names.length <= max) return names.join(', ');
  return `${names.slice(0, max).join(', ')}, ... (${names.length - max} more)`;
}

/** paused.EnsurePausedCondition. */
export function pausedCondition(
  clusterPaused: boolean,
  annotations: Record<string, string> | undefined,
  kind: string,
): V2Update {
  const annotated = annotations?.['cluster.x-k8s.io/paused'] !== undefined;
  if (!clusterPaused && !annotated) return v2(PAUSED, 'False', 'NotPaused');
  const messages: string[] = [];
  if (clusterPaused) messages.push('Cluster spec.paused is set to true');
  if (annotated) messages.push(`${kind} has the cluster.x-k8s.io/paused annotation`);
  return v2(PAUSED, 'True', 'Paused', messages.join(', '));
}

/** The `status.v1beta2` block of a hub object's status (an object, or undefined). */
export interface V1Beta2Block {
  conditions?: V2Condition[];
  readyReplicas?: number;
  availableReplicas?: number;
  upToDateReplicas?: number;
  [k: string]: unknown;
}

export function v1beta2Of(status: unknown): V1Beta2Block | undefined {
  if (typeof status !== 'object' || status === null) return undefined;
  const b = (status as { v1beta2?: unknown }).v1beta2;
  return typeof b === 'object' && b !== null ? (b as V1Beta2Block) : undefined;
}

/** The v1beta2 conditions of a hub object. */
export const v2ConditionsOf = (obj: { status?: unknown }): V2Condition[] | undefined =>
  v1beta2Of(obj.status)?.conditions;
