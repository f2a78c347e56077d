import { useParams } from 'react-router';
import { CreateIpPoolPage } from '../../features/ip-pools/components/CreateIpPoolPage';
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

export function NewIpPoolRoute() {
  const { namespace = '', cluster = '' } = useParams();
  return <CreateIpPoolPage namespace={namespace} cluster={cluster} />;
}
