import type { NodePoolView } from '@dcs/domain';
import { Box, Card, CardActions, CardContent, Chip, Link, Stack, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { Link as RouterLink } from '../../../lib/routing';
import { PausedChip } from '../../../components/PausedChip';
import { ProblemList } from '../../../components/ProblemList';
import { StatusChip } from '../../../components/StatusChip';
import { useI18n } from '../../../i18n/context';
import { poolDiskMigrationPath, poolPath } from '../../../lib/paths';

/** The common frame of both cards: title, status, badges, problems, actions. */
export function PoolCardFrame({
  pool,
  subtitle,
  children,
  actions,
  problemActions,
}: {
  pool: NodePoolView;
  subtitle: string;
  children: ReactNode;
  actions: ReactNode;
  /** Ways out of the pool's problems, by problem code (see ProblemList). */
  problemActions?: Readonly<Record<string, ReactNode>>;
}) {
  const { t } = useI18n();
  const titleId = `pool-${pool.id}-title`;
  return (
    <Card
      component="article"
      aria-labelledby={titleId}
      variant="outlined"
      sx={{ display: 'flex', flexDirection: 'column' }}
    >
      <CardContent sx={{ flexGrow: 1, pb: 1 }}>
        <Stack
          direction="row"
          spacing={1}
          sx={{ alignItems: 'center', mb: 0.5, flexWrap: 'wrap', rowGap: 0.5 }}
        >
          <Typography
            id={titleId}
            variant="h3"
            component="h3"
            sx={{ mr: 'auto', overflowWrap: 'anywhere' }}
          >
            <Link
              component={RouterLink}
              to={poolPath(pool.namespace, pool.cluster, pool.id)}
              color="inherit"
              underline="hover"
            >
              {pool.kind === 'control-plane' ? t('pool.controlPlane') : pool.name}
            </Link>
          </Typography>
          <StatusChip status={pool.status} problems={pool.problems} />
        </Stack>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          {subtitle}
        </Typography>
        <Stack direction="row" spacing={0.5} sx={{ mb: 1, flexWrap: 'wrap', rowGap: 0.5 }}>
          {pool.badges.stuckMachines > 0 && (
            <Chip
              size="small"
              color="warning"
              label={t('pool.badgeStuck', { count: pool.badges.stuckMachines })}
            />
          )}
          {pool.badges.failedMachines > 0 && (
            <Chip
              size="small"
              color="error"
              label={t('pool.badgeFailed', { count: pool.badges.failedMachines })}
            />
          )}
          {pool.badges.legacyDiskLayout && (
            // R-DISK-5: the badge is a way to the migration plan, as the warning's button is.
            <Chip
              size="small"
              color="warning"
              variant="outlined"
              label={t('pool.badgeLegacyDisk')}
              title={t('pool.legacyDiskHelp')}
              clickable
              component={RouterLink}
              to={poolDiskMigrationPath(pool.namespace, pool.cluster, pool.id)}
            />
          )}
          <PausedChip pause={pool.pause} />
        </Stack>
        {children}
        {pool.problems.length > 0 && (
          <Box sx={{ mt: 1.5 }} aria-label={t('pool.problems')} role="group">
            <ProblemList
              items={pool.problems}
              max={3}
              dense
              {...(problemActions ? { actions: problemActions } : {})}
            />
          </Box>
        )}
      </CardContent>
      <CardActions sx={{ flexWrap: 'wrap', gap: 0.5, px: 2, pb: 1.5, pt: 0 }}>
        {actions}
      </CardActions>
    </Card>
  );
}
