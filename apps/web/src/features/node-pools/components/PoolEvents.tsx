import {
  Alert,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { useI18n } from '../../../i18n/context';
import { formatAbsolute, formatRelative } from '../../../i18n/format';
import { useNow } from '../../../lib/use-now';
import { usePoolEvents } from '../api/get-pool-events';
import { ErrorAlert } from '../../../components/ErrorAlert';

/** Recent Kubernetes events of the pool's objects, newest first. */
export function PoolEvents({
  namespace,
  cluster,
  pool,
}: {
  namespace: string;
  cluster: string;
  pool: string;
}) {
  const { t, locale } = useI18n();
  const events = usePoolEvents(namespace, cluster, pool);
  const now = useNow(15_000);
  const rows = [...(events.data ?? [])]
    .sort((a, b) => (time(b) ?? '').localeCompare(time(a) ?? ''))
    .slice(0, 100);
  return (
    <section aria-label={t('pool.events')}>
      <Typography variant="h3" component="h3" sx={{ mb: 1 }}>
        {t('pool.events')}
      </Typography>
      {events.isError && <ErrorAlert error={events.error} severity="warning" />}
      {events.data?.length === 0 && <Alert severity="info">{t('events.none')}</Alert>}
      {rows.length > 0 && (
        <TableContainer sx={{ border: 1, borderColor: 'divider', borderRadius: 1, maxHeight: 360 }}>
          <Table size="small" stickyHeader aria-label={t('pool.events')}>
            <TableHead>
              <TableRow>
                <TableCell>{t('events.type')}</TableCell>
                <TableCell>{t('events.reason')}</TableCell>
                <TableCell>{t('events.object')}</TableCell>
                <TableCell>{t('conditions.message')}</TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>{t('events.last')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((e, i) => {
                return (
                  <TableRow key={`${time(e) ?? ''}-${i}`}>
                    <TableCell>{e.type ?? '—'}</TableCell>
                    <TableCell>{e.reason ?? '—'}</TableCell>
                    <TableCell>{e.object ?? '—'}</TableCell>
                    <TableCell sx={{ overflowWrap: 'anywhere' }}>
                      {e.message ?? ''}
                      {e.count !== undefined && e.count > 1 ? ` (×${e.count})` : ''}
                    </TableCell>
                    <TableCell
                      title={formatAbsolute(time(e), locale)}
                      sx={{ whiteSpace: 'nowrap' }}
                    >
                      {formatRelative(time(e), now, locale)}
                    </TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        </TableContainer>
      )}
    </section>
  );
}

const time = (e: { lastTimestamp?: string; eventTime?: string; firstTimestamp?: string }) =>
  e.lastTimestamp ?? e.eventTime ?? e.firstTimestamp;
