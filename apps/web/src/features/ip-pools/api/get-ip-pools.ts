import type { IpPoolView } from '@dcs/domain';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { request, seg } from '../../../lib/api-client';
import { itemsOf, type ListWire } from '../../../lib/list';
import { queryKeys } from '../../../lib/query-keys';

/** Every IP-hostname pool of a namespace, with claims and consumers; the stream keeps them live. */
export const getIpPools = async (
  namespace: string,
  signal?: AbortSignal,
): Promise<readonly IpPoolView[]> =>
  itemsOf(await request<ListWire<IpPoolView>>(`/namespaces/${seg(namespace)}/ippools`, { signal }));

export const ipPoolsQueryOptions = (namespace: string) =>
  queryOptions({
    queryKey: queryKeys.ipPools(namespace),
    queryFn: ({ signal }) => getIpPools(namespace, signal),
    staleTime: 10_000,
    // The stream's reducer keeps unchanged items' identity itself; a deep compare of thousands
    // of views on every batch would cost more than it saves.
    structuralSharing: false,
  });

export const useIpPools = (namespace: string) => useQuery(ipPoolsQueryOptions(namespace));
