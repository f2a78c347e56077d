import type { RuleIssue } from '@dcs/domain';

/** Issues whose path is exactly `path`. */
export const issuesAt = (issues: readonly RuleIssue[], path: string): RuleIssue[] =>
  issues.filter((i) => i.path === path);

/** Issues at `prefix` or below it. */
export const issuesUnder = (issues: readonly RuleIssue[], prefix: string): RuleIssue[] =>
  issues.filter((i) => i.path === prefix || i.path.startsWith(`${prefix}.`));

/** Issues that no field on screen shows: listed above the form's buttons. */
export const issuesOutside = (
  issues: readonly RuleIssue[],
  shown: readonly string[],
): RuleIssue[] =>
  issues.filter((i) => !shown.some((p) => i.path === p || i.path.startsWith(`${p}.`)));

export const errorsOf = (issues: readonly RuleIssue[]): RuleIssue[] =>
  issues.filter((i) => i.severity === 'error');
