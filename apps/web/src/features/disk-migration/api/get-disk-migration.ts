import type { DiskMigrationPlan } from '@dcs/domain';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { request, seg } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** R-DISK-5: the BFF's read-only migration plan of one worker pool (`GET …/disk-migration`). */
export const getDiskMigration = (
  namespace: string,
  cluster: string,
  pool: string,
  signal?: AbortSignal,
) =>
  request<DiskMigrationPlan>(
    `/clusters/${seg(namespace)}/${seg(cluster)}/nodepools/${seg(pool)}/disk-migration`,
    { signal },
  );

export const diskMigrationQueryOptions = (namespace: string, cluster: string, pool: string) =>
  queryOptions({
    queryKey: queryKeys.poolDiskMigration(namespace, cluster, pool),
    queryFn: ({ signal }) => getDiskMigration(namespace, cluster, pool, signal),
    // Each step is done through its own operation, elsewhere in the console or with kubectl:
    // the plan is re-read so that a step done meanwhile shows as done.
    refetchInterval: 10_000,
  });

export const useDiskMigration = (namespace: string, cluster: string, pool: string) =>
  useQuery(diskMigrationQueryOptions(namespace, cluster, pool));
