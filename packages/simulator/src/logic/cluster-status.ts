import type { Cluster, DCSCluster, KubeadmControlPlane } from '@dcs/domain';
import { falseCondition, mirror, setConditions, trueCondition, withSummary } from './conditions';

/** A Cluster's status as Cluster API v1.10's cluster controller computes it (v1beta1). */

export const CLUSTER_INFRASTRUCTURE_READY = 'InfrastructureReady';
export const CONTROL_PLANE_INITIALIZED = 'ControlPlaneInitialized';
export const CONTROL_PLANE_READY = 'ControlPlaneReady';

export type ClusterStatus = NonNullable<Cluster['status']>;

export function clusterStatus(
  cluster: Cluster,
  infra: DCSCluster | undefined,
  kcp: KubeadmControlPlane | undefined,
  nowISO: string,
): ClusterStatus {
  const infraReady = Boolean(infra?.status?.ready);
  const cpReady = Boolean(kcp?.status?.ready);
  const cpInitialized = Boolean(kcp?.status?.initialized);
  const s = cluster.status ?? {};

  // reconcilePhase: later rules win.
  let phase = s.phase ?? 'Pending';
  if (cluster.spec?.infrastructureRef || cluster.spec?.controlPlaneRef) phase = 'Provisioning';
  const endpoint = cluster.spec?.controlPlaneEndpoint ?? infra?.spec?.controlPlaneEndpoint;
  if (infraReady && endpoint?.host) phase = 'Provisioned';
  if (s.failureReason || s.failureMessage) phase = 'Failed';
  if (cluster.metadata.deletionTimestamp) phase = 'Deleting';

  const conditions = withSummary(
    setConditions(
      s.conditions,
      [
        infra
          ? mirror(
              infra.status?.conditions,
              CLUSTER_INFRASTRUCTURE_READY,
              infraReady
                ? trueCondition('')
                : falseCondition('', 'WaitingForInfrastructure', 'Info'),
            )
          : falseCondition(CLUSTER_INFRASTRUCTURE_READY, 'WaitingForInfrastructure', 'Info'),
        cpInitialized
          ? trueCondition(CONTROL_PLANE_INITIALIZED)
          : falseCondition(
              CONTROL_PLANE_INITIALIZED,
              'WaitingForControlPlaneProviderInitialized',
              'Info',
              'Waiting for control plane provider to indicate the control plane has been initialized',
            ),
        kcp
          ? mirror(
              kcp.status?.conditions,
              CONTROL_PLANE_READY,
              cpReady ? trueCondition('') : falseCondition('', 'WaitingForControlPlane', 'Info'),
            )
          : falseCondition(CONTROL_PLANE_READY, 'WaitingForControlPlane', 'Info'),
      ],
      nowISO,
    ),
    { conditions: [CONTROL_PLANE_READY, CLUSTER_INFRASTRUCTURE_READY] },
    nowISO,
  );
  return {
    ...s,
    phase,
    infrastructureReady: infraReady,
    controlPlaneReady: cpReady,
    observedGeneration: cluster.metadata.generation ?? 0,
    conditions,
  };
}
