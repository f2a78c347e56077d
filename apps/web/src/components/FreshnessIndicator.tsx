import { Box, Chip } from '@mui/material';
import { useEffect, useState } from 'react';
import { env } from '../config/env';
import { useI18n } from '../i18n/context';
import { useStreamStatus } from '../lib/stream/use-cluster-stream';

/** How fresh the page is: live, reconnecting, or the time since the last update. */
export function FreshnessIndicator() {
  const { t } = useI18n();
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
  let color: 'success' | 'warning' | 'default';
  if (status.state === 'reconnecting') {
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
        title={age === undefined ? undefined : t('freshness.lastUpdate', { seconds: age })}
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
