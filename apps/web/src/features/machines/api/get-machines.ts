import type { MachineView } from '@dcs/domain';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { request, seg } from '../../../lib/api-client';
import { itemsOf, type ListWire } from '../../../lib/list';
import { queryKeys } from '../../../lib/query-keys';

/** Every machine of the cluster (the Nodes tab); the stream keeps the list live. */
export const getMachines = async (
  namespace: string,
  cluster: string,
  signal?: AbortSignal,
): Promise<readonly MachineView[]> =>
  itemsOf(
    await request<ListWire<MachineView>>(`/clusters/${seg(namespace)}/${seg(cluster)}/machines`, {
      signal,
    }),
  );

export const machinesQueryOptions = (namespace: string, cluster: string) =>
  queryOptions({
    queryKey: queryKeys.machines(namespace, cluster),
    queryFn: ({ signal }) => getMachines(namespace, cluster, signal),
    staleTime: Infinity,
  });

export const useMachines = (namespace: string, cluster: string) =>
  useQuery(machinesQueryOptions(namespace, cluster));
