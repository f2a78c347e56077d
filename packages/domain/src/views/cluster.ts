import type { Cluster } from '../schemas/capi';
import type { KubeadmControlPlane } from '../schemas/controlplane';
import { conditionViews, type ConditionView } from './conditions';
import type { MachineView } from './machine';
import type { NodePoolView } from './nodepool';
import { pauseView, type PauseView } from './pause';
import { optional } from './util';

/** One row of the cluster list. */
export interface ClusterView {
  /** `namespace/name`: clusters of every namespace share one list. */
  id: string;
  name: string;
  namespace: string;
  phase?: string;
  /** The control plane's Kubernetes version (KubeadmControlPlane `spec.version`). */
  version?: string;
  pools: number;
  /** Machines not being deleted, and how many of them are ready. */
  machines: { ready: number; total: number };
  /** Σ problems of its pools. */
  problems: number;
  conditions: ConditionView[];
  paused: boolean;
  /** The Cluster's spec.paused and its v1beta2 Paused condition (issue 26). */
  pause: PauseView;
  resourceVersion?: string;
  createdAt?: string;
}

export const clusterId = (namespace: string, name: string): string => `${namespace}/${name}`;

export function clusterView(
  cluster: Cluster,
  controlPlane: KubeadmControlPlane | undefined,
  pools: readonly NodePoolView[],
  machines: readonly MachineView[],
): ClusterView {
  const name = cluster.metadata.name ?? '';
  const namespace = cluster.metadata.namespace ?? '';
  const live = machines.filter((m) => !m.deleting);
  return {
    id: clusterId(namespace, name),
    name,
    namespace,
    ...optional('phase', cluster.status?.phase),
    ...optional('version', controlPlane?.spec?.version ?? cluster.spec?.topology?.version),
    pools: pools.length,
    machines: { ready: live.filter((m) => m.ready).length, total: live.length },
    problems: pools.reduce((n, p) => n + p.problems.length, 0),
    conditions: conditionViews(cluster.status?.conditions),
    paused: cluster.spec?.paused === true,
    pause: pauseView(cluster, cluster),
    ...optional('resourceVersion', cluster.metadata.resourceVersion),
    ...optional('createdAt', cluster.metadata.creationTimestamp),
  };
}
