import type { PoolStatus } from '@dcs/domain';
import { Chip } from '@mui/material';
import { useI18n } from '../i18n/context';

const COLOR: Record<PoolStatus, 'success' | 'info' | 'warning' | 'error' | 'default'> = {
  Running: 'success',
  ScalingUp: 'info',
  ScalingDown: 'info',
  Updating: 'info',
  Provisioning: 'info',
  Degraded: 'warning',
  Failed: 'error',
  Deleting: 'default',
  Paused: 'default',
  Unknown: 'default',
};

/** A pool's honest status (domain's poolStatus), in words and colour. */
export function StatusChip({ status }: { status: PoolStatus }) {
  const { localize, t } = useI18n();
  const text = localize({ messageKey: `view.status.${status}`, params: {}, message: status });
  return (
    <Chip
      size="small"
      color={COLOR[status]}
      label={text}
      aria-label={t('common.statusIs', { status: text })}
    />
  );
}
