import type { KindName } from '../kinds';
import type { RuleId, RuleIssue, Severity } from '../rules/issue';
import { planMessage, type PlanMessageKey } from './messages';

/**
 * Issues the planners raise themselves, where a plan cannot be made as asked. They use the rule
 * of DOMAIN.md they protect when there is one, and otherwise these ids of the planners:
 * - R-PLAN-STALE: an object changed since the user loaded it (R-POOL-4's "show what changed");
 * - R-PLAN-NOT-FOUND: an object the request names is not there;
 * - R-PLAN-IN-USE: O-DELETE-POOL keeps what another pool still uses.
 */
export const PLAN_STALE: RuleId = 'R-PLAN-STALE';
export const PLAN_NOT_FOUND: RuleId = 'R-PLAN-NOT-FOUND';
export const PLAN_IN_USE: RuleId = 'R-PLAN-IN-USE';

export function planIssue(
  rule: RuleId,
  severity: Severity,
  path: string,
  key: PlanMessageKey,
  params: Record<string, string | number> = {},
): RuleIssue {
  return { rule, path, severity, ...planMessage(key, params) };
}

/** An error when the object's resourceVersion is not the one the user saw. */
export function staleIssue(
  kind: KindName,
  name: string,
  seen: string,
  current: string | undefined,
  path = 'resourceVersion',
): RuleIssue[] {
  return current === undefined || current === seen
    ? []
    : [planIssue(PLAN_STALE, 'error', path, 'plan.issue.stale', { kind, name, seen, current })];
}

/**
 * The rule results first, then the planner's own issues that say nothing new: an issue of the
 * planner is left out when a rule already reports an error, or the same rule, at the same path.
 */
export function mergeIssues(
  rules: readonly RuleIssue[],
  planner: readonly RuleIssue[],
): RuleIssue[] {
  const said = (i: RuleIssue) =>
    rules.some((r) => r.path === i.path && (r.severity === 'error' || r.rule === i.rule));
  return [...rules, ...planner.filter((i) => !said(i))];
}

/**
 * R-POOL-4: the pool changed since the user loaded it. Not an error: the edit is re-applied to
 * the pool's current entries (see `poolEditBase`), which the preview shows; the user reviews it.
 */
export function poolChangedIssue(
  name: string,
  seen: string,
  current: string | undefined,
  path: string,
): RuleIssue[] {
  return current === undefined || current === seen
    ? []
    : [planIssue('R-POOL-4', 'warning', path, 'plan.issue.poolChanged', { name, seen, current })];
}

export const notFoundIssue = (kind: KindName, name: string, path: string): RuleIssue =>
  planIssue(PLAN_NOT_FOUND, 'error', path, 'plan.issue.notFound', { kind, name });
