import type { ClusterAutoscalerView } from '@dcs/domain';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { request, seg } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/**
 * The cluster autoscaler's status (issue 26 item 2): its ConfigMap in the workload cluster, as the
 * BFF reads it through the cluster's kubeconfig Secret. Polled like the Nodes (the same reasons:
 * one shared watch on the BFF, a per-user right the stream does not carry, ETag revalidation),
 * less often: the autoscaler itself writes it every 10 s. Only asked for while a pool of the
 * cluster has bounds.
 */
export const AUTOSCALER_POLL_MS = 10_000;

export const getClusterAutoscaler = (namespace: string, cluster: string, signal?: AbortSignal) =>
  request<ClusterAutoscalerView>(`/clusters/${seg(namespace)}/${seg(cluster)}/autoscaler`, {
    signal,
  });

export const clusterAutoscalerQueryOptions = (namespace: string, cluster: string) =>
  queryOptions({
    queryKey: queryKeys.autoscaler(namespace, cluster),
    queryFn: ({ signal }) => getClusterAutoscaler(namespace, cluster, signal),
    refetchInterval: AUTOSCALER_POLL_MS,
    staleTime: 2_000,
  });

export function useClusterAutoscaler(namespace: string, cluster: string, enabled: boolean) {
  return useQuery({ ...clusterAutoscalerQueryOptions(namespace, cluster), enabled });
}
