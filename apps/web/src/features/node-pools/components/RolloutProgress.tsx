import type { MachineSetView, RolloutView } from '@dcs/domain';
import { Box, Chip, LinearProgress, Link, Stack, Typography } from '@mui/material';
import { useId } from 'react';
import { Link as RouterLink } from '../../../lib/routing';
import { useI18n } from '../../../i18n/context';
import { machineSetMachinesPath } from '../../../lib/paths';

/**
 * A rolling update in progress: how many machines are of the new template, the limits, and the
 * old and new MachineSets (wanted, existing, ready, template), each linking to its machines. The
 * bar stays until the last replacement is available (domain's rolloutView).
 */
export function RolloutProgress({
  rollout,
  namespace,
  cluster,
}: {
  rollout: RolloutView;
  namespace: string;
  cluster: string;
}) {
  const { t } = useI18n();
  const id = useId();
  if (!rollout.inProgress) return null;
  const pct = Math.round(rollout.progress * 100);
  const sets: { set: MachineSetView; isNew: boolean }[] = [
    ...(rollout.newMachineSet ? [{ set: rollout.newMachineSet, isNew: true }] : []),
    ...rollout.oldMachineSets.map((set) => ({ set, isNew: false })),
  ];
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
      {sets.length > 0 && (
        <Stack
          component="ul"
          aria-label={t('rollout.sets')}
          sx={{ listStyle: 'none', p: 0, m: 0, mt: 1 }}
          spacing={0.5}
        >
          {sets.map(({ set, isNew }) => (
            <Box
              component="li"
              key={set.name}
              sx={{ display: 'flex', gap: 1, alignItems: 'baseline', flexWrap: 'wrap' }}
            >
              <Chip
                size="small"
                variant="outlined"
                color={isNew ? 'primary' : 'default'}
                label={isNew ? t('rollout.newSet') : t('rollout.oldSet')}
              />
              <Link
                component={RouterLink}
                to={machineSetMachinesPath(namespace, cluster, set.name)}
                aria-label={t('rollout.setMachines', { name: set.name })}
                variant="body2"
              >
                {set.name}
              </Link>
              <Typography variant="caption" color="text.secondary">
                {t('rollout.setSummary', {
                  replicas: set.replicas,
                  current: set.current,
                  ready: set.ready,
                  template: set.infrastructureTemplate ?? '—',
                })}
              </Typography>
            </Box>
          ))}
        </Stack>
      )}
    </Box>
  );
}
