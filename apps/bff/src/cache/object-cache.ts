import { safeParseObject } from '@dcs/domain';
import { VersionHistory } from './history';
import { KindStore, objectKeyOf, type Indexer, type Meta } from './kind-store';
import type { ObjectSource, SourceFactory, SourceHealth } from './source';
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
  return stores;
}

export class ObjectCache {
  readonly stores: Stores = makeStores();
  readonly history = new VersionHistory();
  readonly #sources: { kind: CachedKind; source: ObjectSource }[] = [];
  readonly #listeners = new Set<ChangeListener>();
  readonly #observer: CacheObserver;
  #started = false;

  constructor(factory: SourceFactory, namespaces: readonly string[], observer: CacheObserver = {}) {
    this.#observer = observer;
    for (const { kind, spec } of watchSpecs(namespaces)) {
      const source = factory(spec);
      this.#sources.push({ kind, source });
      source.addHandlers({
        add: (o) => {
          this.#apply(kind, 'add', o, source);
        },
        update: (o) => {
          this.#apply(kind, 'update', o, source);
        },
        delete: (o) => {
          this.#apply(kind, 'delete', o, source);
        },
      });
    }
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
