/**
 * A typed mirror of one kind: objects parsed by their zod schema, keyed `namespace/name`, with
 * secondary indexes kept on every write. Written only by the cache; read by views and routes.
 */

export interface Meta {
  metadata: { name?: string; namespace?: string; resourceVersion?: string; uid?: string };
}

export type Indexer<T> = (obj: T) => readonly string[];

export const objectKeyOf = (namespace: string | undefined, name: string | undefined): string =>
  `${namespace ?? ''}/${name ?? ''}`;

export class KindStore<T extends Meta> {
  readonly #items = new Map<string, T>();
  readonly #indexers = new Map<string, Indexer<T>>();
  readonly #byValue = new Map<string, Map<string, Set<string>>>();
  readonly #byKey = new Map<string, Map<string, readonly string[]>>();

  get size(): number {
    return this.#items.size;
  }

  get(namespace: string, name: string): T | undefined {
    return this.#items.get(objectKeyOf(namespace, name));
  }

  values(): IterableIterator<T> {
    return this.#items.values();
  }

  list(): T[] {
    return [...this.#items.values()];
  }

  inNamespace(namespace: string): T[] {
    return this.byIndex('namespace', namespace);
  }

  constructor() {
    this.addIndex('namespace', (o) => [o.metadata.namespace ?? '']);
  }

  addIndex(name: string, fn: Indexer<T>): void {
    this.#indexers.set(name, fn);
    this.#byValue.set(name, new Map());
    this.#byKey.set(name, new Map());
    for (const [key, obj] of this.#items) this.#index(name, fn, key, obj);
  }

  byIndex(name: string, value: string): T[] {
    const keys = this.#byValue.get(name)?.get(value);
    if (!keys) return [];
    const out: T[] = [];
    for (const k of keys) {
      const o = this.#items.get(k);
      if (o) out.push(o);
    }
    return out;
  }

  upsert(obj: T): T | undefined {
    const key = objectKeyOf(obj.metadata.namespace, obj.metadata.name);
    const old = this.#items.get(key);
    if (old) this.#unindex(key);
    this.#items.set(key, obj);
    for (const [name, fn] of this.#indexers) this.#index(name, fn, key, obj);
    return old;
  }

  remove(namespace: string | undefined, name: string | undefined): T | undefined {
    const key = objectKeyOf(namespace, name);
    const old = this.#items.get(key);
    if (!old) return undefined;
    this.#unindex(key);
    this.#items.delete(key);
    return old;
  }

  #index(name: string, fn: Indexer<T>, key: string, obj: T): void {
    const values = [...new Set(fn(obj))];
    const byValue = this.#byValue.get(name);
    const byKey = this.#byKey.get(name);
    if (!byValue || !byKey || values.length === 0) return;
    byKey.set(key, values);
    for (const v of values) {
      let set = byValue.get(v);
      if (!set) {
        set = new Set();
        byValue.set(v, set);
      }
      set.add(key);
    }
  }

  #unindex(key: string): void {
    for (const [name, byKey] of this.#byKey) {
      const values = byKey.get(key);
      if (!values) continue;
      byKey.delete(key);
      const byValue = this.#byValue.get(name);
      for (const v of values) {
        const set = byValue?.get(v);
        set?.delete(key);
        if (set?.size === 0) byValue?.delete(v);
      }
    }
  }
}
