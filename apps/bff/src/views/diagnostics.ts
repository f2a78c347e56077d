import {
  type ClusterNodesView,
  EventSchema,
  type BootstrapFile,
  type KubeEvent,
  type MachineView,
  type NodePoolView,
} from '@dcs/domain';
import type { Principal } from '../auth/principal';
import type { ObjectCache } from '../cache/object-cache';
import type { ClusterModel } from './cluster-model';
import type { Globals } from './globals';
import { clusterObjects, poolObjects, type ObjectNames } from './object-names';
import type { TimelineView } from './timeline';

/**
 * Events and diagnostics bundles, of one pool or of a whole cluster. Events are not cached: they
 * are listed with the user's own credential, so the API server decides who may read them.
 * Secrets never enter a bundle: it names the Secrets the cluster's objects refer to, and
 * nothing of their contents.
 */

export interface EventView {
  type: string;
  reason: string;
  message: string;
  object: string;
  count: number;
  firstTimestamp?: string;
  lastTimestamp?: string;
}

/** Events of one pool, and of a whole cluster (newest first). */
const MAX_POOL_EVENTS = 200;
const MAX_CLUSTER_EVENTS = 1000;

/** Events of the objects named in `wanted`, newest first, at most `max`. */
async function eventsOf(
  principal: Principal,
  namespace: string,
  wanted: ObjectNames,
  max: number,
): Promise<EventView[]> {
  const res = await principal.client.request(
    'GET',
    `/api/v1/namespaces/${encodeURIComponent(namespace)}/events`,
  );
  const items = (res.body as { items?: unknown[] } | undefined)?.items ?? [];
  const events: KubeEvent[] = [];
  for (const raw of items) {
    const parsed = EventSchema.safeParse({ apiVersion: 'v1', kind: 'Event', ...(raw as object) });
    if (!parsed.success) continue;
    const io = parsed.data.involvedObject;
    if (io.kind !== undefined && io.name !== undefined && wanted.get(io.kind)?.has(io.name))
      events.push(parsed.data);
  }
  const time = (e: KubeEvent) => e.lastTimestamp ?? e.eventTime ?? e.firstTimestamp ?? '';
  return events
    .sort((a, b) => (time(a) < time(b) ? 1 : time(a) > time(b) ? -1 : 0))
    .slice(0, max)
    .map((e) => ({
      type: e.type ?? 'Normal',
      reason: e.reason ?? '',
      message: e.message ?? '',
      object: `${e.involvedObject.kind ?? ''}/${e.involvedObject.name ?? ''}`,
      count: e.count ?? 1,
      ...(e.firstTimestamp ? { firstTimestamp: e.firstTimestamp } : {}),
      ...(time(e) ? { lastTimestamp: time(e) } : {}),
    }));
}

export function eventsOfPool(
  cache: ObjectCache,
  principal: Principal,
  namespace: string,
  cluster: string,
  pool: string,
  machines: readonly MachineView[],
): Promise<EventView[]> {
  return eventsOf(
    principal,
    namespace,
    poolObjects(cache, namespace, cluster, pool, machines),
    MAX_POOL_EVENTS,
  );
}

const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

/**
 * Managed fields are noise in a bundle, and kubectl's last-applied copy of an object is left out
 * too: it repeats the object, and for an object that held a secret value it would hold that
 * value. Secrets themselves are never part of a bundle (only their names).
 */
function clean<T extends { metadata: Record<string, unknown> }>(o: T): T {
  const { managedFields: _m, annotations, ...metadata } = o.metadata;
  const rest = Object.entries((annotations ?? {}) as Record<string, string>).filter(
    ([k]) => k !== LAST_APPLIED,
  );
  return {
    ...o,
    metadata: { ...metadata, ...(rest.length ? { annotations: Object.fromEntries(rest) } : {}) },
  };
}

/** The Secrets the bundle's bootstrap files come from: by name, key and the object that uses them. */
function secretReferences(objects: ReturnType<typeof bundleObjects>) {
  const refs: { secret: string; key: string; path: string; usedBy: string }[] = [];
  const add = (usedBy: string, files: readonly BootstrapFile[] | undefined) => {
    for (const f of files ?? []) {
      const secret = f.contentFrom?.secret;
      if (secret) refs.push({ secret: secret.name, key: secret.key, path: f.path, usedBy });
    }
  };
  for (const kcp of objects.kubeadmControlPlanes)
    add(`KubeadmControlPlane/${kcp.metadata.name ?? ''}`, kcp.spec?.kubeadmConfigSpec?.files);
  for (const kct of objects.bootstrapTemplates)
    add(`KubeadmConfigTemplate/${kct.metadata.name ?? ''}`, kct.spec?.template.spec?.files);
  return refs;
}

/** The cached objects named in `wanted`, cleaned, by kind. */
function bundleObjects(cache: ObjectCache, namespace: string, wanted: ObjectNames) {
  const s = cache.stores;
  const pick = <T extends { metadata: Record<string, unknown> & { name?: string } }>(
    kind: string,
    get: (name: string) => T | undefined,
  ) =>
    [...(wanted.get(kind) ?? [])].flatMap((name) => {
      const o = get(name);
      return o ? [clean(o)] : [];
    });
  return {
    clusters: pick('Cluster', (n) => s.Cluster.get(namespace, n)),
    kubeadmControlPlanes: pick('KubeadmControlPlane', (n) =>
      s.KubeadmControlPlane.get(namespace, n),
    ),
    machineDeployments: pick('MachineDeployment', (n) => s.MachineDeployment.get(namespace, n)),
    machineSets: pick('MachineSet', (n) => s.MachineSet.get(namespace, n)),
    machines: pick('Machine', (n) => s.Machine.get(namespace, n)),
    dcsMachines: pick('DCSMachine', (n) => s.DCSMachine.get(namespace, n)),
    machineTemplates: pick('DCSMachineTemplate', (n) => s.DCSMachineTemplate.get(namespace, n)),
    bootstrapTemplates: pick('KubeadmConfigTemplate', (n) =>
      s.KubeadmConfigTemplate.get(namespace, n),
    ),
    ipPools: pick('DCSIpHostnamePool', (n) => s.DCSIpHostnamePool.get(namespace, n)),
  };
}

const SECRETS_NOTE =
  'Secret contents are never included: the Secrets that bootstrap files come from are listed by name and key only (secretReferences).';

/** Issue 12: the node states of a pool's machines only (or why there are none). */
function nodesOfMachines(
  nodes: ClusterNodesView,
  machines: readonly MachineView[],
): ClusterNodesView {
  if (nodes.status !== 'ok') return nodes;
  const names = new Set(machines.map((m) => m.name));
  return {
    ...nodes,
    nodes: nodes.nodes.filter((n) => n.machine !== undefined && names.has(n.machine)),
  };
}

/** One pool's bundle: its view, machines, node states, events and objects. */
export function poolDiagnostics(
  cache: ObjectCache,
  namespace: string,
  cluster: string,
  pool: NodePoolView,
  machines: readonly MachineView[],
  events: readonly EventView[],
  globals: Globals,
  timeline?: TimelineView,
  nodes?: ClusterNodesView,
) {
  const wanted = poolObjects(cache, namespace, cluster, pool.id, machines);
  if (pool.ipPool?.name !== undefined) wanted.set('DCSIpHostnamePool', new Set([pool.ipPool.name]));
  const objects = bundleObjects(cache, namespace, wanted);
  return {
    generatedAt: new Date().toISOString(),
    cluster: `${namespace}/${cluster}`,
    pool,
    machines,
    ...(nodes ? { nodes: nodesOfMachines(nodes, machines) } : {}),
    events,
    // Issue 12: who did what, and what followed.
    ...(timeline ? { timeline } : {}),
    providerVersion: globals.providerVersion ?? null,
    versions: globals.versions,
    objects,
    secretReferences: secretReferences(objects),
    note: SECRETS_NOTE,
  };
}

/**
 * A whole cluster's bundle: its view, every pool (the control plane's too), every machine with
 * its node state, the IP pools it uses, the events of all of these, and the objects themselves.
 */
export async function clusterDiagnostics(
  cache: ObjectCache,
  principal: Principal,
  model: ClusterModel,
  globals: Globals,
  timeline?: TimelineView,
  nodes?: ClusterNodesView,
) {
  const wanted = clusterObjects(cache, model);
  const objects = bundleObjects(cache, model.namespace, wanted);
  const ipPools = model.ipPools().filter((p) => wanted.get('DCSIpHostnamePool')?.has(p.name));
  return {
    generatedAt: new Date().toISOString(),
    cluster: model.cluster(),
    pools: model.pools(),
    machines: model.machines(),
    ...(nodes ? { nodes } : {}),
    ipPools,
    events: await eventsOf(principal, model.namespace, wanted, MAX_CLUSTER_EVENTS),
    ...(timeline ? { timeline } : {}),
    providerVersion: globals.providerVersion ?? null,
    versions: globals.versions,
    objects,
    secretReferences: secretReferences(objects),
    note: SECRETS_NOTE,
  };
}
