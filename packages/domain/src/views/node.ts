import type { Machine } from '../schemas/capi';
import type { Node } from '../schemas/core';
import type { ConditionView } from './conditions';

/**
 * The workload cluster's Node of each machine, as the machines table and the machine page show
 * it (issue 12), and why it may be missing. Pure: the BFF reads the Nodes through the cluster's
 * `<cluster>-kubeconfig` Secret and joins them to the Machines by `status.nodeRef`.
 */

/** What the Node column says, most telling first: a node being drained is also cordoned. */
export type NodeState = 'Ready' | 'NotReady' | 'Unknown' | 'Cordoned' | 'Draining';

/**
 * A Node condition, shaped as the Machine's (`ConditionView`) so that one conditions table shows
 * both. `problem`: Ready not True, or a pressure / NetworkUnavailable condition not False; those
 * four have `polarity: 'negative'` (False is healthy). Nodes carry no severity.
 */
export type NodeConditionView = ConditionView;

export interface TaintView {
  key: string;
  value?: string;
  effect: string;
}

export interface NodeView {
  name: string;
  /** The Machine whose nodeRef names this Node (absent for a Node no Machine claims). */
  machine?: string;
  state: NodeState;
  /** The Ready condition's status: True, False or Unknown. */
  ready: string;
  unschedulable: boolean;
  kubeletVersion?: string;
  providerID?: string;
  createdAt?: string;
  /** Problems first, then in the kubelet's order. */
  conditions: NodeConditionView[];
  taints: TaintView[];
}

/**
 * The Nodes of one workload cluster for one user: `ok` with the nodes, or why there are none:
 * `forbidden` (the user may not read the kubeconfig Secret), `no-kubeconfig` (Cluster API has not
 * written it yet: the control plane is not initialized), `unreachable` (since when, and the last
 * error), `pending` (the first list is under way).
 */
export type ClusterNodesView =
  | { status: 'ok'; secret: string; nodes: NodeView[] }
  | { status: 'forbidden'; secret: string; message: string }
  | { status: 'no-kubeconfig'; secret: string; message: string }
  | { status: 'unreachable'; secret: string; since: string; message: string }
  | { status: 'pending'; secret: string; message: string };

/** The Secret Cluster API writes for a workload cluster. */
export const kubeconfigSecretName = (cluster: string): string => `${cluster}-kubeconfig`;

/** The Node conditions a kubelet reports whose True is bad. */
const BAD_WHEN_TRUE = new Set([
  'MemoryPressure',
  'DiskPressure',
  'PIDPressure',
  'NetworkUnavailable',
]);

export function isNodeConditionProblem(c: { type: string; status: string }): boolean {
  if (c.type === 'Ready') return c.status !== 'True';
  // Unknown is a problem too: the kubelet stopped reporting (the node controller's NodeStatusUnknown).
  return BAD_WHEN_TRUE.has(c.type) && c.status !== 'False';
}

/** A status outside True / False / Unknown (a malformed Node) is shown as Unknown. */
const conditionStatus = (s: string): ConditionView['status'] =>
  s === 'True' || s === 'False' ? s : 'Unknown';

/**
 * Whether Cluster API is draining the Machine's node now (deleting, drain not finished). It
 * cordons the Node first and writes the Machine's drain progress at the end of that reconcile,
 * so a deleting Machine whose Node is already cordoned, with no drain progress written yet, is
 * being drained too (not "Cordoned" for the moment in between).
 */
function isDraining(m: Machine | undefined, unschedulable: boolean): boolean {
  if (!m?.metadata.deletionTimestamp) return false;
  const drained = m.status?.conditions?.find((c) => c.type === 'DrainingSucceeded');
  if (drained) return drained.status !== 'True' && drained.reason === 'Draining';
  return Boolean(m.status?.deletion?.nodeDrainStartTime) || unschedulable;
}

/**
 * What of a Machine the join reads (its name, nodeRef, deletion and drain progress), as one
 * string: equal keys give equal joins, so the BFF reuses a join while none of these change.
 */
export function nodeJoinKeyOf(m: Machine): string {
  const drained = m.status?.conditions?.find((c) => c.type === 'DrainingSucceeded');
  return [
    m.metadata.name ?? '',
    m.status?.nodeRef?.name ?? '',
    m.metadata.deletionTimestamp ?? '',
    drained ? `${drained.status}/${drained.reason ?? ''}` : '',
    m.status?.deletion?.nodeDrainStartTime ?? '',
  ].join('\u0000');
}

export function nodeViewOf(node: Node, machine?: Machine): NodeView {
  const conditions = (node.status?.conditions ?? []).map((c) => {
    const v: NodeConditionView = {
      type: c.type,
      status: conditionStatus(c.status),
      problem: isNodeConditionProblem(c),
    };
    if (BAD_WHEN_TRUE.has(c.type)) v.polarity = 'negative';
    if (c.reason) v.reason = c.reason;
    if (c.message) v.message = c.message;
    if (c.lastTransitionTime) v.lastTransitionTime = c.lastTransitionTime;
    return v;
  });
  conditions.sort((a, b) => Number(b.problem) - Number(a.problem));
  const ready = node.status?.conditions?.find((c) => c.type === 'Ready')?.status ?? 'Unknown';
  const unschedulable = node.spec?.unschedulable === true;
  const state: NodeState = isDraining(machine, unschedulable)
    ? 'Draining'
    : unschedulable
      ? 'Cordoned'
      : ready === 'True'
        ? 'Ready'
        : ready === 'False'
          ? 'NotReady'
          : 'Unknown';
  const view: NodeView = {
    name: node.metadata.name ?? '',
    state,
    ready,
    unschedulable,
    conditions,
    taints: (node.spec?.taints ?? []).map((t) => ({
      key: t.key,
      effect: t.effect,
      ...(t.value ? { value: t.value } : {}),
    })),
  };
  if (machine?.metadata.name) view.machine = machine.metadata.name;
  const version = node.status?.nodeInfo?.kubeletVersion;
  if (version) view.kubeletVersion = version;
  if (node.spec?.providerID) view.providerID = node.spec.providerID;
  if (node.metadata.creationTimestamp) view.createdAt = node.metadata.creationTimestamp;
  return view;
}

/** Every Node joined to the Machine whose `status.nodeRef.name` names it, by node name. */
export function nodeViewsOf(nodes: readonly Node[], machines: readonly Machine[]): NodeView[] {
  const byNode = new Map<string, Machine>();
  for (const m of machines) {
    const ref = m.status?.nodeRef?.name;
    if (ref) byNode.set(ref, m);
  }
  return nodes
    .map((n) => nodeViewOf(n, byNode.get(n.metadata.name ?? '')))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * What the machines tables need of a Node: one line each, so that 5,000 stay a small answer.
 * `pressure`: the Node's MemoryPressure, DiskPressure, PIDPressure or NetworkUnavailable that are
 * not False (present only when there is one), so that a row can say its Node is under pressure
 * (`machine-problems.ts`).
 */
export type NodeSummary = Pick<
  NodeView,
  'name' | 'machine' | 'state' | 'ready' | 'unschedulable' | 'kubeletVersion'
> & { pressure?: string[] };

export function nodeSummaryOf(v: NodeView): NodeSummary {
  const s: NodeSummary = {
    name: v.name,
    state: v.state,
    ready: v.ready,
    unschedulable: v.unschedulable,
  };
  if (v.machine !== undefined) s.machine = v.machine;
  if (v.kubeletVersion !== undefined) s.kubeletVersion = v.kubeletVersion;
  const pressure = v.conditions.filter((c) => c.problem && c.type !== 'Ready').map((c) => c.type);
  if (pressure.length > 0) s.pressure = pressure;
  return s;
}

/**
 * The Node column of one machine (issue 12): the Node's state, or why it has none. `NoNode`: the
 * Machine has no nodeRef yet (still provisioning or joining). `Deleted`: the Machine is being
 * deleted and its Node is already gone from the workload cluster (drained and removed).
 * `Missing`: the nodeRef names a Node the workload cluster does not have.
 */
export type MachineNodeState = NodeState | 'NoNode' | 'Deleted' | 'Missing';

export interface MachineNode<N extends NodeSummary = NodeSummary> {
  state: MachineNodeState;
  node?: N;
}

/** The Nodes of one cluster by name: built once per answer, then one lookup per row. */
export function nodesByName<N extends NodeSummary>(nodes: readonly N[]): ReadonlyMap<string, N> {
  return new Map(nodes.map((n) => [n.name, n]));
}

/**
 * Joins a machine to its Node by the Machine's `status.nodeRef.name` (the view's `nodeName`),
 * the one join the machines tables and the machine page share. Pure and O(1) per machine.
 */
export function machineNodeOf<N extends NodeSummary>(
  machine: { nodeName?: string | undefined; deleting: boolean },
  byName: ReadonlyMap<string, N>,
): MachineNode<N> {
  if (!machine.nodeName) return { state: 'NoNode' };
  const node = byName.get(machine.nodeName);
  if (node) return { state: node.state, node };
  return { state: machine.deleting ? 'Deleted' : 'Missing' };
}

/** A cluster's Nodes as the machines tables read them: the same reasons, summaries for Nodes. */
export type ClusterNodeSummaries =
  | { status: 'ok'; secret: string; nodes: NodeSummary[] }
  | Exclude<ClusterNodesView, { status: 'ok' }>;

export function clusterNodeSummaries(v: ClusterNodesView): ClusterNodeSummaries {
  return v.status === 'ok' ? { ...v, nodes: v.nodes.map(nodeSummaryOf) } : v;
}
