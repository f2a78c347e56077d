import type { MachineView } from '@dcs/domain';
import { useDeferredValue } from 'react';
import { useClusterNodes } from '../api/get-nodes';

/**
 * The machines a table shows and the cluster's Nodes they are joined with, both deferred (issue
 * 14): the one decision of both machines tables (the Nodes tab, a pool's page).
 *
 * The stream's batches reach the cache, and the page, in a synchronous render (react-query's
 * store); deferred, the table's work for a batch (the rows whose machines changed) is rendered in
 * the background, where React yields to the browser every few milliseconds instead of holding it
 * in one long task (200 events/s on 20,000 machines). The urgent render sees the previous list,
 * and every memoized part of the table skips it.
 *
 * The Nodes are deferred with the machines, so that rows join a machine and its Node as of the
 * same moment: a fresh Node (cordoned by a drain) beside the machine's view from before it was
 * marked for deletion would flag the row as a Node problem for a moment (`NodesTab.deferred.test.tsx`).
 */
export function useMachineRows(
  namespace: string,
  cluster: string,
  machines: readonly MachineView[] | undefined,
) {
  const list = useDeferredValue(machines);
  const nodes = useClusterNodes(namespace, cluster, list);
  const nodesData = useDeferredValue(nodes.data);
  return { list, nodes: nodesData, nodesError: nodes.error };
}
