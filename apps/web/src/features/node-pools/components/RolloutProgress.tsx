import type { RolloutView } from '@dcs/domain';
import { Box, LinearProgress, Typography } from '@mui/material';
import { useId } from 'react';
import { useI18n } from '../../../i18n/context';

/** A rolling update in progress: how many machines are of the new template, and the limits. */
export function RolloutProgress({ rollout }: { rollout: RolloutView }) {
  const { t } = useI18n();
  const id = useId();
  if (!rollout.inProgress) return null;
  const pct = Math.round(rollout.progress * 100);
  return (
    <Box>
      <Typography id={id} variant="body2" sx={{ mb: 0.5 }}>
        {t('pool.rollout', {
          updated: rollout.updated,
          desired: rollout.desired,
          ready: rollout.updatedReady,
        })}
      </Typography>
      <LinearProgress variant="determinate" value={pct} aria-labelledby={id} />
      <Typography variant="caption" color="text.secondary">
        {t('pool.rolloutLimits', {
          surge: rollout.surge.inUse,
          surgeAllowed: rollout.surge.allowed ?? '—',
          unavailable: rollout.unavailable.inUse,
          unavailableAllowed: rollout.unavailable.allowed ?? '—',
        })}
      </Typography>
    </Box>
  );
}
