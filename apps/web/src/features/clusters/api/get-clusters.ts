import type { ClusterView } from '@dcs/domain';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { itemsOf, type ListWire } from '../../../lib/list';

export const getClusters = async (signal?: AbortSignal): Promise<ClusterView[]> =>
  itemsOf(await request<ListWire<ClusterView>>('/clusters', { signal }));

export const clustersQueryOptions = () =>
  queryOptions({
    queryKey: queryKeys.clusters,
    queryFn: ({ signal }) => getClusters(signal),
    // The cluster list has no stream of its own: refresh it now and then.
    refetchInterval: 15_000,
  });

export const useClusters = () => useQuery(clustersQueryOptions());
