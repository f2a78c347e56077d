import {
  nodeGroupOf,
  type AutoscalerConditionView,
  type ClusterAutoscalerView,
  type NodePoolView,
} from '@dcs/domain';
import { Box } from '@mui/material';
import { useAutoscaleTexts, type AutoscaleText } from '../../../i18n/autoscale';
import { useI18n } from '../../../i18n/context';
import { formatAbsolute, formatRelative } from '../../../i18n/format';
import { useNow } from '../../../lib/use-now';

/**
 * The cluster autoscaler on a worker pool's card (issue 26 item 2): the bounds the pool's
 * MachineDeployment carries (what the console writes, R-AS-1..4), and what the autoscaler itself
 * says of the pool in the workload cluster's status ConfigMap (its node group's health, the
 * min/max/target it sees, its last scale-up and scale-down), or why that cannot be shown.
 */

/** The "Autoscaling" fact: off, the bounds, or the annotations the autoscaler ignores. */
export function autoscalingText(pool: NodePoolView, t: AutoscaleText): string {
  const a = pool.autoscaler;
  if (!a) return t('autoscale.off');
  if (a.bounds) return t('autoscale.bounds', { min: a.bounds.minSize, max: a.bounds.maxSize });
  return t('autoscale.ignored', { min: a.minSize ?? '—', max: a.maxSize ?? '—' });
}

function Activity({
  label,
  c,
  now,
}: {
  label: 'autoscale.status.scaleUp' | 'autoscale.status.scaleDown';
  c: AutoscalerConditionView | undefined;
  now: number;
}) {
  const { locale } = useI18n();
  const t = useAutoscaleTexts();
  if (!c) return null;
  const when = c.lastTransitionTime;
  return (
    <Box component="span" sx={{ display: 'block' }}>
      {t(label, { status: c.status })}
      {when && (
        <>
          {' '}
          <Box component="time" dateTime={when} title={formatAbsolute(when, locale)}>
            {t('autoscale.status.since', { when: formatRelative(when, now, locale) })}
          </Box>
        </>
      )}
    </Box>
  );
}

/** The "Cluster autoscaler" fact: what the autoscaler reports for this pool. */
export function AutoscalerStatus({
  pool,
  view,
}: {
  pool: NodePoolView;
  view: ClusterAutoscalerView | undefined;
}) {
  const { t: common } = useI18n();
  const t = useAutoscaleTexts();
  const now = useNow(30_000);
  if (!view) return <>{common('common.loading')}</>;
  if (view.status !== 'ok')
    return <>{t('autoscale.status.unavailable', { message: view.message })}</>;
  if (!view.found) return <>{t('autoscale.status.notFound', { configMap: view.configMap })}</>;
  if (!view.document) {
    return <>{t('autoscale.status.unreadable', { error: view.error ?? '' })}</>;
  }
  const group = nodeGroupOf(view.document, pool.namespace, pool.name);
  if (!group) return <>{t('autoscale.status.notListed')}</>;
  const h = group.health;
  const dash = (n: number | undefined) => (n === undefined ? '—' : String(n));
  return (
    <Box component="span" sx={{ display: 'block' }}>
      <Box component="span" sx={{ display: 'block' }}>
        {t('autoscale.status.group', {
          health: h?.status ?? '—',
          target: dash(h?.target),
          min: dash(h?.minSize),
          max: dash(h?.maxSize),
          ready: dash(h?.ready),
        })}
      </Box>
      <Activity label="autoscale.status.scaleUp" c={group.scaleUp} now={now} />
      <Activity label="autoscale.status.scaleDown" c={group.scaleDown} now={now} />
      {group.scaleUp?.backoff && (
        <Box component="span" sx={{ display: 'block', color: 'warning.main' }}>
          {t('autoscale.status.backoff', {
            error: [group.scaleUp.backoff.errorCode, group.scaleUp.backoff.errorMessage]
              .filter(Boolean)
              .join(': '),
          })}
        </Box>
      )}
    </Box>
  );
}
