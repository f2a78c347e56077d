import type { NodePoolView } from '@dcs/domain';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { request, seg } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export const getNodePool = (
  namespace: string,
  cluster: string,
  pool: string,
  signal?: AbortSignal,
) =>
  request<NodePoolView>(`/clusters/${seg(namespace)}/${seg(cluster)}/nodepools/${seg(pool)}`, {
    signal,
  });

export const nodePoolQueryOptions = (namespace: string, cluster: string, pool: string) =>
  queryOptions({
    queryKey: queryKeys.pool(namespace, cluster, pool),
    queryFn: ({ signal }) => getNodePool(namespace, cluster, pool, signal),
    staleTime: Infinity,
    // The stream's reducer keeps unchanged items' identity itself; a deep compare of thousands
    // of views on every batch would cost more than it saves.
    structuralSharing: false,
  });

export const useNodePool = (namespace: string, cluster: string, pool: string) =>
  useQuery(nodePoolQueryOptions(namespace, cluster, pool));
