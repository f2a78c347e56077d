import type { CreatePoolRequest, Plan } from '@dcs/domain';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { seg } from '../../../lib/api-client';
import { invalidateCluster } from '../../../lib/invalidate';
import { planRequest } from '../../../lib/plan-request';

/** O-CREATE-POOL: IP pool, machine template, bootstrap template, MachineDeployment; undone together on failure. */
export const createPool = (
  namespace: string,
  cluster: string,
  body: CreatePoolRequest,
  dryRun: boolean,
): Promise<Plan | undefined> =>
  planRequest(`/clusters/${seg(namespace)}/${seg(cluster)}/nodepools`, 'POST', body, dryRun);

export function useCreatePool(namespace: string, cluster: string) {
  const client = useQueryClient();
  return useCallback(
    async (body: CreatePoolRequest, dryRun: boolean) => {
      const plan = await createPool(namespace, cluster, body, dryRun);
      if (!dryRun) await invalidateCluster(client, namespace, cluster);
      return plan;
    },
    [client, namespace, cluster],
  );
}
