import type { RuleIssue } from '@dcs/domain';
import { useI18n } from '../i18n/context';

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
