import type { MachineView } from '@dcs/domain';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { request, seg } from '../../../lib/api-client';
import { itemsOf, type ListWire } from '../../../lib/list';
import { queryKeys } from '../../../lib/query-keys';

export const getPoolMachines = async (
  namespace: string,
  cluster: string,
  pool: string,
  signal?: AbortSignal,
): Promise<readonly MachineView[]> =>
  itemsOf(
    await request<ListWire<MachineView>>(
      `/clusters/${seg(namespace)}/${seg(cluster)}/nodepools/${seg(pool)}/machines`,
      { signal },
    ),
  );

export const poolMachinesQueryOptions = (namespace: string, cluster: string, pool: string) =>
  queryOptions({
    queryKey: queryKeys.poolMachines(namespace, cluster, pool),
    queryFn: ({ signal }) => getPoolMachines(namespace, cluster, pool, signal),
    staleTime: Infinity,
    // The stream's reducer keeps unchanged items' identity itself; a deep compare of thousands
    // of views on every batch would cost more than it saves.
    structuralSharing: false,
  });

export const usePoolMachines = (namespace: string, cluster: string, pool: string) =>
  useQuery(poolMachinesQueryOptions(namespace, cluster, pool));
