import type {
  ClusterNodesView,
  BootstrapFile,
  EventsV1Event,
  KubeEvent,
  MachineView,
  NodePoolView,
} from '@dcs/domain';
import type { Principal } from '../auth/principal';
import type { ObjectCache } from '../cache/object-cache';
import type { ClusterModel } from './cluster-model';
import { coreEvents, v1Events, type SourceState } from './events';
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

/** What a bundle says of its Events: each API's read (one may be refused to the user). */
export interface BundleEvents {
  events: EventView[];
  sources: { events: SourceState; eventsV1: SourceState };
}

const eventTime = (e: KubeEvent) => e.lastTimestamp ?? e.eventTime ?? e.firstTimestamp ?? '';

function coreRow(e: KubeEvent): EventView {
  const time = eventTime(e);
  return {
    type: e.type ?? 'Normal',
    reason: e.reason ?? '',
    message: e.message ?? '',
    object: `${e.involvedObject.kind ?? ''}/${e.involvedObject.name ?? ''}`,
    count: e.count ?? 1,
    ...(e.firstTimestamp ? { firstTimestamp: e.firstTimestamp } : {}),
    ...(time ? { lastTimestamp: time } : {}),
  };
}

/** An events.k8s.io/v1 Event in the bundle's row: `note` is its message, the series its count. */
function v1Row(e: EventsV1Event): EventView {
  const last = e.series?.lastObservedTime ?? e.deprecatedLastTimestamp ?? e.eventTime ?? undefined;
  return {
    type: e.type ?? 'Normal',
    reason: e.reason ?? '',
    message: e.note ?? '',
    object: `${e.regarding?.kind ?? ''}/${e.regarding?.name ?? ''}`,
    count: e.series?.count ?? e.deprecatedCount ?? 1,
    ...(e.eventTime ? { firstTimestamp: e.eventTime } : {}),
    ...(last ? { lastTimestamp: last } : {}),
  };
}

/**
 * Events of the objects named in `wanted`, from both Event APIs (core/v1 and events.k8s.io/v1;
 * one store on a real API server, so an Event both list is kept once, by its uid), newest first,
 * at most `max`; an API the user may not read is named in `sources`, the bundle still written.
 */
async function eventsOf(
  principal: Principal,
  namespace: string,
  wanted: ObjectNames,
  max: number,
): Promise<BundleEvents> {
  const [core, v1] = await Promise.all([
    coreEvents(principal, namespace, wanted),
    v1Events(principal, namespace, wanted),
  ]);
  const seen = new Set<string>();
  const rows: EventView[] = [];
  const add = (uid: string | undefined, row: EventView) => {
    if (uid !== undefined && seen.has(uid)) return;
    if (uid !== undefined) seen.add(uid);
    rows.push(row);
  };
  for (const e of core.value) add(e.metadata.uid, coreRow(e));
  for (const e of v1.value) add(e.metadata.uid, v1Row(e));
  const time = (r: EventView) => r.lastTimestamp ?? r.firstTimestamp ?? '';
  return {
    events: rows.sort((a, b) => (time(a) < time(b) ? 1 : time(a) > time(b) ? -1 : 0)).slice(0, max),
    sources: { events: core.state, eventsV1: v1.state },
  };
}

export function eventsOfPool(
  cache: ObjectCache,
  principal: Principal,
  namespace: string,
  cluster: string,
  pool: string,
  machines: readonly MachineView[],
): Promise<BundleEvents> {
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
  events: BundleEvents,
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
    events: events.events,
    eventSources: events.sources,
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
  const clusterEvents = async () => {
    const read = await eventsOf(principal, model.namespace, wanted, MAX_CLUSTER_EVENTS);
    return { events: read.events, eventSources: read.sources };
  };
  return {
    generatedAt: new Date().toISOString(),
    cluster: model.cluster(),
    pools: model.pools(),
    machines: model.machines(),
    ...(nodes ? { nodes } : {}),
    ipPools,
    ...(await clusterEvents()),
    ...(timeline ? { timeline } : {}),
    providerVersion: globals.providerVersion ?? null,
    versions: globals.versions,
    objects,
    secretReferences: secretReferences(objects),
    note: SECRETS_NOTE,
  };
}
