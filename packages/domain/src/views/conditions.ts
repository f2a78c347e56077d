import type { Condition, V1Beta2Condition } from '../schemas/meta';

export type ConditionSeverity = 'Error' | 'Warning' | 'Info';

/** One Cluster API condition as the Conditions view shows it (U-6). */
export interface ConditionView {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  severity?: ConditionSeverity;
  reason?: string;
  message?: string;
  lastTransitionTime?: string;
  /** False with severity Error or Warning, or Unknown: what needs someone's attention. */
  problem: boolean;
  /**
   * `negative`: True is the bad state (a Node's MemoryPressure, DiskPressure, PIDPressure,
   * NetworkUnavailable), so False is healthy, not a step in progress. Absent for Cluster API's
   * conditions, whose True is good.
   */
  polarity?: 'negative';
  /**
   * Cluster API v1beta2's conditions only: written for an older generation than the object's
   * (`observedGeneration` < `metadata.generation`), so it says what was, not what is.
   */
  stale?: boolean;
  /** Cluster API v1beta2's conditions only: the generation the controller had seen. */
  observedGeneration?: number;
}

/**
 * Whether a condition needs attention (U-6). Cluster API v1beta1 always sets a severity on a
 * False condition; a False one without severity (a provider that does not follow the convention)
 * is counted as a problem too, since nothing says it is merely informational.
 */
export function isProblemCondition(c: Pick<Condition, 'status' | 'severity'>): boolean {
  if (c.status === 'Unknown') return true;
  if (c.status !== 'False') return false;
  return c.severity !== 'Info';
}

export function conditionView(c: Condition): ConditionView {
  return {
    type: c.type,
    status: c.status,
    ...(c.severity ? { severity: c.severity } : {}),
    ...(c.reason ? { reason: c.reason } : {}),
    ...(c.message ? { message: c.message } : {}),
    ...(c.lastTransitionTime ? { lastTransitionTime: c.lastTransitionTime } : {}),
    problem: isProblemCondition(c),
  };
}

/**
 * How a condition is shown. `info` is a False condition of severity Info: no problem (Cluster
 * API uses it for a step in progress, e.g. a machine still provisioning), but not healthy either,
 * so it is never drawn like a True one.
 */
export type ConditionTone = 'error' | 'warning' | 'unknown' | 'info' | 'ok';

export function conditionTone(
  c: Pick<ConditionView, 'status' | 'severity' | 'problem' | 'polarity'>,
): ConditionTone {
  // A Node's pressure condition: False is healthy, True needs attention (issue 12).
  if (c.polarity === 'negative') {
    if (c.status === 'False') return 'ok';
    if (c.status === 'Unknown') return 'unknown';
    // A v1beta2 step in progress (ScalingUp, Deleting, …): True, and nothing is wrong.
    if (!c.problem) return 'info';
    return c.severity === 'Error' ? 'error' : 'warning';
  }
  if (c.status === 'True') return 'ok';
  if (c.status === 'Unknown') return 'unknown';
  if (!c.problem) return 'info';
  return c.severity === 'Error' ? 'error' : 'warning';
}

/**
 * Problems first, by severity (Error, Warning, then the rest); then False conditions of severity
 * Info (not healthy, not a problem); then the healthy ones, Ready first, then by type.
 */
function rank(c: ConditionView): number {
  // Not a problem, not healthy either: a False of severity Info, a v1beta2 step in progress.
  if (!c.problem) return conditionTone(c) === 'info' ? 3.5 : 4;
  if (c.severity === 'Error') return 0;
  if (c.severity === 'Warning') return 1;
  return c.status === 'False' ? 2 : 3;
}

/** The conditions of an object as the Conditions view lists them: problems first (U-6). */
export function conditionViews(conditions: readonly Condition[] | undefined): ConditionView[] {
  return sortConditionViews((conditions ?? []).map(conditionView));
}

function sortConditionViews(views: ConditionView[]): ConditionView[] {
  return views.sort(
    (a, b) =>
      rank(a) - rank(b) ||
      Number(b.type === 'Ready') - Number(a.type === 'Ready') ||
      (a.type < b.type ? -1 : a.type > b.type ? 1 : 0),
  );
}

/** One object's conditions, as the support views group them. */
export interface ConditionGroup {
  /** The object's kind, e.g. `DCSMachine`. */
  kind: string;
  name: string;
  conditions: ConditionView[];
  /** How many of them are problems. */
  problems: number;
}

export function conditionGroup(
  kind: string,
  name: string,
  conditions: readonly ConditionView[],
): ConditionGroup {
  return {
    kind,
    name,
    conditions: [...conditions],
    problems: conditions.filter((c) => c.problem).length,
  };
}

/**
 * Groups in the order a support engineer reads them: those with problems first (most problems
 * first), then those with a False condition of severity Info, then the rest, each in the given
 * order otherwise (a stable sort).
 */
export function sortConditionGroups(groups: readonly ConditionGroup[]): ConditionGroup[] {
  const weight = (g: ConditionGroup) =>
    g.problems > 0 ? 0 : g.conditions.some((c) => conditionTone(c) === 'info') ? 1 : 2;
  return [...groups].sort((a, b) => weight(a) - weight(b) || b.problems - a.problems);
}

/**
 * The anchor of one condition of one object on a page: what a deep link names
 * (`?condition=Kind/name/Type`). Kinds, names and types contain no `/` (DNS names, CamelCase).
 */
export function conditionAnchor(kind: string, name: string, type: string): string {
  return `${kind}/${name}/${type}`;
}

export function parseConditionAnchor(
  anchor: string,
): { kind: string; name: string; type: string } | undefined {
  const parts = anchor.split('/');
  if (parts.length !== 3 || parts.some((p) => p === '')) return undefined;
  const [kind = '', name = '', type = ''] = parts;
  return { kind, name, type };
}

export function findCondition(
  conditions: readonly Condition[] | undefined,
  type: string,
): Condition | undefined {
  return conditions?.find((c) => c.type === type);
}

/**
 * Cluster API v1beta2's condition types whose True is a step in progress or a hold, not health
 * (upstream's condition_consts.go): their False is the healthy state, and True is not a problem
 * in itself (a scale-up in progress, a paused object: shown, with its reason).
 */
const V1BETA2_IN_PROGRESS = new Set([
  'Deleting',
  'Paused',
  'RollingOut',
  'ScalingUp',
  'ScalingDown',
  'Remediating',
  'Updating',
]);

/**
 * One v1beta2 condition as the Conditions view shows it. v1beta2 has no severity, and none is
 * made up: a False condition of a health type (Available, Ready, NodeHealthy, …) is a problem,
 * an Unknown one too; a True condition of an in-progress type is informational (its tone is
 * `info`), never a problem.
 */
export function v1beta2ConditionView(
  c: V1Beta2Condition,
  generation: number | undefined,
): ConditionView {
  const inProgress = V1BETA2_IN_PROGRESS.has(c.type);
  const stale =
    c.observedGeneration !== undefined &&
    generation !== undefined &&
    c.observedGeneration < generation;
  const problem = c.status === 'Unknown' || (!inProgress && c.status === 'False');
  return {
    type: c.type,
    status: c.status,
    ...(c.reason ? { reason: c.reason } : {}),
    ...(c.message ? { message: c.message } : {}),
    ...(c.lastTransitionTime ? { lastTransitionTime: c.lastTransitionTime } : {}),
    problem,
    ...(inProgress ? { polarity: 'negative' as const } : {}),
    ...(c.observedGeneration !== undefined ? { observedGeneration: c.observedGeneration } : {}),
    ...(stale ? { stale: true } : {}),
  };
}

/**
 * An object's v1beta2 conditions (the hub's `status.v1beta2.conditions`), problems first as
 * {@link conditionViews} orders them; `undefined` when the object has none: the cluster runs a
 * Cluster API before v1.9, or its controllers have not written them (the view says so).
 */
export function v1beta2ConditionViews(
  object:
    | {
        metadata: { generation?: number };
        status?: { v1beta2?: { conditions?: readonly V1Beta2Condition[] } };
      }
    | undefined,
): ConditionView[] | undefined {
  const conditions = object?.status?.v1beta2?.conditions;
  if (!conditions) return undefined;
  const generation = object.metadata.generation;
  return sortConditionViews(conditions.map((c) => v1beta2ConditionView(c, generation)));
}
