import type { Cluster, DCSCluster, KubeadmControlPlane, MachineDeployment } from '@dcs/domain';
import {
  falseCondition,
  getCondition,
  mirror,
  setConditions,
  trueCondition,
  withSummary,
} from './conditions';
import {
  AVAILABLE,
  DELETING,
  INFRASTRUCTURE_READY,
  REMEDIATING,
  ROLLING_OUT,
  SCALING_DOWN,
  SCALING_UP,
  aggregateV2,
  getV2,
  pausedCondition,
  setV2Conditions,
  summaryV2,
  v1beta2Of,
  v2,
  v2ConditionsOf,
  type AggregateSource,
  type V1Beta2Block,
  type V2Update,
} from './v1beta2';

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

// --- v1beta2 (internal/controllers/cluster/cluster_controller_status.go, v1.14.0) ---------

export interface ClusterV2Input {
  cluster: Cluster;
  /** The status about to be written (v1beta1 fields set). */
  status: ClusterStatus;
  infra: DCSCluster | undefined;
  kcp: KubeadmControlPlane | undefined;
  deployments: readonly MachineDeployment[];
  nowISO: string;
}

const counters = (
  block: V1Beta2Block | undefined,
  desired: number | undefined,
  replicas: number | undefined,
) => ({
  ...(desired !== undefined ? { desiredReplicas: desired } : {}),
  ...(replicas !== undefined ? { replicas } : {}),
  ...(block?.readyReplicas !== undefined ? { readyReplicas: block.readyReplicas } : {}),
  ...(block?.availableReplicas !== undefined ? { availableReplicas: block.availableReplicas } : {}),
  ...(block?.upToDateReplicas !== undefined ? { upToDateReplicas: block.upToDateReplicas } : {}),
});

/** The Cluster's `status.v1beta2`: the conditions from its infrastructure, control plane and pools. */
export function clusterV2Status(input: ClusterV2Input): V1Beta2Block {
  const { cluster, status, infra, kcp, deployments } = input;
  const deleting = Boolean(cluster.metadata.deletionTimestamp);
  const infraKind = cluster.spec?.infrastructureRef?.kind ?? 'DCSCluster';
  const cpKind = cluster.spec?.controlPlaneRef?.kind ?? 'KubeadmControlPlane';
  const provisioned = Boolean(status.infrastructureReady);
  const initialized = getCondition(status.conditions, CONTROL_PLANE_INITIALIZED)?.status === 'True';
  const updates: V2Update[] = [];

  // setInfrastructureReadyCondition (fallback: the DCSCluster reports no v1beta2 Ready)
  updates.push(
    infra
      ? provisioned
        ? v2(INFRASTRUCTURE_READY, 'True', 'Ready')
        : v2(INFRASTRUCTURE_READY, 'False', 'NotReady', `${infraKind} status.ready is false`)
      : v2(INFRASTRUCTURE_READY, 'False', 'DoesNotExist', `${infraKind} does not exist`),
  );
  // setControlPlaneInitializedCondition
  updates.push(
    kcp
      ? initialized
        ? v2('ControlPlaneInitialized', 'True', 'Initialized')
        : v2(
            'ControlPlaneInitialized',
            'False',
            'NotInitialized',
            'Control plane not yet initialized',
          )
      : v2('ControlPlaneInitialized', 'Unknown', 'DoesNotExist', `${cpKind} does not exist`),
  );
  // setControlPlaneAvailableCondition: KCP's Available mirrored.
  const kcpConditions = v2ConditionsOf(kcp ?? {});
  const kcpAvailable = getV2(kcpConditions, AVAILABLE);
  updates.push(
    kcp
      ? kcpAvailable
        ? v2(
            'ControlPlaneAvailable',
            kcpAvailable.status,
            kcpAvailable.reason,
            kcpAvailable.message,
          )
        : initialized
          ? v2('ControlPlaneAvailable', 'True', 'Available')
          : v2(
              'ControlPlaneAvailable',
              'False',
              'NotAvailable',
              `${cpKind} status.initialization.controlPlaneInitialized is false`,
            )
      : v2('ControlPlaneAvailable', 'False', 'DoesNotExist', `${cpKind} does not exist`),
  );
  // setWorkersAvailableCondition
  const pools: AggregateSource[] = deployments.map((d) => ({
    kind: 'MachineDeployment',
    name: d.metadata.name ?? '',
    conditions: v2ConditionsOf(d),
  }));
  updates.push(
    pools.length === 0
      ? v2('WorkersAvailable', 'True', 'NoWorkers')
      : aggregateV2(pools, AVAILABLE, 'WorkersAvailable', [
          'NotAvailable',
          'AvailableUnknown',
          'Available',
        ]),
  );
  // setRemoteConnectionProbeCondition: the workload cluster's API server answers once kubeadm init ran.
  updates.push(
    initialized
      ? v2('RemoteConnectionProbe', 'True', 'ProbeSucceeded')
      : v2(
          'RemoteConnectionProbe',
          'False',
          'ProbeFailed',
          'Remote connection not established yet',
        ),
  );
  // RollingOut, ScalingUp, ScalingDown: the control plane's and the pools' aggregated (negative polarity).
  const owners: AggregateSource[] = [
    ...(kcp
      ? [{ kind: 'KubeadmControlPlane', name: kcp.metadata.name ?? '', conditions: kcpConditions }]
      : []),
    ...pools,
  ];
  for (const [type, reasons] of [
    [ROLLING_OUT, ['RollingOut', 'RollingOutUnknown', 'NotRollingOut']],
    [SCALING_UP, ['ScalingUp', 'ScalingUpUnknown', 'NotScalingUp']],
    [SCALING_DOWN, ['ScalingDown', 'ScalingDownUnknown', 'NotScalingDown']],
  ] as const) {
    const reporting = owners.filter((o) => getV2(o.conditions, type));
    updates.push(
      reporting.length === 0
        ? v2(type, 'False', reasons[2])
        : aggregateV2(reporting, type, type, reasons, true),
    );
  }
  updates.push(v2(REMEDIATING, 'False', 'NotRemediating'));
  updates.push(
    deleting
      ? v2(DELETING, 'True', 'Deleting', 'Deletion started')
      : v2(DELETING, 'False', 'NotDeleting'),
  );
  updates.push(
    pausedCondition(Boolean(cluster.spec?.paused), cluster.metadata.annotations, 'Cluster'),
  );

  const generation = cluster.metadata.generation ?? 0;
  let conditions = setV2Conditions(
    v1beta2Of(cluster.status)?.conditions,
    updates,
    generation,
    input.nowISO,
  );
  // setAvailableCondition
  conditions = setV2Conditions(
    conditions,
    [
      summaryV2(conditions, AVAILABLE, {
        types: [
          DELETING,
          INFRASTRUCTURE_READY,
          'ControlPlaneAvailable',
          'WorkersAvailable',
          'RemoteConnectionProbe',
        ],
        negativePolarity: [DELETING],
        reasons: ['NotAvailable', 'AvailableUnknown', 'Available'],
      }),
    ],
    generation,
    input.nowISO,
  );

  const kcpBlock = v1beta2Of(kcp?.status);
  const workerBlock: V1Beta2Block = {};
  let workersDesired: number | undefined;
  let workersReplicas: number | undefined;
  for (const d of deployments) {
    const b = v1beta2Of(d.status);
    workersDesired = (workersDesired ?? 0) + (d.spec?.replicas ?? 0);
    workersReplicas = (workersReplicas ?? 0) + (d.status?.replicas ?? 0);
    for (const k of ['readyReplicas', 'availableReplicas', 'upToDateReplicas'] as const) {
      const v = b?.[k];
      if (typeof v === 'number') workerBlock[k] = (workerBlock[k] ?? 0) + v;
    }
  }
  return {
    conditions,
    controlPlane: counters(
      kcpBlock,
      kcp ? (kcp.spec?.replicas ?? 1) : undefined,
      kcp?.status?.replicas,
    ),
    workers: counters(workerBlock, workersDesired, workersReplicas),
  };
}
