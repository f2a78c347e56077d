import type { KubeObject, ServerClient } from '@dcs/apiserver';
import type { Machine } from '@dcs/domain';
import { failureModes } from '../logic/failures';
import { sameJson } from '../logic/names';
import { BY_CLUSTER, indexKey } from '../runtime/caches';
import { splitKey, watch, type Context, type Controller } from '../runtime/context';
import type { ReconcileResult } from '../runtime/queue';
import type { WorkloadCluster, WorkloadClusters } from './clusters';

/**
 * The workload of each simulated workload cluster (issue 26 item 6), so that a Machine's drain
 * really evicts Pods through the Eviction API and a PodDisruptionBudget really blocks it:
 *
 * - a ReplicaSet `default/web`: every Node that joins brings one replica, started on it (so a
 *   restarted simulator, whose workload servers start empty, has one on every Node again, a
 *   cordoned one's too); a replica evicted or deleted is replaced on the schedulable Node (Ready,
 *   not cordoned) with the fewest, or waits Pending when there is none; a Node that goes takes its
 *   replica with it;
 * - a DaemonSet `kube-system/kube-proxy`: one Pod on every Node, which a drain skips;
 * - the kubelet's part: a Pod bound to a Ready Node runs and is Ready, on a Node not Ready it is
 *   not; a terminating Pod is gone `TERMINATION_MS` (simulated) after its deletion started;
 * - PodGC: Pods bound to a Node that no longer exists are deleted;
 * - the disruption controller (pkg/controller/disruption): each PodDisruptionBudget's status
 *   (expectedPods, desiredHealthy, currentHealthy, disruptionsAllowed, disruptedPods,
 *   observedGeneration, the DisruptionAllowed condition) from the Pods it selects;
 * - the `drain-stuck` failure mode: a PodDisruptionBudget `drain-stuck-<node>` (minAvailable: the
 *   number of the Node's web Pods) over the Pods started on that Machine's Node, so its drain is
 *   refused with a 429 until the failure is removed (or the Machine is gone), when it goes.
 *
 * Bounded: only clusters with at most `maxNodes` Nodes have a workload (default 50; two Pods per
 * Node); a larger cluster's drains are simulated by time (`logic/machine-status.ts`).
 */

export const WEB = { namespace: 'default', name: 'web', labels: { app: 'web' } } as const;
export const PROXY = {
  namespace: 'kube-system',
  name: 'kube-proxy',
  labels: { 'k8s-app': 'kube-proxy' },
} as const;
/** The Node a web Pod was started on (what a drain-stuck budget selects by). */
export const LABEL_STARTED_ON = 'sim.dcs.io/started-on';
/** Marks the budgets the simulator writes for `drain-stuck`. */
export const LABEL_FAILURE = 'sim.dcs.io/failure';
export const DRAIN_STUCK_PREFIX = 'drain-stuck-';
/** How long a terminating Pod takes to stop, in simulated ms. */
export const TERMINATION_MS = 3_000;
/** pkg/controller/disruption DeletionTimeout: a disrupted Pod not deleted by then counts again. */
export const DISRUPTION_DELETION_TIMEOUT_MS = 2 * 60_000;
export const DEFAULT_WORKLOAD_MAX_NODES = 50;

/** The pod-template-hash of each workload's template (fixed: the templates never change). */
const WEB_HASH = '7c9d8f5b6d';
const PROXY_HASH = '5f8b7c6d9';

type Obj = KubeObject;
type Json = Record<string, unknown>;
const objOf = (v: unknown): Json =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : {};
const listOf = (v: unknown): Json[] => (Array.isArray(v) ? v.map(objOf) : []);
const numOf = (v: unknown): number => (typeof v === 'number' ? v : 0);
const strOr = (v: unknown, d: string): string => (typeof v === 'string' ? v : d);

const POD = { apiVersion: 'v1', kind: 'Pod' } as const;
const PDB = { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget' } as const;

function template(labels: Readonly<Record<string, string>>, image: string, name: string) {
  return {
    metadata: { labels: { ...labels } },
    spec: {
      containers: [{ name, image, resources: {} }],
      terminationGracePeriodSeconds: 30,
      restartPolicy: 'Always',
    },
  };
}

export function isNodeReady(node: Obj): boolean {
  return listOf(objOf(node.status).conditions).some(
    (c) => c.type === 'Ready' && c.status === 'True',
  );
}

/** Schedulable for a web replica: Ready and not cordoned (its only toleration: the control plane's taint). */
export function isSchedulable(node: Obj): boolean {
  return objOf(node.spec).unschedulable !== true && isNodeReady(node);
}

const controllerOf = (p: Obj) => p.metadata.ownerReferences?.find((r) => r.controller);
const isTerminating = (p: Obj) => typeof p.metadata.deletionTimestamp === 'string';
const nodeOf = (p: Obj): string => {
  const n = objOf(p.spec).nodeName;
  return typeof n === 'string' ? n : '';
};

/** The status the kubelet reports for a Pod bound to `node` (Pending while the Node is not Ready). */
export function podStatus(pod: Obj, node: Obj | undefined, nowISO: string): Json {
  const before = objOf(pod.status);
  const ready = node !== undefined && isNodeReady(node);
  const bound = node !== undefined;
  const was = (type: string) => listOf(before.conditions).find((c) => c.type === type);
  const cond = (type: string, status: boolean, extra: Json = {}) => {
    const s = status ? 'True' : 'False';
    const prev = was(type);
    return {
      type,
      status: s,
      lastProbeTime: null,
      lastTransitionTime:
        prev?.status === s && typeof prev.lastTransitionTime === 'string'
          ? prev.lastTransitionTime
          : nowISO,
      ...extra,
    };
  };
  const containers = listOf(objOf(pod.spec).containers);
  const addresses = listOf(objOf(node?.status).addresses);
  const hostIP = addresses.find((a) => a.type === 'InternalIP')?.address;
  const started = typeof before.startTime === 'string' ? before.startTime : nowISO;
  if (!bound) {
    return {
      phase: 'Pending',
      conditions: [
        cond('PodScheduled', false, {
          reason: 'Unschedulable',
          message: strOr(was('PodScheduled')?.message, '0/0 nodes are available.'),
        }),
      ],
      qosClass: 'BestEffort',
    };
  }
  return {
    phase: ready ? 'Running' : 'Pending',
    conditions: [
      cond('PodReadyToStartContainers', ready),
      cond('Initialized', true),
      cond('Ready', ready),
      cond('ContainersReady', ready),
      cond('PodScheduled', true),
    ],
    ...(typeof hostIP === 'string'
      ? { hostIP, hostIPs: [{ ip: hostIP }], podIP: hostIP, podIPs: [{ ip: hostIP }] }
      : {}),
    startTime: started,
    containerStatuses: containers.map((c) => ({
      name: c.name,
      image: c.image,
      imageID: '',
      ready,
      restartCount: 0,
      started: ready,
      state: ready
        ? {
            running: {
              startedAt: strOr(
                objOf(objOf(listOf(before.containerStatuses)[0]?.state).running).startedAt,
                nowISO,
              ),
            },
          }
        : { waiting: { reason: 'ContainerCreating' } },
    })),
    qosClass: 'BestEffort',
  };
}

/** Only the parts of a status that change: the times of an unchanged status are kept. */
const sameStatus = (a: unknown, b: unknown) => sameJson(a, b);

/** The scheduler's "0/N nodes are available" message for a web Pod that fits no Node. */
export function unschedulableMessage(nodes: readonly Obj[]): string {
  const reasons = new Map<string, number>();
  for (const n of nodes) {
    const why =
      objOf(n.spec).unschedulable === true
        ? 'node(s) were unschedulable'
        : !isNodeReady(n)
          ? 'node(s) had untolerated taint {node.kubernetes.io/not-ready: }'
          : undefined;
    if (why) reasons.set(why, (reasons.get(why) ?? 0) + 1);
  }
  const parts = [...reasons.entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([why, n]) => `${String(n)} ${why}`);
  const total = String(nodes.length);
  return `0/${total} nodes are available${parts.length ? `: ${parts.join(', ')}` : ''}. preemption: 0/${total} nodes are available: ${total} Preemption is not helpful for scheduling.`;
}

/** A label selector object matches `labels` (an empty or missing selector matches nothing). */
export function selectorMatches(
  selector: unknown,
  labels: Record<string, string> | undefined,
): boolean {
  const sel = objOf(selector);
  const ml = objOf(sel.matchLabels);
  const exprs = listOf(sel.matchExpressions);
  if (Object.keys(ml).length === 0 && exprs.length === 0) return false;
  const l = labels ?? {};
  for (const [k, v] of Object.entries(ml)) if (!Object.hasOwn(l, k) || l[k] !== v) return false;
  for (const e of exprs) {
    const key = String(e.key);
    const values = Array.isArray(e.values) ? e.values.map(String) : [];
    const has = Object.hasOwn(l, key);
    const v = has ? l[key] : undefined;
    switch (e.operator) {
      case 'In':
        if (v === undefined || !values.includes(v)) return false;
        break;
      case 'NotIn':
        if (v !== undefined && values.includes(v)) return false;
        break;
      case 'Exists':
        if (!has) return false;
        break;
      case 'DoesNotExist':
        if (has) return false;
        break;
      default:
        return false;
    }
  }
  return true;
}

/** intstr.GetScaledValueFromIntOrPercent with roundUp. */
function scaled(v: unknown, total: number): number | undefined {
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && /^[0-9]+%$/.test(v))
    return Math.ceil((Number(v.slice(0, -1)) * total) / 100);
  return undefined;
}

export interface PdbComputation {
  status: Json;
  /** When a disrupted Pod's entry runs out (simulated ms from now), to look again then. */
  recheckMs?: number | undefined;
}

/**
 * The disruption controller's status for a budget (trySync: getExpectedPodCount,
 * buildDisruptedPodMap, countHealthyPods, updatePdbStatus), or its failSafe when a Pod's
 * controller is unknown. `scaleOf` is the scale of a Pod's controller (undefined: none found).
 */
export function pdbStatus(
  pdb: Obj,
  pods: readonly Obj[],
  scaleOf: (ref: { kind: string; name: string; uid: string }) => number | undefined,
  nowMs: number,
  nowISO: string,
): PdbComputation {
  const spec = objOf(pdb.spec);
  const before = objOf(pdb.status);
  const generation = numOf(pdb.metadata.generation);
  const selected = pods.filter((p) => selectorMatches(spec.selector, p.metadata.labels));
  let expected = 0;
  let desired = 0;
  let error: string | undefined;
  const expectedScale = (): number => {
    const scales = new Map<string, number>();
    for (const p of selected) {
      const ref = controllerOf(p);
      if (!ref) continue;
      if (scales.has(ref.uid)) continue;
      const s = scaleOf(ref);
      if (s === undefined) {
        error = `found no controllers for pod "${p.metadata.name ?? ''}"`;
        return 0;
      }
      scales.set(ref.uid, s);
    }
    return [...scales.values()].reduce((a, b) => a + b, 0);
  };
  if (spec.maxUnavailable !== undefined) {
    expected = expectedScale();
    desired = Math.max(0, expected - (scaled(spec.maxUnavailable, expected) ?? 0));
  } else if (typeof spec.minAvailable === 'number') {
    desired = spec.minAvailable;
    expected = selected.length;
  } else if (spec.minAvailable !== undefined) {
    expected = expectedScale();
    desired = scaled(spec.minAvailable, expected) ?? 0;
  }
  const conditions = listOf(before.conditions);
  const setCondition = (status: string, reason: string, message: string, observed: number) => {
    const i = conditions.findIndex((c) => c.type === 'DisruptionAllowed');
    const prev = i >= 0 ? conditions[i] : undefined;
    const next = {
      type: 'DisruptionAllowed',
      status,
      observedGeneration: observed,
      lastTransitionTime:
        prev?.status === status && typeof prev.lastTransitionTime === 'string'
          ? prev.lastTransitionTime
          : nowISO,
      reason,
      message,
    };
    if (i >= 0) conditions[i] = next;
    else conditions.push(next);
  };
  if (error !== undefined) {
    // failSafe
    const observed = numOf(before.observedGeneration);
    setCondition('False', 'SyncFailed', error, observed);
    return { status: { ...before, disruptionsAllowed: 0, conditions } };
  }
  // buildDisruptedPodMap
  const disruptedBefore = objOf(before.disruptedPods);
  const disrupted: Record<string, string> = {};
  let recheckMs: number | undefined;
  for (const p of selected) {
    if (isTerminating(p)) continue;
    const at = disruptedBefore[p.metadata.name ?? ''];
    if (typeof at !== 'string') continue;
    const expires = Date.parse(at) + DISRUPTION_DELETION_TIMEOUT_MS;
    if (expires > nowMs) {
      disrupted[p.metadata.name ?? ''] = at;
      recheckMs = Math.min(recheckMs ?? Infinity, expires - nowMs);
    }
  }
  // countHealthyPods
  let healthy = 0;
  for (const p of selected) {
    if (isTerminating(p)) continue;
    if (Object.hasOwn(disrupted, p.metadata.name ?? '')) continue;
    const ready = listOf(objOf(p.status).conditions).some(
      (c) => c.type === 'Ready' && c.status === 'True',
    );
    if (ready) healthy++;
  }
  let allowed = healthy - desired;
  if (expected <= 0 || allowed <= 0) allowed = 0;
  setCondition(
    allowed > 0 ? 'True' : 'False',
    allowed > 0 ? 'SufficientPods' : 'InsufficientPods',
    '',
    generation,
  );
  const status: Json = {
    ...(Object.keys(disrupted).length ? { disruptedPods: disrupted } : {}),
    disruptionsAllowed: allowed,
    currentHealthy: healthy,
    desiredHealthy: desired,
    expectedPods: expected,
    conditions,
    observedGeneration: generation,
  };
  return { status, recheckMs };
}

interface ClusterState {
  /** Nodes that brought their replica (in this server's life). */
  joined: Set<string>;
  /** Simulated time a terminating Pod was first seen, by uid. */
  terminating: Map<string, number>;
}

export interface WorkloadOptions {
  /** Clusters with more Nodes than this have no workload (default 50). */
  maxNodes?: number;
  /** Where the controller notes the Nodes whose workload it has fully written. */
  synced?: WorkloadSync;
}

/**
 * The Nodes of each workload server whose Pods and budgets the workload controller has written
 * in full (a reconcile ran to its end after the Node joined). A drain waits for this: a restarted
 * simulator's new servers start empty, and a drain that looked before the workload was rebuilt
 * would find nothing to evict and be done.
 */
export class WorkloadSync {
  private readonly nodes = new WeakMap<WorkloadCluster, Set<string>>();

  mark(wc: WorkloadCluster, nodes: Iterable<string>): void {
    this.nodes.set(wc, new Set(nodes));
  }

  has(wc: WorkloadCluster, node: string): boolean {
    return this.nodes.get(wc)?.has(node) ?? false;
  }
}

/**
 * Whether a cluster runs a workload: at most `maxNodes` Machines (one Node each), counted in the
 * controllers' cache, so that a large cluster costs no list of its Nodes.
 */
export function hasWorkload(
  ctx: Context,
  namespace: string,
  cluster: string,
  maxNodes = DEFAULT_WORKLOAD_MAX_NODES,
): boolean {
  return (
    ctx.caches.get('Machine').byIndex(BY_CLUSTER, indexKey(namespace, cluster)).length <= maxNodes
  );
}

/** The controller that keeps every workload cluster's Pods, controllers and budgets. */
export function workloadController(
  ctx: Context,
  clusters: WorkloadClusters,
  o: WorkloadOptions = {},
): Controller {
  const machines = ctx.caches.get('Machine');
  const states = new WeakMap<WorkloadCluster, ClusterState>();
  const maxNodes = o.maxNodes ?? DEFAULT_WORKLOAD_MAX_NODES;
  const toCluster = (m: Machine) =>
    m.spec?.clusterName ? [`${m.metadata.namespace ?? ''}/${m.spec.clusterName}`] : [];

  /** The stuck Machines' Nodes of a cluster (the `drain-stuck` failure). */
  function stuckNodes(ns: string, cluster: string): Set<string> {
    const out = new Set<string>();
    for (const m of machines.byIndex(BY_CLUSTER, indexKey(ns, cluster))) {
      const node = m.status?.nodeRef?.name;
      if (!node) continue;
      const infraName = m.spec?.infrastructureRef.name;
      const infra = infraName
        ? ctx.caches.get('DCSMachine').get(m.metadata.namespace, infraName)
        : undefined;
      const poolName = infra?.spec?.ipHostPoolRef.name;
      const pool = poolName
        ? ctx.caches.get('DCSIpHostnamePool').get(m.metadata.namespace, poolName)
        : undefined;
      const modes = failureModes(
        {
          machine: m.metadata.name ?? '',
          machineAnnotations: m.metadata.annotations,
          infraAnnotations: infra?.metadata.annotations,
          pool: poolName,
          poolAnnotations: pool?.metadata.annotations,
          ip: infra?.status?.networkConfig?.ip,
        },
        ctx.options.failures,
        ctx.options.randomSeed,
      );
      if (modes.has('drain-stuck')) out.add(node);
    }
    return out;
  }

  async function ensure(c: ServerClient, want: Obj): Promise<Obj> {
    const ref = {
      apiVersion: want.apiVersion,
      kind: want.kind,
      name: want.metadata.name ?? '',
      namespace: want.metadata.namespace ?? '',
    };
    return c.get(ref) ?? (await c.create(want));
  }

  async function reconcile(key: string): Promise<ReconcileResult | undefined> {
    const { namespace, name } = splitKey(key);
    const ns = namespace ?? '';
    const wc = await clusters.get(ns, name);
    if (!wc) return undefined;
    if (!hasWorkload(ctx, ns, name, maxNodes)) return undefined;
    const c = wc.server.client;
    const nodes = c.list('v1', 'Node');
    let state = states.get(wc);
    if (!state) {
      state = { joined: new Set(), terminating: new Map() };
      states.set(wc, state);
    }
    const now = ctx.clock.now();
    const nowISO = ctx.clock.stamp();
    let requeue: number | undefined;
    const soonest = (ms: number) => {
      requeue = Math.max(200, Math.min(requeue ?? Infinity, ms));
    };
    const byName = new Map(nodes.map((n) => [n.metadata.name ?? '', n]));

    const rs = await ensure(c, {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: {
        name: `${WEB.name}-${WEB_HASH}`,
        namespace: WEB.namespace,
        labels: { ...WEB.labels, 'pod-template-hash': WEB_HASH },
      },
      spec: {
        replicas: 0,
        selector: { matchLabels: { ...WEB.labels, 'pod-template-hash': WEB_HASH } },
        template: template({ ...WEB.labels, 'pod-template-hash': WEB_HASH }, 'nginx:1.27', 'web'),
      },
    });
    const ds = await ensure(c, {
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: { name: PROXY.name, namespace: PROXY.namespace, labels: { ...PROXY.labels } },
      spec: {
        selector: { matchLabels: { ...PROXY.labels } },
        template: {
          ...template(
            { ...PROXY.labels, 'controller-revision-hash': PROXY_HASH },
            'registry.k8s.io/kube-proxy:v1.30.4',
            'kube-proxy',
          ),
        },
      },
    });
    const owner = (o: Obj) => ({
      apiVersion: 'apps/v1',
      kind: o.kind,
      name: o.metadata.name ?? '',
      uid: o.metadata.uid ?? '',
      controller: true,
      blockOwnerDeletion: true,
    });
    const newPod = (
      of: Obj,
      base: string,
      labels: Record<string, string>,
      tmpl: Json,
      node: string | undefined,
    ): Obj => ({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        generateName: `${base}-`,
        namespace: of.metadata.namespace ?? '',
        labels,
        ownerReferences: [owner(of)],
      },
      spec: {
        ...objOf(tmpl.spec),
        ...(node ? { nodeName: node } : {}),
        tolerations: [
          {
            key: 'node-role.kubernetes.io/control-plane',
            operator: 'Exists',
            effect: 'NoSchedule',
          },
        ],
      },
    });
    const webTemplate = objOf(objOf(rs.spec).template);
    const webLabels = (node: string | undefined) => ({
      ...WEB.labels,
      'pod-template-hash': WEB_HASH,
      ...(node ? { [LABEL_STARTED_ON]: node } : {}),
    });

    let pods = c.list('v1', 'Pod');
    const writes: Promise<unknown>[] = [];
    const del = (p: Obj) =>
      c
        .delete(
          { ...POD, name: p.metadata.name ?? '', namespace: p.metadata.namespace ?? '' },
          { gracePeriodSeconds: 0 },
        )
        .catch((e: unknown) => {
          if ((e as { code?: number }).code !== 404) throw e;
        });

    // PodGC (bound to a Node that is gone) and the kubelet's end of a terminating Pod.
    const live = new Set<string>();
    for (const p of pods) {
      const uid = p.metadata.uid ?? '';
      const node = nodeOf(p);
      if (node && !byName.has(node)) {
        writes.push(del(p));
        continue;
      }
      if (isTerminating(p)) {
        live.add(uid);
        const since = state.terminating.get(uid) ?? now;
        state.terminating.set(uid, since);
        if (!node || now >= since + TERMINATION_MS) writes.push(del(p));
        else soonest(since + TERMINATION_MS - now);
      }
    }
    for (const uid of state.terminating.keys()) if (!live.has(uid)) state.terminating.delete(uid);
    await Promise.all(writes);
    writes.length = 0;
    pods = c.list('v1', 'Pod');
    const isWeb = (p: Obj) => controllerOf(p)?.uid === rs.metadata.uid;
    const isProxy = (p: Obj) => controllerOf(p)?.uid === ds.metadata.uid;

    // The DaemonSet: one Pod on every Node.
    const proxyTemplate = objOf(objOf(ds.spec).template);
    for (const n of nodes) {
      const nn = n.metadata.name ?? '';
      if (pods.some((p) => isProxy(p) && nodeOf(p) === nn && !isTerminating(p))) continue;
      writes.push(
        c.create(
          newPod(
            ds,
            PROXY.name,
            { ...PROXY.labels, 'controller-revision-hash': PROXY_HASH },
            proxyTemplate,
            nn,
          ),
        ),
      );
    }
    // Each Node that joins brings its web replica, started on it.
    for (const n of nodes) {
      const nn = n.metadata.name ?? '';
      if (state.joined.has(nn)) continue;
      state.joined.add(nn);
      writes.push(c.create(newPod(rs, WEB.name, webLabels(nn), webTemplate, nn)));
    }
    for (const nn of state.joined) if (!byName.has(nn)) state.joined.delete(nn);
    await Promise.all(writes);
    writes.length = 0;
    pods = c.list('v1', 'Pod');

    // The ReplicaSet: as many replicas as Nodes joined; replacements where they fit.
    const replicas = state.joined.size;
    const active = pods.filter((p) => isWeb(p) && !isTerminating(p));
    const countOn = (nn: string) => active.filter((p) => nodeOf(p) === nn).length;
    const pick = (): string | undefined => {
      let best: string | undefined;
      let bestCount = Infinity;
      for (const n of nodes) {
        if (!isSchedulable(n)) continue;
        const nn = n.metadata.name ?? '';
        const k = countOn(nn);
        if (k < bestCount || (k === bestCount && best !== undefined && nn < best)) {
          best = nn;
          bestCount = k;
        }
      }
      return best;
    };
    if (active.length < replicas) {
      for (let i = active.length; i < replicas; i++) {
        const nn = pick();
        const p = newPod(rs, WEB.name, webLabels(nn), webTemplate, nn);
        writes.push(c.create(p));
        // Counted where it goes, for the next pick.
        active.push(p);
      }
    } else if (active.length > replicas) {
      // Unbound first, then the most crowded Node's, newest first.
      const ranked = [...active].sort((a, b) => {
        const ua = nodeOf(a) ? 1 : 0;
        const ub = nodeOf(b) ? 1 : 0;
        if (ua !== ub) return ua - ub;
        const ca = countOn(nodeOf(a));
        const cb = countOn(nodeOf(b));
        if (ca !== cb) return cb - ca;
        return String(b.metadata.creationTimestamp).localeCompare(
          String(a.metadata.creationTimestamp),
        );
      });
      for (const p of ranked.slice(0, active.length - replicas)) writes.push(del(p));
    }
    await Promise.all(writes);
    writes.length = 0;
    pods = c.list('v1', 'Pod');

    // The scheduler binds a Pending web Pod once a Node fits; the kubelet reports each Pod.
    const message = unschedulableMessage(nodes);
    for (const p of pods) {
      if (isTerminating(p)) continue;
      let current = p;
      if (!nodeOf(p) && isWeb(p)) {
        const nn = pick();
        if (nn) {
          current = await c.update({
            ...p,
            metadata: { ...p.metadata, labels: webLabels(nn) },
            spec: { ...objOf(p.spec), nodeName: nn },
          });
        }
      }
      const node = byName.get(nodeOf(current));
      let want = podStatus(current, node, nowISO);
      if (!node) {
        want = {
          ...want,
          conditions: listOf(want.conditions).map((x) =>
            x.type === 'PodScheduled' ? { ...x, message } : x,
          ),
        };
      }
      if (!sameStatus(want, current.status))
        writes.push(c.update({ ...current, status: want }, { subresource: 'status' }));
    }
    await Promise.all(writes);
    writes.length = 0;
    pods = c.list('v1', 'Pod');

    // The controllers' status.
    const web = pods.filter((p) => isWeb(p) && !isTerminating(p));
    const ready = (p: Obj) =>
      listOf(objOf(p.status).conditions).some((x) => x.type === 'Ready' && x.status === 'True');
    const rsStatus = {
      replicas: web.length,
      fullyLabeledReplicas: web.length,
      readyReplicas: web.filter(ready).length,
      availableReplicas: web.filter(ready).length,
      observedGeneration: numOf(rs.metadata.generation),
    };
    let rsNow = rs;
    if (numOf(objOf(rs.spec).replicas) !== replicas) {
      rsNow = await c.update({ ...rs, spec: { ...objOf(rs.spec), replicas } });
      rsStatus.observedGeneration = numOf(rsNow.metadata.generation);
    }
    if (!sameJson(rsStatus, rsNow.status))
      await c.update({ ...rsNow, status: rsStatus }, { subresource: 'status' });
    const proxies = pods.filter((p) => isProxy(p) && !isTerminating(p));
    const dsStatus = {
      currentNumberScheduled: proxies.length,
      numberMisscheduled: 0,
      desiredNumberScheduled: nodes.length,
      numberReady: proxies.filter(ready).length,
      updatedNumberScheduled: proxies.length,
      numberAvailable: proxies.filter(ready).length,
      ...(nodes.length - proxies.filter(ready).length > 0
        ? { numberUnavailable: nodes.length - proxies.filter(ready).length }
        : {}),
      observedGeneration: numOf(ds.metadata.generation),
    };
    if (!sameJson(dsStatus, ds.status))
      await c.update({ ...ds, status: dsStatus }, { subresource: 'status' });

    // drain-stuck: a budget over each stuck Machine's Node's web Pods.
    const stuck = stuckNodes(ns, name);
    const budgets = c.list(PDB.apiVersion, PDB.kind);
    for (const nn of stuck) {
      if (!byName.has(nn)) continue;
      const pdbName = `${DRAIN_STUCK_PREFIX}${nn}`;
      const count = web.filter((p) => p.metadata.labels?.[LABEL_STARTED_ON] === nn).length;
      const spec = {
        minAvailable: Math.max(1, count),
        selector: { matchLabels: { ...WEB.labels, [LABEL_STARTED_ON]: nn } },
      };
      const have = budgets.find(
        (b) => b.metadata.name === pdbName && b.metadata.namespace === WEB.namespace,
      );
      if (!have) {
        await c.create({
          ...PDB,
          metadata: {
            name: pdbName,
            namespace: WEB.namespace,
            labels: { [LABEL_FAILURE]: 'drain-stuck' },
          },
          spec,
        });
      } else if (!isTerminating(have) && !sameJson(have.spec, spec)) {
        await c.update({ ...have, spec });
      }
    }
    for (const b of budgets) {
      if (b.metadata.labels?.[LABEL_FAILURE] !== 'drain-stuck') continue;
      const nn = (b.metadata.name ?? '').slice(DRAIN_STUCK_PREFIX.length);
      if (stuck.has(nn) && byName.has(nn)) continue;
      await c
        .delete({ ...PDB, name: b.metadata.name ?? '', namespace: b.metadata.namespace ?? '' })
        .catch((e: unknown) => {
          if ((e as { code?: number }).code !== 404) throw e;
        });
    }

    // The disruption controller.
    const scaleOf = (ref: { kind: string; uid: string }) => {
      if (ref.uid === rsNow.metadata.uid) return replicas;
      if (ref.uid === ds.metadata.uid) return nodes.length;
      return undefined;
    };
    for (const b of c.list(PDB.apiVersion, PDB.kind)) {
      const inNs = pods.filter((p) => p.metadata.namespace === b.metadata.namespace);
      const { status, recheckMs } = pdbStatus(b, inNs, scaleOf, ctx.clock.wallNow(), nowISO);
      if (recheckMs !== undefined) soonest(recheckMs);
      if (sameJson(status, b.status)) continue;
      try {
        await c.update({ ...b, status }, { subresource: 'status' });
      } catch (e) {
        // An eviction decremented it meanwhile (409): look again.
        if ((e as { code?: number }).code !== 409) throw e;
        soonest(0);
      }
    }
    o.synced?.mark(wc, state.joined);
    return requeue === undefined ? undefined : { requeueAfterMs: requeue };
  }

  return {
    name: 'workload',
    primary: 'Cluster',
    watches: [watch('Machine', toCluster)],
    concurrency: 2,
    // Changes in the workload clusters (a Node joining, an eviction, a budget) wake the cluster,
    // but not the writes of this controller's own status reports alone: every change does, and
    // a reconcile that finds nothing to do writes nothing.
    sources: [
      (enqueue) =>
        clusters.subscribe((namespace, cluster, change) => {
          if (
            change.kind === 'Pod' ||
            change.kind === 'Node' ||
            change.kind === 'PodDisruptionBudget'
          )
            enqueue(`${namespace}/${cluster}`);
        }),
    ],
    reconcile,
  };
}
