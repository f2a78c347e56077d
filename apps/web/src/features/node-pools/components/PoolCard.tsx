import { ControlPlaneCard } from './ControlPlaneCard';
import type { PoolCardProps } from './pool-actions';
import { WorkerPoolCard } from './WorkerPoolCard';

/** The card of either kind of pool. */
export function PoolCard(props: PoolCardProps) {
  return props.pool.kind === 'control-plane' ? (
    <ControlPlaneCard {...props} />
  ) : (
    <WorkerPoolCard {...props} />
  );
}
