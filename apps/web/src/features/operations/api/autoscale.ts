import type { AutoscaleRequest, Plan } from '@dcs/domain';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { seg } from '../../../lib/api-client';
import { invalidateCluster } from '../../../lib/invalidate';
import { planRequest } from '../../../lib/plan-request';

/**
 * O-AUTOSCALE / O-AUTOSCALE-REMOVE (issue 26 item 2): a worker pool's cluster autoscaler bounds,
 * set (both numbers) or removed (both null).
 */
export const setAutoscalerBounds = (
  namespace: string,
  cluster: string,
  pool: string,
  body: AutoscaleRequest,
  dryRun: boolean,
): Promise<Plan | undefined> =>
  planRequest(
    `/clusters/${seg(namespace)}/${seg(cluster)}/nodepools/${seg(pool)}/autoscale`,
    'POST',
    body,
    dryRun,
  );

/** The sender for a plan flow: invalidates the cluster's views (the autoscaler's status too) once applied. */
export function useSetAutoscalerBounds(namespace: string, cluster: string, pool: string) {
  const client = useQueryClient();
  return useCallback(
    async (body: AutoscaleRequest, dryRun: boolean) => {
      const plan = await setAutoscalerBounds(namespace, cluster, pool, body, dryRun);
      if (!dryRun) await invalidateCluster(client, namespace, cluster);
      return plan;
    },
    [client, namespace, cluster, pool],
  );
}
