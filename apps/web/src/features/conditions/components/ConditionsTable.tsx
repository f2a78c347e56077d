import {
  conditionAnchor,
  conditionTone,
  type ConditionTone,
  type ConditionView,
} from '@dcs/domain';
import ErrorOutlined from '@mui/icons-material/ErrorOutlined';
import InfoOutlined from '@mui/icons-material/InfoOutlined';
import LinkIcon from '@mui/icons-material/Link';
import WarningAmber from '@mui/icons-material/WarningAmber';
import {
  Alert,
  Box,
  Button,
  Chip,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { useEffect, useRef, useState } from 'react';
import { useLocation, useSearchParams } from '../../../lib/routing';
import { useI18n } from '../../../i18n/context';
import { formatAbsolute, formatRelative } from '../../../i18n/format';
import { useNow } from '../../../lib/use-now';

/** The query parameter of a deep link to one condition: `?condition=Kind/name/Type`. */
export const CONDITION_PARAM = 'condition';

const chipColor: Record<ConditionTone, 'success' | 'error' | 'warning' | 'info' | 'default'> = {
  ok: 'success',
  error: 'error',
  warning: 'warning',
  unknown: 'warning',
  // False with severity Info: a step in progress, never drawn like a healthy True (issue 12).
  info: 'info',
};

/** The absolute URL of this page focused on one condition: what support staff paste. */
export function conditionLink(pathname: string, anchor: string): string {
  const params = new URLSearchParams({ [CONDITION_PARAM]: anchor });
  return `${window.location.origin}${pathname}?${params.toString()}`;
}

/**
 * U-6: an object's conditions with type, status, severity, reason, message and last transition
 * (relative and absolute), problems first (domain's conditionViews order). Given the object's
 * kind and name, each row is an anchor: `?condition=Kind/name/Type` scrolls to it and highlights
 * it, and "Link for support" copies that absolute URL. A Cluster API v1beta2 condition written
 * for an older generation of the object is marked stale.
 */
export function ConditionsTable({
  conditions,
  title,
  object,
  headingLevel = 'h3',
}: {
  conditions: readonly ConditionView[];
  title: string;
  object?: { kind: string; name: string };
  headingLevel?: 'h2' | 'h3' | 'h4';
}) {
  const { t, locale } = useI18n();
  const now = useNow(15_000);
  const [params] = useSearchParams();
  const { pathname } = useLocation();
  const focused = params.get(CONDITION_PARAM) ?? undefined;
  const focusedRow = useRef<HTMLTableRowElement>(null);
  const [copied, setCopied] = useState<string>();
  const anchorOf = (c: ConditionView) =>
    object ? conditionAnchor(object.kind, object.name, c.type) : undefined;
  const hasFocus = object !== undefined && conditions.some((c) => anchorOf(c) === focused);
  useEffect(() => {
    // When the focused condition is on screen. Some test DOMs lack scrollIntoView.
    const row = focusedRow.current;
    if (!hasFocus || !row || !('scrollIntoView' in row)) return;
    const center = () => {
      row.scrollIntoView({ block: 'center' });
    };
    center();
    // What is above it may still be loading (a cluster's pool cards under its own conditions): a
    // row centred on a short page was pushed out of view as the page grew. It is centred again
    // whenever the page's size changes, until the user scrolls, types or clicks, or 10 s pass.
    if (typeof ResizeObserver === 'undefined') return;
    const grown = new ResizeObserver(center);
    grown.observe(document.body);
    const userEvents = ['wheel', 'touchstart', 'keydown', 'pointerdown'] as const;
    const stop = () => {
      grown.disconnect();
      clearTimeout(timer);
      for (const e of userEvents) window.removeEventListener(e, stop);
    };
    const timer = setTimeout(stop, 10_000);
    for (const e of userEvents) window.addEventListener(e, stop, { passive: true });
    return stop;
  }, [hasFocus]);
  return (
    <Box component="section" aria-label={title} sx={{ mt: 3, mb: 3 }}>
      <Typography
        variant={headingLevel === 'h2' ? 'h2' : 'h3'}
        component={headingLevel}
        sx={{ mb: 1 }}
      >
        {title}
      </Typography>
      {conditions.length === 0 ? (
        <Alert severity="info">{t('conditions.none')}</Alert>
      ) : (
        <TableContainer sx={{ border: 1, borderColor: 'divider', borderRadius: 1 }}>
          <Table size="small" aria-label={title}>
            {/* Short headings stay on one line ("严重程度" broke into a character per line at 1024 px). */}
            <TableHead sx={{ '& th': { whiteSpace: 'nowrap' } }}>
              <TableRow>
                <TableCell>{t('conditions.type')}</TableCell>
                <TableCell>{t('conditions.status')}</TableCell>
                <TableCell>{t('conditions.severity')}</TableCell>
                <TableCell>{t('conditions.reason')}</TableCell>
                <TableCell sx={{ width: '40%' }}>{t('conditions.message')}</TableCell>
                <TableCell>{t('conditions.lastTransition')}</TableCell>
                {object && <TableCell>{t('conditions.link')}</TableCell>}
              </TableRow>
            </TableHead>
            <TableBody>
              {conditions.map((c) => {
                const tone = conditionTone(c);
                const anchor = anchorOf(c);
                const isFocused = anchor !== undefined && anchor === focused;
                return (
                  <TableRow
                    key={c.type}
                    ref={isFocused ? focusedRow : undefined}
                    data-problem={c.problem ? 'true' : undefined}
                    data-tone={tone}
                    data-anchor={anchor}
                    aria-current={isFocused ? 'location' : undefined}
                    selected={isFocused}
                    sx={{
                      ...(c.problem || tone === 'info'
                        ? {
                            '& > td:first-of-type': {
                              borderLeft: 4,
                              borderLeftColor:
                                tone === 'info'
                                  ? 'info.main'
                                  : c.severity === 'Error'
                                    ? 'error.main'
                                    : 'warning.main',
                            },
                          }
                        : {}),
                      ...(isFocused
                        ? { outline: 2, outlineColor: 'primary.main', outlineStyle: 'solid' }
                        : {}),
                    }}
                  >
                    <TableCell sx={{ fontWeight: 600 }}>
                      {c.problem &&
                        (c.severity === 'Error' ? (
                          <ErrorOutlined
                            fontSize="small"
                            color="error"
                            titleAccess={t('conditions.problem')}
                            sx={{ verticalAlign: 'middle', mr: 0.5 }}
                          />
                        ) : (
                          <WarningAmber
                            fontSize="small"
                            color="warning"
                            titleAccess={t('conditions.problem')}
                            sx={{ verticalAlign: 'middle', mr: 0.5 }}
                          />
                        ))}
                      {tone === 'info' && (
                        <InfoOutlined
                          fontSize="small"
                          color="info"
                          titleAccess={t('conditions.inProgress')}
                          sx={{ verticalAlign: 'middle', mr: 0.5 }}
                        />
                      )}
                      {c.type}
                    </TableCell>
                    <TableCell>
                      <Chip
                        size="small"
                        variant="outlined"
                        color={chipColor[tone]}
                        label={c.status}
                      />
                      {c.stale && (
                        <Chip
                          size="small"
                          sx={{ ml: 0.5 }}
                          label={t('conditions.stale')}
                          title={t('conditions.staleTitle', {
                            observed: String(c.observedGeneration ?? ''),
                          })}
                        />
                      )}
                    </TableCell>
                    <TableCell>{c.severity ?? '—'}</TableCell>
                    <TableCell>{c.reason ?? '—'}</TableCell>
                    {/* Cluster API v1beta2's aggregate messages are lines ("* Machine a: …"). */}
                    <TableCell sx={{ overflowWrap: 'anywhere', whiteSpace: 'pre-line' }}>
                      {c.message ?? '—'}
                    </TableCell>
                    {/* One line each for "1 minute ago" and the date: wrapped, a row was four lines tall. */}
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>
                      <time
                        dateTime={c.lastTransitionTime}
                        title={formatAbsolute(c.lastTransitionTime, locale)}
                      >
                        {formatRelative(c.lastTransitionTime, now, locale)}
                      </time>
                      <Typography
                        variant="caption"
                        color="text.secondary"
                        sx={{ display: 'block' }}
                      >
                        {formatAbsolute(c.lastTransitionTime, locale)}
                      </Typography>
                    </TableCell>
                    {anchor !== undefined && (
                      <TableCell>
                        <Button
                          size="small"
                          // One line: wrapped, "Link for / support" fell apart from its icon.
                          sx={{ whiteSpace: 'nowrap' }}
                          startIcon={<LinkIcon fontSize="small" />}
                          onClick={() => {
                            void navigator.clipboard
                              .writeText(conditionLink(pathname, anchor))
                              .then(() => {
                                setCopied(anchor);
                              });
                          }}
                        >
                          {copied === anchor ? t('common.copied') : t('conditions.deepLink')}
                        </Button>
                      </TableCell>
                    )}
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        </TableContainer>
      )}
    </Box>
  );
}
