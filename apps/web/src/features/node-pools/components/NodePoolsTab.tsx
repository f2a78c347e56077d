import Add from '@mui/icons-material/Add';
import type { NodePoolView } from '@dcs/domain';
import { Alert, Box, Stack, Typography } from '@mui/material';
import { useNavigate } from '../../../lib/routing';
import { useClusterContext } from '../../../api/get-cluster-context';
import { ActionButton } from '../../../components/ActionButton';
import { FreshnessIndicator } from '../../../components/FreshnessIndicator';
import { PageLoading } from '../../../components/PageLoading';
import { RenderWhenNear } from '../../../components/RenderWhenNear';
import { ProviderGateNotice } from '../../../components/ProviderGateNotice';
import { useI18n } from '../../../i18n/context';
import { newPoolPath } from '../../../lib/paths';
import { providerGates } from '../../../lib/provider-gates';
import { useClusterAutoscaler } from '../api/get-autoscaler';
import { useNodePools } from '../api/get-node-pools';
import type { PoolAction } from './pool-actions';
import { PoolCard } from './PoolCard';
import { ErrorAlert } from '../../../components/ErrorAlert';

/** Cards rendered with the tab: the first screenful on a wide screen. */
const FIRST_CARDS = 9;

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
  // Issue 26 item 2: the autoscaler's status, only while some pool has bounds.
  const autoscaled = pools.data?.some((p) => p.autoscaler?.bounds !== undefined) ?? false;
  const autoscaler = useClusterAutoscaler(namespace, cluster, autoscaled);

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
            navigate(newPoolPath(namespace, cluster));
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
          {pools.data.map((pool, i) => (
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
              {/* The first screenful at once; the others when scrolled near (200 pools cost
                  what the visible ones do). The placeholder keeps the pool's name findable. */}
              <RenderWhenNear
                eager={i < FIRST_CARDS}
                placeholder={
                  <Box sx={{ minHeight: 420, p: 2, color: 'text.secondary' }}>{pool.name}</Box>
                }
              >
                <PoolCard
                  pool={pool}
                  permissions={permissions}
                  gatedReason={gatedReason}
                  onAction={onAction}
                  autoscaler={autoscaler.data}
                />
              </RenderWhenNear>
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
