import type { KubeObject as ServerObject } from '@dcs/apiserver';
import {
  ANNOTATION_AUTOSCALER_LAST_UPDATED,
  AUTOSCALER_STATUS_CONFIGMAP,
  AUTOSCALER_STATUS_KEY,
  AUTOSCALER_STATUS_NAMESPACE,
  autoscalerBoundsOf,
  canScaleFromZero,
  LABEL_DEPLOYMENT_NAME,
  nodeGroupIdOf,
  type ConfigMap,
  type Machine,
  type MachineDeployment,
} from '@dcs/domain';
import { parse as parseYaml, stringify } from 'yaml';
import { BY_CLUSTER, indexKey } from '../runtime/caches';
import { splitKey, watch, type Context, type Controller } from '../runtime/context';
import type { ReconcileResult } from '../runtime/queue';
import type { WorkloadClusters } from './clusters';

/**
 * The simulated cluster autoscaler's status (issue 26 item 2): where a pool of a cluster carries
 * the cluster autoscaler's bounds, the workload cluster gets the ConfigMap
 * `kube-system/cluster-autoscaler-status` that cluster-autoscaler 1.30+ writes (key `status`, its
 * YAML: `clusterstate/api/types.go`, in the field order upstream marshals; the annotation
 * `cluster-autoscaler.kubernetes.io/last-updated` in its Go time format). The simulation writes
 * no pods and scales nothing: it reports each autoscaled MachineDeployment (`newNodeGroupFromScalableResource`'s
 * conditions: both bounds readable, max ≥ min, max ≥ 1, and not at 0 replicas unless it can
 * scale from zero) as a node group named `MachineDeployment/<namespace>/<name>`, kept consistent
 * with the pool: its target is `spec.replicas`, its min/max the annotations, its registered and
 * ready counts the Machines with a Node and the MachineDeployment's ready replicas. A target
 * above the registered nodes is a scale-up in progress, below them a scale-down with candidates;
 * each condition's lastTransitionTime moves only when its status changes. Once written, the
 * ConfigMap stays (the autoscaler keeps running) and lists no node group when no pool has bounds.
 */

/** Go's `2006-01-02 15:04:05.999999999 -0700 MST` in UTC, as the autoscaler writes `time`. */
export function goTime(ms: number): string {
  const d = new Date(ms);
  const iso = d.toISOString(); // 2026-12-07T10:00:00.120Z
  const frac = iso.slice(20, 23).replace(/0+$/, '');
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}${frac ? `.${frac}` : ''} +0000 UTC`;
}

/** metav1.Time as it marshals: RFC 3339, whole seconds. */
const rfc3339 = (ms: number) =>
  new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');

export interface NodeGroupInput {
  namespace: string;
  name: string;
  minSize: number;
  maxSize: number;
  /** `spec.replicas`. */
  target: number;
  /** Machines with a Node. */
  registered: number;
  ready: number;
}

type Transitions = Record<string, { status: string; lastTransitionTime: string } | undefined>;

/** upstream's ClusterStateRegistry: too many unready nodes (more than 3 and more than 45 %). */
const healthy = (registered: number, ready: number) => {
  const unready = Math.max(0, registered - ready);
  return unready <= 3 || unready <= 0.45 * registered;
};

function nodeCounts(registered: number, ready: number) {
  return {
    registered: {
      total: registered,
      ready,
      notStarted: 0,
      unready: { total: Math.max(0, registered - ready), resourceUnready: 0 },
    },
    longUnregistered: 0,
    unregistered: 0,
  };
}

/**
 * The status document (an object in upstream's field order), for the node groups and the time;
 * `before` holds each condition's last status and transition time (`<group>/<condition>`).
 */
export function autoscalerStatusDocument(
  groups: readonly NodeGroupInput[],
  nowMs: number,
  before: ReadonlyMap<string, { status: string; lastTransitionTime: string }>,
): {
  document: Record<string, unknown>;
  transitions: Map<string, { status: string; lastTransitionTime: string }>;
} {
  const probe = rfc3339(nowMs);
  const transitions = new Map<string, { status: string; lastTransitionTime: string }>();
  const condition = (key: string, status: string) => {
    const was = before.get(key);
    const t = was?.status === status ? was.lastTransitionTime : probe;
    transitions.set(key, { status, lastTransitionTime: t });
    return { status, lastProbeTime: probe, lastTransitionTime: t };
  };
  const sorted = [...groups].sort((a, b) =>
    a.namespace === b.namespace ? (a.name < b.name ? -1 : 1) : a.namespace < b.namespace ? -1 : 1,
  );
  const nodeGroups = sorted.map((g) => {
    const id = nodeGroupIdOf(g.namespace, g.name);
    const up = g.target > g.registered;
    const down = g.target < g.registered;
    return {
      name: id,
      health: {
        ...condition(`${id}/health`, healthy(g.registered, g.ready) ? 'Healthy' : 'Unhealthy'),
        nodeCounts: nodeCounts(g.registered, g.ready),
        cloudProviderTarget: g.target,
        minSize: g.minSize,
        maxSize: g.maxSize,
      },
      scaleUp: condition(`${id}/scaleUp`, up ? 'InProgress' : 'NoActivity'),
      scaleDown: {
        ...condition(`${id}/scaleDown`, down ? 'CandidatesPresent' : 'NoCandidates'),
        ...(down ? { candidates: g.registered - g.target } : {}),
      },
    };
  });
  const registered = groups.reduce((n, g) => n + g.registered, 0);
  const ready = groups.reduce((n, g) => n + g.ready, 0);
  const anyUp = nodeGroups.some((g) => g.scaleUp.status === 'InProgress');
  const candidates = groups.reduce((n, g) => n + Math.max(0, g.registered - g.target), 0);
  // The order of upstream's struct: status fields first, the times last, as yaml.v2 marshals.
  const order = (
    c: { status: string; lastProbeTime: string; lastTransitionTime: string },
    extra: Record<string, unknown> = {},
  ) => {
    const { status, lastProbeTime, lastTransitionTime } = c;
    return { status, ...extra, lastProbeTime, lastTransitionTime };
  };
  const document = {
    time: goTime(nowMs),
    autoscalerStatus: 'Running',
    clusterWide: {
      health: order(
        condition('cluster/health', healthy(registered, ready) ? 'Healthy' : 'Unhealthy'),
        {
          nodeCounts: nodeCounts(registered, ready),
        },
      ),
      scaleUp: order(condition('cluster/scaleUp', anyUp ? 'InProgress' : 'NoActivity')),
      scaleDown: order(
        condition('cluster/scaleDown', candidates > 0 ? 'CandidatesPresent' : 'NoCandidates'),
        candidates > 0 ? { candidates } : {},
      ),
    },
    ...(nodeGroups.length
      ? {
          nodeGroups: nodeGroups.map((g) => ({
            name: g.name,
            health: order(g.health, {
              nodeCounts: g.health.nodeCounts,
              cloudProviderTarget: g.health.cloudProviderTarget,
              minSize: g.health.minSize,
              maxSize: g.health.maxSize,
            }),
            scaleUp: order(g.scaleUp),
            scaleDown: order(
              g.scaleDown,
              'candidates' in g.scaleDown ? { candidates: g.scaleDown.candidates } : {},
            ),
          })),
        }
      : {}),
  };
  return { document, transitions };
}

/** Each condition's status and transition time in a document this module wrote. */
export function transitionsOf(
  status: string | undefined,
): Map<string, { status: string; lastTransitionTime: string }> {
  const out = new Map<string, { status: string; lastTransitionTime: string }>();
  if (!status) return out;
  let doc: unknown;
  try {
    doc = parseYaml(status);
  } catch {
    return out;
  }
  if (typeof doc !== 'object' || doc === null) return out;
  const take = (key: string, c: unknown) => {
    if (typeof c !== 'object' || c === null) return;
    const { status: s, lastTransitionTime: t } = c as Record<string, unknown>;
    if (typeof s === 'string' && typeof t === 'string')
      out.set(key, { status: s, lastTransitionTime: t });
  };
  const d = doc as { clusterWide?: Transitions; nodeGroups?: unknown };
  take('cluster/health', d.clusterWide?.health);
  take('cluster/scaleUp', d.clusterWide?.scaleUp);
  take('cluster/scaleDown', d.clusterWide?.scaleDown);
  if (Array.isArray(d.nodeGroups)) {
    for (const g of d.nodeGroups as Record<string, unknown>[]) {
      if (typeof g.name !== 'string') continue;
      take(`${g.name}/health`, g.health);
      take(`${g.name}/scaleUp`, g.scaleUp);
      take(`${g.name}/scaleDown`, g.scaleDown);
    }
  }
  return out;
}

/** The document without its times: a write is needed only when this differs. */
const withoutTimes = (text: string | undefined): string =>
  (text ?? '')
    .split('\n')
    .filter((l) => !/^\s*(time|lastProbeTime):/.test(l))
    .join('\n');

/** The node group of an autoscaled MachineDeployment, or undefined when upstream would skip it. */
export function nodeGroupInputOf(
  md: MachineDeployment,
  machines: readonly Machine[],
): NodeGroupInput | undefined {
  const bounds = autoscalerBoundsOf(md);
  if (!bounds) return undefined;
  const target = md.spec?.replicas ?? 1;
  // newNodeGroupFromScalableResource: at 0 replicas, a node group only if it can scale from 0.
  if (target === 0 && !canScaleFromZero(md)) return undefined;
  const name = md.metadata.name ?? '';
  const own = machines.filter((m) => m.metadata.labels?.[LABEL_DEPLOYMENT_NAME] === name);
  const registered = own.filter((m) => m.status?.nodeRef?.name).length;
  return {
    namespace: md.metadata.namespace ?? '',
    name,
    minSize: bounds.minSize,
    maxSize: bounds.maxSize,
    target,
    registered,
    ready: Math.min(registered, md.status?.readyReplicas ?? 0),
  };
}

const CM_REF = {
  apiVersion: 'v1',
  kind: 'ConfigMap',
  namespace: AUTOSCALER_STATUS_NAMESPACE,
  name: AUTOSCALER_STATUS_CONFIGMAP,
} as const;

/** The controller that keeps each workload cluster's autoscaler status ConfigMap current. */
export function autoscalerStatusController(ctx: Context, clusters: WorkloadClusters): Controller {
  const mds = ctx.caches.get('MachineDeployment');
  const machines = ctx.caches.get('Machine');
  const toCluster = (o: {
    metadata: { namespace?: string | undefined };
    spec?: { clusterName?: string } | undefined;
  }) => (o.spec?.clusterName ? [`${o.metadata.namespace ?? ''}/${o.spec.clusterName}`] : []);
  return {
    name: 'autoscaler-status',
    primary: 'Cluster',
    watches: [watch('MachineDeployment', toCluster), watch('Machine', toCluster)],
    concurrency: 2,
    reconcile: async (key: string): Promise<ReconcileResult | undefined> => {
      const { namespace, name } = splitKey(key);
      const ns = namespace ?? '';
      const ofCluster = mds.byIndex(BY_CLUSTER, indexKey(ns, name));
      const wc = await clusters.get(ns, name);
      const client = wc?.server.client;
      const current = client?.get(CM_REF) as ConfigMap | undefined;
      const autoscaled = ofCluster.filter((md) => autoscalerBoundsOf(md) !== undefined);
      // No autoscaler runs where no pool ever had bounds.
      if (!current && autoscaled.length === 0) return undefined;
      // The workload cluster starts with its control plane: come back once it runs.
      if (!client) return { requeueAfterMs: 5_000 };
      const ms = machines.byIndex(BY_CLUSTER, indexKey(ns, name));
      const groups = autoscaled.flatMap((md) => {
        const g = nodeGroupInputOf(md, ms);
        return g ? [g] : [];
      });
      const before = current?.data?.[AUTOSCALER_STATUS_KEY];
      const { document } = autoscalerStatusDocument(
        groups,
        ctx.clock.wallNow(),
        transitionsOf(before),
      );
      const text = stringify(document, { lineWidth: 0 });
      if (current && withoutTimes(before) === withoutTimes(text)) return undefined;
      const updated = goTime(ctx.clock.wallNow());
      const body = {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: {
          ...(current?.metadata ?? { name: CM_REF.name, namespace: CM_REF.namespace }),
          annotations: {
            ...(current?.metadata.annotations ?? {}),
            [ANNOTATION_AUTOSCALER_LAST_UPDATED]: updated,
          },
        },
        data: { ...(current?.data ?? {}), [AUTOSCALER_STATUS_KEY]: text },
      } as unknown as ServerObject;
      try {
        if (current) await client.update(body);
        else await client.create(body);
      } catch (e) {
        // Another write won the race (409), or the server is going away: try again shortly.
        ctx.log(`autoscaler status of ${key}: ${(e as Error).message}`);
        return { requeueAfterMs: 1_000 };
      }
      return undefined;
    },
  };
}
