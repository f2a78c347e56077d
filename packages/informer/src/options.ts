import type { KubeObject } from './kube-object';
import type { BackoffOptions } from './backoff';

/** Where an error happened. `list`/`watch` errors are retried with backoff; the loop never gives up. */
/**
 * `transform`: the options' transform threw for one object; that object is left out of the cache
 * (as if it did not exist, so a stale copy is never shown as current) and the stream goes on.
 */
export type ErrorPhase = 'list' | 'watch' | 'handler' | 'index' | 'transform';

export interface ErrorInfo {
  /** The informer's resource, as in its metrics. */
  readonly resource: string;
  readonly phase: ErrorPhase;
  /** For `list`/`watch`: the delay before the next try. */
  readonly retryInMs?: number;
}

export interface StaleInfo {
  readonly resource: string;
  /** How long the stream had been silent (no event, no bookmark). */
  readonly quietMs: number;
  /** The resourceVersion the watch resumes from. */
  readonly resourceVersion: string;
  /** `alarm`: our staleness timer; `idle-timeout`: the transport's inactivity timeout. */
  readonly source: 'alarm' | 'idle-timeout';
}

export interface RelistInfo {
  readonly resource: string;
  /**
   * `initial`: the first LIST; `gone`: the resourceVersion expired (410) and we relisted;
   * `requested`: the caller asked for it (`retryNow({ relist: true })`).
   */
  readonly reason: 'initial' | 'gone' | 'requested';
  readonly added: number;
  readonly modified: number;
  readonly deleted: number;
  readonly objects: number;
}

/** Observers of an informer's health. They must not throw; what they throw is ignored. */
export interface InformerHooks {
  readonly onError?: (error: Error, info: ErrorInfo) => void;
  /** A watch was silent for `staleAfterMs` and was restarted. A quiet watch is not an error. */
  readonly onStale?: (info: StaleInfo) => void;
  readonly onRelist?: (info: RelistInfo) => void;
  /** A watch connected again after a run of failures: the server answers again. */
  readonly onRecovered?: (info: RecoveredInfo) => void;
}

export interface RecoveredInfo {
  readonly resource: string;
  /** How long the run of failures lasted. */
  readonly failedForMs: number;
}

export interface InformerOptions extends InformerHooks {
  /** Objects per LIST page (`limit`). Default 500, as client-go. */
  readonly pageSize?: number;
  /**
   * Restart a watch from which neither an event nor a bookmark arrived for this long, and
   * report it through `onStale`. Real API servers send a bookmark about once a minute, the
   * embedded one every 10 s. Default 90 s; 0 turns the alarm off.
   */
  readonly staleAfterMs?: number;
  /**
   * Socket inactivity timeout of a WATCH request (before the response headers it acts as the
   * connect timeout). When it fires on a connected stream, the stream counts as quiet, like the
   * alarm. Default: `staleAfterMs` + 30 s, so that the alarm fires first; with the alarm off it is
   * the only guard against a dead connection (default then 120 s).
   */
  readonly idleTimeoutMs?: number;
  /** Inactivity timeout of each LIST request. Default 60 s. */
  readonly listTimeoutMs?: number;
  /**
   * `timeoutSeconds` of each watch request is drawn from this range so that streams recycle
   * and a fleet of clients does not reconnect in lockstep. Default 300–600 s, as client-go.
   */
  readonly watchTimeoutSeconds?: { readonly min: number; readonly max: number };
  /**
   * A watch that ends cleanly sooner than this without delivering anything is treated as an
   * error (with backoff), so a misbehaving server or proxy cannot make us spin. Default 1 s,
   * as client-go's "very short watch".
   */
  readonly minWatchMs?: number;
  readonly backoff?: BackoffOptions;
  /** Randomness for jitter and `timeoutSeconds`; tests pin it. Default Math.random. */
  readonly random?: () => number;
  /**
   * Applied to every object of a LIST and every watch event before it is cached and handed to
   * handlers (client-go's `SetTransform`): e.g. `stripManagedFields` for a cache that never
   * reads them, which is what controller-runtime's caches commonly do to halve their memory.
   * It must keep `metadata.name`, `namespace` and `resourceVersion`; it may mutate its argument
   * (each object is decoded for this informer alone). `cached` is the version of the same
   * object the cache holds when one does (an update), already transformed: read it, never
   * change it (`internStrings` takes its strings where they are equal).
   */
  readonly transform?: (object: KubeObject, cached?: KubeObject) => KubeObject;
}

/** A `transform` that drops `metadata.managedFields` (controller-runtime's TransformStripManagedFields). */
export function stripManagedFields(object: KubeObject): KubeObject {
  const metadata = object.metadata as { managedFields?: unknown } | undefined;
  if (metadata && 'managedFields' in metadata) delete metadata.managedFields;
  return object;
}

export interface ResolvedOptions {
  readonly pageSize: number;
  readonly staleAfterMs: number;
  readonly idleTimeoutMs: number;
  readonly listTimeoutMs: number;
  readonly watchTimeoutSeconds: { readonly min: number; readonly max: number };
  readonly minWatchMs: number;
  readonly random: () => number;
}

export function resolveOptions(options: InformerOptions): ResolvedOptions {
  const staleAfterMs = Math.max(0, options.staleAfterMs ?? 90_000);
  const min = Math.max(1, Math.floor(options.watchTimeoutSeconds?.min ?? 300));
  const max = Math.max(min, Math.floor(options.watchTimeoutSeconds?.max ?? 2 * min));
  return {
    pageSize: Math.max(0, Math.floor(options.pageSize ?? 500)),
    staleAfterMs,
    idleTimeoutMs: options.idleTimeoutMs ?? (staleAfterMs > 0 ? staleAfterMs + 30_000 : 120_000),
    listTimeoutMs: options.listTimeoutMs ?? 60_000,
    watchTimeoutSeconds: { min, max },
    minWatchMs: options.minWatchMs ?? 1_000,
    random: options.random ?? Math.random,
  };
}
