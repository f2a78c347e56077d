import type { EditStrategyRequest, Plan } from '@dcs/domain';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { seg } from '../../../lib/api-client';
import { invalidateCluster } from '../../../lib/invalidate';
import { planRequest } from '../../../lib/plan-request';

/** O-EDIT-STRATEGY: a worker pool's rollout settings and node timeouts. */
export const editStrategy = (
  namespace: string,
  cluster: string,
  pool: string,
  body: EditStrategyRequest,
  dryRun: boolean,
): Promise<Plan | undefined> =>
  planRequest(
    `/clusters/${seg(namespace)}/${seg(cluster)}/nodepools/${seg(pool)}/strategy`,
    'POST',
    body,
    dryRun,
  );

/** The sender for a plan flow: invalidates the cluster's views once applied. */
export function useEditStrategy(namespace: string, cluster: string, pool: string) {
  const client = useQueryClient();
  return useCallback(
    async (body: EditStrategyRequest, dryRun: boolean) => {
      const plan = await editStrategy(namespace, cluster, pool, body, dryRun);
      if (!dryRun) await invalidateCluster(client, namespace, cluster);
      return plan;
    },
    [client, namespace, cluster, pool],
  );
}
