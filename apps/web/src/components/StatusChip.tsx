import { worstSeverity, type PoolStatus, type Severity } from '@dcs/domain';
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

/**
 * A pool's honest status (domain's poolStatus), in words and colour. A pool that runs while the
 * rules find something wrong with it (R-DISK-5, U-2 …) is not shown green: its problems colour
 * the chip and are named in its accessible label.
 */
export function StatusChip({
  status,
  problems = [],
}: {
  status: PoolStatus;
  problems?: readonly { severity: Severity }[];
}) {
  const { localize, t } = useI18n();
  const text = localize({ messageKey: `view.status.${status}`, params: {}, message: status });
  const worst = COLOR[status] === 'success' ? worstSeverity(problems) : undefined;
  return (
    <Chip
      size="small"
      color={worst ?? COLOR[status]}
      label={text}
      aria-label={
        worst
          ? t('common.statusWithProblems', { status: text, count: problems.length })
          : t('common.statusIs', { status: text })
      }
    />
  );
}
