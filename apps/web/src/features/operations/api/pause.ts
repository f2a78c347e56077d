import type { PauseRequest, Plan } from '@dcs/domain';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { seg } from '../../../lib/api-client';
import { invalidateCluster } from '../../../lib/invalidate';
import { planRequest } from '../../../lib/plan-request';

/**
 * O-PAUSE / O-RESUME (issue 26): a cluster's `spec.paused` (without `pool`), or one pool's paused
 * annotation (its MachineDeployment, or the control plane's KubeadmControlPlane).
 */
export const pauseReconciliation = (
  namespace: string,
  cluster: string,
  pool: string | undefined,
  body: PauseRequest,
  dryRun: boolean,
): Promise<Plan | undefined> =>
  planRequest(
    pool === undefined
      ? `/clusters/${seg(namespace)}/${seg(cluster)}/pause`
      : `/clusters/${seg(namespace)}/${seg(cluster)}/nodepools/${seg(pool)}/pause`,
    'POST',
    body,
    dryRun,
  );

/** The sender for a plan flow: invalidates the cluster's views (and the cluster list) once applied. */
export function usePauseReconciliation(
  namespace: string,
  cluster: string,
  pool: string | undefined,
) {
  const client = useQueryClient();
  return useCallback(
    async (body: PauseRequest, dryRun: boolean) => {
      const plan = await pauseReconciliation(namespace, cluster, pool, body, dryRun);
      if (!dryRun) await invalidateCluster(client, namespace, cluster);
      return plan;
    },
    [client, namespace, cluster, pool],
  );
}
