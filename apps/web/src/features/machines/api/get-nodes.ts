import type { ClusterNodeSummaries, ClusterNodesView, MachineView } from '@dcs/domain';
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef } from 'react';
import { request, seg } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/**
 * The workload cluster's Nodes (issue 12), one query per cluster page, polled.
 *
 * Why a poll and not the stream: the BFF keeps ONE watch of each workload cluster's Nodes, shared
 * by every browser, and answers a poll from that cache with an ETag; the browser revalidates
 * (`Cache-Control: no-cache`), so an unchanged poll is a 304 without a body and costs the BFF an
 * access review and a comparison. The Nodes are behind a per-user right (the kubeconfig Secret)
 * that the cluster's stream does not carry. Every 5 s while the page is visible (react-query stops
 * polling in a hidden tab), and at once when a machine's nodeRef or deletion changes (the stream
 * tells this page first), at most every 2 s.
 */
export const NODES_POLL_MS = 5_000;
export const NODES_FOLLOW_MIN_MS = 2_000;

const nodesPath = (namespace: string, cluster: string) =>
  `/clusters/${seg(namespace)}/${seg(cluster)}/nodes`;

/** One line per Node, for the machines tables. */
export const getClusterNodes = (namespace: string, cluster: string, signal?: AbortSignal) =>
  request<ClusterNodeSummaries>(nodesPath(namespace, cluster), {
    query: { fields: 'summary' },
    signal,
  });

/** One Node with its conditions and taints, for the machine page. */
export const getNode = (namespace: string, cluster: string, node: string, signal?: AbortSignal) =>
  request<ClusterNodesView>(nodesPath(namespace, cluster), { query: { name: node }, signal });

export const clusterNodesQueryOptions = (
  namespace: string,
  cluster: string,
  pollMs: number = NODES_POLL_MS,
) =>
  queryOptions({
    queryKey: queryKeys.nodes(namespace, cluster),
    queryFn: ({ signal }) => getClusterNodes(namespace, cluster, signal),
    refetchInterval: pollMs,
    staleTime: NODES_FOLLOW_MIN_MS,
  });

export const nodeQueryOptions = (namespace: string, cluster: string, node: string) =>
  queryOptions({
    queryKey: queryKeys.node(namespace, cluster, node),
    queryFn: ({ signal }) => getNode(namespace, cluster, node, signal),
    refetchInterval: NODES_POLL_MS,
    staleTime: NODES_FOLLOW_MIN_MS,
  });

/** Whether the machines' part of the Node join (name, nodeRef, deletion) differs. */
function joinChanged(a: readonly MachineView[], b: readonly MachineView[]): boolean {
  if (a === b) return false;
  if (a.length !== b.length) return true;
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    const y = b[i];
    if (x === y) continue;
    if (!x || !y) return true;
    if (x.name !== y.name || x.nodeName !== y.nodeName || x.deleting !== y.deleting) return true;
  }
  return false;
}

/**
 * Refetches the cluster's Nodes (the summaries and any one Node shown) when the machines' part
 * of the join changes: a machine got its nodeRef, started or finished deleting. Throttled: many
 * changes in a burst (a scale of hundreds) cost one request every NODES_FOLLOW_MIN_MS.
 */
function useFollowMachines(
  namespace: string,
  cluster: string,
  machines: readonly MachineView[] | undefined,
): void {
  const client = useQueryClient();
  const previous = useRef(machines);
  const last = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => {
    const before = previous.current;
    previous.current = machines;
    // Identity first: the stream's reducer keeps unchanged views' identity, so a batch costs one
    // pointer comparison per machine (20,000 machines at 200 events/s stay cheap).
    if (!machines || !before || !joinChanged(before, machines)) return;
    if (timer.current !== undefined) return;
    const refetch = () => {
      timer.current = undefined;
      last.current = Date.now();
      void client.invalidateQueries({ queryKey: queryKeys.nodes(namespace, cluster) });
    };
    const wait = last.current + NODES_FOLLOW_MIN_MS - Date.now();
    if (wait <= 0) refetch();
    else timer.current = setTimeout(refetch, wait);
  }, [client, machines, namespace, cluster]);
  useEffect(
    () => () => {
      clearTimeout(timer.current);
    },
    [],
  );
}

/** The cluster's Node summaries, following `machines` (the list the page shows). */
export function useClusterNodes(
  namespace: string,
  cluster: string,
  machines: readonly MachineView[] | undefined,
  pollMs: number = NODES_POLL_MS,
) {
  useFollowMachines(namespace, cluster, machines);
  return useQuery(clusterNodesQueryOptions(namespace, cluster, pollMs));
}

/** One machine's Node, following that machine. */
export function useMachineNode(namespace: string, cluster: string, machine: MachineView) {
  const one = useMemo(() => [machine], [machine]);
  useFollowMachines(namespace, cluster, one);
  return useQuery({
    ...nodeQueryOptions(namespace, cluster, machine.nodeName ?? ''),
    enabled: machine.nodeName !== undefined,
  });
}
