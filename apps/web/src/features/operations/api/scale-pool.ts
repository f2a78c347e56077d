import type { Plan, ScaleRequest } from '@dcs/domain';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { seg } from '../../../lib/api-client';
import { invalidateCluster } from '../../../lib/invalidate';
import { planRequest } from '../../../lib/plan-request';

/** O-SCALE-UP / O-SCALE-DOWN-RANDOM (`{replicas}`) and O-SCALE-DOWN-TARGETED (`{deleteMachines}`). */
export const scalePool = (
  namespace: string,
  cluster: string,
  pool: string,
  body: ScaleRequest,
  dryRun: boolean,
): Promise<Plan | undefined> =>
  planRequest(
    `/clusters/${seg(namespace)}/${seg(cluster)}/nodepools/${seg(pool)}/scale`,
    'POST',
    body,
    dryRun,
  );

/** The sender for a plan flow: invalidates the cluster's views once applied. */
export function useScalePool(namespace: string, cluster: string, pool: string) {
  const client = useQueryClient();
  return useCallback(
    async (body: ScaleRequest, dryRun: boolean) => {
      const plan = await scalePool(namespace, cluster, pool, body, dryRun);
      if (!dryRun) await invalidateCluster(client, namespace, cluster);
      return plan;
    },
    [client, namespace, cluster, pool],
  );
}
