import { useParams } from 'react-router';
import { IpPoolPage } from '../../features/ip-pools/components/IpPoolPage';
import { IpPoolsTab } from '../../features/ip-pools/components/IpPoolsTab';

export function IpPoolsRoute() {
  const { namespace = '', cluster = '' } = useParams();
  return <IpPoolsTab namespace={namespace} cluster={cluster} />;
}

export function IpPoolRoute() {
  const { namespace = '', cluster = '', ipPool = '' } = useParams();
  return <IpPoolPage namespace={namespace} cluster={cluster} name={ipPool} />;
}
