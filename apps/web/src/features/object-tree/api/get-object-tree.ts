import type { ObjectTree, RenderedObjectTree } from '@dcs/domain';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { request, seg } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** The BFF's object tree of a cluster (issue 26): clusterctl describe cluster, built by domain. */
export type ObjectTreeView = ObjectTree & RenderedObjectTree;

/** The options as the route takes them (clusterctl's flags). */
export interface ObjectTreeChoice {
  grouping: boolean;
  showMachineSets: boolean;
  echo: boolean;
  /** `--show-conditions`: '' none, `all`, or a kind. */
  showConditions: string;
}

const queryOf = (c: ObjectTreeChoice): Record<string, string> => ({
  grouping: String(c.grouping),
  showMachineSets: String(c.showMachineSets),
  echo: String(c.echo),
  ...(c.showConditions ? { showConditions: c.showConditions } : {}),
});

export const getObjectTree = (
  namespace: string,
  cluster: string,
  choice: ObjectTreeChoice,
  signal?: AbortSignal,
) =>
  request<ObjectTreeView>(`/clusters/${seg(namespace)}/${seg(cluster)}/tree`, {
    signal,
    query: queryOf(choice),
  });

export const objectTreeQueryOptions = (
  namespace: string,
  cluster: string,
  choice: ObjectTreeChoice,
) =>
  queryOptions({
    queryKey: queryKeys.objectTree(namespace, cluster, queryOf(choice)),
    queryFn: ({ signal }) => getObjectTree(namespace, cluster, choice, signal),
    // Not streamed: the tree is read again while it is on screen.
    refetchInterval: 10_000,
    placeholderData: keepPreviousData,
  });

export const useObjectTree = (namespace: string, cluster: string, choice: ObjectTreeChoice) =>
  useQuery(objectTreeQueryOptions(namespace, cluster, choice));
