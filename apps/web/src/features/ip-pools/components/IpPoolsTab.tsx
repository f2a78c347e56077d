import { ipPoolsOfCluster, type IpPoolView } from '@dcs/domain';
import {
  Box,
  Link,
  Paper,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { Link as RouterLink, useNavigate } from '../../../lib/routing';
import { useClusterContext } from '../../../api/get-cluster-context';
import { ActionButton } from '../../../components/ActionButton';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { PageLoading } from '../../../components/PageLoading';
import { useI18n } from '../../../i18n/context';
import { ipPoolPath, newIpPoolPath } from '../../../lib/paths';
import { providerGates } from '../../../lib/provider-gates';
import { useIpPools } from '../api/get-ip-pools';
import { consumersText } from './consumers-text';

/**
 * The IP-hostname pools this cluster draws on (R-POOL-1): entries, used, free, who uses them; the
 * namespace's other pools (another cluster's, or no one's yet) in a section of their own; and the
 * way to create a standalone pool.
 */
export function IpPoolsTab({ namespace, cluster }: { namespace: string; cluster: string }) {
  const { t } = useI18n();
  const navigate = useNavigate();
  const pools = useIpPools(namespace);
  const context = useClusterContext(namespace, cluster);
  const gates = providerGates(context.data?.validation.providerVersion);
  const split = pools.data ? ipPoolsOfCluster(pools.data, cluster) : undefined;
  return (
    <Box>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', mb: 2 }}>
        <Typography variant="h2" sx={{ mr: 'auto' }}>
          {t('tabs.ipPools')}
        </Typography>
        <ActionButton
          variant="contained"
          label={t('ipPools.create')}
          permission={context.data?.permissions.createIpPool}
          blockedReason={
            context.data && !gates.webWorkflow
              ? t('gate.short', { version: gates.version ?? '?' })
              : undefined
          }
          onClick={() => {
            navigate(newIpPoolPath(namespace, cluster));
          }}
        />
      </Stack>
      {pools.isPending && <PageLoading />}
      {pools.isError && <ErrorAlert error={pools.error} />}
      {split && (
        <Stack spacing={3}>
          <PoolsTable
            title={t('ipPools.usedByCluster', { cluster })}
            empty={t('ipPools.noneUsed', { cluster })}
            pools={split.used}
            namespace={namespace}
            cluster={cluster}
          />
          <PoolsTable
            title={t('ipPools.othersIn', { namespace })}
            empty={t('ipPools.noOthers', { namespace })}
            pools={split.others}
            namespace={namespace}
            cluster={cluster}
          />
        </Stack>
      )}
    </Box>
  );
}

function PoolsTable({
  title,
  empty,
  pools,
  namespace,
  cluster,
}: {
  title: string;
  empty: string;
  pools: readonly IpPoolView[];
  namespace: string;
  cluster: string;
}) {
  const { t } = useI18n();
  return (
    <Box component="section" aria-label={title}>
      <Typography variant="h3" sx={{ mb: 1 }}>
        {title}
      </Typography>
      {pools.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          {empty}
        </Typography>
      ) : (
        <TableContainer component={Paper} variant="outlined">
          <Table size="small" aria-label={title}>
            <TableHead>
              <TableRow>
                <TableCell>{t('clusters.name')}</TableCell>
                <TableCell align="right">{t('ipPools.total')}</TableCell>
                <TableCell align="right">{t('ipPools.used')}</TableCell>
                <TableCell align="right">{t('ipPools.free')}</TableCell>
                <TableCell align="right">{t('ipPools.demand')}</TableCell>
                <TableCell>{t('ipPools.consumers')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {pools.map((p) => (
                <TableRow key={p.id} hover>
                  <TableCell>
                    <Link component={RouterLink} to={ipPoolPath(namespace, cluster, p.name)}>
                      {p.name}
                    </Link>
                  </TableCell>
                  <TableCell align="right">{p.total}</TableCell>
                  <TableCell align="right">{p.used}</TableCell>
                  <TableCell align="right">{p.free}</TableCell>
                  <TableCell
                    align="right"
                    sx={{ color: p.demand > p.total ? 'error.main' : undefined }}
                  >
                    {p.demand}
                    {p.demandWithSurge > p.demand ? ` (+${p.demandWithSurge - p.demand})` : ''}
                  </TableCell>
                  <TableCell>{consumersText(p.consumers, t)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
    </Box>
  );
}
