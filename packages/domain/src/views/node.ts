import type { Machine } from '../schemas/capi';
import type { Node } from '../schemas/core';

/**
 * The workload cluster's Node of each machine, as the machines table and the machine page show
 * it (issue 12), and why it may be missing. Pure: the BFF reads the Nodes through the cluster's
 * `<cluster>-kubeconfig` Secret and joins them to the Machines by `status.nodeRef`.
 */

/** What the Node column says, most telling first: a node being drained is also cordoned. */
export type NodeState = 'Ready' | 'NotReady' | 'Unknown' | 'Cordoned' | 'Draining';

export interface NodeConditionView {
  type: string;
  status: string;
  reason?: string;
  message?: string;
  lastTransitionTime?: string;
  /** Ready not True, or a pressure / NetworkUnavailable condition True. */
  problem: boolean;
}

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
  return BAD_WHEN_TRUE.has(c.type) && c.status === 'True';
}

/** Whether Cluster API is draining the Machine's node now (deleting, drain not finished). */
function isDraining(m: Machine | undefined): boolean {
  if (!m?.metadata.deletionTimestamp) return false;
  const drained = m.status?.conditions?.find((c) => c.type === 'DrainingSucceeded');
  if (drained) return drained.status !== 'True' && drained.reason === 'Draining';
  return Boolean(m.status?.deletion?.nodeDrainStartTime);
}

export function nodeViewOf(node: Node, machine?: Machine): NodeView {
  const conditions = (node.status?.conditions ?? []).map((c) => {
    const v: NodeConditionView = {
      type: c.type,
      status: c.status,
      problem: isNodeConditionProblem(c),
    };
    if (c.reason) v.reason = c.reason;
    if (c.message) v.message = c.message;
    if (c.lastTransitionTime) v.lastTransitionTime = c.lastTransitionTime;
    return v;
  });
  conditions.sort((a, b) => Number(b.problem) - Number(a.problem));
  const ready = node.status?.conditions?.find((c) => c.type === 'Ready')?.status ?? 'Unknown';
  const unschedulable = node.spec?.unschedulable === true;
  const state: NodeState = isDraining(machine)
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
