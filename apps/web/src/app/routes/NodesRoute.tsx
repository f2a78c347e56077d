import { useParams } from '../../lib/routing';
import { NodesTab } from '../../features/machines/components/NodesTab';
import { usePoolDialogs } from './usePoolDialogs';

export function NodesRoute() {
  const { namespace = '', cluster = '' } = useParams();
  const { onDeleteMachines, dialog } = usePoolDialogs(namespace, cluster);
  return (
    <>
      <NodesTab namespace={namespace} cluster={cluster} onDeleteSelected={onDeleteMachines} />
      {dialog}
    </>
  );
}
