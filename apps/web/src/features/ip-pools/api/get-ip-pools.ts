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
  });

export const useIpPools = (namespace: string) => useQuery(ipPoolsQueryOptions(namespace));
