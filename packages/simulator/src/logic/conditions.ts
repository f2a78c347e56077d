import type { Condition } from '@dcs/domain';

/**
 * Cluster API v1beta1 conditions (util/conditions): set with last-transition semantics, the
 * Ready summary, mirrors and aggregates, with Cluster API's merge priorities. Pure: every
 * function returns a new list.
 */

export type Severity = 'Error' | 'Warning' | 'Info';
export type Status = Condition['status'];

export const READY = 'Ready';

/** A False condition's severity; an empty or missing one counts as Info. */
export function severityOf(c: Condition): Severity {
  return c.severity === 'Error' || c.severity === 'Warning' ? c.severity : 'Info';
}

export const trueCondition = (type: string): Condition => ({ type, status: 'True' });

export const falseCondition = (
  type: string,
  reason: string,
  severity: Severity,
  message = '',
): Condition => ({ type, status: 'False', severity, reason, ...(message ? { message } : {}) });

export const unknownCondition = (type: string, reason: string, message = ''): Condition => ({
  type,
  status: 'Unknown',
  reason,
  ...(message ? { message } : {}),
});

export function getCondition(conditions: readonly Condition[] | undefined, type: string) {
  return conditions?.find((c) => c.type === type);
}

export const isTrue = (conditions: readonly Condition[] | undefined, type: string) =>
  getCondition(conditions, type)?.status === 'True';

export const isFalse = (conditions: readonly Condition[] | undefined, type: string) =>
  getCondition(conditions, type)?.status === 'False';

const sameState = (a: Condition, b: Condition) =>
  a.type === b.type &&
  a.status === b.status &&
  (a.reason ?? '') === (b.reason ?? '') &&
  (a.severity ?? '') === (b.severity ?? '') &&
  (a.message ?? '') === (b.message ?? '');

/** Ready first, then by type: the order Cluster API keeps conditions in (for kubectl). */
function lexicographicLess(a: Condition, b: Condition): number {
  if (a.type === READY) return b.type === READY ? 0 : -1;
  if (b.type === READY) return 1;
  return a.type < b.type ? -1 : a.type > b.type ? 1 : 0;
}

/**
 * conditions.Set on `list`, in place: the last transition time changes only when status, reason,
 * severity or message change; a condition of the same state keeps its time. Whether it changed.
 */
function upsert(list: Condition[], condition: Condition | undefined, nowISO: string): boolean {
  if (!condition) return false;
  const i = list.findIndex((c) => c.type === condition.type);
  const existing = i >= 0 ? list[i] : undefined;
  if (existing && sameState(existing, condition)) return false;
  const next: Condition = {
    ...condition,
    lastTransitionTime: existing ? nowISO : (condition.lastTransitionTime ?? nowISO),
  };
  if (i >= 0) list[i] = next;
  else list.push(next);
  return true;
}

/** conditions.Set: a copy of the list with `condition` set (see `upsert`), in Cluster API's order. */
export function setCondition(
  conditions: readonly Condition[] | undefined,
  condition: Condition | undefined,
  nowISO: string,
): Condition[] {
  return setConditions(conditions, [condition], nowISO);
}

/**
 * Several conditions at once, in order: what `setCondition` one after the other gives, with one
 * copy of the list and one sort (types are unique, so the order is the same), at every reconcile.
 */
export function setConditions(
  conditions: readonly Condition[] | undefined,
  updates: readonly (Condition | undefined)[],
  nowISO: string,
): Condition[] {
  const list = [...(conditions ?? [])];
  let changed = false;
  for (const condition of updates) if (upsert(list, condition, nowISO)) changed = true;
  return changed ? list.sort(lexicographicLess) : list;
}

export function deleteCondition(
  conditions: readonly Condition[] | undefined,
  type: string,
): Condition[] {
  return (conditions ?? []).filter((c) => c.type !== type);
}

interface Localized {
  condition: Condition;
  /** `Kind/name` of the object the condition came from (aggregates). */
  source?: string;
}

/** Merge priority of a (status, severity) group: the most severe False wins, True beats Unknown. */
function groupPriority(c: Condition): number {
  if (c.status === 'False') {
    if (c.severity === 'Error') return 0;
    if (c.severity === 'Warning') return 1;
    if (c.severity === 'Info') return 2;
    return 3;
  }
  return c.status === 'True' ? 4 : 5;
}

interface MergeOptions {
  /** Priority order of condition types when picking the reason and message. */
  order?: readonly string[];
  /** "n of m completed" as the message, m being this number. */
  stepCounter?: number;
  /** Add "@ Kind/name" to the reason (aggregates of other objects' conditions). */
  addSourceRef?: boolean;
}

function merge(
  inScope: readonly Localized[],
  target: string,
  options: MergeOptions,
): Condition | undefined {
  if (inScope.length === 0) return undefined;
  const top = Math.min(...inScope.map((l) => groupPriority(l.condition)));
  const topGroup = inScope.filter((l) => groupPriority(l.condition) === top);
  const first = topGroup[0];
  if (!first) return undefined;
  if (first.condition.status === 'True') return trueCondition(target);
  const chosen =
    topGroup.length > 1
      ? ((options.order ?? [])
          .map((t) => topGroup.find((l) => l.condition.type === t))
          .find((l) => l !== undefined) ?? first)
      : first;
  let reason = chosen.condition.reason ?? '';
  if (options.addSourceRef && chosen.source && !reason.includes('@')) {
    reason = `${reason} @ ${chosen.source}`;
  }
  const message =
    options.stepCounter !== undefined
      ? `${inScope.filter((l) => l.condition.status === 'True').length} of ${options.stepCounter} completed`
      : (chosen.condition.message ?? '');
  return first.condition.status === 'False'
    ? falseCondition(target, reason, severityOf(first.condition), message)
    : unknownCondition(target, reason, message);
}

export interface SummaryOptions {
  /** Only these conditions count, in this priority order. */
  conditions: readonly string[];
  /** WithStepCounterIf */
  stepCounterIf?: boolean;
  /** WithStepCounterIfOnly: the counter shows only while these are the only conditions present. */
  stepCounterIfOnly?: readonly string[];
}

/** conditions.SetSummary: the Ready condition summarizing the others. */
export function summary(
  conditions: readonly Condition[] | undefined,
  options: SummaryOptions,
): Condition | undefined {
  const inScope = (conditions ?? [])
    .filter((c) => c.type !== READY && options.conditions.includes(c.type))
    .map((condition) => ({ condition }));
  let stepCounter: number | undefined;
  if (options.stepCounterIf) {
    const only = options.stepCounterIfOnly;
    const onlyThese = !only || inScope.every((l) => only.includes(l.condition.type));
    if (onlyThese) stepCounter = only ? only.length : options.conditions.length;
  }
  return merge(inScope, READY, {
    order: options.conditions,
    ...(stepCounter !== undefined ? { stepCounter } : {}),
  });
}

/** Sets Ready to the summary of the listed conditions. */
export function withSummary(
  conditions: readonly Condition[] | undefined,
  options: SummaryOptions,
  nowISO: string,
): Condition[] {
  return setCondition(conditions, summary(conditions, options), nowISO);
}

/** conditions.SetMirror: another object's Ready, under a new type; the fallback when it has none. */
export function mirror(
  source: readonly Condition[] | undefined,
  target: string,
  fallback: Condition,
): Condition {
  const ready = getCondition(source, READY);
  if (!ready) return { ...fallback, type: target };
  const { lastTransitionTime: _t, ...rest } = ready;
  return { ...rest, type: target };
}

/** conditions.SetAggregate with AddSourceRef: the Ready conditions of many objects merged into one. */
export function aggregate(
  sources: readonly { kind: string; name: string; conditions?: readonly Condition[] | undefined }[],
  target: string,
): Condition | undefined {
  const inScope: Localized[] = [];
  for (const s of sources) {
    const ready = getCondition(s.conditions, READY);
    if (ready) inScope.push({ condition: ready, source: `${s.kind}/${s.name}` });
  }
  return merge(inScope, target, { addSourceRef: true });
}

/** True when two condition lists say the same (ignoring order): nothing to write. */
export function sameConditions(
  a: readonly Condition[] | undefined,
  b: readonly Condition[] | undefined,
): boolean {
  const x = a ?? [];
  const y = b ?? [];
  if (x.length !== y.length) return false;
  return x.every((c) => {
    const other = getCondition(y, c.type);
    return (
      other !== undefined &&
      sameState(c, other) &&
      c.lastTransitionTime === other.lastTransitionTime
    );
  });
}
