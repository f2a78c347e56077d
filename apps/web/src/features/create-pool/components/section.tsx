import type { CreatePoolRequest, CreatePoolRequestInput, RuleIssue } from '@dcs/domain';
import { Paper, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import { useIssueText } from '../../../components/FieldIssues';
import { issuesAt } from '../../../lib/issues';

export type PoolForm = UseFormReturn<CreatePoolRequestInput, unknown, CreatePoolRequest>;

export interface SectionProps {
  form: PoolForm;
  issues: readonly RuleIssue[];
}

export function Section({
  title,
  children,
  id,
}: {
  title: string;
  children: ReactNode;
  id: string;
}) {
  return (
    <Paper
      component="fieldset"
      variant="outlined"
      sx={{ p: 2, m: 0, border: 1, borderColor: 'divider' }}
      aria-labelledby={id}
    >
      <Typography id={id} component="legend" variant="h3" sx={{ px: 0.5 }}>
        {title}
      </Typography>
      {children}
    </Paper>
  );
}

/** `error` and `helperText` of a field from the issues at its path; warnings shown, not red. */
export function useFieldIssues(issues: readonly RuleIssue[]) {
  const text = useIssueText();
  return (path: string, help?: string) => {
    const here = issuesAt(issues, path);
    const error = here.some((i) => i.severity === 'error');
    return {
      error,
      helperText: text(here) ?? help,
      // Warnings do not block: shown in the warning colour (theme.ts), not red.
      className: here.length > 0 && !error ? 'field-warning' : undefined,
    };
  };
}
