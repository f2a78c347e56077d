import type { Informer } from '@dcs/informer';
import type { KubeObject } from './client';

/**
 * A controller's view of one kind: the shared informer's cache, plus the objects this process
 * has just written and the informer has not delivered yet. Without that overlay a MachineSet
 * reconciled twice in quick succession would not see the Machines it created a moment ago and
 * would create them again (Cluster API waits for its cache for the same reason). An overlay
 * entry ends when the informer delivers the written resourceVersion (or, for a created object,
 * any version), when the object is deleted, on a relist, or after `ttlMs` as a safety net.
 */

type IndexFn<T> = (obj: T) => readonly string[];

interface Pending<T> {
  /** The object as written; undefined for an object deleted outright. */
  obj: T | undefined;
  resourceVersion: string | undefined;
  created: boolean;
  at: number;
}

export const keyOf = (namespace: string | undefined, name: string | undefined): string =>
  namespace ? `${namespace}/${name ?? ''}` : (name ?? '');

export const keyOfObject = (o: KubeObject): string => keyOf(o.metadata.namespace, o.metadata.name);

export class Cache<T extends KubeObject> {
  private readonly pending = new Map<string, Pending<T>>();
  private readonly indexers = new Map<string, IndexFn<T>>();

  constructor(
    readonly informer: Informer<T>,
    private readonly ttlMs = 15_000,
  ) {
    informer.addEventHandler({
      add: (o) => {
        this.seen(o);
      },
      update: (o) => {
        this.seen(o);
      },
      delete: (o) => {
        this.pending.delete(keyOfObject(o));
      },
    });
  }

  /** A relist replaced the informer's state wholesale: trust it over older local writes. */
  clearPending(): void {
    this.pending.clear();
  }

  addIndex(name: string, fn: IndexFn<T>): void {
    this.indexers.set(name, fn);
    this.informer.addIndex(name, fn);
  }

  get(namespace: string | undefined, name: string): T | undefined {
    // One key for both lookups: building it and hashing it again for the informer cost as much
    // as the lookups themselves (thousands of reads per second).
    return this.getByKey(keyOf(namespace, name));
  }

  /** By its `namespace/name` key (a work queue's key). */
  getByKey(key: string): T | undefined {
    const p = this.pending.size === 0 ? undefined : this.live(key);
    if (p) return p.obj;
    return this.informer.getByKey(key);
  }

  list(): T[] {
    const out = new Map<string, T>();
    for (const o of this.informer.list()) out.set(keyOfObject(o), o);
    this.applyPending(out);
    return [...out.values()];
  }

  byIndex(name: string, value: string): T[] {
    const cached = this.informer.byIndex(name, value);
    if (this.pending.size === 0) return cached;
    // The overlay's entries under `value` now or in the informer's version: the object this
    // process wrote, or undefined (deleted, or no longer under `value`). Most calls find none
    // (the overlay holds a few objects, the index thousands): they return the informer's list
    // as it is, without a key built per object.
    const fn = this.indexers.get(name);
    const under = (o: T | undefined): o is T => o !== undefined && fn?.(o).includes(value) === true;
    let writes: Map<string, T | undefined> | undefined;
    for (const [key, p] of this.pending) {
      if (!this.fresh(key, p)) continue;
      const mine = under(p.obj);
      if (!mine && !under(this.informer.getByKey(key))) continue;
      writes ??= new Map();
      writes.set(key, mine ? p.obj : undefined);
    }
    if (!writes) return cached;
    const out: T[] = [];
    for (const o of cached) {
      const key = keyOfObject(o);
      if (!writes.has(key)) {
        out.push(o);
        continue;
      }
      const written = writes.get(key);
      writes.delete(key);
      if (written) out.push(written);
    }
    for (const written of writes.values()) if (written) out.push(written);
    return out;
  }

  /**
   * Writes whose result the informer had already delivered when the response arrived (or that
   * changed nothing: the API server then answers with the version it has).
   */
  alreadySeen = 0;

  /** Records an object this process wrote (the API server's response). */
  wrote(obj: T, created = false): void {
    const key = keyOfObject(obj);
    const known = this.informer.getByKey(key);
    const previous = this.pending.get(key);
    // Nothing more will be delivered for this version: do not wait for it.
    if (known && known.metadata.resourceVersion === obj.metadata.resourceVersion) {
      this.pending.delete(key);
      this.alreadySeen++;
      return;
    }
    // An update of an object the informer no longer has: its deletion was delivered first.
    if (!known && !created && !previous?.created) {
      this.pending.delete(key);
      this.alreadySeen++;
      return;
    }
    this.pending.set(key, {
      obj,
      resourceVersion: obj.metadata.resourceVersion,
      created: created || Boolean(previous?.created && !known),
      at: Date.now(),
    });
  }

  /** Records a deletion: the object with its deletionTimestamp, or gone. */
  deleted(key: string, after: T | undefined): void {
    if (!this.informer.getByKey(key)) {
      this.pending.delete(key);
      return;
    }
    this.pending.set(key, {
      obj: after,
      resourceVersion: after?.metadata.resourceVersion,
      created: false,
      at: Date.now(),
    });
  }

  get pendingWrites(): number {
    return this.pending.size;
  }

  private seen(o: T): void {
    const key = keyOfObject(o);
    const p = this.pending.get(key);
    if (!p) return;
    if (p.created || p.resourceVersion === o.metadata.resourceVersion) this.pending.delete(key);
  }

  private fresh(key: string, p: Pending<T>): boolean {
    if (Date.now() - p.at <= this.ttlMs) return true;
    this.pending.delete(key);
    return false;
  }

  private live(key: string): Pending<T> | undefined {
    const p = this.pending.get(key);
    return p && this.fresh(key, p) ? p : undefined;
  }

  private applyPending(out: Map<string, T>): void {
    for (const [key, p] of this.pending) {
      if (!this.fresh(key, p)) continue;
      if (p.obj) out.set(key, p.obj);
      else out.delete(key);
    }
  }
}
