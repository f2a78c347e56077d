import type { ClusterAutoscalerView, NodePoolView } from '@dcs/domain';
import type { Action, Permission } from '../../../api/get-cluster-context';

/** What a card asks its page to open; the page owns the dialogs (features do not import each other). */
export type PoolAction =
  | 'scale'
  | 'upgrade'
  | 'editBootstrap'
  | 'editStrategy'
  | 'delete'
  | 'yaml'
  | 'upgradeControlPlane'
  | 'editControlPlaneConfig'
  | 'pause'
  | 'autoscale'
  | 'healthCheck'
  | 'restart';

export interface PoolCardProps {
  pool: NodePoolView;
  permissions: Partial<Record<Action, Permission>> | undefined;
  /** Set when the web workflow is gated (R-VER-1): every form is off, with this reason. */
  gatedReason: string | undefined;
  onAction: (action: PoolAction, pool: NodePoolView) => void;
  /**
   * The cluster autoscaler's status in the workload cluster (issue 26 item 2), asked for while a
   * pool of the cluster has bounds; each worker card shows its own node group of it.
   */
  autoscaler?: ClusterAutoscalerView | undefined;
}
