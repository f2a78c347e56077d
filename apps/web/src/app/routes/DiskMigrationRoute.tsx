import { Box, Button, Stack } from '@mui/material';
import { Link as RouterLink, useParams } from '../../lib/routing';
import { ErrorAlert } from '../../components/ErrorAlert';
import { FreshnessIndicator } from '../../components/FreshnessIndicator';
import { PageLoading } from '../../components/PageLoading';
import { useDiskMigration } from '../../features/disk-migration/api/get-disk-migration';
import { DiskMigrationPlanView } from '../../features/disk-migration/components/DiskMigrationPlanView';
import { poolPath } from '../../lib/paths';

/** R-DISK-5: `…/node-pools/{pool}/disk-migration`, reached from the legacy-layout warning. */
export function DiskMigrationRoute() {
  const { namespace = '', cluster = '', pool = '' } = useParams();
  const plan = useDiskMigration(namespace, cluster, pool);
  return (
    <Box sx={{ maxWidth: 960 }}>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', mb: 2 }}>
        <Button component={RouterLink} to={poolPath(namespace, cluster, pool)}>
          ← {pool}
        </Button>
        <Box sx={{ flexGrow: 1 }} />
        <FreshnessIndicator />
      </Stack>
      {plan.isPending ? (
        <PageLoading />
      ) : plan.isError ? (
        <ErrorAlert error={plan.error} />
      ) : (
        <DiskMigrationPlanView plan={plan.data} cluster={cluster} />
      )}
    </Box>
  );
}
