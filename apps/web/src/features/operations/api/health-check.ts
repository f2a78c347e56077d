import type { HealthCheckRequest, Plan, PoolHealthCheckView } from '@dcs/domain';
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { request, seg } from '../../../lib/api-client';
import { invalidateCluster } from '../../../lib/invalidate';
import { planRequest } from '../../../lib/plan-request';

/**
 * A worker pool's MachineHealthCheck (issue 26 item 1): read (`GET …/healthcheck`, null when none
 * selects the pool) and O-MHC-CREATE / O-MHC-EDIT / O-MHC-DELETE (`POST …/healthcheck`).
 */
const path = (namespace: string, cluster: string, pool: string) =>
  `/clusters/${seg(namespace)}/${seg(cluster)}/nodepools/${seg(pool)}/healthcheck`;

export const healthCheckQuery = (namespace: string, cluster: string, pool: string) =>
  queryOptions({
    queryKey: ['healthCheck', namespace, cluster, pool] as const,
    queryFn: async () =>
      (await request<{ healthCheck: PoolHealthCheckView | null }>(path(namespace, cluster, pool)))
        .healthCheck,
    // The controller's counters and the machines' conditions move: looked at again while open.
    refetchInterval: 5000,
  });

export const usePoolHealthCheck = (namespace: string, cluster: string, pool: string) =>
  useQuery(healthCheckQuery(namespace, cluster, pool));

/** The sender for a plan flow: invalidates the cluster's views and the health check once applied. */
export function useSendHealthCheck(namespace: string, cluster: string, pool: string) {
  const client = useQueryClient();
  return useCallback(
    async (body: HealthCheckRequest, dryRun: boolean): Promise<Plan | undefined> => {
      const plan = await planRequest(path(namespace, cluster, pool), 'POST', body, dryRun);
      if (!dryRun) {
        await invalidateCluster(client, namespace, cluster);
        await client.invalidateQueries({ queryKey: ['healthCheck', namespace, cluster, pool] });
      }
      return plan;
    },
    [client, namespace, cluster, pool],
  );
}
