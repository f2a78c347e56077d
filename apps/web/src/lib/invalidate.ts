import type { QueryClient } from '@tanstack/react-query';
import { queryKeys } from './query-keys';

/** After a change: the cluster's views and context, its namespace's IP pools, the cluster list. */
export async function invalidateCluster(
  client: QueryClient,
  namespace: string,
  cluster: string,
): Promise<void> {
  await Promise.all([
    client.invalidateQueries({ queryKey: queryKeys.cluster(namespace, cluster) }),
    client.invalidateQueries({ queryKey: queryKeys.ipPools(namespace) }),
    client.invalidateQueries({ queryKey: queryKeys.clusters, exact: true }),
  ]);
}
