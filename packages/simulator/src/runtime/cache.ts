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
    const p = this.live(keyOf(namespace, name));
    if (p) return p.obj;
    return this.informer.get(namespace, name);
  }

  list(): T[] {
    const out = new Map<string, T>();
    for (const o of this.informer.list()) out.set(keyOfObject(o), o);
    this.applyPending(out);
    return [...out.values()];
  }

  byIndex(name: string, value: string): T[] {
    const out = new Map<string, T>();
    for (const o of this.informer.byIndex(name, value)) out.set(keyOfObject(o), o);
    if (this.pending.size === 0) return [...out.values()];
    const fn = this.indexers.get(name);
    for (const [key, p] of this.pending) {
      if (!this.fresh(key, p)) continue;
      if (!p.obj || !fn?.(p.obj).includes(value)) out.delete(key);
      else out.set(key, p.obj);
    }
    return [...out.values()];
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
