import { Box, Chip } from '@mui/material';
import { useEffect, useState } from 'react';
import { env } from '../config/env';
import { useI18n } from '../i18n/context';
import { formatAbsolute } from '../i18n/format';
import { useStreamStatus } from '../lib/stream/use-cluster-stream';

/**
 * How fresh the page is: live, reconnecting, the time since the last update, or — when the
 * console's server has lost the management cluster — since when the data stopped following it.
 */
export function FreshnessIndicator() {
  const { t, locale } = useI18n();
  const status = useStreamStatus();
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => {
      setNow(Date.now());
    }, 1000);
    return () => {
      clearInterval(timer);
    };
  }, []);
  const age =
    status.lastEventAt === undefined
      ? undefined
      : Math.max(0, Math.round((now - status.lastEventAt) / 1000));
  let label: string;
  let color: 'success' | 'warning' | 'error' | 'default';
  let title = age === undefined ? undefined : t('freshness.lastUpdate', { seconds: age });
  if (status.state !== 'reconnecting' && status.upstream?.state === 'disconnected') {
    label = t('freshness.upstreamDown', { time: formatAbsolute(status.upstream.since, locale) });
    title = status.upstream.reason;
    color = 'error';
  } else if (status.state === 'reconnecting') {
    label =
      age === undefined
        ? t('freshness.reconnecting')
        : t('freshness.reconnectingSince', { seconds: age });
    color = 'warning';
  } else if (status.state === 'connecting') {
    label = t('freshness.connecting');
    color = 'default';
  } else if (age !== undefined && age * 1000 > env.staleAfterMs) {
    label = t('freshness.lastUpdate', { seconds: age });
    color = 'warning';
  } else {
    label = t('freshness.live');
    color = 'success';
  }
  return (
    <Box
      role="status"
      aria-live="polite"
      aria-label={t('freshness.label')}
      sx={{ display: 'inline-flex' }}
    >
      <Chip
        size="small"
        variant="outlined"
        color={color}
        label={label}
        title={title}
        icon={
          <Box
            component="span"
            aria-hidden
            sx={{
              width: 8,
              height: 8,
              borderRadius: '50%',
              bgcolor: `${color === 'default' ? 'grey' : color}.main`,
              ml: 1,
            }}
          />
        }
      />
    </Box>
  );
}
