import type { PauseView } from '@dcs/domain';
import { Chip } from '@mui/material';
import { useI18n } from '../i18n/context';

/**
 * The Paused chip of every card a pause affects (issue 26, R-PAUSE-1): its cause (the cluster's
 * spec.paused, the object's own annotation) in the label, and Cluster API's own word, the v1beta2
 * Paused condition's message, in its title. Nothing when the object is not paused.
 */
export function PausedChip({ pause, sx }: { pause: PauseView; sx?: object }) {
  const { t } = useI18n();
  if (!pause.paused) return null;
  const causes = [
    pause.byCluster ? t('pause.causeCluster') : undefined,
    pause.byAnnotation ? t('pause.causeAnnotation') : undefined,
    !pause.byCluster && !pause.byAnnotation ? t('pause.causeSpec') : undefined,
  ].filter((c): c is string => c !== undefined);
  const c = pause.condition;
  const condition = c
    ? [c.status, c.reason, c.message].filter(Boolean).join(' · ')
    : t('pause.conditionUnknown');
  return (
    <Chip
      size="small"
      color="warning"
      label={t('pause.chipLabel', { cause: causes.join(', ') })}
      title={t('pause.chipHelp', { condition })}
      {...(sx ? { sx } : {})}
    />
  );
}
