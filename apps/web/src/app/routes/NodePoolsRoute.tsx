import { useParams } from 'react-router';
import { NodePoolsTab } from '../../features/node-pools/components/NodePoolsTab';
import { usePoolDialogs } from './usePoolDialogs';

/** The Node Pools tab and the dialogs its cards open (loaded when first needed). */
export function NodePoolsRoute() {
  const { namespace = '', cluster = '' } = useParams();
  const { onAction, dialog } = usePoolDialogs(namespace, cluster);
  return (
    <>
      <NodePoolsTab namespace={namespace} cluster={cluster} onAction={onAction} />
      {dialog}
    </>
  );
}
