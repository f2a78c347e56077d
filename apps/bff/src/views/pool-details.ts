import {
  CONTROL_PLANE_POOL_ID,
  EventSchema,
  type KubeEvent,
  type MachineView,
  type NodePoolView,
} from '@dcs/domain';
import type { Principal } from '../auth/principal';
import type { ObjectCache } from '../cache/object-cache';
import type { Globals } from './globals';

/**
 * A pool's events and its diagnostics bundle. Events are not cached: they are listed with the
 * user's own credential, so the API server decides who may read them.
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

const MAX_EVENTS = 200;

/** The names of the objects a pool is made of, by kind. */
function poolObjects(
  cache: ObjectCache,
  namespace: string,
  cluster: string,
  pool: string,
  machines: readonly MachineView[],
): Map<string, Set<string>> {
  const s = cache.stores;
  const out = new Map<string, Set<string>>();
  const add = (kind: string, name: string | undefined) => {
    if (name === undefined) return;
    let set = out.get(kind);
    if (!set) {
      set = new Set();
      out.set(kind, set);
    }
    set.add(name);
  };
  if (pool === CONTROL_PLANE_POOL_ID) {
    for (const kcp of s.KubeadmControlPlane.byIndex('cluster', `${namespace}/${cluster}`)) {
      add('KubeadmControlPlane', kcp.metadata.name);
      add('DCSMachineTemplate', kcp.spec?.machineTemplate.infrastructureRef.name);
    }
  } else {
    const md = s.MachineDeployment.get(namespace, pool);
    add('MachineDeployment', pool);
    add('DCSMachineTemplate', md?.spec?.template.spec.infrastructureRef.name);
    add('KubeadmConfigTemplate', md?.spec?.template.spec.bootstrap.configRef?.name);
    for (const ms of s.MachineSet.byIndex('deployment', `${namespace}/${pool}`))
      add('MachineSet', ms.metadata.name);
  }
  for (const m of machines) {
    add('Machine', m.name);
    add('DCSMachine', m.dcsMachineName);
  }
  return out;
}

export async function eventsOfPool(
  cache: ObjectCache,
  principal: Principal,
  namespace: string,
  cluster: string,
  pool: string,
  machines: readonly MachineView[],
): Promise<EventView[]> {
  const wanted = poolObjects(cache, namespace, cluster, pool, machines);
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
    .slice(0, MAX_EVENTS)
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

/** Managed fields are noise in a bundle; Secrets are never part of one (only their names). */
function clean<T extends { metadata: Record<string, unknown> }>(o: T): T {
  const { managedFields: _m, ...metadata } = o.metadata;
  return { ...o, metadata };
}

export function diagnosticsOf(
  cache: ObjectCache,
  namespace: string,
  cluster: string,
  pool: NodePoolView,
  machines: readonly MachineView[],
  events: readonly EventView[],
  globals: Globals,
) {
  const wanted = poolObjects(cache, namespace, cluster, pool.id, machines);
  const s = cache.stores;
  const pick = <T extends { metadata: Record<string, unknown> & { name?: string } }>(
    kind: string,
    get: (name: string) => T | undefined,
  ) =>
    [...(wanted.get(kind) ?? [])].flatMap((name) => {
      const o = get(name);
      return o ? [clean(o)] : [];
    });
  const ipPool =
    pool.ipPool?.name !== undefined
      ? s.DCSIpHostnamePool.get(namespace, pool.ipPool.name)
      : undefined;
  return {
    generatedAt: new Date().toISOString(),
    cluster: `${namespace}/${cluster}`,
    pool,
    machines,
    events,
    providerVersion: globals.providerVersion ?? null,
    versions: globals.versions,
    objects: {
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
      ipPools: ipPool ? [clean(ipPool)] : [],
    },
    note: 'Secret contents are never included; bootstrap files that come from Secrets are listed by reference only.',
  };
}
