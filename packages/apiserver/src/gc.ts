/**
 * The garbage collector and namespace controller that kube-controller-manager runs, in process:
 * - Background: when an owner is gone, its dependents are deleted (a dependent that still has a
 *   live owner only loses the dangling reference);
 * - Foreground: the owner (finalizer `foregroundDeletion`) waits until its blocking dependents
 *   (blockOwnerDeletion) are gone; its dependents are deleted in the foreground too;
 * - Orphan: the owner (finalizer `orphan`) drops its dependents' references to it, then goes;
 * - a dependent written with an owner that is already gone (a controller acting on a stale cache
 *   recreates what was just collected) is collected too, as kube's GC collects an object whose
 *   owner references all dangle, or drops the dangling ones when another owner lives;
 * - a terminating namespace is emptied, then removed.
 * Work is queued and run off the request path, like the real controllers.
 */
import type { Operations, WriteContext } from './operations';
import type { Registry, ResourceType } from './registry';
import type { Store, StoreEvent } from './store/store';
import type { Stored } from './store/stored';
import { ApiError } from './status';

const SYSTEM_USER = {
  username: 'system:serviceaccount:kube-system:generic-garbage-collector',
  groups: ['system:masters'],
};

export class GarbageCollector {
  private readonly queue: (() => Promise<void>)[] = [];
  private running = false;
  private idleWaiters: (() => void)[] = [];

  constructor(
    private readonly store: Store,
    private readonly registry: Registry,
    private readonly ops: Operations,
  ) {
    store.listen((ev) => {
      this.onEvent(ev);
    });
  }

  private ctx(): WriteContext {
    return {
      user: SYSTEM_USER,
      dryRun: false,
      fieldValidation: 'Ignore',
      warnings: [],
      fieldManager: 'generic-garbage-collector',
    };
  }

  private enqueue(job: () => Promise<void>): void {
    this.queue.push(job);
    if (!this.running) {
      this.running = true;
      setImmediate(() => void this.drain());
    }
  }

  private async drain(): Promise<void> {
    while (this.queue.length) {
      const job = this.queue.shift();
      try {
        await job?.();
      } catch (e) {
        // NotFound and Conflict mean someone else got there first; the event that follows requeues.
        if (!(e instanceof ApiError)) console.error('garbage collector:', e);
      }
    }
    this.running = false;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const w of waiters) w();
  }

  /** Resolves when no collection work is pending (tests and seeding use it). */
  idle(): Promise<void> {
    if (!this.running && this.queue.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private onEvent(ev: StoreEvent): void {
    const s = ev.obj;
    if (ev.type === 'DELETED') {
      this.enqueue(() => this.collectDependents(s.uid, 'Background'));
      if (s.namespace) this.enqueue(() => this.checkNamespace(s.namespace));
      // A foreground owner waits for this dependent.
      for (const uid of s.ownerUids) this.enqueue(() => this.checkForeground(uid));
      return;
    }
    if (!s.deleting) {
      if (s.ownerUids.some((u) => !this.ownerAlive(u))) this.enqueue(() => this.collectDangling(s));
      return;
    }
    if (s.finalizers.includes('orphan')) this.enqueue(() => this.orphan(s));
    if (s.finalizers.includes('foregroundDeletion')) this.enqueue(() => this.foreground(s));
    if (s.rt.kind === 'Namespace' && s.rt.group === '')
      this.enqueue(() => this.emptyNamespace(s.name));
    for (const uid of s.ownerUids) this.enqueue(() => this.checkForeground(uid));
  }

  private async deleteObject(s: Stored, policy: 'Background' | 'Foreground'): Promise<void> {
    const current = this.store.get(s.rt, s.namespace || undefined, s.name);
    if (!current || current.deleting) return;
    await this.ops.delete(
      s.rt,
      s.namespace || undefined,
      s.name,
      { propagationPolicy: policy },
      this.ctx(),
    );
  }

  private ownerAlive(uid: string): boolean {
    const owner = this.store.getByUid(uid);
    return owner !== undefined;
  }

  private async collectDependents(
    ownerUid: string,
    policy: 'Background' | 'Foreground',
  ): Promise<void> {
    for (const dep of this.store.dependentsOf(ownerUid)) {
      const others = dep.ownerUids.filter((u) => u !== ownerUid && this.ownerAlive(u));
      if (others.length > 0) {
        await this.ops.systemUpdate(dep.rt, dep, (obj) => {
          obj.metadata.ownerReferences = (obj.metadata.ownerReferences ?? []).filter(
            (r) => r.uid !== ownerUid,
          );
        });
      } else {
        await this.deleteObject(dep, policy);
      }
    }
  }

  /**
   * An object some of whose owners are gone (checked again when the job runs): deleted when none
   * lives, else the dangling references are dropped.
   */
  private async collectDangling(s: Stored): Promise<void> {
    const current = this.store.get(s.rt, s.namespace || undefined, s.name);
    if (current?.uid !== s.uid || current.deleting) return;
    const dangling = current.ownerUids.filter((u) => !this.ownerAlive(u));
    if (dangling.length === 0) return;
    if (dangling.length === current.ownerUids.length) {
      await this.deleteObject(current, 'Background');
      return;
    }
    await this.ops.systemUpdate(current.rt, current, (obj) => {
      obj.metadata.ownerReferences = (obj.metadata.ownerReferences ?? []).filter(
        (r) => !dangling.includes(r.uid),
      );
    });
  }

  private async orphan(owner: Stored): Promise<void> {
    for (const dep of this.store.dependentsOf(owner.uid)) {
      await this.ops.systemUpdate(dep.rt, dep, (obj) => {
        obj.metadata.ownerReferences = (obj.metadata.ownerReferences ?? []).filter(
          (r) => r.uid !== owner.uid,
        );
        if (obj.metadata.ownerReferences.length === 0) delete obj.metadata.ownerReferences;
      });
    }
    const latest = this.store.get(owner.rt, owner.namespace || undefined, owner.name);
    if (latest?.finalizers.includes('orphan') && this.store.dependentsOf(owner.uid).length === 0) {
      await this.ops.systemUpdate(owner.rt, latest, (obj) => {
        obj.metadata.finalizers = (obj.metadata.finalizers ?? []).filter((f) => f !== 'orphan');
      });
    }
  }

  private async foreground(owner: Stored): Promise<void> {
    await this.collectDependents(owner.uid, 'Foreground');
    await this.checkForeground(owner.uid);
  }

  /** Drops `foregroundDeletion` once no dependent blocks the owner. */
  private async checkForeground(ownerUid: string): Promise<void> {
    const owner = this.store.getByUid(ownerUid);
    if (!owner?.deleting || !owner.finalizers.includes('foregroundDeletion')) return;
    const blocking = this.store.dependentsOf(ownerUid).filter((d) => {
      const ref = d.object().metadata.ownerReferences?.find((r) => r.uid === ownerUid);
      return ref?.blockOwnerDeletion === true;
    });
    if (blocking.length > 0) return;
    await this.ops.systemUpdate(owner.rt, owner, (obj) => {
      obj.metadata.finalizers = (obj.metadata.finalizers ?? []).filter(
        (f) => f !== 'foregroundDeletion',
      );
    });
  }

  private namespaceType(): ResourceType | undefined {
    return this.registry.lookup('', 'v1', 'namespaces');
  }

  private async emptyNamespace(name: string): Promise<void> {
    for (const s of this.store.namespacedContent(name)) await this.deleteObject(s, 'Background');
    await this.checkNamespace(name);
  }

  private checkNamespace(name: string): Promise<void> {
    const nsType = this.namespaceType();
    if (!nsType) return Promise.resolve();
    const ns = this.store.get(nsType, undefined, name);
    if (!ns?.deleting || this.store.namespacedContent(name).length > 0) return Promise.resolve();
    if (ns.finalizers.length === 0) this.store.remove(nsType, ns);
    return Promise.resolve();
  }
}
