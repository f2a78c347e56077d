import { CONTROL_PLANE_POOL_ID, type MachineDeployment } from '@dcs/domain';
import { HttpError, issue, notFound } from '../../http/errors';

/** Why an operation on worker pools refuses the control-plane pool, and under which rule. */
export interface ControlPlaneRefusal {
  rule: `R-${string}`;
  message: string;
}

/**
 * The MachineDeployment of worker pool `pool` of `namespace/cluster`, from the cache: a 400
 * naming `refusal`'s rule for the control-plane pool, a 404 naming `pool` for a pool the
 * cluster does not have. The one lookup of every route that writes a worker pool only.
 */
export function workerDeploymentOf(
  deployments: { get(namespace: string, name: string): MachineDeployment | undefined },
  namespace: string,
  cluster: string,
  pool: string,
  refusal: ControlPlaneRefusal,
): MachineDeployment {
  if (pool === CONTROL_PLANE_POOL_ID) {
    throw new HttpError(400, 'ControlPlanePool', refusal.message, [
      issue(
        refusal.rule,
        'pool',
        'bff.pool.controlPlane',
        'this operation applies to worker pools only',
      ),
    ]);
  }
  const md = deployments.get(namespace, pool);
  if (md?.spec?.clusterName !== cluster)
    throw notFound(`node pool ${pool} not found in ${namespace}/${cluster}`, 'pool');
  return md;
}
