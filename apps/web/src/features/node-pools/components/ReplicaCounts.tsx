import type { PoolReplicas, PoolV1Beta2Status } from '@dcs/domain';
import { Box, Typography } from '@mui/material';
import { useI18n } from '../../../i18n/context';

/**
 * desired / ready / updated / available, each a labelled number; below them, where the cluster
 * writes v1beta2 status (issue 23), Cluster API's own Available and UpToDate counts.
 */
export function ReplicaCounts({
  replicas,
  fixed,
  v1beta2,
}: {
  replicas: PoolReplicas;
  fixed?: boolean;
  v1beta2?: PoolV1Beta2Status | undefined;
}) {
  const { t } = useI18n();
  const cells: [string, number][] = [
    [t('pool.replicas'), replicas.desired],
    [t('pool.ready'), replicas.ready],
    [t('pool.updated'), replicas.updated],
    [t('pool.available'), replicas.available],
  ];
  const counts =
    v1beta2?.available !== undefined && v1beta2.upToDate !== undefined ? v1beta2 : undefined;
  return (
    <>
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
            <Typography
              component="dd"
              sx={{ m: 0, fontSize: 20, fontWeight: 600, lineHeight: 1.3 }}
            >
              {n}
            </Typography>
            <Typography component="dt" variant="caption" color="text.secondary">
              {label}
            </Typography>
          </Box>
        ))}
      </Box>
      {counts && (
        <Typography
          variant="caption"
          color="text.secondary"
          component="p"
          data-testid="v1beta2-counts"
          sx={{ mt: 0.5, mb: 0, textAlign: 'center' }}
        >
          {t('pool.v1beta2Counts', {
            available: counts.available ?? 0,
            upToDate: counts.upToDate ?? 0,
          })}
        </Typography>
      )}
    </>
  );
}
