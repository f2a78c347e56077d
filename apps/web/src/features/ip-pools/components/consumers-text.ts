import type { IpPoolConsumer } from '@dcs/domain';
import type { I18n } from '../../../i18n/context';

/** Who uses an IP pool, as one line: "Control plane of demo (3), demo-md-0 (3)"; "—" for no one. */
export function consumersText(consumers: readonly IpPoolConsumer[], t: I18n['t']): string {
  return (
    consumers
      .map((c) =>
        c.kind === 'KubeadmControlPlane'
          ? `${t('ipPools.controlPlaneOf', { cluster: c.cluster })} (${String(c.replicas)})`
          : `${c.deployment} (${String(c.replicas)})`,
      )
      .join(', ') || '—'
  );
}
