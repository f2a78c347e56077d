import { useParams } from '../../lib/routing';
import { useClusters } from '../../features/clusters/api/get-clusters';
import { ConditionsTable } from '../../features/conditions/components/ConditionsTable';
import { NodePoolsTab } from '../../features/node-pools/components/NodePoolsTab';
import { Timeline } from '../../features/timeline/components/Timeline';
import { useI18n } from '../../i18n/context';
import { usePoolDialogs } from './usePoolDialogs';

/**
 * The Node Pools tab and the dialogs its cards open (loaded when first needed), then the Cluster
 * object's own conditions (issue 12, U-6: problems first, each row a `?condition=Cluster/…` link).
 */
export function NodePoolsRoute() {
  const { namespace = '', cluster = '' } = useParams();
  const { onAction, dialog } = usePoolDialogs(namespace, cluster);
  return (
    <>
      <NodePoolsTab namespace={namespace} cluster={cluster} onAction={onAction} />
      <ClusterConditions namespace={namespace} cluster={cluster} />
      {/* Issue 12: the audit timeline of the whole cluster. */}
      <Timeline scope={{ namespace, cluster }} headingLevel="h2" />
      {dialog}
    </>
  );
}

function ClusterConditions({ namespace, cluster }: { namespace: string; cluster: string }) {
  const { t } = useI18n();
  const view = useClusters().data?.find((c) => c.namespace === namespace && c.name === cluster);
  if (!view) return null;
  return (
    <ConditionsTable
      conditions={view.conditions}
      object={{ kind: 'Cluster', name: view.name }}
      title={t('conditions.ofObject', { kind: 'Cluster', name: view.name })}
      headingLevel="h2"
    />
  );
}
