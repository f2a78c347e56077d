import type { Condition } from '../schemas/meta';

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

/** Problems first, by severity (Error, Warning, then the rest); then Ready, then by type. */
function rank(c: ConditionView): number {
  if (!c.problem) return 4;
  if (c.severity === 'Error') return 0;
  if (c.severity === 'Warning') return 1;
  return c.status === 'False' ? 2 : 3;
}

/** The conditions of an object as the Conditions view lists them: problems first (U-6). */
export function conditionViews(conditions: readonly Condition[] | undefined): ConditionView[] {
  return (conditions ?? [])
    .map(conditionView)
    .sort(
      (a, b) =>
        rank(a) - rank(b) ||
        Number(b.type === 'Ready') - Number(a.type === 'Ready') ||
        (a.type < b.type ? -1 : a.type > b.type ? 1 : 0),
    );
}

export function findCondition(
  conditions: readonly Condition[] | undefined,
  type: string,
): Condition | undefined {
  return conditions?.find((c) => c.type === type);
}
