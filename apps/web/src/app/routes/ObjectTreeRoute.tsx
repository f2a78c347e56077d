import { useParams } from 'react-router';
import { ObjectTreeTab } from '../../features/object-tree/components/ObjectTreeTab';

export function ObjectTreeRoute() {
  const { namespace = '', cluster = '' } = useParams();
  return <ObjectTreeTab namespace={namespace} cluster={cluster} />;
}
