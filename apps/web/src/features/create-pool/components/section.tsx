import type { CreatePoolRequest, CreatePoolRequestInput, RuleIssue } from '@dcs/domain';
import { Paper, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import type { UseFormReturn } from 'react-hook-form';

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
