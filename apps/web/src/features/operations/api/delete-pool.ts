import type { DeletePoolRequest, Plan } from '@dcs/domain';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { seg } from '../../../lib/api-client';
import { invalidateCluster } from '../../../lib/invalidate';
import { planRequest } from '../../../lib/plan-request';

/** O-DELETE-POOL, with the optional clean-up of what only this pool used. */
export const deletePool = (
  namespace: string,
  cluster: string,
  pool: string,
  body: DeletePoolRequest,
  dryRun: boolean,
): Promise<Plan | undefined> =>
  planRequest(
    `/clusters/${seg(namespace)}/${seg(cluster)}/nodepools/${seg(pool)}`,
    'DELETE',
    body,
    dryRun,
  );

export function useDeletePool(namespace: string, cluster: string, pool: string) {
  const client = useQueryClient();
  return useCallback(
    async (body: DeletePoolRequest, dryRun: boolean) => {
      const plan = await deletePool(namespace, cluster, pool, body, dryRun);
      if (!dryRun) await invalidateCluster(client, namespace, cluster);
      return plan;
    },
    [client, namespace, cluster, pool],
  );
}
