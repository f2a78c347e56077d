import type { InformerFactory } from '@dcs/informer';
import type { ObjectOf } from '@dcs/domain';
import { keyOfObject } from './cache';
import type { Caches, WatchedKind } from './caches';
import { isConflict, isNotFound } from './client';
import type { Context, Controller } from './context';
import { WorkQueue } from './queue';

/**
 * Runs controllers on shared informers: each controller gets a work queue; changes of its own
 * kind enqueue the object, changes of watched kinds enqueue what the controller maps them to.
 */

/** The longest real batch window, whatever the time scale. */
export const MAX_BATCH_REAL_MS = 250;

/** Real ms of a batch window of `simMs` simulated ms: none on a manual clock (tests step it). */
export function batchRealMs(simMs: number, timeScale: number): number {
  return timeScale > 0 ? Math.min(MAX_BATCH_REAL_MS, simMs / timeScale) : 0;
}

export interface ControllerMetrics {
  name: string;
  reconciles: number;
  errors: number;
  queued: number;
}

export class Manager {
  private readonly queues: WorkQueue[] = [];
  private readonly unsubscribe: (() => void)[] = [];
  private readonly timers: ReturnType<typeof setInterval>[] = [];
  /** Keys each watch mapped changes to (`controller<Kind`), for the benchmark's diagnostics. */
  readonly wakes = new Map<string, number>();

  /**
   * @param resyncMs every so often (real time) every object is reconciled again, as
   *   controller-runtime's SyncPeriod does: a safety net for anything an event could not say.
   */
  constructor(
    private readonly ctx: Context,
    private readonly factory: InformerFactory,
    private readonly caches: Caches,
    private readonly resyncMs = 5 * 60_000,
  ) {}

  add(controller: Controller): void {
    const queue = new WorkQueue(controller.name, (key) => controller.reconcile(key), {
      concurrency: controller.concurrency ?? 4,
      ...(controller.batchSimMs
        ? { batchMs: batchRealMs(controller.batchSimMs, this.ctx.clock.timeScale) }
        : {}),
      ...(controller.isPriority ? { isPriority: controller.isPriority } : {}),
      clock: this.ctx.clock,
      // Reconciling starts in start(), once every informer has synced (WaitForCacheSync).
      deferStart: true,
      // A conflict means a stale read, a 404 an object deleted meanwhile: both are re-read at once.
      isTransient: (e) => isConflict(e) || isNotFound(e),
      onError: (key, error) => {
        this.ctx.log(
          `${controller.name} ${key}: ${error instanceof Error ? error.message : String(error)}`,
        );
      },
    });
    this.queues.push(queue);
    const on = <K extends WatchedKind>(
      kind: K,
      map: (o: ObjectOf<K>) => readonly string[],
      changed?: (now: ObjectOf<K>, before: ObjectOf<K>) => boolean,
    ) => {
      const counter = `${controller.name}<${kind}`;
      const handle = (o: ObjectOf<K>) => {
        const keys = map(o);
        this.wakes.set(counter, (this.wakes.get(counter) ?? 0) + keys.length);
        for (const key of keys) queue.add(key);
      };
      this.unsubscribe.push(
        this.caches.get(kind).informer.addEventHandler({
          add: handle,
          update: (o, old) => {
            if (o.metadata.resourceVersion === old.metadata.resourceVersion) return;
            if (changed && !changed(o, old)) return;
            handle(o);
          },
          delete: handle,
        }),
      );
    };
    on(
      controller.primary,
      (o) => [keyOfObject(o)],
      controller.primaryChanged as ((now: unknown, before: unknown) => boolean) | undefined,
    );
    this.unsubscribe.push(
      this.caches.get(controller.primary).informer.addEventHandler({
        delete: (o) => {
          queue.forget(keyOfObject(o));
        },
      }),
    );
    if (this.resyncMs > 0) {
      const primary = this.caches.get(controller.primary);
      const timer = setInterval(() => {
        for (const o of primary.informer.list()) queue.add(keyOfObject(o));
      }, this.resyncMs);
      timer.unref();
      this.timers.push(timer);
    }
    for (const w of controller.watches)
      on(w.kind, w.map as (o: ObjectOf<WatchedKind>) => readonly string[]);
    for (const source of controller.sources ?? []) {
      this.unsubscribe.push(
        source((key) => {
          queue.add(key);
        }),
      );
    }
  }

  /**
   * Starts every controller's workers. Call once all the caches the controllers read have synced,
   * as controller-runtime does: before that a reconcile could see a Cluster without its
   * DCSCluster, a deployment without its MachineSets, a pool without its machines, and write
   * what it concludes from that (a condition flap, a spurious MachineSet, volumes detached).
   */
  start(): void {
    for (const q of this.queues) q.start();
  }

  metrics(): ControllerMetrics[] {
    return this.queues.map((q) => ({
      name: q.name,
      reconciles: q.reconciles,
      errors: q.errors,
      queued: q.length,
    }));
  }

  /** Resolves when no queue has work (simulated timers may still be pending). */
  async idle(): Promise<void> {
    for (let i = 0; i < 3; i++) await Promise.all(this.queues.map((q) => q.idle()));
  }

  async stop(): Promise<void> {
    for (const t of this.timers) clearInterval(t);
    for (const u of this.unsubscribe) u();
    for (const q of this.queues) q.stop();
    await this.factory.stop();
  }
}
