import Add from '@mui/icons-material/Add';
import type { NodePoolView } from '@dcs/domain';
import { Alert, Box, Stack, Typography } from '@mui/material';
import { useEffect, useState, useTransition } from 'react';
import { useNavigate } from 'react-router';
import { useClusterContext } from '../../../api/get-cluster-context';
import { ActionButton } from '../../../components/ActionButton';
import { FreshnessIndicator } from '../../../components/FreshnessIndicator';
import { PageLoading } from '../../../components/PageLoading';
import { ProviderGateNotice } from '../../../components/ProviderGateNotice';
import { useI18n } from '../../../i18n/context';
import { newPoolPath } from '../../../lib/paths';
import { providerGates } from '../../../lib/provider-gates';
import { useNodePools } from '../api/get-node-pools';
import type { PoolAction } from './pool-actions';
import { PoolCard } from './PoolCard';
import { ErrorAlert } from '../../../components/ErrorAlert';

const FIRST_CARDS = 9;
const CARDS_PER_BATCH = 6;

/** U-1: every pool of the cluster as a card, live from the stream. */
export function NodePoolsTab({
  namespace,
  cluster,
  onAction,
}: {
  namespace: string;
  cluster: string;
  onAction: (action: PoolAction, pool: NodePoolView) => void;
}) {
  const { t } = useI18n();
  const navigate = useNavigate();
  const pools = useNodePools(namespace, cluster);
  const context = useClusterContext(namespace, cluster);
  const gates = providerGates(context.data?.validation.providerVersion);
  const gatedReason = gates.webWorkflow
    ? undefined
    : t('gate.short', { version: gates.version ?? '?' });
  const permissions = context.data?.permissions;
  // The first cards at once, the rest in small transitions: each batch renders and commits
  // between frames, so that fifty pools never block the page with a long task.
  const all = pools.data;
  const [limit, setLimit] = useState(FIRST_CARDS);
  const [, startTransition] = useTransition();
  useEffect(() => {
    if (all && limit < all.length)
      startTransition(() => {
        setLimit((l) => l + CARDS_PER_BATCH);
      });
  }, [all, limit]);

  return (
    <Box>
      <Stack
        direction="row"
        spacing={2}
        sx={{ alignItems: 'center', mb: 2, flexWrap: 'wrap', rowGap: 1 }}
      >
        <Typography variant="h2" sx={{ mr: 'auto' }}>
          {t('tabs.nodePools')}
        </Typography>
        <FreshnessIndicator />
        <ActionButton
          variant="contained"
          startIcon={<Add />}
          label={t('action.addWorkerNodePool')}
          permission={permissions?.createPool}
          blockedReason={gatedReason}
          onClick={() => {
            void navigate(newPoolPath(namespace, cluster));
          }}
        />
      </Stack>
      <ProviderGateNotice gates={gates} />
      {pools.isPending && <PageLoading />}
      {pools.isError && <ErrorAlert error={pools.error} />}
      {pools.data && (
        <Box
          role="list"
          aria-label={t('tabs.nodePools')}
          sx={{
            display: 'grid',
            gap: 2,
            gridTemplateColumns: 'repeat(auto-fill, minmax(min(100%, 400px), 1fr))',
          }}
        >
          {pools.data.slice(0, limit).map((pool) => (
            <Box
              role="listitem"
              key={pool.id}
              // Off-screen cards skip layout and paint until scrolled to.
              sx={{
                display: 'grid',
                contentVisibility: 'auto',
                containIntrinsicSize: 'auto 420px',
              }}
            >
              <PoolCard
                pool={pool}
                permissions={permissions}
                gatedReason={gatedReason}
                onAction={onAction}
              />
            </Box>
          ))}
        </Box>
      )}
      {pools.data?.length === 1 && (
        <Alert severity="info" sx={{ mt: 2 }}>
          {t('pools.noWorkers')}
        </Alert>
      )}
    </Box>
  );
}
