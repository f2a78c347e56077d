import type { CreateIpPoolRequest, Plan } from '@dcs/domain';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { seg } from '../../../lib/api-client';
import { invalidateCluster } from '../../../lib/invalidate';
import { planRequest } from '../../../lib/plan-request';

/** A standalone IP-hostname pool, for worker pools created later to pick (R-POOL-1..3). */
export const createIpPool = (
  namespace: string,
  body: CreateIpPoolRequest,
  dryRun: boolean,
): Promise<Plan | undefined> =>
  planRequest(`/namespaces/${seg(namespace)}/ippools`, 'POST', body, dryRun);

export function useCreateIpPool(namespace: string, cluster: string) {
  const client = useQueryClient();
  return useCallback(
    async (body: CreateIpPoolRequest, dryRun: boolean) => {
      const plan = await createIpPool(namespace, body, dryRun);
      if (!dryRun) await invalidateCluster(client, namespace, cluster);
      return plan;
    },
    [client, namespace, cluster],
  );
}
