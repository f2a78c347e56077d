import {
  Alert,
  Chip,
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
import { Link as RouterLink } from '../../../lib/routing';
import { PageLoading } from '../../../components/PageLoading';
import { PausedChip } from '../../../components/PausedChip';
import { useI18n } from '../../../i18n/context';
import { clusterPath } from '../../../lib/paths';
import { useClusters } from '../api/get-clusters';
import { ErrorAlert } from '../../../components/ErrorAlert';

/** Every cluster the user may see, with what needs attention. */
export function ClustersPage() {
  const { t } = useI18n();
  const clusters = useClusters();
  return (
    <>
      <Typography variant="h1" sx={{ mb: 2 }}>
        {t('clusters.title')}
      </Typography>
      {clusters.isPending && <PageLoading />}
      {clusters.isError && <ErrorAlert error={clusters.error} />}
      {clusters.data?.length === 0 && <Alert severity="info">{t('clusters.none')}</Alert>}
      {clusters.data && clusters.data.length > 0 && (
        <TableContainer component={Paper} variant="outlined">
          <Table size="small" aria-label={t('clusters.title')}>
            <TableHead>
              <TableRow>
                <TableCell>{t('clusters.name')}</TableCell>
                <TableCell>{t('clusters.namespace')}</TableCell>
                <TableCell>{t('clusters.phase')}</TableCell>
                <TableCell>{t('clusters.version')}</TableCell>
                <TableCell align="right">{t('clusters.pools')}</TableCell>
                <TableCell align="right">{t('clusters.machines')}</TableCell>
                <TableCell align="right">{t('clusters.problems')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {clusters.data.map((c) => (
                <TableRow key={c.id} hover>
                  <TableCell>
                    <Link component={RouterLink} to={clusterPath(c.namespace, c.name)}>
                      {c.name}
                    </Link>
                    <PausedChip pause={c.pause} sx={{ ml: 1 }} />
                  </TableCell>
                  <TableCell>{c.namespace}</TableCell>
                  <TableCell>{c.phase ?? '—'}</TableCell>
                  <TableCell>{c.version ?? '—'}</TableCell>
                  <TableCell align="right">{c.pools}</TableCell>
                  <TableCell align="right">
                    {t('clusters.readyOfTotal', {
                      ready: c.machines.ready,
                      total: c.machines.total,
                    })}
                  </TableCell>
                  <TableCell align="right">
                    {c.problems > 0 ? (
                      <Chip
                        size="small"
                        color="warning"
                        label={c.problems}
                        aria-label={t('clusters.problemCount', { count: c.problems })}
                      />
                    ) : (
                      <span aria-label={t('clusters.noProblems')}>0</span>
                    )}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
    </>
  );
}
