import {
  LABEL_CLUSTER_NAME,
  LABEL_CONTROL_PLANE,
  type Machine,
  type Node,
  type NodeCondition,
  type Taint,
} from '@dcs/domain';
import { DRAINING_SUCCEEDED, NODE_HEALTHY } from './machine-status';
import { sameJson } from './names';

/**
 * The Node the simulated kubelet (and Cluster API's node reconciler) keeps in the workload cluster
 * for a Machine: a pure function of the Machine, so that a restarted simulator registers the same
 * Nodes again with no write to the management cluster.
 *
 * - Registered with kubeadm's labels and taints; Ready follows the Machine's NodeHealthy (the
 *   simulation decides health on the Machine, as the node reports it); the pressure conditions and
 *   NetworkUnavailable are False, as on a healthy kubelet with a CNI.
 * - Cordoned when Cluster API starts draining the Machine's node (`status.deletion.nodeDrainStartTime`):
 *   `spec.unschedulable` and the `node.kubernetes.io/unschedulable:NoSchedule` taint, as
 *   `kubectl drain` does; the drain's evictions are the Machine controller's
 *   (`workload/drain.ts`).
 */

export const TAINT_UNSCHEDULABLE = 'node.kubernetes.io/unschedulable';
export const TAINT_NOT_READY = 'node.kubernetes.io/not-ready';
export const TAINT_CONTROL_PLANE = 'node-role.kubernetes.io/control-plane';
/** Annotations Cluster API's machine controller writes on each Node (machine_controller_noderef.go). */
export const NODE_ANNOTATION_CLUSTER_NAME = 'cluster.x-k8s.io/cluster-name';
export const NODE_ANNOTATION_CLUSTER_NAMESPACE = 'cluster.x-k8s.io/cluster-namespace';
export const NODE_ANNOTATION_MACHINE = 'cluster.x-k8s.io/machine';

/** Whether the Machine has started draining its node (Cluster API cordons first). */
export function isCordoned(m: Machine): boolean {
  if (!m.metadata.deletionTimestamp) return false;
  return Boolean(
    m.status?.deletion?.nodeDrainStartTime ??
    m.status?.conditions?.some((c) => c.type === DRAINING_SUCCEEDED),
  );
}

interface ConditionSpec {
  type: string;
  status: 'True' | 'False';
  reason: string;
  message: string;
}

/** The kubelet's Ready message while the node is not ready (no CNI yet). */
export const NODE_NOT_READY_MESSAGE =
  'container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized';

function conditionSpecs(ready: boolean): ConditionSpec[] {
  return [
    {
      type: 'NetworkUnavailable',
      status: 'False',
      reason: 'CalicoIsUp',
      message: 'Calico is running on this node',
    },
    {
      type: 'MemoryPressure',
      status: 'False',
      reason: 'KubeletHasSufficientMemory',
      message: 'kubelet has sufficient memory available',
    },
    {
      type: 'DiskPressure',
      status: 'False',
      reason: 'KubeletHasNoDiskPressure',
      message: 'kubelet has no disk pressure',
    },
    {
      type: 'PIDPressure',
      status: 'False',
      reason: 'KubeletHasSufficientPID',
      message: 'kubelet has sufficient PID available',
    },
    ready
      ? {
          type: 'Ready',
          status: 'True',
          reason: 'KubeletReady',
          message: 'kubelet is posting ready status',
        }
      : {
          type: 'Ready',
          status: 'False',
          reason: 'KubeletNotReady',
          message: NODE_NOT_READY_MESSAGE,
        },
  ];
}

/**
 * Conditions with the times of `current` kept where the status did not change (a transition is
 * stamped `nowISO`), so that rewriting an unchanged Node writes nothing.
 */
function withTimes(
  specs: readonly ConditionSpec[],
  current: readonly NodeCondition[] | undefined,
  nowISO: string,
): NodeCondition[] {
  return specs.map((s) => {
    const before = current?.find((c) => c.type === s.type);
    const same = before?.status === s.status;
    const at = same ? (before.lastTransitionTime ?? nowISO) : nowISO;
    return {
      type: s.type,
      status: s.status,
      lastHeartbeatTime: same ? (before.lastHeartbeatTime ?? at) : nowISO,
      lastTransitionTime: at,
      reason: s.reason,
      message: s.message,
    };
  });
}

function taintsOf(m: Machine, ready: boolean, current: Node | undefined, nowISO: string): Taint[] {
  const taints: Taint[] = [];
  const keep = (key: string) => current?.spec?.taints?.find((t) => t.key === key);
  if (LABEL_CONTROL_PLANE in (m.metadata.labels ?? {}))
    taints.push({ key: TAINT_CONTROL_PLANE, effect: 'NoSchedule' });
  if (!ready) {
    taints.push({
      key: TAINT_NOT_READY,
      effect: 'NoSchedule',
      timeAdded: keep(TAINT_NOT_READY)?.timeAdded ?? nowISO,
    });
  }
  if (isCordoned(m)) {
    taints.push({
      key: TAINT_UNSCHEDULABLE,
      effect: 'NoSchedule',
      timeAdded:
        keep(TAINT_UNSCHEDULABLE)?.timeAdded ?? m.status?.deletion?.nodeDrainStartTime ?? nowISO,
    });
  }
  return taints;
}

export interface DesiredNodeInput {
  machine: Machine;
  /** The Node as it is now, if registered: its condition times are kept. */
  current?: Node | undefined;
  /** NodeSystemInfo (kubelet version, OS...). */
  nodeInfo: Record<string, string>;
  nowISO: string;
}

/** The Node for a Machine that has a nodeRef (or is registering one under `name`). */
export function desiredNode(input: DesiredNodeInput & { name: string }): Node {
  const { machine: m, current, nowISO } = input;
  const ready = m.status?.conditions?.find((c) => c.type === NODE_HEALTHY)?.status === 'True';
  const controlPlane = LABEL_CONTROL_PLANE in (m.metadata.labels ?? {});
  const addresses = (m.status?.addresses ?? [])
    .filter((a) => a.type === 'InternalIP' || a.type === 'Hostname' || a.type === 'ExternalIP')
    .map((a) => ({ type: a.type, address: a.address }));
  const taints = taintsOf(m, ready, current, nowISO);
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name: input.name,
      labels: {
        'kubernetes.io/arch': 'amd64',
        'kubernetes.io/hostname': input.name,
        'kubernetes.io/os': 'linux',
        ...(controlPlane
          ? {
              'node-role.kubernetes.io/control-plane': '',
              'node.kubernetes.io/exclude-from-external-load-balancers': '',
            }
          : {}),
      },
      annotations: {
        [NODE_ANNOTATION_CLUSTER_NAME]:
          m.spec?.clusterName ?? m.metadata.labels?.[LABEL_CLUSTER_NAME] ?? '',
        [NODE_ANNOTATION_CLUSTER_NAMESPACE]: m.metadata.namespace ?? '',
        [NODE_ANNOTATION_MACHINE]: m.metadata.name ?? '',
        'kubeadm.alpha.kubernetes.io/cri-socket': 'unix:///var/run/containerd/containerd.sock',
        'node.alpha.kubernetes.io/ttl': '0',
        'volumes.kubernetes.io/controller-managed-attach-detach': 'true',
      },
    },
    spec: {
      ...(m.spec?.providerID ? { providerID: m.spec.providerID } : {}),
      ...(isCordoned(m) ? { unschedulable: true } : {}),
      ...(taints.length ? { taints } : {}),
    },
    status: {
      capacity: { cpu: '8', 'ephemeral-storage': '102350Mi', memory: '16261588Ki', pods: '110' },
      allocatable: { cpu: '8', 'ephemeral-storage': '96577Mi', memory: '16159188Ki', pods: '110' },
      conditions: withTimes(conditionSpecs(ready), current?.status?.conditions, nowISO),
      addresses,
      daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
      nodeInfo: input.nodeInfo,
    },
  };
}

/**
 * The kubelet's predicate (controller-runtime's update predicate): whether a change of a Machine
 * from `before` to `after` can change what the kubelet does with its Node. Its Node's name
 * (nodeRef), its cluster, whether the Machine is being deleted (a deleting Machine's Node is
 * never created again), or the Node it wants: that is judged by `desiredNode` itself, on both
 * versions at one instant, so that an input added to the Node cannot be forgotten here. Every
 * other change (the Machine's other conditions, phase, bootstrap and infrastructure progress:
 * most of a Machine's writes) leaves the Node as it is. `nodeInfo` is the NodeSystemInfo the
 * kubelet reports for a Machine.
 */
export function nodeInputsChanged(
  before: Machine,
  after: Machine,
  nodeInfo: (m: Machine) => Record<string, string>,
): boolean {
  const name = after.status?.nodeRef?.name;
  if (name !== before.status?.nodeRef?.name) return true;
  // Neither version has a Node: the kubelet has nothing to do with either.
  if (!name) return false;
  if (after.spec?.clusterName !== before.spec?.clusterName) return true;
  if (Boolean(after.metadata.deletionTimestamp) !== Boolean(before.metadata.deletionTimestamp))
    return true;
  const node = (m: Machine) =>
    desiredNode({ machine: m, name, nodeInfo: nodeInfo(m), nowISO: '1970-01-01T00:00:00Z' });
  return !sameJson(node(before), node(after));
}
