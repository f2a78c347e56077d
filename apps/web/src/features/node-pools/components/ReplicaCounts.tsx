import type { PoolReplicas } from '@dcs/domain';
import { Box, Typography } from '@mui/material';
import { useI18n } from '../../../i18n/context';

/** desired / ready / updated / available, each a labelled number. */
export function ReplicaCounts({ replicas, fixed }: { replicas: PoolReplicas; fixed?: boolean }) {
  const { t } = useI18n();
  const cells: [string, number][] = [
    [t('pool.replicas'), replicas.desired],
    [t('pool.ready'), replicas.ready],
    [t('pool.updated'), replicas.updated],
    [t('pool.available'), replicas.available],
  ];
  return (
    <Box
      component="dl"
      aria-label={fixed ? t('pool.replicasFixed') : t('pool.replicas')}
      sx={{
        display: 'grid',
        gridTemplateColumns: 'repeat(4, 1fr)',
        gap: 1,
        m: 0,
        textAlign: 'center',
      }}
    >
      {cells.map(([label, n]) => (
        <Box key={label} sx={{ bgcolor: 'action.hover', borderRadius: 1, py: 0.5 }}>
          <Typography component="dd" sx={{ m: 0, fontSize: 20, fontWeight: 600, lineHeight: 1.3 }}>
            {n}
          </Typography>
          <Typography component="dt" variant="caption" color="text.secondary">
            {label}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}
