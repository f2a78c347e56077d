import type { MessageKey } from '../i18n/messages';
import type { Severity } from '../rules/issue';
import { formatViewMessage, type ViewMessageParams, type ViewMessageKey } from './messages';

/**
 * Something wrong that a view reports: a machine's diagnosis, a pool's problem. The same fields
 * as a RuleIssue's message part, so the UI renders both alike: `messageKey` + `params` for the
 * translated text, `message` the English one.
 */
export interface ViewProblem {
  /** Stable, machine-readable: `placement-stall`, `ip-pool-short`, … */
  code: string;
  severity: Severity;
  /** The DOMAIN.md id of the rule or troubleshooting entry, when there is one (`T-1`, `R-POOL-1`). */
  rule?: string;
  /** A view's own text, or a rule's (a rule's finding on the pool as it stands). */
  messageKey: ViewMessageKey | MessageKey;
  params: ViewMessageParams;
  message: string;
}

export function viewProblem(
  code: string,
  severity: Severity,
  messageKey: ViewMessageKey,
  params: ViewMessageParams,
  rule?: string,
): ViewProblem {
  return {
    code,
    severity,
    ...(rule ? { rule } : {}),
    messageKey,
    params,
    message: formatViewMessage(messageKey, params),
  };
}

const severityRank: Record<Severity, number> = { error: 0, warning: 1 };

/** Errors first, then by code: a stable order, so that an unchanged pool yields an equal view. */
export function sortProblems(problems: ViewProblem[]): ViewProblem[] {
  return problems.sort(
    (a, b) =>
      severityRank[a.severity] - severityRank[b.severity] ||
      (a.code < b.code ? -1 : a.code > b.code ? 1 : 0) ||
      (a.message < b.message ? -1 : a.message > b.message ? 1 : 0),
  );
}

/** The worst severity among problems, undefined when there are none: how a card is coloured. */
export function worstSeverity(problems: readonly { severity: Severity }[]): Severity | undefined {
  if (problems.some((p) => p.severity === 'error')) return 'error';
  return problems.length > 0 ? 'warning' : undefined;
}
