import { type KubeConfig, Watch } from '@kubernetes/client-node';
import { ApiError, asError, isRecord } from './api-error';
import { deferred } from './deferred';

/**
 * Why one stream ended. The informer's loop decides what each means:
 * `ended` — the server closed it cleanly (its `timeoutSeconds` ran out): resume, no error;
 * `quiet` — nothing arrived for too long: restart and report, no error;
 * `gone` — our resourceVersion is too old: relist;
 * `error` — anything else: back off, then resume;
 * `stopped` — we closed it.
 */
export type StreamEnd =
  | { readonly kind: 'ended' }
  | { readonly kind: 'quiet'; readonly source: 'alarm' | 'idle-timeout' }
  | { readonly kind: 'gone'; readonly error: ApiError }
  | { readonly kind: 'error'; readonly error: Error }
  | { readonly kind: 'stopped' };

export interface StreamCallbacks {
  /** One decoded watch event; never called after the stream has ended. */
  onEvent(type: string, object: unknown): void;
  /** The server answered 200: the stream is up. */
  onConnected(): void;
}

export interface WatchStream {
  /** Resolves once, with the first reason the stream ended. */
  readonly ended: Promise<StreamEnd>;
  /**
   * Resolves when the HTTP request is finished or aborted. `Watch.watch` hands out its
   * AbortController only once response headers arrive, so a request still connecting cannot be
   * aborted; it is aborted the moment it connects. `stop()` awaits this so no socket outlives it.
   */
  readonly closed: Promise<void>;
  /** Ends the stream with `reason` (first call wins) and aborts the request. */
  end(reason: StreamEnd): void;
}

/**
 * A client-node `Watch` whose inactivity timeout is `idleTimeoutMs`.
 *
 * Why we wrap `Watch` instead of using client-node's `ListWatch`/`makeInformer` (cache.js in
 * 2.0.1): ListWatch never sends `allowWatchBookmarks`, so no bookmark ever advances its
 * resourceVersion; on any error other than 410/timeout it calls the `error` callbacks and stops
 * for good (the caller must restart it); its backoff has no jitter and resets on any event; the
 * LIST is the caller's job (no pagination); a relist treats an object re-created under the same
 * name (new uid) as an update; update/delete handlers get no old object; and there is no
 * staleness alarm and no metrics. `Watch` itself is the part worth reusing: it applies the
 * kubeconfig (tokens, exec/OIDC plugins, client certificates, proxies) and splits the stream
 * into JSON lines.
 *
 * Why we change `requestTimeoutMs`: `Watch` aborts a stream after 30 s without data, but real API
 * servers send bookmarks only about once a minute, so on a quiet resource every stream would die
 * before its first bookmark, the resourceVersion would never advance, and after etcd compaction
 * (~5 min) every resume would be a 410 and a full relist. The field is private in 2.0.1's typings
 * but a plain property at runtime; if a later version renames it, the 30 s timeout simply stays
 * and is handled as a quiet stream.
 */
export function newWatch(kc: KubeConfig, idleTimeoutMs: number): Watch {
  const watch = new Watch(kc);
  if (typeof Reflect.get(watch, 'requestTimeoutMs') === 'number') {
    Reflect.set(watch, 'requestTimeoutMs', idleTimeoutMs);
  }
  return watch;
}

/** Opens one watch request (`watch=true` is added by `Watch`). */
export function openWatchStream(
  watch: Watch,
  path: string,
  query: Record<string, string | number | boolean | undefined>,
  callbacks: StreamCallbacks,
): WatchStream {
  const ended = deferred<StreamEnd>();
  let settled = false;
  let connected = false;
  let controller: AbortController | undefined;

  const end = (reason: StreamEnd): void => {
    if (settled) return;
    settled = true;
    controller?.abort();
    ended.resolve(reason);
  };

  const closed = watch
    .watch(
      path,
      query,
      // Watch calls this inside a try/catch that swallows exceptions; callers must not throw.
      (type: string, object: unknown) => {
        if (!settled) callbacks.onEvent(type, object);
      },
      (error: unknown) => {
        end(classifyDone(error, connected));
      },
    )
    .then(
      (requestController) => {
        controller = requestController;
        if (settled) {
          requestController.abort();
          return;
        }
        connected = true;
        callbacks.onConnected();
      },
      // Rejected before any request: no current cluster, or the credential plugin failed.
      (error: unknown) => {
        end({ kind: 'error', error: asError(error) });
      },
    );

  return { ended: ended.promise, closed, end };
}

/**
 * Watch reports every end through `done(err)`: `null` for a clean close, an Error with
 * `statusCode` for a non-200 answer, a `TimeoutError` when its inactivity timer fired, or the
 * network error.
 */
function classifyDone(error: unknown, connected: boolean): StreamEnd {
  if (error === null || error === undefined) return { kind: 'ended' };
  if (isRecord(error) && typeof error.statusCode === 'number') {
    const apiError = new ApiError(error.statusCode, asError(error).message);
    return error.statusCode === 410
      ? { kind: 'gone', error: apiError }
      : { kind: 'error', error: apiError };
  }
  // A timeout before the headers is a server that does not answer: an error. After, it only
  // means the stream was quiet.
  if (connected && isRecord(error) && error.name === 'TimeoutError') {
    return { kind: 'quiet', source: 'idle-timeout' };
  }
  return { kind: 'error', error: asError(error) };
}
