import { safeParseObject, type ApiVersionChoice } from '@dcs/domain';
import { VersionHistory } from './history';
import { KindStore, objectKeyOf, type Indexer, type Meta } from './kind-store';
import type { ObjectSource, SourceFactory, SourceHealth, WatchSpec } from './source';
import { EDITED_KINDS, indexes, watchSpecs, type Cached, type CachedKind } from './watched-kinds';

/**
 * The BFF's one cache of the management cluster: one list+watch per (kind, namespace), shared by
 * every user and every stream. Objects are parsed by their zod schema as they arrive (the edge),
 * kept in typed stores with the indexes the views need, and announced to listeners after the
 * store is updated. Nothing here knows a user: authorization happens before data leaves (routes).
 */

export interface CacheChange<K extends CachedKind = CachedKind> {
  kind: K;
  type: 'add' | 'update' | 'delete';
  object: Cached<K>;
  old?: Cached<K>;
}

export type ChangeListener = (change: CacheChange) => void;

export interface CacheObserver {
  /** An object that failed its schema: kept out of the cache, reported once per version. */
  onInvalid?: (kind: CachedKind, key: string, message: string) => void;
  onListenerError?: (error: unknown) => void;
}

type Stores = { [K in CachedKind]: KindStore<Cached<K>> };

function makeStores(): Stores {
  const stores = {
    Cluster: new KindStore<Cached<'Cluster'>>(),
    KubeadmControlPlane: new KindStore<Cached<'KubeadmControlPlane'>>(),
    MachineDeployment: new KindStore<Cached<'MachineDeployment'>>(),
    MachineSet: new KindStore<Cached<'MachineSet'>>(),
    Machine: new KindStore<Cached<'Machine'>>(),
    DCSMachine: new KindStore<Cached<'DCSMachine'>>(),
    DCSMachineTemplate: new KindStore<Cached<'DCSMachineTemplate'>>(),
    KubeadmConfigTemplate: new KindStore<Cached<'KubeadmConfigTemplate'>>(),
    DCSIpHostnamePool: new KindStore<Cached<'DCSIpHostnamePool'>>(),
    KubeadmConfig: new KindStore<Cached<'KubeadmConfig'>>(),
    DCSCluster: new KindStore<Cached<'DCSCluster'>>(),
    MachineHealthCheck: new KindStore<Cached<'MachineHealthCheck'>>(),
    ConfigMap: new KindStore<Cached<'ConfigMap'>>(),
    Deployment: new KindStore<Cached<'Deployment'>>(),
  };
  const add = (kind: keyof typeof indexes) => {
    const store = stores[kind] as unknown as KindStore<Meta>;
    for (const [name, fn] of Object.entries(indexes[kind])) {
      store.addIndex(name, fn as Indexer<Meta>);
    }
  };
  add('Machine');
  add('MachineSet');
  add('MachineDeployment');
  add('KubeadmControlPlane');
  add('DCSMachine');
  add('DCSMachineTemplate');
  add('MachineHealthCheck');
  return stores;
}

/** One list+watch of the cache, and the one replacing it while the version it speaks changes. */
interface Watched {
  kind: CachedKind;
  spec: WatchSpec;
  source: ObjectSource;
  unsubscribe: () => void;
  moving?: Promise<void>;
}

export class ObjectCache {
  readonly stores: Stores = makeStores();
  readonly history = new VersionHistory();
  readonly #sources: Watched[] = [];
  readonly #listeners = new Set<ChangeListener>();
  readonly #observer: CacheObserver;
  readonly #factory: SourceFactory;
  #started = false;
  #stopped = false;

  constructor(
    factory: SourceFactory,
    namespaces: readonly string[],
    observer: CacheObserver = {},
    versions: ApiVersionChoice = {},
  ) {
    this.#observer = observer;
    this.#factory = factory;
    for (const { kind, spec } of watchSpecs(namespaces, versions)) {
      const source = factory(spec);
      this.#sources.push({ kind, spec, source, unsubscribe: this.#feedFrom(kind, source) });
    }
  }

  #feedFrom(kind: CachedKind, source: ObjectSource, seen?: Set<string>): () => void {
    const key = (o: unknown) => {
      const meta = (o as { metadata?: { namespace?: string; name?: string } }).metadata;
      return objectKeyOf(meta?.namespace, meta?.name);
    };
    return source.addHandlers({
      add: (o) => {
        seen?.add(key(o));
        this.#apply(kind, 'add', o, source);
      },
      update: (o) => {
        seen?.add(key(o));
        this.#apply(kind, 'update', o, source);
      },
      delete: (o) => {
        seen?.delete(key(o));
        this.#apply(kind, 'delete', o, source);
      },
    });
  }

  /**
   * Speaks to the management cluster in these versions from now on (issue 23: its Cluster API was
   * upgraded under the console). Each watch of a group whose version changed is replaced without a
   * gap: the new one lists while the old one keeps the cache current, then the old one stops and
   * what the new list no longer has is deleted. The same object read in another version has the
   * same resourceVersion and converts to the same model, so listeners hear of nothing but real
   * changes, and no stream is cut. Resolves once every move is done.
   */
  async useVersions(versions: ApiVersionChoice): Promise<void> {
    const moves: Promise<void>[] = [];
    for (const watched of this.#sources) {
      const version = Object.hasOwn(versions, watched.spec.group)
        ? versions[watched.spec.group]
        : undefined;
      if (version === undefined || version === watched.spec.version) continue;
      moves.push(this.#move(watched, { ...watched.spec, version }));
    }
    await Promise.all(moves);
  }

  async #move(watched: Watched, spec: WatchSpec): Promise<void> {
    // One move at a time per watch: a second change waits for the first, then moves again.
    await watched.moving;
    if (this.#stopped || watched.spec.version === spec.version) return;
    const run = (async () => {
      const seen = new Set<string>();
      const source = this.#factory(spec);
      const unsubscribe = this.#feedFrom(watched.kind, source, seen);
      if (this.#started) source.start();
      while (!source.hasSynced() && !this.#stopped) {
        await new Promise((r) => setTimeout(r, 50));
      }
      const previous = watched.source;
      watched.unsubscribe();
      Object.assign(watched, { spec, source, unsubscribe });
      await previous.stop();
      if (this.#stopped) return;
      const store = this.store(watched.kind);
      const inScope =
        spec.namespace === undefined ? store.list() : store.inNamespace(spec.namespace);
      for (const o of inScope) {
        const { namespace, name } = o.metadata;
        if (!seen.has(objectKeyOf(namespace, name))) this.#remove(watched.kind, namespace, name);
      }
    })();
    watched.moving = run;
    try {
      await run;
    } finally {
      if (watched.moving === run) delete watched.moving;
    }
  }

  /** The version each watch speaks now, for tests and metrics. */
  watchedVersions(): { kind: CachedKind; group: string; version: string }[] {
    return this.#sources.map((w) => ({
      kind: w.kind,
      group: w.spec.group,
      version: w.spec.version,
    }));
  }

  /** The number of upstream watches: one per (kind, namespace), whatever the number of users. */
  get watchCount(): number {
    return this.#sources.length;
  }

  start(): void {
    if (this.#started) return;
    this.#started = true;
    for (const { source } of this.#sources) source.start();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    await Promise.all(this.#sources.map(({ source }) => source.stop()));
  }

  hasSynced(): boolean {
    return this.#sources.every(({ source }) => source.hasSynced());
  }

  /** Resolves once every source has listed; polls because sources sync independently. */
  async waitForSync(signal?: AbortSignal, pollMs = 50): Promise<void> {
    while (!this.hasSynced()) {
      signal?.throwIfAborted();
      await new Promise((r) => setTimeout(r, pollMs));
    }
  }

  health(): (SourceHealth & { kind: CachedKind })[] {
    return this.#sources.map(({ kind, source }) => ({ kind, ...source.health() }));
  }

  /** Listens to every change; returns the function that stops listening. */
  subscribe(listener: ChangeListener): () => void {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }

  store<K extends CachedKind>(kind: K): KindStore<Cached<K>> {
    return this.stores[kind];
  }

  #apply(
    kind: CachedKind,
    type: 'add' | 'update' | 'delete',
    raw: unknown,
    source: ObjectSource,
  ): void {
    const parsed = safeParseObject(kind, raw);
    if (!parsed.success) {
      const meta = (raw as { metadata?: { namespace?: string; name?: string } } | undefined)
        ?.metadata;
      const key = objectKeyOf(meta?.namespace, meta?.name);
      // An object we cannot read is treated as absent rather than served half-understood.
      if (meta?.name !== undefined) this.#remove(kind, meta.namespace, meta.name);
      this.#observer.onInvalid?.(kind, key, parsed.error.message);
      return;
    }
    // Domain's schemas are loose and transform nothing, so the object they accept is the wire
    // object: keep the informer's own (shared, never mutated) rather than zod's copy of it. One
    // copy of every Machine instead of two is most of the BFF's memory with 5,000 machines.
    const object = raw as Cached<CachedKind>;
    const { namespace, name, resourceVersion } = object.metadata;
    const store = this.store(kind);
    const key = objectKeyOf(namespace, name);
    if (type === 'delete') {
      this.#remove(kind, namespace, name);
      return;
    }
    const old = store.upsert(object);
    // The same version again, from the watch that replaces another in a new API version: the
    // model is the same, so nothing changed for the listeners.
    if (
      old &&
      old.metadata.resourceVersion === resourceVersion &&
      old.metadata.uid === object.metadata.uid
    ) {
      return;
    }
    if (EDITED_KINDS.includes(kind)) {
      // The relist count marks where the history may have a gap (history.ts, `since`).
      this.history.record(`${kind}/${key}`, resourceVersion, object, source.health().relists);
    }
    this.#emit({ kind, type: old ? 'update' : 'add', object, ...(old ? { old } : {}) });
  }

  #remove(kind: CachedKind, namespace: string | undefined, name: string | undefined): void {
    const old = this.store(kind).remove(namespace, name);
    if (!old) return;
    this.history.forget(`${kind}/${objectKeyOf(namespace, name)}`);
    this.#emit({ kind, type: 'delete', object: old, old });
  }

  #emit(change: CacheChange): void {
    for (const l of this.#listeners) {
      try {
        l(change);
      } catch (error) {
        this.#observer.onListenerError?.(error);
      }
    }
  }
}
