import { storageKey, type Registry, type ResourceType } from './registry';
import type { Store } from './store/store';

/**
 * Events expire, as kube-apiserver's do (`--event-ttl`, default one hour): each write of an Event
 * (either API: events.k8s.io Events are stored as core Events) puts it under an etcd lease of the
 * TTL, and when the lease runs out etcd deletes it; watchers see it DELETED. Here the deadline of
 * each Event is kept in write order (a rewrite moves it to the end), so a sweep looks only at the
 * Events that are due. Without it every Event ever recorded stayed in memory (issue 25, item 13).
 */

/** kube-apiserver's `--event-ttl` default. */
export const DEFAULT_EVENT_TTL_MS = 60 * 60 * 1000;

export class EventExpiry {
  /** storage key `namespace/name` → when it expires; in order of expiry (writes are monotonic). */
  private readonly deadlines = new Map<string, number>();
  private readonly rt: ResourceType | undefined;
  private readonly key: string | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly store: Store,
    registry: Registry,
    private readonly ttlMs: number,
    private readonly now: () => number,
  ) {
    this.rt = registry.lookup('', 'v1', 'events');
    this.key = this.rt ? storageKey(this.rt) : undefined;
    // Events already stored (a state file) expire one TTL after the start, as after a restore
    // of etcd their leases would be granted anew.
    for (const s of store.all()) if (this.isEvent(s.rt)) this.deadlines.set(s.key, now() + ttlMs);
    store.listen((ev) => {
      if (!this.isEvent(ev.obj.rt)) return;
      const k = ev.obj.key;
      this.deadlines.delete(k);
      if (ev.type !== 'DELETED') this.deadlines.set(k, this.now() + this.ttlMs);
    });
  }

  private isEvent(rt: ResourceType): boolean {
    return this.key !== undefined && storageKey(rt) === this.key;
  }

  /** Events waiting for their TTL. */
  get size(): number {
    return this.deadlines.size;
  }

  /** Deletes every Event whose TTL has run out; returns how many. */
  sweep(): number {
    const now = this.now();
    const rt = this.rt;
    if (!rt) return 0;
    let n = 0;
    for (const [k, deadline] of this.deadlines) {
      if (deadline > now) break;
      this.deadlines.delete(k);
      const slash = k.indexOf('/');
      const current = this.store.get(rt, k.slice(0, slash), k.slice(slash + 1));
      if (!current) continue;
      // What etcd does when a lease expires: the key goes, with no admission and no finalizers.
      this.store.remove(rt, current);
      n++;
    }
    return n;
  }

  /** Sweeps every `intervalMs` (unref'd: it keeps no process alive). */
  start(intervalMs: number): void {
    this.timer = setInterval(() => this.sweep(), intervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }
}
