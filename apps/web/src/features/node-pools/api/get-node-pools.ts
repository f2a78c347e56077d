import type { NodePoolView } from '@dcs/domain';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { request, seg } from '../../../lib/api-client';
import { itemsOf, type ListWire } from '../../../lib/list';
import { queryKeys } from '../../../lib/query-keys';

/** The control-plane pool (id `control-plane`) and every worker pool; the stream keeps them live. */
export const getNodePools = async (
  namespace: string,
  cluster: string,
  signal?: AbortSignal,
): Promise<readonly NodePoolView[]> =>
  itemsOf(
    await request<ListWire<NodePoolView>>(`/clusters/${seg(namespace)}/${seg(cluster)}/nodepools`, {
      signal,
    }),
  );

export const nodePoolsQueryOptions = (namespace: string, cluster: string) =>
  queryOptions({
    queryKey: queryKeys.pools(namespace, cluster),
    queryFn: ({ signal }) => getNodePools(namespace, cluster, signal),
    staleTime: Infinity,
    // The stream's reducer keeps unchanged items' identity itself; a deep compare of thousands
    // of views on every batch would cost more than it saves.
    structuralSharing: false,
  });

export const useNodePools = (namespace: string, cluster: string) =>
  useQuery(nodePoolsQueryOptions(namespace, cluster));
