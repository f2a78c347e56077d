import type { MachineView, NodePoolView } from '@dcs/domain';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { isApiError, request, seg } from '../../../lib/api-client';
import { compareMachines } from '../../../lib/stream/reducer';
import { itemsOf, type ListWire } from '../../../lib/list';
import { queryKeys } from '../../../lib/query-keys';

/** Every machine of the cluster (the Nodes tab); the stream keeps the list live. */
export async function getMachines(
  namespace: string,
  cluster: string,
  signal?: AbortSignal,
): Promise<readonly MachineView[]> {
  const base = `/clusters/${seg(namespace)}/${seg(cluster)}`;
  try {
    return itemsOf(await request<ListWire<MachineView>>(`${base}/machines`, { signal }));
  } catch (e) {
    if (!(isApiError(e) && e.status === 404)) throw e;
  }
  // A BFF without the cluster-wide route: every pool's machines, fetched side by side.
  const pools = await request<readonly NodePoolView[]>(`${base}/nodepools`, { signal });
  const lists = await Promise.all(
    pools.map((p) =>
      request<ListWire<MachineView>>(`${base}/nodepools/${seg(p.id)}/machines`, { signal }),
    ),
  );
  return lists.flatMap((l) => itemsOf(l)).sort(compareMachines);
}

export const machinesQueryOptions = (namespace: string, cluster: string) =>
  queryOptions({
    queryKey: queryKeys.machines(namespace, cluster),
    queryFn: ({ signal }) => getMachines(namespace, cluster, signal),
    staleTime: Infinity,
    // The stream's reducer keeps unchanged items' identity itself; a deep compare of thousands
    // of views on every batch would cost more than it saves.
    structuralSharing: false,
  });

export const useMachines = (namespace: string, cluster: string) =>
  useQuery(machinesQueryOptions(namespace, cluster));
