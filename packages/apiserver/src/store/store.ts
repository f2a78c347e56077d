import { convertOne, storageKey, type ResourceType } from '../registry';
import type { KubeObject } from '../types';
import { Stored, objectKey } from './stored';

export type EventType = 'ADDED' | 'MODIFIED' | 'DELETED';

/** One change, as a watch sends it. `prev` lets filtered watches turn leaves into DELETED. */
export interface StoreEvent {
  type: EventType;
  rv: number;
  obj: Stored;
  prev?: Stored;
}

/** How many objects of a list are converted in one call. */
const CONVERSION_BATCH = 500;

/** The events converted for the watchers of each other member: one conversion per event, not per watcher. */
const views = new WeakMap<StoreEvent, Map<ResourceType, StoreEvent>>();

/**
 * An event as the watchers of `rt` see it (the stored versions converted when `rt` is another
 * member of their set). May throw: a failing conversion.
 */
function eventAs(ev: StoreEvent, rt: ResourceType): StoreEvent {
  if (!rt.versions || ev.obj.rt === rt) return ev;
  let byRt = views.get(ev);
  let view = byRt?.get(rt);
  if (!view) {
    view = { type: ev.type, rv: ev.rv, obj: ev.obj.as(rt) };
    if (ev.prev) view.prev = ev.prev.as(rt);
    if (!byRt) {
      byRt = new Map();
      views.set(ev, byRt);
    }
    byRt.set(rt, view);
  }
  return view;
}

/**
 * Receives the events of one kind that may concern it, synchronously and in resourceVersion
 * order. `namespace` and `name` (when the watch is narrowed to them) let the store hand an event
 * only to the watchers of that namespace or name instead of to every watcher of the kind.
 */
export interface Watcher {
  readonly namespace: string | undefined;
  readonly name: string | undefined;
  deliver(event: StoreEvent): void;
  /** The watch streams it delivers to, when more than one (a shared feed): 1 if absent. */
  streams?(): number;
  /**
   * The event could not be converted for this watcher's version (a failing conversion): the
   * watch ends, as kube-apiserver's watch ends when it cannot encode an event.
   */
  fail?(error: unknown): void;
  /** The kind was redefined (`updateKind`): the watch ends, as a CRD update tears its storage down. */
  end?(): void;
}

/** The watchers of one kind, indexed by what they are narrowed to. */
class WatcherIndex {
  private readonly everywhere = new Set<Watcher>();
  private readonly byNamespace = new Map<string, Set<Watcher>>();
  private readonly byName = new Map<string, Set<Watcher>>();
  size = 0;

  private bucket(w: Watcher): [Map<string, Set<Watcher>> | undefined, string, Set<Watcher>] {
    if (w.name !== undefined) return [this.byName, w.name, this.byName.get(w.name) ?? new Set()];
    if (w.namespace !== undefined)
      return [this.byNamespace, w.namespace, this.byNamespace.get(w.namespace) ?? new Set()];
    return [undefined, '', this.everywhere];
  }

  add(w: Watcher): void {
    const [map, key, set] = this.bucket(w);
    set.add(w);
    map?.set(key, set);
    this.size++;
  }

  delete(w: Watcher): void {
    const [map, key, set] = this.bucket(w);
    if (!set.delete(w)) return;
    if (map && set.size === 0) map.delete(key);
    this.size--;
  }

  /** The watch streams behind these watchers. */
  streams(): number {
    let n = 0;
    const count = (set: Set<Watcher>) => {
      for (const w of set) n += w.streams ? w.streams() : 1;
    };
    count(this.everywhere);
    for (const set of this.byNamespace.values()) count(set);
    for (const set of this.byName.values()) count(set);
    return n;
  }

  all(): Watcher[] {
    return [
      ...this.everywhere,
      ...[...this.byNamespace.values()].flatMap((set) => [...set]),
      ...[...this.byName.values()].flatMap((set) => [...set]),
    ];
  }

  deliver(ev: StoreEvent): void {
    if (this.size === 0) return;
    for (const w of this.everywhere) w.deliver(ev);
    const ns = this.byNamespace.get(ev.obj.namespace);
    if (ns) for (const w of ns) w.deliver(ev);
    const named = this.byName.get(ev.obj.name);
    if (named) for (const w of named) w.deliver(ev);
  }
}

/**
 * How long watch events stay beyond the latest `keep` of a kind: `windowMs` by the clock `now`
 * (kube-apiserver's watch cache: eventFreshDuration 75 s, at least 100 events).
 */
export interface HistoryFreshness {
  windowMs: number;
  keep: number;
  now: () => number;
}

/** A durable record of one change, for the persistence log. */
export interface CommitRecord {
  type: EventType;
  rv: number;
  key: string;
  obj: Stored;
}

class KindData {
  readonly objects = new Map<string, Stored>();
  readonly byNamespace = new Map<string, Map<string, Stored>>();
  private sortedAll: string[] | undefined;
  private readonly sortedNs = new Map<string, string[]>();
  readonly watchers = new WatcherIndex();
  /** A ring of the latest events; a watch from a resourceVersion older than it gets 410. */
  private readonly history: (StoreEvent | undefined)[];
  /** When each event of `history` was recorded (ms, the store's clock). */
  private readonly recordedAt: Float64Array;
  private head = 0;
  private size = 0;
  /** Events with rv > compactedRv are all in `history`. */
  compactedRv: number;

  constructor(
    historySize: number,
    startRv: number,
    private readonly fresh: HistoryFreshness | undefined,
  ) {
    const cap = Math.max(1, historySize);
    this.history = new Array<StoreEvent | undefined>(cap);
    this.recordedAt = new Float64Array(cap);
    this.compactedRv = startRv;
  }

  put(s: Stored): void {
    const existed = this.objects.has(s.key);
    this.objects.set(s.key, s);
    let ns = this.byNamespace.get(s.namespace);
    if (!ns) {
      ns = new Map();
      this.byNamespace.set(s.namespace, ns);
    }
    ns.set(s.name, s);
    if (!existed) this.invalidate(s.namespace);
  }

  remove(s: Stored): void {
    this.objects.delete(s.key);
    const ns = this.byNamespace.get(s.namespace);
    ns?.delete(s.name);
    if (ns?.size === 0) this.byNamespace.delete(s.namespace);
    this.invalidate(s.namespace);
  }

  private invalidate(namespace: string): void {
    this.sortedAll = undefined;
    this.sortedNs.delete(namespace);
  }

  /**
   * Objects in key order (namespace, then name), the order etcd lists them, read lazily: a page of
   * a list looks up only its own objects. The order of keys is kept until an object is added or
   * removed; an update changes no key, so pages read between updates share it.
   */
  ordered(namespace: string | undefined): Ordered {
    if (namespace === undefined) {
      this.sortedAll ??= [...this.objects.keys()].sort(compare);
      const keys = this.sortedAll;
      return orderedOf(
        keys,
        (k) => k,
        (k) => this.objects.get(k),
      );
    }
    const ns = this.byNamespace.get(namespace);
    if (!ns)
      return orderedOf(
        [],
        (n) => n,
        () => undefined,
      );
    let names = this.sortedNs.get(namespace);
    if (!names) {
      names = [...ns.keys()].sort(compare);
      this.sortedNs.set(namespace, names);
    }
    return orderedOf(
      names,
      (n) => objectKey(namespace, n),
      (n) => ns.get(n),
    );
  }

  record(ev: StoreEvent): void {
    const cap = this.history.length;
    const now = this.fresh?.now() ?? 0;
    // Events older than the fresh window go first (beyond the `keep` latest), as kube-apiserver's
    // watch cache shrinks to the events of its last 75 s: without it a quiet kind kept its last
    // 10,000 versions, whole objects, for hours (issue 25, item 13).
    if (this.fresh) {
      const before = now - this.fresh.windowMs;
      while (this.size > this.fresh.keep && (this.recordedAt[this.head] ?? 0) < before) {
        this.evictHead();
      }
    }
    if (this.size === cap) this.evictHead();
    this.history[(this.head + this.size) % cap] = ev;
    this.recordedAt[(this.head + this.size) % cap] = now;
    this.size++;
  }

  private evictHead(): void {
    const cap = this.history.length;
    const evicted = this.history[this.head];
    if (evicted) this.compactedRv = evicted.rv;
    this.history[this.head] = undefined;
    this.head = (this.head + 1) % cap;
    this.size--;
  }

  /** Events kept for watch resumption now. */
  get historyLength(): number {
    return this.size;
  }

  /** Events after `rv`, or undefined when some of them were already evicted. */
  since(rv: number): StoreEvent[] | undefined {
    if (rv < this.compactedRv) return undefined;
    const out: StoreEvent[] = [];
    const cap = this.history.length;
    // Binary search for the first event with rv > the requested one.
    let lo = 0;
    let hi = this.size;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const ev = this.history[(this.head + mid) % cap];
      if (ev && ev.rv <= rv) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < this.size; i++) {
      const ev = this.history[(this.head + i) % cap];
      if (ev) out.push(ev);
    }
    return out;
  }
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The objects of a list in key order, read one by one. */
export interface Ordered {
  /** How many keys (an object removed since is skipped by `at`). */
  readonly length: number;
  /** The object at position i, or undefined. */
  at(i: number): Stored | undefined;
  /** The position of the first object whose key comes after `key` (a continue token's start). */
  after(key: string): number;
}

function orderedOf(
  keys: readonly string[],
  fullKey: (k: string) => string,
  get: (k: string) => Stored | undefined,
): Ordered {
  return {
    length: keys.length,
    at: (i) => {
      const k = keys[i];
      return k === undefined ? undefined : get(k);
    },
    after: (key) => {
      let lo = 0;
      let hi = keys.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (fullKey(keys[mid] ?? '') <= key) lo = mid + 1;
        else hi = mid;
      }
      return lo;
    },
  };
}

/**
 * The object store: one map per kind with a namespace index, one global resourceVersion counter
 * (like etcd's revision), a bounded event history per kind for watch resumption, and the
 * owner-uid index the garbage collector walks. All changes happen synchronously, so a commit and
 * its fan-out to watchers are atomic with respect to other requests.
 */
export class Store {
  private rvCounter: number;
  private readonly kinds = new Map<string, KindData>();
  private readonly byUid = new Map<string, Stored>();
  private readonly dependents = new Map<string, Set<Stored>>();
  private readonly listeners: ((ev: StoreEvent) => void)[] = [];
  onCommit?: (rec: CommitRecord) => void;

  constructor(
    private readonly historySize: number,
    startRv = 0,
    private readonly fresh?: HistoryFreshness,
  ) {
    this.rvCounter = startRv;
  }

  /** Watch events kept now, per storage key (tests, benchmarks). */
  historyLengths(): Record<string, number> {
    return Object.fromEntries([...this.kinds].map(([k, d]) => [k, d.historyLength]));
  }

  get resourceVersion(): number {
    return this.rvCounter;
  }

  /** After loading persisted state: continue past it, and send any older watch a 410. */
  resetHistory(rv: number): void {
    this.rvCounter = Math.max(this.rvCounter, rv);
    for (const k of this.kinds.values()) k.compactedRv = this.rvCounter;
  }

  /** The data of the resource `rt` is stored as: the members of a set share their storage's. */
  private kind(rt: ResourceType): KindData {
    const key = storageKey(rt);
    let k = this.kinds.get(key);
    if (!k) {
      k = new KindData(this.historySize, this.rvCounter, this.fresh);
      this.kinds.set(key, k);
    }
    return k;
  }

  /** Calls `fn` after every committed change; the result stops it. */
  listen(fn: (ev: StoreEvent) => void): () => void {
    this.listeners.push(fn);
    return () => {
      const i = this.listeners.indexOf(fn);
      if (i >= 0) this.listeners.splice(i, 1);
    };
  }

  get(rt: ResourceType, namespace: string | undefined, name: string): Stored | undefined {
    return this.kind(rt).objects.get(objectKey(namespace, name))?.as(rt);
  }

  /** Whether the object exists, without converting it (a create's AlreadyExists check). */
  has(rt: ResourceType, namespace: string | undefined, name: string): boolean {
    return this.kind(rt).objects.has(objectKey(namespace, name));
  }

  getByUid(uid: string): Stored | undefined {
    return this.byUid.get(uid);
  }

  list(rt: ResourceType, namespace?: string): Stored[] {
    const ordered = this.ordered(rt, namespace);
    const out: Stored[] = [];
    for (let i = 0; i < ordered.length; i++) {
      const s = ordered.at(i);
      if (s) out.push(s);
    }
    return out;
  }

  /** The objects of `rt` in key order, as `list` returns them, without reading them all. */
  ordered(rt: ResourceType, namespace?: string): Ordered {
    const ordered = this.kind(rt).ordered(namespace);
    if (!rt.versions) return ordered;
    return {
      ...ordered,
      at: (i) => {
        const s = ordered.at(i);
        if (s?.needsConversion(rt)) {
          // The objects a list reads next are converted together (upstream converts a list's
          // items in one review); a page reads at most a batch more than it sends.
          const batch: Stored[] = [];
          for (let j = i; j < Math.min(ordered.length, i + CONVERSION_BATCH); j++) {
            const next = ordered.at(j);
            if (next) batch.push(next);
          }
          Stored.convertAll(batch, rt);
        }
        return s?.as(rt);
      },
    };
  }

  count(rt: ResourceType, namespace?: string): number {
    const k = this.kind(rt);
    return namespace === undefined ? k.objects.size : (k.byNamespace.get(namespace)?.size ?? 0);
  }

  /** Kinds that hold objects in a namespace (namespace deletion empties them). */
  namespacedContent(namespace: string): Stored[] {
    const out: Stored[] = [];
    for (const k of this.kinds.values()) {
      const ns = k.byNamespace.get(namespace);
      if (ns && namespace !== '') out.push(...ns.values());
    }
    return out;
  }

  dependentsOf(uid: string): Stored[] {
    return [...(this.dependents.get(uid) ?? [])];
  }

  eventsSince(rt: ResourceType, rv: number): StoreEvent[] | undefined {
    return this.kind(rt)
      .since(rv)
      ?.map((ev) => eventAs(ev, rt));
  }

  compactedRv(rt: ResourceType): number {
    return this.kind(rt).compactedRv;
  }

  watch(rt: ResourceType, w: Watcher): () => void {
    const k = this.kind(rt);
    // A watch through another member of the set gets the same events, converted.
    const watcher: Watcher = rt.versions
      ? {
          namespace: w.namespace,
          name: w.name,
          deliver: (ev) => {
            let view: StoreEvent;
            try {
              view = eventAs(ev, rt);
            } catch (e) {
              // Not the writer's failure: the write is committed; this watch ends.
              w.fail?.(e);
              return;
            }
            w.deliver(view);
          },
          ...(w.streams ? { streams: () => w.streams?.() ?? 1 } : {}),
          ...(w.end ? { end: () => w.end?.() } : {}),
        }
      : w;
    k.watchers.add(watcher);
    return () => {
      k.watchers.delete(watcher);
    };
  }

  /** Ends every watch of the resource with this storage key (its kind was redefined). */
  endWatches(key: string): void {
    for (const w of this.kinds.get(key)?.watchers.all() ?? []) w.end?.();
  }

  /** The apiVersions objects of this storage key are stored in (a CRD's `status.storedVersions`). */
  storedVersions(key: string): Set<string> {
    const out = new Set<string>();
    for (const s of this.kinds.get(key)?.objects.values() ?? []) out.add(s.rt.apiVersion);
    return out;
  }

  watcherCount(): number {
    let n = 0;
    for (const k of this.kinds.values()) n += k.watchers.streams();
    return n;
  }

  /** Allocates the next resourceVersion without storing anything (dry runs answer with none). */
  nextRv(): number {
    return ++this.rvCounter;
  }

  /**
   * Stores a new version (create or update): assigns the resourceVersion, serializes once, and
   * fans the event out. The caller has already checked preconditions in this same tick. An
   * object written through another member of a set (`rt.versions`) is converted and stored as its storage
   * resource; what is returned is the stored version as `rt` reads it.
   */
  put(rt: ResourceType, obj: KubeObject): Stored {
    const set = rt.versions;
    const srt = set?.storage ?? rt;
    obj.metadata.resourceVersion = String(this.rvCounter + 1);
    // Converted before anything changes: a failing conversion stores nothing.
    const stored = set && srt !== rt ? convertOne(set, obj, rt, srt) : obj;
    const rv = this.nextRv();
    const s = new Stored(srt, rv, JSON.stringify(stored), stored);
    const k = this.kind(rt);
    const prev = k.objects.get(s.key);
    k.put(s);
    this.index(prev, s);
    this.emit(k, prev ? { type: 'MODIFIED', rv, obj: s, prev } : { type: 'ADDED', rv, obj: s });
    return s.as(rt);
  }

  /** Removes an object; the DELETED event carries the last state at the deletion's revision. */
  remove(rt: ResourceType, current: Stored): Stored {
    const rv = this.nextRv();
    const base = current.base;
    const obj = base.object();
    obj.metadata.resourceVersion = String(rv);
    const s = new Stored(base.rt, rv, JSON.stringify(obj), obj);
    const k = this.kind(rt);
    k.remove(base);
    this.index(base, undefined);
    this.emit(k, { type: 'DELETED', rv, obj: s, prev: base });
    return s.as(rt);
  }

  /**
   * Loads a persisted object without events or a new resourceVersion, in the version it was
   * stored in (a set that keeps stored versions), or converted to the storage version (a state
   * file from before the events.k8s.io Events were stored as core Events).
   */
  restore(rt: ResourceType, json: string): void {
    let obj = JSON.parse(json) as KubeObject;
    const rv = Number(obj.metadata.resourceVersion ?? '0');
    const set = rt.versions;
    let srt = rt;
    if (set) {
      const member = set.keepsStoredVersion
        ? set.members.find((m) => m.apiVersion === obj.apiVersion)
        : undefined;
      srt = member ?? set.storage;
      if (!member && rt !== set.storage) {
        obj = convertOne(set, obj, rt, set.storage);
        json = JSON.stringify(obj);
      }
    }
    const s = new Stored(srt, rv, json, obj);
    const k = this.kind(rt);
    const prev = k.objects.get(s.key);
    k.put(s);
    this.index(prev, s);
  }

  /** Removes a persisted object on load. */
  restoreRemove(rt: ResourceType, key: string): void {
    const k = this.kind(rt);
    const prev = k.objects.get(key);
    if (!prev) return;
    k.remove(prev);
    this.index(prev, undefined);
  }

  /** Every stored object, for snapshots. */
  *all(): Generator<Stored> {
    for (const k of this.kinds.values()) yield* k.objects.values();
  }

  private index(prev: Stored | undefined, next: Stored | undefined): void {
    if (prev) {
      this.byUid.delete(prev.uid);
      for (const o of prev.ownerUids) {
        const set = this.dependents.get(o);
        set?.delete(prev);
        if (set?.size === 0) this.dependents.delete(o);
      }
    }
    if (next) {
      this.byUid.set(next.uid, next);
      for (const o of next.ownerUids) {
        let set = this.dependents.get(o);
        if (!set) {
          set = new Set();
          this.dependents.set(o, set);
        }
        set.add(next);
      }
    }
  }

  private emit(k: KindData, ev: StoreEvent): void {
    k.record(ev);
    this.onCommit?.({ type: ev.type, rv: ev.rv, key: ev.obj.rt.key, obj: ev.obj });
    k.watchers.deliver(ev);
    for (const l of this.listeners) l(ev);
  }
}
