import {
  buildClusterViews,
  clusterView,
  controlPlanePoolCard,
  controlPlanePoolMachine,
  PoolTally,
  workerPoolCard,
  workerPoolMachine,
  type ControlPlanePoolOwnObjects,
  type PoolMachine,
  type WorkerPoolOwnObjects,
  CONTROL_PLANE_POOL_ID,
  controlPlaneVersionOf,
  diagnosisDueAt,
  indexObjects,
  ipPoolView,
  MachineViewMemo,
  type ClusterView,
  type IpPoolView,
  type MachineView,
  type NodePoolView,
  type PoolViewContext,
  type StreamDelete,
  type StreamUpsert,
  type StreamViewKind,
  type StreamViews,
  type ViewContext,
} from '@dcs/domain';
import type { ObjectCache } from '../cache/object-cache';
import { indexes, type Cached } from '../cache/watched-kinds';
import { DueTimes } from './due-times';
import { sameJson } from './same-json';

/**
 * The views of one cluster, kept current from the cache and shared by REST and the stream.
 * A change marks what it affects dirty; `refresh()` rebuilds only that and returns what changed,
 * as the stream sends it. Machine-level churn (the common case: status updates) rebuilds one
 * pool; anything rarer (a MachineDeployment, a template, the catalog) rebuilds the cluster with
 * domain's own grouping, so the incremental path is always checked against the full one (tests).
 */

/** A view that changed, as the stream sends it (domain's wire format). */
export type ViewChange = StreamUpsert | StreamDelete;

interface Stored<T> {
  view: T;
  json: string;
}

export interface ModelOptions {
  /** What views need besides the objects, read at each refresh (catalog, provider version). */
  context: () => Omit<ViewContext, 'now'>;
  now?: () => Date;
}

export class ClusterModel {
  readonly namespace: string;
  readonly name: string;
  readonly #cache: ObjectCache;
  readonly #options: ModelOptions;
  readonly #pools = new Map<string, Stored<NodePoolView>>();
  readonly #machines = new Map<string, Stored<MachineView>>();
  readonly #ipPools = new Map<string, Stored<IpPoolView>>();
  /** Machines by pool id, for `GET …/nodepools/{pool}/machines`. */
  readonly #machinesByPool = new Map<string, Set<string>>();
  /** Diagnosis due times of machines, whose minimum schedules a rebuild with no object changing. */
  readonly #due = new DueTimes();
  /** Views of machines whose objects did not change are reused, not rebuilt (issue 14). */
  readonly #machineViews = new MachineViewMemo();
  /** Per pool, its machines' entries as last built (with their counts), and what they were judged against. */
  readonly #poolStates = new Map<string, { basis: readonly unknown[]; tally: PoolTally }>();
  #cluster: ClusterView | undefined;
  #clusterStale = false;
  /** Bumped whenever a view changes: keys caches of serialized responses. */
  #revision = 0;
  #poolsJson: { revision: number; json: string } | undefined;
  #exists = false;
  #dirtyAll = true;
  #fullRebuilds = 0;
  #machinesCounted = 0;
  /** Pools whose own objects changed (MachineDeployment, MachineSet…): every machine is rechecked. */
  readonly #dirtyPools = new Set<string>();
  /** Pools where only some machines changed (the common case), and which ones. */
  readonly #dirtyMachines = new Map<string, Set<string>>();
  readonly #dirtyIpPools = new Set<string>();

  constructor(cache: ObjectCache, namespace: string, name: string, options: ModelOptions) {
    this.#cache = cache;
    this.namespace = namespace;
    this.name = name;
    this.#options = options;
  }

  get dirty(): boolean {
    return (
      this.#dirtyAll ||
      this.#dirtyPools.size > 0 ||
      this.#dirtyMachines.size > 0 ||
      this.#dirtyIpPools.size > 0
    );
  }

  /** The earliest time a view changes by the clock alone (a machine becoming "stuck"). */
  get recheckAt(): number | undefined {
    return this.#due.min;
  }

  markAll(): void {
    this.#dirtyAll = true;
  }

  /** How many times the whole cluster was rebuilt (the rare path; a per-event one is a defect). */
  get fullRebuilds(): number {
    return this.#fullRebuilds;
  }

  /**
   * How many machine entries the pools' cards were counted from, in or out (PoolTally): a
   * machine's event counts 2 (its old entry out, its new one in) whatever its pool's size; a
   * pool built again counts its machines.
   */
  get machinesCounted(): number {
    return this.#machinesCounted;
  }

  markPool(id: string): void {
    this.#dirtyPools.add(id);
  }

  /** A machine of pool `id` (or its DCSMachine) changed, joined or left the pool. */
  markMachine(id: string, machine: string): void {
    let set = this.#dirtyMachines.get(id);
    if (!set) {
      set = new Set();
      this.#dirtyMachines.set(id, set);
    }
    set.add(machine);
  }

  /** An IP pool's claims changed: its view and every pool showing its usage. */
  markIpPool(name: string): void {
    this.#dirtyIpPools.add(name);
  }

  // --- reads (call refresh() first) -----------------------------------------------------------

  exists(): boolean {
    return this.#exists;
  }

  get revision(): number {
    return this.#revision;
  }

  /** The cluster's row of the list, recomputed only when asked after a change. */
  cluster(): ClusterView | undefined {
    if (this.#clusterStale) {
      this.#clusterStale = false;
      const cluster = this.#cache.stores.Cluster.get(this.namespace, this.name);
      this.#cluster = cluster
        ? clusterView(cluster, this.#controlPlane(cluster), this.pools(), this.machines())
        : undefined;
    }
    return this.#cluster;
  }

  /** `pools()` serialized, once per revision: the hot read of the console. */
  poolsJson(): string {
    if (this.#poolsJson?.revision !== this.#revision) {
      this.#poolsJson = { revision: this.#revision, json: JSON.stringify(this.pools()) };
    }
    return this.#poolsJson.json;
  }

  /** The control-plane pool first, then worker pools by name (as buildClusterViews orders them). */
  pools(): NodePoolView[] {
    return [...this.#pools.values()]
      .map((s) => s.view)
      .sort((a, b) =>
        a.kind !== b.kind ? (a.kind === 'control-plane' ? -1 : 1) : compareNames(a.name, b.name),
      );
  }

  pool(id: string): NodePoolView | undefined {
    return this.#pools.get(id)?.view;
  }

  machines(): MachineView[] {
    return [...this.#machines.values()]
      .map((s) => s.view)
      .sort((a, b) => compareNames(a.name, b.name));
  }

  machinesOf(poolId: string): MachineView[] {
    const names = this.#machinesByPool.get(poolId) ?? new Set();
    const out: MachineView[] = [];
    for (const n of names) {
      const m = this.#machines.get(n);
      if (m) out.push(m.view);
    }
    return out.sort((a, b) => compareNames(a.name, b.name));
  }

  ipPools(): IpPoolView[] {
    return [...this.#ipPools.values()]
      .map((s) => s.view)
      .sort((a, b) => compareNames(a.name, b.name));
  }

  /** Whether this cluster shows the IP pool `name` (its claims change this model's views). */
  showsIpPool(name: string): boolean {
    return this.#ipPools.has(name);
  }

  // --- rebuilding --------------------------------------------------------------------------

  /** Rebuilds what is dirty (or due by the clock); returns the view changes, in a stable order. */
  refresh(): ViewChange[] {
    const now = this.#options.now?.() ?? new Date();
    const due = this.recheckAt;
    if (due !== undefined && due <= now.getTime()) this.#dirtyAll = true;
    let changes: ViewChange[];
    if (this.#dirtyAll) changes = this.#rebuildAll(now);
    else if (!this.dirty) return [];
    else changes = this.#rebuildPartial(now);
    if (changes.length) this.#revision++;
    return changes;
  }

  #viewContext(now: Date): ViewContext {
    return { ...this.#options.context(), now, machineViews: this.#machineViews };
  }

  #rebuildAll(now: Date): ViewChange[] {
    this.#fullRebuilds++;
    this.#dirtyAll = false;
    this.#dirtyPools.clear();
    this.#dirtyMachines.clear();
    this.#dirtyIpPools.clear();
    // Entries are rebuilt from the stores by each pool's next partial refresh.
    this.#poolStates.clear();
    const ns = this.namespace;
    const s = this.#cache.stores;
    const index = indexObjects({
      clusters: s.Cluster.inNamespace(ns),
      kubeadmControlPlanes: s.KubeadmControlPlane.inNamespace(ns),
      machineDeployments: s.MachineDeployment.inNamespace(ns),
      machineSets: s.MachineSet.inNamespace(ns),
      machines: s.Machine.byIndex('cluster', `${ns}/${this.name}`),
      dcsMachines: s.DCSMachine.inNamespace(ns),
      machineTemplates: s.DCSMachineTemplate.inNamespace(ns),
      bootstrapTemplates: s.KubeadmConfigTemplate.inNamespace(ns),
      ipPools: s.DCSIpHostnamePool.inNamespace(ns),
      healthChecks: s.MachineHealthCheck.byIndex('cluster', `${ns}/${this.name}`),
    });
    const viewCtx = this.#viewContext(now);
    const views = buildClusterViews(index, { namespace: ns, name: this.name }, viewCtx);
    const changes: ViewChange[] = [];
    if (!views) {
      this.#exists = false;
      this.#cluster = undefined;
      this.#due.clear();
      this.#machinesByPool.clear();
      changes.push(...deleteAll('pool', this.#pools), ...deleteAll('machine', this.#machines));
      changes.push(...deleteAll('ipPool', this.#ipPools));
      return changes;
    }
    this.#exists = true;
    changes.push(...sync('ipPool', this.#ipPools, views.ipPools, (v) => v.name));
    changes.push(...sync('pool', this.#pools, views.pools, (v) => v.id));
    changes.push(...sync('machine', this.#machines, views.machines, (v) => v.name));
    this.#machinesByPool.clear();
    for (const m of views.machines) this.#indexMachine(m);
    this.#due.clear();
    for (const m of s.Machine.byIndex('cluster', `${ns}/${this.name}`))
      this.#trackDue(m, now, viewCtx);
    this.#cluster = views.cluster;
    return changes;
  }

  #indexMachine(m: MachineView): void {
    const pool = m.poolId ?? '';
    let set = this.#machinesByPool.get(pool);
    if (!set) {
      set = new Set();
      this.#machinesByPool.set(pool, set);
    }
    set.add(m.name);
  }

  #dcsOf(m: Cached<'Machine'>): Cached<'DCSMachine'> | undefined {
    return this.#cache.stores.DCSMachine.get(
      this.namespace,
      m.spec?.infrastructureRef.name ?? m.metadata.name ?? '',
    );
  }

  #trackDue(m: Cached<'Machine'>, now: Date, ctx: ViewContext): void {
    const name = m.metadata.name ?? '';
    const t = diagnosisDueAt(m, this.#dcsOf(m), now, ctx.diagnosis ?? {});
    if (t === undefined) this.#due.delete(name);
    else this.#due.set(name, t);
  }

  #ipPoolViewOf(name: string): IpPoolView | undefined {
    const ns = this.namespace;
    const s = this.#cache.stores;
    const pool = s.DCSIpHostnamePool.get(ns, name);
    if (!pool) return undefined;
    // R-POOL-1: worker pools and control planes whose machine template names the pool.
    const consumers = s.DCSMachineTemplate.byIndex('ipPool', `${ns}/${name}`).flatMap((t) => {
      const template = `${ns}/${t.metadata.name ?? ''}`;
      return [
        ...s.KubeadmControlPlane.byIndex('template', template),
        ...s.MachineDeployment.byIndex('template', template),
      ];
    });
    return ipPoolView(pool, s.DCSMachine.byIndex('ipPool', `${ns}/${name}`), consumers);
  }

  #rebuildPartial(now: Date): ViewChange[] {
    const ns = this.namespace;
    const s = this.#cache.stores;
    const changes: ViewChange[] = [];
    // IP pools first: the pools that show their usage depend on them.
    for (const name of this.#dirtyIpPools) {
      const view = this.#ipPoolViewOf(name);
      if (!view) {
        this.#dirtyAll = true;
        break;
      }
      changes.push(...upsertOne('ipPool', this.#ipPools, name, view));
      for (const p of this.#pools.values()) {
        if (p.view.ipPool?.name === name) this.#dirtyPools.add(p.view.id);
      }
    }
    this.#dirtyIpPools.clear();
    if (this.#dirtyAll) return this.#rebuildAll(now);

    const cluster = s.Cluster.get(ns, this.name);
    const kcp = this.#controlPlane(cluster);
    const viewCtx = this.#viewContext(now);
    const ctx: PoolViewContext = {
      ...viewCtx,
      ...(cluster ? { cluster } : {}),
      ...(kcp ? { controlPlaneVersion: controlPlaneVersionOf(kcp) } : {}),
    };
    const pools = new Set([...this.#dirtyPools, ...this.#dirtyMachines.keys()]);
    /** Machines that left a pool: gone, unless another pool of this refresh took them. */
    const left = new Set<string>();
    for (const id of pools) {
      // Only some machines changed: their entries are rebuilt, the pool is counted from entries.
      const only = this.#dirtyPools.has(id) ? undefined : this.#dirtyMachines.get(id);
      const built = this.#buildPool(id, kcp, ctx, only);
      if (!built) {
        // The pool appeared or vanished: membership changes are the full rebuild's job.
        this.#dirtyPools.clear();
        this.#dirtyMachines.clear();
        return [...changes, ...this.#rebuildAll(now)];
      }
      changes.push(...upsertOne('pool', this.#pools, id, built.pool));
      const members = this.#machinesByPool.get(id) ?? new Set<string>();
      for (const name of built.left) {
        members.delete(name);
        left.add(name);
      }
      for (const m of built.changed) {
        members.add(m.name);
        changes.push(...upsertOne('machine', this.#machines, m.name, m));
      }
      this.#machinesByPool.set(id, members);
      for (const m of built.raw) this.#trackDue(m, now, viewCtx);
    }
    for (const name of left) {
      if (this.#inAnyPool(name, pools)) continue;
      if (this.#machines.delete(name)) changes.push({ type: 'delete', kind: 'machine', id: name });
      this.#due.delete(name);
    }
    this.#dirtyPools.clear();
    this.#dirtyMachines.clear();
    this.#clusterStale = true;
    return changes;
  }

  /** Whether one of these pools counts the machine among its members. */
  #inAnyPool(name: string, pools: Iterable<string>): boolean {
    for (const id of pools) if (this.#machinesByPool.get(id)?.has(name)) return true;
    return false;
  }

  #controlPlane(cluster: Cached<'Cluster'> | undefined): Cached<'KubeadmControlPlane'> | undefined {
    const s = this.#cache.stores;
    const ref = cluster?.spec?.controlPlaneRef;
    const byRef =
      ref?.kind === 'KubeadmControlPlane' && ref.name !== undefined
        ? s.KubeadmControlPlane.get(this.namespace, ref.name)
        : undefined;
    return byRef ?? s.KubeadmControlPlane.byIndex('cluster', `${this.namespace}/${this.name}`)[0];
  }

  /**
   * One pool with its machines, as buildClusterViews would build it; undefined if it is gone.
   * With `only` (the machines that changed, when nothing else of the pool did), just their
   * entries are rebuilt and the pool is counted from the entries it keeps (issue 14: the work of
   * a machine's event no longer grows with its pool). The entries are rebuilt in full whenever
   * anything they are judged against is another object than last time.
   */
  #buildPool(
    id: string,
    kcp: Cached<'KubeadmControlPlane'> | undefined,
    ctx: PoolViewContext,
    only: ReadonlySet<string> | undefined,
  ):
    | {
        pool: NodePoolView;
        /** Views of the machines rebuilt (every machine without `only`). */
        changed: MachineView[];
        /** Machines no longer in the pool. */
        left: string[];
        /** The Machines rebuilt, whose diagnosis deadlines may have moved. */
        raw: Cached<'Machine'>[];
      }
    | undefined {
    const ns = this.namespace;
    const s = this.#cache.stores;
    const ipPoolOf = (t: Cached<'DCSMachineTemplate'> | undefined) => {
      const name = t?.spec?.template.spec.ipHostPoolRef.name;
      if (name === undefined) return {};
      const stored = this.#ipPools.get(name);
      const view = stored?.view ?? this.#ipPoolViewOf(name);
      return view ? { ipPool: view } : {};
    };
    let own: PoolOwn;
    let poolKey: string;
    if (id === CONTROL_PLANE_POOL_ID) {
      if (!kcp) return undefined;
      poolKey = `${ns}/${CONTROL_PLANE_POOL_ID}@${this.name}`;
      const template = s.DCSMachineTemplate.get(
        ns,
        kcp.spec?.machineTemplate.infrastructureRef.name ?? '',
      );
      own = {
        kind: 'control-plane',
        objects: {
          controlPlane: kcp,
          ...(template ? { machineTemplate: template } : {}),
          ...ipPoolOf(template),
        },
      };
    } else {
      const md = s.MachineDeployment.get(ns, id);
      if (md?.spec?.clusterName !== this.name) return undefined;
      poolKey = `${ns}/${id}`;
      const tplSpec = md.spec.template.spec;
      const template = s.DCSMachineTemplate.get(ns, tplSpec.infrastructureRef.name ?? '');
      const bootstrapName = tplSpec.bootstrap.configRef?.name;
      const bootstrap =
        bootstrapName !== undefined ? s.KubeadmConfigTemplate.get(ns, bootstrapName) : undefined;
      own = {
        kind: 'worker',
        objects: {
          machineDeployment: md,
          machineSets: s.MachineSet.byIndex('deployment', `${ns}/${id}`),
          ...(template ? { machineTemplate: template } : {}),
          ...(bootstrap ? { bootstrapTemplate: bootstrap } : {}),
          ...ipPoolOf(template),
          // The card's health-check line; the machines' entries are not judged against them.
          healthChecks: s.MachineHealthCheck.byIndex('cluster', `${ns}/${this.name}`),
        },
      };
    }
    const inPool = (m: Cached<'Machine'>) =>
      indexes.Machine.pool(m).includes(poolKey) &&
      (own.kind === 'control-plane' || (m.spec?.clusterName ?? this.name) === this.name);
    const entryOf = (m: Cached<'Machine'>): PoolMachine =>
      own.kind === 'control-plane'
        ? controlPlanePoolMachine(own.objects, ctx, m, this.#dcsOf(m))
        : workerPoolMachine(own.objects, ctx, m, this.#dcsOf(m));
    const basis = basisOf(own, ctx);
    let state = this.#poolStates.get(id);
    const changed: MachineView[] = [];
    const left: string[] = [];
    const raw: Cached<'Machine'>[] = [];
    if (only && state && sameBasis(state.basis, basis)) {
      // A machine's event: its entry's share of the counts is replaced, the pool is not walked.
      const counted = state.tally.touched;
      for (const name of only) {
        const m = s.Machine.get(ns, name);
        if (m && inPool(m)) {
          const entry = entryOf(m);
          state.tally.set(entry);
          changed.push(entry.view);
          raw.push(m);
        } else if (state.tally.delete(name)) left.push(name);
      }
      this.#machinesCounted += state.tally.touched - counted;
    } else {
      const before = state?.tally;
      const entries: PoolMachine[] = [];
      for (const m of s.Machine.byIndex('pool', poolKey)) {
        if (!inPool(m)) continue;
        const entry = entryOf(m);
        entries.push(entry);
        changed.push(entry.view);
        raw.push(m);
      }
      state = { basis, tally: PoolTally.of(entries) };
      this.#machinesCounted += state.tally.touched;
      this.#poolStates.set(id, state);
      for (const name of before?.names() ?? this.#machinesByPool.get(id) ?? [])
        if (!state.tally.has(name)) left.push(name);
    }
    const pool =
      own.kind === 'control-plane'
        ? controlPlanePoolCard(own.objects, state.tally, ctx)
        : workerPoolCard(own.objects, state.tally, ctx);
    return { pool, changed, left, raw };
  }
}

/** A pool's own objects (not its machines), by kind. */
type PoolOwn =
  | { kind: 'control-plane'; objects: ControlPlanePoolOwnObjects }
  | { kind: 'worker'; objects: WorkerPoolOwnObjects };

/**
 * What a pool's machine entries are judged against, compared by identity (cached objects and
 * views are replaced, never changed): the pool's own objects and the diagnosis settings.
 */
function basisOf(own: PoolOwn, ctx: PoolViewContext): readonly unknown[] {
  const o = own.objects;
  // The settings are compared by value: the context is rebuilt for every refresh.
  const settings = Object.entries(ctx.diagnosis ?? {}).flat();
  const common = [o.machineTemplate, o.ipPool, ctx.machineViews, ...settings];
  return own.kind === 'control-plane'
    ? [own.objects.controlPlane, ...common]
    : [
        own.objects.machineDeployment,
        own.objects.bootstrapTemplate,
        ...common,
        ...own.objects.machineSets,
      ];
}

const sameBasis = (a: readonly unknown[], b: readonly unknown[]) =>
  a.length === b.length && a.every((x, i) => x === b[i]);

const compareNames = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Each upsert's data as the stream sends it, made from the view's JSON upsertOne has. */
const changeJsonOf = new WeakMap<ViewChange, string>();

/**
 * JSON.stringify(change), without serializing the view a second time when upsertOne made the
 * change (issue 28: the stream's frame of a view that changed is made from the JSON that told it
 * changed).
 */
export function changeJson(change: ViewChange): string {
  return changeJsonOf.get(change) ?? JSON.stringify(change);
}

function upsertOne<K extends StreamViewKind>(
  kind: K,
  map: Map<string, Stored<StreamViews[K]>>,
  id: string,
  view: StreamViews[K],
): ViewChange[] {
  const stored = map.get(id);
  // The same object (a reused view) cannot differ: skip serializing it to compare.
  if (stored?.view === view) return [];
  // Nor can one the walk finds alike: a pool's card, counted again on each of its machines'
  // events, mostly is. (A machine's view is built again only when its objects changed: a walk
  // would mostly find it different, then serialize it anyway.)
  if (stored && kind !== 'machine' && sameJson(stored.view, view)) return [];
  const json = JSON.stringify(view);
  if (stored?.json === json) return [];
  map.set(id, { view, json });
  // TypeScript cannot correlate `kind` and `view` through the generic; they match by signature.
  const change = { type: 'upsert', kind, id, view } as StreamUpsert;
  // The keys in the order above: JSON.stringify(change) exactly.
  changeJsonOf.set(
    change,
    `${JSON.stringify({ type: 'upsert', kind, id }).slice(0, -1)},"view":${json}}`,
  );
  return [change];
}

function sync<K extends StreamViewKind>(
  kind: K,
  map: Map<string, Stored<StreamViews[K]>>,
  views: readonly StreamViews[K][],
  idOf: (v: StreamViews[K]) => string,
): ViewChange[] {
  const changes: ViewChange[] = [];
  const seen = new Set<string>();
  for (const v of views) {
    const id = idOf(v);
    seen.add(id);
    changes.push(...upsertOne(kind, map, id, v));
  }
  for (const id of [...map.keys()]) {
    if (seen.has(id)) continue;
    map.delete(id);
    changes.push({ type: 'delete', kind, id });
  }
  return changes;
}

function deleteAll<T>(kind: StreamViewKind, map: Map<string, Stored<T>>): ViewChange[] {
  const changes = [...map.keys()].map((id) => ({ type: 'delete' as const, kind, id }));
  map.clear();
  return changes;
}
