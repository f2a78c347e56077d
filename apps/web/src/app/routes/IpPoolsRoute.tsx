import { useParams } from '../../lib/routing';
import { ConditionsTable } from '../../features/conditions/components/ConditionsTable';
import { useIpPools } from '../../features/ip-pools/api/get-ip-pools';
import { CreateIpPoolPage } from '../../features/ip-pools/components/CreateIpPoolPage';
import { IpPoolPage } from '../../features/ip-pools/components/IpPoolPage';
import { IpPoolsTab } from '../../features/ip-pools/components/IpPoolsTab';
import { useI18n } from '../../i18n/context';

export function IpPoolsRoute() {
  const { namespace = '', cluster = '' } = useParams();
  return <IpPoolsTab namespace={namespace} cluster={cluster} />;
}

/** One IP pool: its entries and edits, then its own conditions when it reports any (U-6). */
export function IpPoolRoute() {
  const { namespace = '', cluster = '', ipPool = '' } = useParams();
  const { t } = useI18n();
  const pool = useIpPools(namespace).data?.find((p) => p.name === ipPool);
  return (
    <>
      <IpPoolPage namespace={namespace} cluster={cluster} name={ipPool} />
      {pool?.conditions && (
        <ConditionsTable
          conditions={pool.conditions}
          object={{ kind: 'DCSIpHostnamePool', name: pool.name }}
          title={t('conditions.ofObject', { kind: 'DCSIpHostnamePool', name: pool.name })}
        />
      )}
    </>
  );
}

export function NewIpPoolRoute() {
  const { namespace = '', cluster = '' } = useParams();
  return <CreateIpPoolPage namespace={namespace} cluster={cluster} />;
}
