import type { KubeObject } from './kube-object';
import { keyOf, objectKey } from './object-key';

/** Maps an object to the values it is indexed under (e.g. a label's value); `[]` for none. */
export type IndexFunc<T> = (obj: T) => readonly string[];

/** Reports an index function that threw; the object is then left out of that index. */
export type IndexErrorReporter = (error: unknown, indexName: string) => void;

/**
 * The informer's cache: objects keyed by `namespace/name`, plus secondary indexes kept up to date
 * on every write. Only the informer writes; everyone else reads through the informer.
 */
export class Store<T extends KubeObject> {
  readonly #items = new Map<string, T>();
  readonly #indexers = new Map<string, IndexFunc<T>>();
  readonly #indices = new Map<string, Index>();
  readonly #reportIndexError: IndexErrorReporter;

  constructor(reportIndexError: IndexErrorReporter = () => undefined) {
    this.#reportIndexError = reportIndexError;
  }

  get size(): number {
    return this.#items.size;
  }

  get(namespace: string | undefined, name: string): T | undefined {
    return this.#items.get(keyOf(namespace, name));
  }

  getByKey(key: string): T | undefined {
    return this.#items.get(key);
  }

  list(): T[] {
    return [...this.#items.values()];
  }

  /** The live map; callers must not mutate it (the relist diff reads it without copying 5,000 objects). */
  entries(): ReadonlyMap<string, T> {
    return this.#items;
  }

  /** Registers an index and builds it over what is already cached, so it may be added at any time. */
  addIndex(name: string, fn: IndexFunc<T>): void {
    if (this.#indexers.has(name)) throw new Error(`index "${name}" is already registered`);
    this.#indexers.set(name, fn);
    const index: Index = { byValue: new Map(), byKey: new Map() };
    this.#indices.set(name, index);
    for (const [key, obj] of this.#items) this.#indexOne(name, fn, index, key, obj);
  }

  /** Objects whose index function returned `value` under the index `name`. */
  byIndex(name: string, value: string): T[] {
    const index = this.#indices.get(name);
    if (!index) throw new Error(`no index named "${name}"`);
    const keys = index.byValue.get(value);
    if (!keys) return [];
    const out: T[] = [];
    for (const key of keys) {
      const obj = this.#items.get(key);
      if (obj) out.push(obj);
    }
    return out;
  }

  /** Every value present in the index `name`. */
  indexValues(name: string): string[] {
    const index = this.#indices.get(name);
    if (!index) throw new Error(`no index named "${name}"`);
    return [...index.byValue.keys()];
  }

  /** Inserts or replaces an object; returns the previous version. Unnamed objects are ignored. */
  upsert(obj: T): T | undefined {
    const key = objectKey(obj);
    if (key === undefined) return undefined;
    const old = this.#items.get(key);
    if (old) this.#unindex(key);
    this.#items.set(key, obj);
    for (const [name, fn] of this.#indexers) {
      const index = this.#indices.get(name);
      if (index) this.#indexOne(name, fn, index, key, obj);
    }
    return old;
  }

  /** Removes an object by key; returns what was cached. */
  remove(key: string): T | undefined {
    const old = this.#items.get(key);
    if (!old) return undefined;
    this.#unindex(key);
    this.#items.delete(key);
    return old;
  }

  #indexOne(name: string, fn: IndexFunc<T>, index: Index, key: string, obj: T): void {
    const values = this.#valuesOf(name, fn, obj);
    if (values.length === 0) return;
    index.byKey.set(key, values);
    for (const value of values) {
      let keys = index.byValue.get(value);
      if (!keys) {
        keys = new Set();
        index.byValue.set(value, keys);
      }
      keys.add(key);
    }
  }

  /** Uses the values recorded at insert time, so a user function is never asked twice. */
  #unindex(key: string): void {
    for (const index of this.#indices.values()) {
      const values = index.byKey.get(key);
      if (!values) continue;
      index.byKey.delete(key);
      for (const value of values) {
        const keys = index.byValue.get(value);
        if (!keys) continue;
        keys.delete(key);
        if (keys.size === 0) index.byValue.delete(value);
      }
    }
  }

  /** Index functions are user code: one that throws must not break the watch loop. */
  #valuesOf(name: string, fn: IndexFunc<T>, obj: T): readonly string[] {
    try {
      return [...new Set(fn(obj))];
    } catch (error) {
      this.#reportIndexError(error, name);
      return [];
    }
  }
}

/** One secondary index: value → keys, and key → the values it was filed under. */
interface Index {
  readonly byValue: Map<string, Set<string>>;
  readonly byKey: Map<string, readonly string[]>;
}
