import {
  JSON_LIMITS,
  JsonBoundsError,
  jsonBoundsProblem,
  type JsonBoundsProblem,
} from '../json-bounds';
import type { KindName } from '../kinds';
import type { RuleIssue } from '../rules/issue';
import { planIssue } from './issues';
import type { PlanMessageKey } from './messages';
import type { Plan } from './plan';

/**
 * JSON bounds (JSON_LIMITS) on what a plan writes and walks. A body within the request's bounds
 * can still make an object past them once nested in it (a bootstrap spec sits three levels deeper
 * in its template), and an object someone wrote with kubectl can be past them already; the
 * walkers (clone, diff, merge) refuse such a value with a JsonBoundsError. Either way the plan
 * carries an error that names the object, the field and the bound (a 422 at the BFF, never a
 * 500), and no step: nothing is written that the console could not edit afterwards.
 */

const KEYS: Record<JsonBoundsProblem['kind'], PlanMessageKey> = {
  depth: 'plan.issue.jsonDepth',
  string: 'plan.issue.jsonString',
  size: 'plan.issue.jsonSize',
};

/** A long path kept readable: its first segments and its length. */
function shortPath(path: string): string {
  const parts = path.split('.');
  return parts.length <= 8
    ? path
    : `${parts.slice(0, 6).join('.')}.….${parts.at(-1) ?? ''} (${String(parts.length)} levels)`;
}

/** The RuleIssue of a bound broken at `path` of `object` (`requestPath`: where the user fixes it). */
export function jsonBoundsIssue(
  problem: JsonBoundsProblem,
  object: string,
  requestPath = '',
): RuleIssue {
  return planIssue('R-REQUEST', 'error', requestPath, KEYS[problem.kind], {
    object,
    field: problem.path === '' ? 'the value' : shortPath(problem.path),
    limit: problem.limit,
  });
}

/**
 * The request field that made a field of a written object: `(kind, objectPath)` → request path,
 * undefined when the planner cannot tell (the issue is then about the whole request).
 */
export type RequestFieldOf = (kind: KindName, objectPath: string) => string | undefined;

/** `spec.template.spec.<field>…` of a template → `<prefix>.<field>` (the spec the request gave). */
export const templateSpecField =
  (kinds: Partial<Record<KindName, string>>): RequestFieldOf =>
  (kind, path) => {
    const prefix = kinds[kind];
    if (prefix === undefined) return undefined;
    const parts = path.split('.');
    return parts.slice(0, 3).join('.') === 'spec.template.spec' && parts[3] !== undefined
      ? `${prefix}.${parts[3]}`
      : prefix;
  };

/** `spec.pool.<i>.<field>…` of an IP pool → `<prefix>.<i - offset>.<field>` (entries the request gave). */
export const poolEntryField =
  (prefix: string, offset = 0): RequestFieldOf =>
  (kind, path) => {
    if (kind !== 'DCSIpHostnamePool') return undefined;
    const [spec, pool, index, field] = path.split('.');
    const i = Number(index) - offset;
    return spec === 'spec' && pool === 'pool' && Number.isInteger(i) && i >= 0
      ? [prefix, String(i), ...(field === undefined ? [] : [field])].join('.')
      : prefix;
  };

/** The bounds issues of the objects a plan leaves behind (its diffs' `after`), one per object. */
export function objectBoundsIssues(diffs: Plan['diffs'], fieldOf?: RequestFieldOf): RuleIssue[] {
  return diffs.flatMap((d) => {
    if (d.after === undefined) return [];
    const problem = jsonBoundsProblem(d.after, JSON_LIMITS);
    if (!problem) return [];
    return [jsonBoundsIssue(problem, `${d.kind} ${d.name}`, fieldOf?.(d.kind, problem.path) ?? '')];
  });
}

/**
 * Runs a planner; a JsonBoundsError from a walker becomes the plan's error (no step), and a plan
 * that would leave an object past the bounds keeps its issues but loses its steps.
 */
export function withinJsonBounds(
  head: Pick<Plan, 'operation' | 'namespace' | 'target'>,
  planner: () => Plan,
  fieldOf?: RequestFieldOf,
): Plan {
  let plan: Plan;
  try {
    plan = planner();
  } catch (e) {
    if (!(e instanceof JsonBoundsError)) throw e;
    const object = `${head.target.kind} ${head.target.name}`;
    return {
      ...head,
      steps: [],
      kubectl: [],
      issues: [jsonBoundsIssue(e.problem, object)],
      diffs: [],
      effects: {},
    };
  }
  const issues = objectBoundsIssues(plan.diffs, fieldOf);
  return issues.length === 0
    ? plan
    : { ...plan, steps: [], kubectl: [], diffs: [], issues: [...plan.issues, ...issues] };
}
