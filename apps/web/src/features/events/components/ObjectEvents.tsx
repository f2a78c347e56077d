import type { EventType, TimelineEntry } from '@dcs/domain';
import {
  Alert,
  Chip,
  MenuItem,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  TextField,
  ToggleButton,
  ToggleButtonGroup,
  Typography,
} from '@mui/material';
import { useState } from 'react';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { useI18n } from '../../../i18n/context';
import { formatAbsolute, formatRelative } from '../../../i18n/format';
import { useNow } from '../../../lib/use-now';
import {
  OBJECT_EVENTS_REFRESH_MS,
  useObjectEvents,
  type EventsSource,
} from '../api/get-object-events';

type TypeChoice = 'all' | EventType;

/**
 * The Events of a page's objects (issue 26, item 7): both Event APIs, newest first, filterable by
 * type and reason, read again every few seconds while the page is open and soon after the
 * page's object changes on the stream.
 */
export function ObjectEvents({
  namespace,
  source,
  title,
  follow,
}: {
  namespace: string;
  source: EventsSource;
  title?: string;
  /** The page's object as the stream keeps it: its change brings the list up to date soon. */
  follow?: unknown;
}) {
  const { t, locale } = useI18n();
  const [type, setType] = useState<TypeChoice>('all');
  const [reason, setReason] = useState('');
  const events = useObjectEvents(
    namespace,
    source,
    { type: type === 'all' ? undefined : type, reason: reason || undefined },
    follow,
  );
  const now = useNow(15_000);
  const heading = title ?? t('events.title');
  const data = events.data;
  const total = data ? data.facets.types.Normal + data.facets.types.Warning : 0;
  const reasons = data?.facets.reasons ?? [];
  return (
    <section aria-label={heading}>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', mb: 1, flexWrap: 'wrap' }}>
        <Typography variant="h3" component="h3">
          {heading}
        </Typography>
        <ToggleButtonGroup
          size="small"
          exclusive
          value={type}
          aria-label={t('events.type')}
          // Unselected ones in the body text's colour: MUI's default grey fails WCAG's 4.5:1.
          sx={{ '& .MuiToggleButton-root': { textTransform: 'none', color: 'text.primary' } }}
          onChange={(_e, v: TypeChoice | null) => {
            if (v) setType(v);
          }}
        >
          <ToggleButton value="all">{t('events.typeAll', { count: total })}</ToggleButton>
          <ToggleButton value="Warning">
            {t('events.typeWarning', { count: data?.facets.types.Warning ?? 0 })}
          </ToggleButton>
          <ToggleButton value="Normal">
            {t('events.typeNormal', { count: data?.facets.types.Normal ?? 0 })}
          </ToggleButton>
        </ToggleButtonGroup>
        <TextField
          select
          size="small"
          label={t('events.reason')}
          value={reasons.includes(reason) ? reason : ''}
          onChange={(e) => {
            setReason(e.target.value);
          }}
          sx={{ minWidth: 200 }}
        >
          <MenuItem value="">{t('events.reasonAll')}</MenuItem>
          {reasons.map((r) => (
            <MenuItem key={r} value={r}>
              {r}
            </MenuItem>
          ))}
        </TextField>
        <Typography variant="body2" color="text.secondary">
          {t('events.live', { seconds: OBJECT_EVENTS_REFRESH_MS / 1000 })}
        </Typography>
      </Stack>
      {events.isError && <ErrorAlert error={events.error} severity="warning" />}
      {data &&
        (['events', 'eventsV1'] as const).map((source) =>
          data.sources[source] === 'ok' ? null : (
            <Alert key={source} severity="warning" sx={{ mb: 1 }}>
              {t(data.sources[source] === 'forbidden' ? 'events.forbidden' : 'events.unavailable', {
                api: source === 'events' ? 'core/v1' : 'events.k8s.io/v1',
              })}
            </Alert>
          ),
        )}
      {data && total === 0 && <Alert severity="info">{t('events.none')}</Alert>}
      {data && total > 0 && data.matching === 0 && (
        <Alert severity="info">{t('events.noneMatching', { total })}</Alert>
      )}
      {data && data.entries.length > 0 && (
        <TableContainer sx={{ border: 1, borderColor: 'divider', borderRadius: 1, maxHeight: 420 }}>
          <Table size="small" stickyHeader aria-label={heading}>
            <TableHead>
              <TableRow>
                <TableCell>{t('events.type')}</TableCell>
                <TableCell>{t('events.reason')}</TableCell>
                <TableCell>{t('events.object')}</TableCell>
                <TableCell>{t('conditions.message')}</TableCell>
                <TableCell>{t('events.reportedBy')}</TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>{t('events.last')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {data.entries.map((e) => (
                <EventRow key={e.id} entry={e} now={now} locale={locale} />
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
      {data && data.matching > data.entries.length && (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
          {t('events.shownOf', { shown: data.entries.length, matching: data.matching })}
        </Typography>
      )}
    </section>
  );
}

function EventRow({
  entry: e,
  now,
  locale,
}: {
  entry: TimelineEntry;
  now: number;
  locale: ReturnType<typeof useI18n>['locale'];
}) {
  const warning = e.severity === 'warning';
  return (
    <TableRow>
      <TableCell>
        <Chip
          size="small"
          label={warning ? 'Warning' : 'Normal'}
          color={warning ? 'warning' : 'default'}
          variant={warning ? 'filled' : 'outlined'}
        />
      </TableCell>
      <TableCell>{e.reason ?? '—'}</TableCell>
      <TableCell sx={{ overflowWrap: 'anywhere' }}>{e.object ?? '—'}</TableCell>
      <TableCell sx={{ overflowWrap: 'anywhere' }}>
        {e.message ?? ''}
        {e.count !== undefined && e.count > 1 ? ` (×${String(e.count)})` : ''}
      </TableCell>
      <TableCell sx={{ overflowWrap: 'anywhere' }}>{e.reportedBy ?? '—'}</TableCell>
      <TableCell title={formatAbsolute(e.time, locale)} sx={{ whiteSpace: 'nowrap' }}>
        {formatRelative(e.time, now, locale)}
      </TableCell>
    </TableRow>
  );
}
