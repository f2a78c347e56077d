import type { KubeConfigLike } from './kubeconfig';
import type { KubeObject } from './kube-object';
import { asError, isGoneStatus, isRecord, statusError, toStatus } from './api-error';
import { Backoff } from './backoff';
import { deferred } from './deferred';
import { delay } from './delay';
import type { Delta } from './delta';
import { deliver, type EventHandlers, HandlerRegistry } from './handlers';
import { isKubeObject, listAll } from './list';
import { type InformerMetrics, type InformerState, newCounters } from './metrics';
import { objectKey } from './object-key';
import {
  type ErrorInfo,
  type InformerHooks,
  type InformerOptions,
  type RelistInfo,
  type ResolvedOptions,
  resolveOptions,
} from './options';
import { diffRelist, isSameVersion } from './relist-diff';
import { describeResource, type ResourceSpec } from './resource';
import { type IndexFunc, Store } from './store';
import { collectionUrl } from './url';
import { openWatchStream, type StreamEnd, type WatchStream } from './watch-stream';

interface WatchOutcome {
  readonly end: StreamEnd;
  /** Events and bookmarks received on the stream. */
  readonly delivered: number;
  readonly durationMs: number;
}

/**
 * A cache of one resource kept current by LIST + WATCH, with event handlers and indexes.
 *
 * The loop: LIST (paginated) → WATCH from the list's resourceVersion with bookmarks → on a clean
 * end or a quiet stream, WATCH again from the last resourceVersion seen (event or bookmark) →
 * on 410 Gone, LIST again and emit the difference as events → on any other error, back off
 * (capped, jittered) and resume. It never gives up until `stop()`.
 *
 * The type parameter is the caller's promise about the objects' shape: nothing is validated
 * beyond `metadata.name`.
 */
export class Informer<T extends KubeObject = KubeObject> {
  readonly spec: ResourceSpec;
  /** A readable name of what is watched, as in metrics and hook payloads. */
  readonly resource: string;
  #kc: KubeConfigLike;
  readonly #options: ResolvedOptions;
  /** InformerOptions.transform, or identity; `undefined` when the transform threw. */
  readonly #transform: (object: T, cached?: T) => T | undefined;
  readonly #hooks: InformerHooks;
  readonly #store: Store<T>;
  readonly #handlers = new HandlerRegistry<T>();
  readonly #backoff: Backoff;
  readonly #counters = newCounters();
  readonly #stopper = new AbortController();
  readonly #synced = deferred<undefined>();
  /** Requests still open after their stream ended (see WatchStream.closed); `stop()` awaits them. */
  readonly #closing = new Set<Promise<void>>();
  #state: InformerState = 'idle';
  #hasSynced = false;
  #resourceVersion = '';
  #startedAt = 0;
  #consecutiveFailures = 0;
  /** When the current run of consecutive failures began (epoch ms); 0 when healthy. */
  #failingSince = 0;
  #lastError = '';
  /** Aborted by `retryNow()`: cuts the backoff wait in progress short. */
  #wake: AbortController | undefined;
  #relistRequested = false;
  #loop: Promise<void> | undefined;
  #stream: WatchStream | undefined;
  #staleTimer: ReturnType<typeof setTimeout> | undefined;
  /** When the current stream last showed life (start, event or bookmark). */
  #quietSince = 0;

  constructor(kc: KubeConfigLike, spec: ResourceSpec, options: InformerOptions = {}) {
    this.spec = { ...spec };
    this.resource = describeResource(spec);
    this.#kc = kc;
    this.#options = resolveOptions(options);
    this.#hooks = options;
    const transform = options.transform;
    this.#transform = transform
      ? (o, cached) => {
          try {
            return transform(o, cached) as T;
          } catch (error) {
            // One object the transform cannot take must not stop the kind's stream (a relist
            // that threw would fail forever): it is left out, and said so.
            this.#report(error, { phase: 'transform' });
            return undefined;
          }
        }
      : (o) => o;
    this.#backoff = new Backoff(options.backoff, this.#options.random);
    this.#store = new Store<T>((error) => {
      this.#report(error, { phase: 'index' });
    });
    // `synced` rejects if stopped first; nobody has to listen for that.
    this.#synced.promise.catch(() => undefined);
  }

  /** Resolves after the first LIST is cached and its add events delivered; rejects if stopped first. */
  get synced(): Promise<void> {
    return this.#synced.promise;
  }

  get hasSynced(): boolean {
    return this.#hasSynced;
  }

  /** The resourceVersion a resumed watch starts from (last event, bookmark or LIST). Opaque. */
  get resourceVersion(): string {
    return this.#resourceVersion;
  }

  /** A method, not a getter: TypeScript would otherwise narrow it across `await`s. */
  #isStopped(): boolean {
    return this.#stopper.signal.aborted;
  }

  /** Starts the loop; calling it again, or after `stop()`, does nothing. */
  start(): this {
    if (this.#loop === undefined && !this.#isStopped()) {
      this.#startedAt = Date.now();
      this.#loop = this.#run();
    }
    return this;
  }

  /**
   * Stops for good: aborts the LIST or WATCH in flight (even one still waiting for its response
   * headers), cancels every timer, and resolves once no request, socket or timer of this
   * informer is left. `synced` rejects if it had not resolved yet.
   */
  async stop(): Promise<void> {
    if (!this.#isStopped()) {
      this.#stopper.abort();
      this.#state = 'stopped';
      this.#clearStaleTimer();
      this.#stream?.end({ kind: 'stopped' });
      if (!this.#hasSynced) {
        this.#synced.reject(new Error(`informer ${this.resource} stopped before it synced`));
      }
    }
    await this.#loop;
    await Promise.all([...this.#closing]);
  }

  list(): T[] {
    return this.#store.list();
  }

  /** One object by namespace (`undefined` or `''` for cluster-scoped) and name. */
  get(namespace: string | undefined, name: string): T | undefined {
    return this.#store.get(namespace, name);
  }

  /** One object by its `namespace/name` key. */
  getByKey(key: string): T | undefined {
    return this.#store.getByKey(key);
  }

  /** Registers a secondary index (any time; it is built over what is cached). */
  addIndex(name: string, fn: IndexFunc<T>): void {
    this.#store.addIndex(name, fn);
  }

  byIndex(name: string, value: string): T[] {
    return this.#store.byIndex(name, value);
  }

  indexValues(name: string): string[] {
    return this.#store.indexValues(name);
  }

  /**
   * Registers handlers; returns the function that unregisters them. With `replay` (default),
   * what is already cached is delivered at once as `add`, so a late subscriber of a shared
   * informer starts from the same state as an early one.
   */
  addEventHandler(handlers: EventHandlers<T>, options: { replay?: boolean } = {}): () => void {
    const remove = this.#handlers.add(handlers);
    if (options.replay ?? true) {
      for (const object of this.#store.list()) {
        deliver(handlers, { type: 'ADDED', object }, (error) => {
          this.#report(error, { phase: 'handler' });
        });
      }
    }
    return remove;
  }

  metrics(): InformerMetrics {
    const c = this.#counters;
    const now = Date.now();
    const newest = Math.max(c.lastEventAt, c.lastBookmarkAt, c.lastSyncAt);
    return {
      resource: this.resource,
      state: this.#state,
      hasSynced: this.#hasSynced,
      objects: this.#store.size,
      restarts: c.restarts,
      relists: c.relists,
      staleRestarts: c.staleRestarts,
      errors: c.errors,
      consecutiveFailures: this.#consecutiveFailures,
      failingSince: this.#failingSince,
      lastError: this.#lastError,
      backoffMs: c.backoffMs,
      listRequests: c.listRequests,
      watchRequests: c.watchRequests,
      lastEventAt: c.lastEventAt,
      lastBookmarkAt: c.lastBookmarkAt,
      lastSyncAt: c.lastSyncAt,
      lagMs: this.#startedAt === 0 ? 0 : now - (newest || this.#startedAt),
      resourceVersion: this.#resourceVersion,
    };
  }

  async #run(): Promise<void> {
    let needList = true;
    let relistReason: 'gone' | 'requested' = 'gone';
    let lastEndWasGone = false;
    while (!this.#isStopped()) {
      try {
        if (this.#relistRequested) {
          this.#relistRequested = false;
          needList = true;
          relistReason = 'requested';
          lastEndWasGone = false;
        }
        if (needList) {
          this.#state = 'listing';
          try {
            await this.#relist(this.#hasSynced ? relistReason : 'initial');
            needList = false;
            relistReason = 'gone';
          } catch (error) {
            if (!this.#isStopped()) await this.#failAndWait(error, 'list');
            continue;
          }
        }
        const { end, delivered, durationMs } = await this.#watchOnce();
        if (this.#isStopped()) break;
        switch (end.kind) {
          case 'stopped':
          case 'relist':
            break;
          case 'ended':
            // client-go's "very short watch": a clean close with nothing in it is not normal.
            if (delivered === 0 && durationMs < this.#options.minWatchMs) {
              await this.#failAndWait(
                new Error(`watch closed after ${durationMs} ms without any event`),
                'watch',
              );
            }
            break;
          case 'quiet':
            this.#counters.staleRestarts += 1;
            this.#callHook(() =>
              this.#hooks.onStale?.({
                resource: this.resource,
                quietMs: Date.now() - this.#quietSince,
                resourceVersion: this.#resourceVersion,
                source: end.source,
              }),
            );
            break;
          case 'gone':
            needList = true;
            // 410 again at once from a fresh LIST's resourceVersion: the server is unwell, and
            // relisting 5,000 objects in a tight loop would only make it worse.
            if (lastEndWasGone && delivered === 0) await this.#failAndWait(end.error, 'watch');
            break;
          case 'error':
            await this.#failAndWait(end.error, 'watch');
            break;
        }
        lastEndWasGone = end.kind === 'gone';
      } catch (error) {
        // Only a bug can land here; keep the loop alive and say so.
        if (!this.#isStopped()) await this.#failAndWait(error, 'watch');
      }
    }
    this.#state = 'stopped';
  }

  /** LIST everything, then bring the cache and the handlers in line with it. */
  async #relist(reason: RelistInfo['reason']): Promise<void> {
    const result = await listAll(this.#kc, this.spec, {
      pageSize: this.#options.pageSize,
      idleTimeoutMs: this.#options.listTimeoutMs,
      signal: this.#stopper.signal,
      onRequest: () => {
        this.#counters.listRequests += 1;
      },
    });
    if (this.#isStopped()) return;
    const fresh = new Map<string, T>();
    for (const item of result.items) {
      const key = objectKey(item);
      if (key === undefined) continue;
      const transformed = this.#transform(item as T, this.#store.getByKey(key));
      if (transformed !== undefined) fresh.set(key, transformed);
    }
    const deltas = diffRelist(this.#store.entries(), fresh);
    // The whole cache is brought up to date first: handlers then see the new list, not a mix.
    for (const delta of deltas) {
      if (delta.type === 'DELETED') {
        const key = objectKey(delta.old);
        if (key !== undefined) this.#store.remove(key);
      } else {
        this.#store.upsert(delta.object);
      }
    }
    this.#resourceVersion = result.resourceVersion;
    this.#healthy();
    this.#counters.lastSyncAt = Date.now();
    if (reason !== 'initial') this.#counters.relists += 1;
    for (const delta of deltas) this.#dispatch(delta);
    this.#callHook(() =>
      this.#hooks.onRelist?.({
        resource: this.resource,
        reason,
        added: deltas.filter((d) => d.type === 'ADDED').length,
        modified: deltas.filter((d) => d.type === 'MODIFIED').length,
        deleted: deltas.filter((d) => d.type === 'DELETED').length,
        objects: this.#store.size,
      }),
    );
    if (!this.#hasSynced) {
      this.#hasSynced = true;
      this.#synced.resolve(undefined);
    }
  }

  /** One WATCH request, from open to end. */
  async #watchOnce(): Promise<WatchOutcome> {
    const started = Date.now();
    if (this.#counters.watchRequests > 0) this.#counters.restarts += 1;
    this.#counters.watchRequests += 1;
    let delivered = 0;
    const { min, max } = this.#options.watchTimeoutSeconds;
    const timeoutSeconds = Math.min(
      max,
      min + Math.floor(this.#options.random() * (max - min + 1)),
    );
    const url = collectionUrl(this.#kc, this.spec, {
      watch: 'true',
      // Omitted when empty: '' would ask for "the current state as synthetic ADDED events".
      resourceVersion: this.#resourceVersion,
      allowWatchBookmarks: 'true',
      timeoutSeconds: String(timeoutSeconds),
    });
    this.#quietSince = started;
    this.#state = 'connecting';
    const stream: WatchStream = openWatchStream(this.#kc, url, this.#options.idleTimeoutMs, {
      onConnected: () => {
        this.#state = 'watching';
        const failingSince = this.#failingSince;
        this.#healthy();
        this.#backoff.healthy(Date.now());
        if (failingSince > 0) {
          const info = { resource: this.resource, failedForMs: Date.now() - failingSince };
          this.#callHook(() => this.#hooks.onRecovered?.(info));
        }
      },
      onEvent: (type, object) => {
        try {
          if (this.#applyEvent(type, object, stream)) {
            delivered += 1;
            this.#quietSince = Date.now();
            this.#armStaleTimer(stream);
          }
        } catch (error) {
          stream.end({ kind: 'error', error: asError(error) });
        }
      },
    });
    this.#stream = stream;
    // Armed before the response too: a server that never answers is as stale as a silent one.
    this.#armStaleTimer(stream);
    const end = await stream.ended;
    this.#clearStaleTimer();
    this.#stream = undefined;
    this.#closing.add(stream.closed);
    void stream.closed.then(() => this.#closing.delete(stream.closed));
    return { end, delivered, durationMs: Date.now() - started };
  }

  /** Applies one watch event; returns whether it showed the stream alive. */
  #applyEvent(type: string, object: unknown, stream: WatchStream): boolean {
    if (type === 'ERROR') {
      const status = toStatus(object);
      stream.end(
        isGoneStatus(status)
          ? { kind: 'gone', error: statusError(status, 410) }
          : { kind: 'error', error: statusError(status, 500) },
      );
      return false;
    }
    if (type === 'BOOKMARK') {
      // A bookmark carries only metadata.resourceVersion: "everything up to here was sent".
      const metadata = isRecord(object) ? object.metadata : undefined;
      const rv = isRecord(metadata) ? metadata.resourceVersion : undefined;
      if (typeof rv === 'string' && rv !== '') this.#resourceVersion = rv;
      this.#counters.lastBookmarkAt = Date.now();
      return true;
    }
    if (!isKubeObject(object)) return false;
    const key = type === 'MODIFIED' ? objectKey(object) : undefined;
    const transformed = this.#transform(
      object as T,
      key === undefined ? undefined : this.#store.getByKey(key),
    );
    // Left out: a copy cached before is no longer what the server holds.
    const item = transformed ?? (object as T);
    if (transformed === undefined) this.#delete(item);
    else if (type === 'ADDED' || type === 'MODIFIED') this.#upsert(item);
    else if (type === 'DELETED') this.#delete(item);
    else return false;
    const rv = item.metadata?.resourceVersion;
    if (rv) this.#resourceVersion = rv;
    this.#counters.lastEventAt = Date.now();
    return true;
  }

  #upsert(object: T): void {
    const key = objectKey(object);
    if (key === undefined) return;
    const old = this.#store.getByKey(key);
    // The same version again (a replay after resume): nothing changed.
    if (old && isSameVersion(old, object)) return;
    this.#store.upsert(object);
    this.#dispatch(old ? { type: 'MODIFIED', object, old } : { type: 'ADDED', object });
  }

  #delete(object: T): void {
    const key = objectKey(object);
    if (key === undefined) return;
    const old = this.#store.remove(key);
    if (old) this.#dispatch({ type: 'DELETED', object, old, finalStateUnknown: false });
  }

  #dispatch(delta: Delta<T>): void {
    this.#handlers.dispatch(delta, (error) => {
      this.#report(error, { phase: 'handler' });
    });
  }

  #armStaleTimer(stream: WatchStream): void {
    this.#clearStaleTimer();
    const ms = this.#options.staleAfterMs;
    if (ms <= 0 || this.#isStopped()) return;
    this.#staleTimer = setTimeout(() => {
      this.#staleTimer = undefined;
      stream.end({ kind: 'quiet', source: 'alarm' });
    }, ms);
  }

  #clearStaleTimer(): void {
    if (this.#staleTimer !== undefined) clearTimeout(this.#staleTimer);
    this.#staleTimer = undefined;
  }

  #healthy(): void {
    this.#consecutiveFailures = 0;
    this.#failingSince = 0;
    this.#lastError = '';
  }

  /**
   * Retries at once if the loop is waiting out a backoff delay; otherwise does nothing. For a
   * caller that knows the cause of the failures is gone (its kubeconfig was rewritten, the
   * server is back), so that recovery does not wait up to the backoff cap.
   *
   * With `relist`, the next step is a fresh LIST (diffed with the cache as after a 410), and a
   * watch in progress is ended for it: for when the server may not be the one whose
   * resourceVersions we hold (a new kubeconfig, a cluster re-created without its state). A
   * resourceVersion from another history is not refused by every server — one may wait for it
   * to come, and the cache would silently stop following the cluster.
   */
  retryNow(options: { relist?: boolean } = {}): void {
    if (options.relist === true && !this.#isStopped() && this.#loop !== undefined) {
      this.#relistRequested = true;
      this.#stream?.end({ kind: 'relist' });
    }
    this.#wake?.abort();
  }

  /**
   * Continues with another kubeconfig (a rewritten file: new server, CA or credentials) and
   * relists from it, as `retryNow({ relist: true })`. A new object, not the old one reloaded in
   * place: client-node caches an HTTPS agent per (cluster, user) name inside a KubeConfig, with
   * the CA it was created with, so a reloaded CA under the same names would go unused.
   */
  useKubeConfig(kc: KubeConfigLike): void {
    this.#kc = kc;
    this.retryNow({ relist: true });
  }

  /** Counts and reports a failure, then waits the backoff delay (cut short by `stop()`). */
  async #failAndWait(error: unknown, phase: 'list' | 'watch'): Promise<void> {
    this.#counters.errors += 1;
    if (this.#consecutiveFailures === 0) this.#failingSince = Date.now();
    this.#consecutiveFailures += 1;
    this.#lastError = asError(error).message;
    const ms = this.#backoff.next(Date.now());
    this.#counters.backoffMs = ms;
    this.#report(error, { phase, retryInMs: ms });
    this.#state = 'backoff';
    const wake = new AbortController();
    this.#wake = wake;
    await delay(ms, AbortSignal.any([this.#stopper.signal, wake.signal]));
    this.#wake = undefined;
  }

  #report(error: unknown, info: Omit<ErrorInfo, 'resource'>): void {
    this.#callHook(() =>
      this.#hooks.onError?.(asError(error), { ...info, resource: this.resource }),
    );
  }

  /** Hooks are observers: one that throws must not break the loop. */
  #callHook(call: () => void): void {
    try {
      call();
    } catch {
      // Ignored on purpose: there is nowhere left to report a failing reporter.
    }
  }
}
