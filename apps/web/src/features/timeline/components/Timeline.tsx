import type { DiagnosisCode } from '@dcs/domain';
import {
  Alert,
  Box,
  Chip,
  FormControl,
  InputLabel,
  MenuItem,
  Select,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { useMemo, useState } from 'react';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { useI18n } from '../../../i18n/context';
import { formatAbsolute } from '../../../i18n/format';
import type { MessageKey } from '../../../i18n/en';
import { useTimeline, type TimelineScope, type TimelineView } from '../api/get-timeline';

/**
 * The audit timeline of a pool or a cluster (issue 12): who did what from the console, what the
 * controllers reported, and what the machines did, newest first, filterable by user, operation
 * and time. Everyone who sees the page sees it (viewers too).
 */

const RANGES = { all: 0, hour: 3_600_000, day: 86_400_000, week: 7 * 86_400_000 } as const;
type Range = keyof typeof RANGES;
const RANGE_KEYS: Record<Range, MessageKey> = {
  all: 'timeline.range.all',
  hour: 'timeline.range.hour',
  day: 'timeline.range.day',
  week: 'timeline.range.week',
};

type Entry = TimelineView['entries'][number];

const DIAGNOSIS_CODES: ReadonlySet<string> = new Set<DiagnosisCode>([
  'placement-stall',
  'early-failure',
  'waiting-for-ip',
  'vm-failed',
  'node-not-healthy',
]);

export function Timeline({
  scope,
  headingLevel = 'h3',
}: {
  scope: TimelineScope;
  headingLevel?: 'h2' | 'h3';
}) {
  const { t, locale } = useI18n();
  const [user, setUser] = useState('');
  const [operation, setOperation] = useState('');
  const [range, setRange] = useState<Range>('all');
  // The range's start is fixed when the user picks it, so the query key stays put between polls.
  const [since, setSince] = useState<string | undefined>(undefined);
  const filter = useMemo(
    () => ({
      ...(user ? { user } : {}),
      ...(operation ? { operation } : {}),
      ...(since ? { since } : {}),
    }),
    [user, operation, since],
  );
  const timeline = useTimeline(scope, filter);
  const data = timeline.data;
  const title = t('timeline.title');

  // The diagnosis as the machine's card names it ("Placement stall on DCS"); a code this screen
  // does not know (a newer BFF) is shown as it is.
  const diagnosisLabel = (code: string): string =>
    DIAGNOSIS_CODES.has(code) ? t(`diagnosis.${code as DiagnosisCode}`) : code;

  const describe = (e: Entry): string => {
    if (e.kind === 'operation') {
      const r = e.record;
      // A scale reads as what it did ("alice scaled dev-west-full 4 → 6"); its id stays in view.
      if (r?.replicas && e.operation?.startsWith('O-SCALE') === true)
        return t('timeline.scaled', {
          user: e.user ?? '',
          pool: r.pool ?? r.target?.name ?? e.object ?? '',
          from: r.replicas.from,
          to: r.replicas.to,
          operation: e.operation,
        });
      const replicas = e.record?.replicas
        ? ` ${t('timeline.replicas', { from: e.record.replicas.from, to: e.record.replicas.to })}`
        : '';
      return `${t('timeline.operation', { user: e.user ?? '', operation: e.operation ?? '', object: e.object ?? '' })}${replicas}`;
    }
    // A group names at most a few machines (domain's TIMELINE_GROUP_NAMES_MAX); count has them all.
    const names = (e.machines ?? []).join(', ');
    const count = e.count ?? e.machines?.length ?? 0;
    const more = count - (e.machines?.length ?? 0);
    const machines = more > 0 ? t('timeline.moreMachines', { machines: names, more }) : names;
    if (e.kind === 'phase')
      return t('timeline.machinesPhase', { count, phase: e.phase ?? '', machines });
    if (e.kind === 'deleting') return t('timeline.machinesDeleting', { count, machines });
    if (e.kind === 'stuck')
      return t('timeline.machinesStuck', { count, code: diagnosisLabel(e.code ?? ''), machines });
    return `${e.object ?? ''} ${e.reason ?? ''}: ${e.message ?? ''}`;
  };
  // Issue 25: a failure says whether anything had been changed ("refused before any change",
  // "failed, undone"); other results (a refusal's code: Invalid, Forbidden…) are shown as sent.
  const resultLabel = (e: Entry): string =>
    e.result === 'applied'
      ? t('timeline.result.applied')
      : e.result === 'dry-run'
        ? t('timeline.result.dryRun')
        : e.result === 'refused'
          ? t('timeline.result.refused')
          : e.result === 'conflict'
            ? t('timeline.result.conflict')
            : e.result === 'failed'
              ? e.record?.rolledBack === true
                ? t('timeline.result.rolledBack')
                : t('timeline.result.failed')
              : (e.result ?? '');

  return (
    <Box component="section" aria-label={title} sx={{ mt: 3 }}>
      <Typography variant={headingLevel} component={headingLevel} sx={{ mb: 1 }}>
        {title}
      </Typography>
      <Stack direction="row" spacing={2} sx={{ mb: 1, flexWrap: 'wrap' }}>
        <FormControl size="small" sx={{ minWidth: 160 }}>
          <InputLabel id="timeline-user">{t('timeline.user')}</InputLabel>
          <Select
            labelId="timeline-user"
            label={t('timeline.user')}
            value={user}
            onChange={(ev) => {
              setUser(ev.target.value);
            }}
          >
            <MenuItem value="">{t('timeline.any')}</MenuItem>
            {(data?.facets.users ?? []).map((u) => (
              <MenuItem key={u} value={u}>
                {u}
              </MenuItem>
            ))}
          </Select>
        </FormControl>
        <FormControl size="small" sx={{ minWidth: 180 }}>
          <InputLabel id="timeline-operation">{t('timeline.operationFilter')}</InputLabel>
          <Select
            labelId="timeline-operation"
            label={t('timeline.operationFilter')}
            value={operation}
            onChange={(ev) => {
              setOperation(ev.target.value);
            }}
          >
            <MenuItem value="">{t('timeline.any')}</MenuItem>
            {(data?.facets.operations ?? []).map((o) => (
              <MenuItem key={o} value={o}>
                {o}
              </MenuItem>
            ))}
          </Select>
        </FormControl>
        <FormControl size="small" sx={{ minWidth: 160 }}>
          <InputLabel id="timeline-range">{t('timeline.range')}</InputLabel>
          <Select
            labelId="timeline-range"
            label={t('timeline.range')}
            value={range}
            onChange={(ev) => {
              const r = ev.target.value;
              setRange(r);
              setSince(r === 'all' ? undefined : new Date(Date.now() - RANGES[r]).toISOString());
            }}
          >
            {(Object.keys(RANGES) as Range[]).map((r) => (
              <MenuItem key={r} value={r}>
                {t(RANGE_KEYS[r])}
              </MenuItem>
            ))}
          </Select>
        </FormControl>
      </Stack>
      {timeline.isError && <ErrorAlert error={timeline.error} severity="warning" />}
      {data && data.sources.records !== 'ok' && (
        <Alert severity="info" sx={{ mb: 1 }}>
          {t('timeline.recordsUnreadable')}
        </Alert>
      )}
      {data?.entries.length === 0 && <Alert severity="info">{t('timeline.none')}</Alert>}
      {data && data.entries.length > 0 && (
        // Scrolls within its height: keyboard users reach it by Tab (axe scrollable-region-focusable).
        <TableContainer
          sx={{ border: 1, borderColor: 'divider', borderRadius: 1, maxHeight: 420 }}
          tabIndex={0}
          role="region"
          aria-label={title}
        >
          <Table size="small" stickyHeader aria-label={title}>
            <TableHead>
              <TableRow>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>{t('timeline.time')}</TableCell>
                <TableCell>{t('timeline.source')}</TableCell>
                <TableCell>{t('timeline.what')}</TableCell>
                <TableCell>{t('timeline.result')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {data.entries.map((e) => (
                <TableRow key={e.id}>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>
                    {formatAbsolute(e.time, locale)}
                  </TableCell>
                  <TableCell>{t(`timeline.source.${e.source}`)}</TableCell>
                  <TableCell sx={{ overflowWrap: 'anywhere' }}>{describe(e)}</TableCell>
                  <TableCell>
                    {e.kind === 'operation' ? (
                      <Chip
                        size="small"
                        label={resultLabel(e)}
                        color={
                          e.severity === 'warning' ? 'warning' : e.dryRun ? 'default' : 'success'
                        }
                      />
                    ) : e.severity === 'warning' ? (
                      <Chip size="small" color="warning" label={t('timeline.warning')} />
                    ) : null}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
      {data && (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
          {t('timeline.retention', { days: data.retention.days })}
        </Typography>
      )}
    </Box>
  );
}
