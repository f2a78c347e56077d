import { useParams } from '../../lib/routing';
import { AddWorkerNodePoolPage } from '../../features/create-pool/components/AddWorkerNodePoolPage';

export function AddPoolRoute() {
  const { namespace = '', cluster = '' } = useParams();
  return <AddWorkerNodePoolPage namespace={namespace} cluster={cluster} />;
}
