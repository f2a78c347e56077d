import type { RuleIssue } from '@dcs/domain';
import { useI18n } from '../i18n/context';
import { issuesAt } from '../lib/issues';
import { useShownIssuePaths } from './IssueSummary';

/** The text under a field: its rule messages in the user's language, errors first. */
export function useIssueText(): (issues: readonly RuleIssue[]) => string | undefined {
  const { localize } = useI18n();
  return (issues) => {
    if (issues.length === 0) return undefined;
    const sorted = [...issues].sort((a, b) =>
      a.severity === b.severity ? 0 : a.severity === 'error' ? -1 : 1,
    );
    return sorted
      .map(
        (i) =>
          `${localize(i)}${i.rule === 'R-REQUEST' || localize(i).includes(i.rule) ? '' : ` (${i.rule})`}`,
      )
      .join(' ');
  };
}

/** What a text field shows of the issues at its path(s). */
export interface FieldIssueProps {
  error: boolean;
  helperText: string | undefined;
  className: string | undefined;
}

/**
 * The one way a field shows its rule issues: `error` only for errors (warnings do not block),
 * the messages as `helperText` (else `help`), and warnings in the warning colour (theme.ts's
 * `field-warning`), not red. Spread the result into a TextField.
 */
export function useFieldIssues(
  issues: readonly RuleIssue[],
): (path: string | readonly string[], help?: string) => FieldIssueProps {
  const text = useIssueText();
  const { show } = useShownIssuePaths();
  return (path, help) => {
    const paths = typeof path === 'string' ? [path] : path;
    paths.forEach(show);
    const here = paths.flatMap((p) => issuesAt(issues, p));
    const error = here.some((i) => i.severity === 'error');
    return {
      error,
      helperText: text(here) ?? help,
      className: here.length > 0 && !error ? 'field-warning' : undefined,
    };
  };
}
