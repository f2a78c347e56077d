import type { NodePoolView } from '@dcs/domain';
import type { I18n } from '../../../i18n/context';
import { formatAbsolute } from '../../../i18n/format';

/**
 * A pool card's line for a scheduled rollout restart (O-RESTART: its rolloutAfter still to come,
 * by the console server's clock); none otherwise (a restart under way shows as a rollout).
 */
export function restartFact(
  pool: NodePoolView,
  t: I18n['t'],
  locale: I18n['locale'],
): { label: string; id: string; value: string }[] {
  if (!pool.restart?.scheduled) return [];
  return [
    {
      label: t('restart.scheduledLabel'),
      id: 'restart',
      value: t('restart.scheduledValue', {
        time: formatAbsolute(pool.restart.after, locale),
        utc: pool.restart.after,
      }),
    },
  ];
}
