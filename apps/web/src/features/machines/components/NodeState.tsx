import type { ClusterNodeSummaries, ClusterNodesView, MachineNodeState } from '@dcs/domain';
import { Chip } from '@mui/material';
import type { I18n } from '../../../i18n/context';
import { useI18n } from '../../../i18n/context';
import { formatAbsolute } from '../../../i18n/format';
import { errorText } from '../../../lib/error-text';

const STATE_COLOR: Record<MachineNodeState, 'success' | 'warning' | 'error' | 'default'> = {
  Ready: 'success',
  NotReady: 'error',
  Unknown: 'warning',
  Cordoned: 'warning',
  Draining: 'warning',
  NoNode: 'default',
  Deleted: 'default',
  Missing: 'error',
};

/** A machine's Node state (domain's `machineNodeOf`), in the user's language and in colour. */
export function NodeStateChip({ state }: { state: MachineNodeState }) {
  const { t } = useI18n();
  return (
    <Chip
      size="small"
      variant={state === 'Ready' ? 'filled' : 'outlined'}
      color={STATE_COLOR[state]}
      label={t(`nodeState.${state}`)}
      data-node-state={state}
    />
  );
}

/**
 * Why a cluster's Nodes cannot be shown, in the user's language; undefined when they can. An
 * error of the request itself (the BFF down) is a reason too.
 */
export function nodesUnavailableText(
  view: ClusterNodeSummaries | ClusterNodesView | undefined,
  error: unknown,
  { t, locale, localize }: Pick<I18n, 't' | 'locale' | 'localize'>,
): string | undefined {
  if (!view) {
    return error
      ? t('nodes.unavailable.error', { message: errorText(error, t, localize).title })
      : undefined;
  }
  switch (view.status) {
    case 'ok':
      return undefined;
    case 'forbidden':
      return t('nodes.unavailable.forbidden', { secret: view.secret });
    case 'no-kubeconfig':
      return t('nodes.unavailable.no-kubeconfig', { secret: view.secret });
    case 'unreachable':
      return t('nodes.unavailable.unreachable', {
        since: formatAbsolute(view.since, locale),
        message: view.message,
      });
    case 'pending':
      return t('nodes.unavailable.pending');
  }
}
