import type { MachineView, NodePoolView } from '@dcs/domain';
import { lazy } from 'react';
import { useClusterContext } from '../../api/get-cluster-context';
import { usePoolMachines } from '../../features/machines/api/get-pool-machines';
import { useNodePools } from '../../features/node-pools/api/get-node-pools';
import { DeleteMachinesDialog } from '../../features/operations/components/DeleteMachinesDialog';
import { DeletePoolDialog } from '../../features/operations/components/DeletePoolDialog';
import { EditStrategyDialog } from '../../features/operations/components/EditStrategyDialog';
import { ControlPlaneConfigDialog } from '../../features/operations/components/ControlPlaneConfigDialog';
import { ScaleDialog } from '../../features/operations/components/ScaleDialog';
import { PauseDialog } from '../../features/operations/components/PauseDialog';
import { AutoscaleDialog } from '../../features/operations/components/AutoscaleDialog';
import { HealthCheckDialog } from '../../features/operations/components/HealthCheckDialog';
import { RestartDialog } from '../../features/operations/components/RestartDialog';
import { UpgradeDialog } from '../../features/operations/components/UpgradeDialog';
import { useI18n } from '../../i18n/context';
import { poolObjectRefs } from '../../lib/object-refs';
import type { PoolAction } from '../../features/node-pools/components/pool-actions';

const YamlDialog = lazy(() => import('../../features/objects/components/YamlDialog'));

/** Which dialog is open, and on what: a pool action on a pool, or the deletion of machines. */
export type OpenDialog =
  | { action: PoolAction; pool: NodePoolView }
  | { action: 'deleteMachines'; poolId: string; machines: MachineView[] };

export interface PoolActionDialogProps {
  namespace: string;
  cluster: string;
  open: OpenDialog;
  onClose: () => void;
}

/**
 * The dialog a card or table asked for, with the live pool (not the one clicked: the stream may
 * have changed it since) and the context the rules need. Loaded on first use.
 */
export default function PoolActionDialog({
  namespace,
  cluster,
  open,
  onClose,
}: PoolActionDialogProps) {
  const { t } = useI18n();
  const poolId = open.action === 'deleteMachines' ? open.poolId : open.pool.id;
  const pools = useNodePools(namespace, cluster);
  const context = useClusterContext(namespace, cluster);
  const machines = usePoolMachines(namespace, cluster, poolId);
  const pool =
    pools.data?.find((p) => p.id === poolId) ??
    (open.action === 'deleteMachines' ? undefined : open.pool);
  if (!pool) return null;
  if (open.action === 'yaml')
    return (
      <YamlDialog
        namespace={namespace}
        objects={poolObjectRefs(pool)}
        title={t('yaml.title', { name: pool.name })}
        onClose={onClose}
      />
    );
  // Dialogs start from a fresh context (a control plane upgraded a minute ago changes the offer).
  if (!context.data || !context.isFetchedAfterMount) return null;
  const common = { namespace, cluster, pool, context: context.data, onClose };
  switch (open.action) {
    case 'scale':
      return <ScaleDialog {...common} machines={machines.data} />;
    case 'delete':
      return <DeletePoolDialog {...common} machines={machines.data?.map((m) => m.name)} />;
    case 'upgrade':
      return <UpgradeDialog {...common} initialTab="infrastructure" />;
    case 'editBootstrap':
      return <UpgradeDialog {...common} initialTab="bootstrap" />;
    case 'editStrategy':
      return <EditStrategyDialog {...common} />;
    case 'editControlPlaneConfig':
      return <ControlPlaneConfigDialog {...common} />;
    case 'autoscale':
      return <AutoscaleDialog {...common} />;
    case 'healthCheck':
      return <HealthCheckDialog {...common} />;
    case 'pause':
      return (
        <PauseDialog
          namespace={namespace}
          cluster={cluster}
          target={{
            kind: pool.kind === 'control-plane' ? 'KubeadmControlPlane' : 'MachineDeployment',
            name: pool.name,
            label: pool.kind === 'control-plane' ? t('pool.controlPlane') : pool.name,
            pool: pool.id,
            resourceVersion:
              (pool.kind === 'control-plane'
                ? pool.resourceVersions.kcp
                : pool.resourceVersions.md) ?? '',
            pausedByItself: pool.pause.byAnnotation,
            clusterPaused: pool.pause.byCluster,
            // The pools' list follows the stream: its copy is the newest the page has.
            currentResourceVersion: () => {
              const live = pools.data?.find((p) => p.id === pool.id)?.resourceVersions;
              return Promise.resolve(pool.kind === 'control-plane' ? live?.kcp : live?.md);
            },
          }}
          onClose={onClose}
        />
      );
    case 'restart':
      return (
        <RestartDialog
          namespace={namespace}
          cluster={cluster}
          target={{
            kind: pool.kind === 'control-plane' ? 'KubeadmControlPlane' : 'MachineDeployment',
            name: pool.name,
            label: pool.kind === 'control-plane' ? t('pool.controlPlane') : pool.name,
            pool: pool.id,
            resourceVersion:
              (pool.kind === 'control-plane'
                ? pool.resourceVersions.kcp
                : pool.resourceVersions.md) ?? '',
            replicas: pool.replicas.desired,
            strategy: t('pool.strategyValue', {
              maxSurge: String(pool.strategy.maxSurge ?? '—'),
              maxUnavailable: String(pool.strategy.maxUnavailable ?? '—'),
            }),
            restart: pool.restart,
            // The pools' list follows the stream: its copy is the newest the page has.
            currentResourceVersion: () => {
              const live = pools.data?.find((p) => p.id === pool.id)?.resourceVersions;
              return Promise.resolve(pool.kind === 'control-plane' ? live?.kcp : live?.md);
            },
          }}
          onClose={onClose}
        />
      );
    case 'upgradeControlPlane':
      return <UpgradeDialog {...common} initialTab="kubernetes" />;
    case 'deleteMachines':
      return (
        <DeleteMachinesDialog
          {...common}
          machines={open.machines}
          poolMachines={machines.data ?? open.machines}
        />
      );
  }
}
