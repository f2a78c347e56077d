import { queryOptions, useQuery } from '@tanstack/react-query';
import { request, seg } from '../../../lib/api-client';
import { itemsOf, type ListWire } from '../../../lib/list';
import { queryKeys } from '../../../lib/query-keys';

/** A Kubernetes Event about one of the pool's objects, as the BFF relays it. */
export interface PoolEvent {
  type?: string;
  reason?: string;
  message?: string;
  count?: number;
  /** `Kind/name` of the object the event is about. */
  object?: string;
  lastTimestamp?: string;
  eventTime?: string;
  firstTimestamp?: string;
}

export const getPoolEvents = async (
  namespace: string,
  cluster: string,
  pool: string,
  signal?: AbortSignal,
) =>
  itemsOf(
    await request<ListWire<PoolEvent>>(
      `/clusters/${seg(namespace)}/${seg(cluster)}/nodepools/${seg(pool)}/events`,
      { signal },
    ),
  );

export const poolEventsQueryOptions = (namespace: string, cluster: string, pool: string) =>
  queryOptions({
    queryKey: queryKeys.poolEvents(namespace, cluster, pool),
    queryFn: ({ signal }) => getPoolEvents(namespace, cluster, pool, signal),
    refetchInterval: 10_000,
  });

export const usePoolEvents = (namespace: string, cluster: string, pool: string) =>
  useQuery(poolEventsQueryOptions(namespace, cluster, pool));
