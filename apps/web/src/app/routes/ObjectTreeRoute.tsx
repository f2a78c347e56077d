import { useParams } from '../../lib/routing';
import { ObjectTreeTab } from '../../features/object-tree/components/ObjectTreeTab';

export function ObjectTreeRoute() {
  const { namespace = '', cluster = '' } = useParams();
  return <ObjectTreeTab namespace={namespace} cluster={cluster} />;
}
