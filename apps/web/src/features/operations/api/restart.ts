import type { Plan, RestartRequest } from '@dcs/domain';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { seg } from '../../../lib/api-client';
import { invalidateCluster } from '../../../lib/invalidate';
import { planRequest } from '../../../lib/plan-request';

/**
 * O-RESTART (issue 26 item 4): a rollout restart of one pool (its MachineDeployment, or the
 * control plane's KubeadmControlPlane). Without `at`, the BFF takes the time from its own clock.
 */
export const restartPool = (
  namespace: string,
  cluster: string,
  pool: string,
  body: RestartRequest,
  dryRun: boolean,
): Promise<Plan | undefined> =>
  planRequest(
    `/clusters/${seg(namespace)}/${seg(cluster)}/nodepools/${seg(pool)}/restart`,
    'POST',
    body,
    dryRun,
  );

/** The sender for a plan flow: invalidates the cluster's views once applied. */
export function useRestartPool(namespace: string, cluster: string, pool: string) {
  const client = useQueryClient();
  return useCallback(
    async (body: RestartRequest, dryRun: boolean) => {
      const plan = await restartPool(namespace, cluster, pool, body, dryRun);
      if (!dryRun) await invalidateCluster(client, namespace, cluster);
      return plan;
    },
    [client, namespace, cluster, pool],
  );
}
