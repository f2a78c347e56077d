import { Chip } from '@mui/material';

const PHASE_COLOR: Record<string, 'success' | 'info' | 'warning' | 'error' | 'default'> = {
  Running: 'success',
  Provisioning: 'info',
  Provisioned: 'info',
  Pending: 'default',
  Deleting: 'warning',
  Failed: 'error',
};

/** A machine's phase as Cluster API names it (the same word in every language), in colour. */
export function PhaseChip({ phase }: { phase: string }) {
  return (
    <Chip size="small" variant="outlined" color={PHASE_COLOR[phase] ?? 'default'} label={phase} />
  );
}
