import type { NodePoolView } from '@dcs/domain';
import type { PoolAction } from '../../features/node-pools/components/pool-actions';

export interface PoolActionDialogProps {
  namespace: string;
  cluster: string;
  action: PoolAction;
  pool: NodePoolView;
  onClose: () => void;
}

export default function PoolActionDialog(_props: PoolActionDialogProps) {
  return null;
}
