import type { CancelTimer, SimClock } from '../logic/clock';
import { MinHeap } from '../logic/heap';

/**
 * A controller's work queue, as client-go's: keys (`namespace/name`) are deduplicated while
 * waiting, a key is never processed by two workers at once (a key added while it is being
 * processed runs again afterwards), failures retry with capped exponential backoff in real time
 * (they are the API server's, not the simulation's), and requeue-after waits in simulated time.
 *
 * Waiting keys are served oldest first (by when the queue first saw the key, i.e. roughly by the
 * object's creation), not in the order they were added. With FIFO order a backlog holding every
 * key (thousands of machines created at once on a CPU-starved host) advances every machine one
 * step per pass over the whole backlog: all of them finish together at the very end, and none
 * before. Oldest first keeps the same work but lets the earliest objects run through their whole
 * lifecycle while the later ones wait, so progress degrades with the CPU available, not all at
 * once.
 */

export interface ReconcileResult {
  /** Reconcile again after this many simulated milliseconds. */
  requeueAfterMs?: number | undefined;
  /** Reconcile again right away (e.g. after a conflict). */
  requeue?: boolean | undefined;
}

export type Reconcile = (key: string) => Promise<ReconcileResult | undefined>;

export interface QueueOptions {
  concurrency: number;
  clock: SimClock;
  onError: (key: string, error: unknown) => void;
  /** Errors that are retried at once without backoff (409 Conflict). */
  isTransient?: (error: unknown) => boolean;
  /**
   * A key is reconciled at most once per this many real milliseconds: a change arriving when the
   * key has not run for that long is reconciled at once (a lone change is never delayed, so a
   * summary such as a pool's R-POOL-1 condition follows its machines without lag); changes
   * arriving within the window wait for its end and make one reconcile, so that a burst (a
   * hundred machines of one set changing at once) makes two reconciles, not a hundred.
   */
  batchMs?: number;
  /**
   * Keys served before all others: the control plane's machines, whose progress every worker
   * waits for, must not queue behind thousands of workers created at the same moment.
   */
  isPriority?: (key: string) => boolean;
  /** Collect keys but process none until `start()` (the caches are still loading). */
  deferStart?: boolean;
}

export class WorkQueue {
  /** Waiting keys, a min-heap by first-seen sequence (oldest first). */
  private readonly heap = new MinHeap<Item>((a, b) => a.seq < b.seq);
  /** When the queue first saw each key (a sequence number); forgotten when its object is deleted. */
  private readonly firstSeen = new Map<string, number>();
  private nextSeq = 0;
  private readonly urgent: string[] = [];
  /** Keys in `urgent`; a key promoted there may also still be in the heap (skipped there). */
  private readonly urgentKeys = new Set<string>();
  /** Keys waiting out batchMs (not in the heap yet). */
  private readonly waitingBatch = new Set<string>();
  private readonly queued = new Set<string>();
  private readonly processing = new Set<string>();
  private readonly dirty = new Set<string>();
  private readonly timers = new Map<string, { at: number; cancel: CancelTimer }>();
  private readonly failures = new Map<string, number>();
  private readonly backoffTimers = new Set<ReturnType<typeof setTimeout>>();
  private active = 0;
  /** When each key last started (real ms), for batchMs; pruned as it grows. */
  private readonly lastStart = new Map<string, number>();
  private stopped = false;
  /**
   * Keys are collected but not processed until `start()`: a controller starts reconciling only
   * once every cache it reads has synced (controller-runtime's WaitForCacheSync), so that it
   * never acts on a partial picture of the cluster.
   */
  private started: boolean;
  private idleWaiters: (() => void)[] = [];
  reconciles = 0;
  errors = 0;

  constructor(
    readonly name: string,
    private readonly reconcile: Reconcile,
    private readonly o: QueueOptions,
  ) {
    this.started = !o.deferStart;
  }

  /** Starts processing (a queue made with `deferStart`). */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.pump();
  }

  add(key: string): void {
    if (this.stopped) return;
    if (this.processing.has(key)) {
      this.dirty.add(key);
      return;
    }
    if (this.queued.has(key)) {
      // Queued before it could be told to be a priority key (a control-plane Machine's key is
      // first added by its KubeadmConfig, created before the Machine): move it ahead now.
      if (!this.urgentKeys.has(key) && !this.waitingBatch.has(key) && this.o.isPriority?.(key)) {
        this.urgentKeys.add(key);
        this.urgent.push(key);
        this.pump();
      }
      return;
    }
    this.queued.add(key);
    const wait = this.throttle(key);
    if (wait > 0) {
      this.waitingBatch.add(key);
      const t = setTimeout(() => {
        this.backoffTimers.delete(t);
        this.waitingBatch.delete(key);
        if (this.stopped) return;
        this.enqueue(key);
        this.pump();
      }, wait);
      t.unref();
      this.backoffTimers.add(t);
      return;
    }
    this.enqueue(key);
    this.pump();
  }

  /** Real milliseconds the key must still wait under batchMs (0: run now). */
  private throttle(key: string): number {
    const batch = this.o.batchMs ?? 0;
    if (batch <= 0) return 0;
    const last = this.lastStart.get(key);
    return last === undefined ? 0 : Math.max(0, last + batch - Date.now());
  }

  private noteStart(key: string): void {
    if (!this.o.batchMs) return;
    const now = Date.now();
    if (this.lastStart.size > 4096) {
      for (const [k, t] of this.lastStart) if (t + this.o.batchMs < now) this.lastStart.delete(k);
    }
    this.lastStart.set(key, now);
  }

  private enqueue(key: string): void {
    if (this.o.isPriority?.(key)) {
      this.urgentKeys.add(key);
      this.urgent.push(key);
      return;
    }
    let seq = this.firstSeen.get(key);
    if (seq === undefined) {
      seq = this.nextSeq++;
      this.firstSeen.set(key, seq);
    }
    this.heap.push({ seq, key });
  }

  /** The key's object is gone: a new object of that name counts as new (see the class comment). */
  forget(key: string): void {
    this.firstSeen.delete(key);
  }

  /** Adds the key after `ms` simulated milliseconds; an earlier pending request wins. */
  addAfter(key: string, ms: number): void {
    if (this.stopped) return;
    if (ms <= 0) {
      this.add(key);
      return;
    }
    const at = this.o.clock.now() + ms;
    const existing = this.timers.get(key);
    if (existing && existing.at <= at) return;
    existing?.cancel();
    const cancel = this.o.clock.setTimer(ms, () => {
      this.timers.delete(key);
      this.add(key);
    });
    this.timers.set(key, { at, cancel });
  }

  get length(): number {
    return this.queued.size;
  }

  /** Resolves when nothing is queued or being processed (timers may still be pending). */
  idle(): Promise<void> {
    if (this.length === 0 && this.active === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  stop(): void {
    this.stopped = true;
    for (const t of this.timers.values()) t.cancel();
    this.timers.clear();
    for (const t of this.backoffTimers) clearTimeout(t);
    this.backoffTimers.clear();
    this.heap.clear();
    this.urgent.length = 0;
    this.urgentKeys.clear();
    this.waitingBatch.clear();
    this.queued.clear();
  }

  private pump(): void {
    if (!this.started) return;
    while (
      !this.stopped &&
      this.active < this.o.concurrency &&
      (this.urgent.length > 0 || this.heap.size > 0)
    ) {
      let key: string | undefined;
      if (this.urgent.length > 0) {
        key = this.urgent.shift();
        if (key !== undefined) this.urgentKeys.delete(key);
      } else {
        key = this.heap.pop()?.key;
        // Promoted to the urgent lane meanwhile (and served there), or served already.
        if (key !== undefined && (this.urgentKeys.has(key) || !this.queued.has(key))) continue;
      }
      if (key === undefined) continue;
      this.queued.delete(key);
      this.noteStart(key);
      this.processing.add(key);
      this.active++;
      void this.run(key);
    }
    if (this.length === 0 && this.active === 0) {
      const waiters = this.idleWaiters;
      this.idleWaiters = [];
      for (const w of waiters) w();
    }
  }

  private async run(key: string): Promise<void> {
    let result: ReconcileResult | undefined;
    let failed = false;
    try {
      this.reconciles++;
      result = await this.reconcile(key);
      this.failures.delete(key);
    } catch (error) {
      failed = true;
      if (this.o.isTransient?.(error)) {
        result = { requeue: true };
      } else {
        this.errors++;
        this.o.onError(key, error);
        this.retryLater(key);
      }
    } finally {
      this.processing.delete(key);
      this.active--;
    }
    if (this.dirty.delete(key) || result?.requeue) this.add(key);
    else if (!failed && result?.requeueAfterMs !== undefined)
      this.addAfter(key, result.requeueAfterMs);
    this.pump();
  }

  private retryLater(key: string): void {
    const n = (this.failures.get(key) ?? 0) + 1;
    this.failures.set(key, n);
    const delay = Math.min(10_000, 50 * 2 ** Math.min(n, 10));
    const t = setTimeout(() => {
      this.backoffTimers.delete(t);
      this.add(key);
    }, delay);
    t.unref();
    this.backoffTimers.add(t);
  }
}

interface Item {
  seq: number;
  key: string;
}
