import {
  Box,
  Link,
  Paper,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { Link as RouterLink } from 'react-router';
import { PageLoading } from '../../../components/PageLoading';
import { useI18n } from '../../../i18n/context';
import { ipPoolPath } from '../../../lib/paths';
import { useIpPools } from '../api/get-ip-pools';
import { consumersText } from './consumers-text';
import { ErrorAlert } from '../../../components/ErrorAlert';

/** The namespace's IP-hostname pools: entries, used, free, who draws on them (R-POOL-1). */
export function IpPoolsTab({ namespace, cluster }: { namespace: string; cluster: string }) {
  const { t } = useI18n();
  const pools = useIpPools(namespace);
  return (
    <Box>
      <Typography variant="h2" sx={{ mb: 2 }}>
        {t('tabs.ipPools')}
      </Typography>
      {pools.isPending && <PageLoading />}
      {pools.isError && <ErrorAlert error={pools.error} />}
      {pools.data && (
        <TableContainer component={Paper} variant="outlined">
          <Table size="small" aria-label={t('ipPools.tableLabel', { namespace })}>
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
              {pools.data.map((p) => (
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
