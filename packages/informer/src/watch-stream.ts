import type { IncomingMessage } from 'node:http';
import type { KubeConfigLike } from './kubeconfig';
import { ApiError, asError, isGoneStatus, isRecord, toStatus } from './api-error';
import { deferred } from './deferred';
import { readText, startGet } from './transport';

/**
 * Why one stream ended. The informer's loop decides what each means:
 * `ended` — the server closed it cleanly (its `timeoutSeconds` ran out): resume, no error;
 * `quiet` — nothing arrived for too long: restart and report, no error;
 * `gone` — our resourceVersion is too old: relist;
 * `error` — anything else: back off, then resume;
 * `stopped` — we closed it;
 * `relist` — the caller asked for a fresh LIST.
 */
export type StreamEnd =
  | { readonly kind: 'ended' }
  | { readonly kind: 'quiet'; readonly source: 'alarm' | 'idle-timeout' }
  | { readonly kind: 'gone'; readonly error: ApiError }
  | { readonly kind: 'error'; readonly error: Error }
  | { readonly kind: 'stopped' }
  /** The caller asked for a fresh LIST (`retryNow({ relist: true })`): not an error. */
  | { readonly kind: 'relist' };

export interface StreamCallbacks {
  /** One decoded watch event; never called after the stream has ended. */
  onEvent(type: string, object: unknown): void;
  /** The server answered 200: the stream is up. */
  onConnected(): void;
}

export interface WatchStream {
  /** Resolves once, with the first reason the stream ended. */
  readonly ended: Promise<StreamEnd>;
  /** Resolves when the request is finished or destroyed: no socket of it is left. */
  readonly closed: Promise<void>;
  /** Ends the stream with `reason` (the first call wins) and aborts the request at once. */
  end(reason: StreamEnd): void;
}

/**
 * Opens one WATCH request (`url` carries `watch=true` and the query) and decodes its stream of
 * JSON lines.
 *
 * Why not client-node's `Watch` (watch.js in 2.0.1), although it does the same in 60 lines:
 * - `watch()` hands out its AbortController only once response headers arrive, so a request to
 *   a server that accepted the connection but does not answer cannot be aborted, and `stop()`
 *   would hang until its timer fires;
 * - that timer (`requestTimeoutMs`, 30 s without data) is private, and real API servers send
 *   bookmarks only about once a minute: on a quiet resource every stream would die before its
 *   first bookmark, the resourceVersion would never advance, and after etcd compaction every
 *   resume would become a 410 and a full relist;
 * - it calls our callback inside a try/catch that swallows whatever the callback throws, and it
 *   skips lines that are not JSON, which silently loses an event;
 * - on a non-200 answer it drops the Status body, so a 410 and its reason cannot be told apart
 *   from other failures except by the number.
 * And why not `ListWatch`/`makeInformer` (cache.js): it never sends `allowWatchBookmarks`, stops
 * for good on any error but 410/timeout (the caller must restart it), has no jitter, leaves the
 * LIST and its pagination to the caller, and passes no old object to update/delete handlers.
 * The request goes through `startGet`, which applies the kubeconfig with client-node's own
 * `applyToHTTPSOptions`, exactly as for LIST.
 */
export function openWatchStream(
  kc: KubeConfigLike,
  url: URL,
  idleTimeoutMs: number,
  callbacks: StreamCallbacks,
): WatchStream {
  const ended = deferred<StreamEnd>();
  const closed = deferred<undefined>();
  const abort = new AbortController();
  let settled = false;
  let connected = false;
  let timedOut = false;

  const end = (reason: StreamEnd): void => {
    if (settled) return;
    settled = true;
    abort.abort();
    ended.resolve(reason);
  };

  // A timeout after the headers only means the stream was quiet; before, the server is not
  // answering, which is an error.
  const fail = (error: Error): void => {
    if (!timedOut) end({ kind: 'error', error });
    else if (connected) end({ kind: 'quiet', source: 'idle-timeout' });
    else end({ kind: 'error', error: new Error(`no response within ${idleTimeoutMs} ms`) });
  };

  const deliver = (line: string): void => {
    let event: unknown;
    try {
      event = JSON.parse(line);
    } catch {
      // Skipping it would lose an event for good; resuming replays it.
      fail(new Error('the watch stream sent a line that is not JSON'));
      return;
    }
    if (!isRecord(event) || typeof event.type !== 'string') {
      fail(new Error('the watch stream sent a line that is not a watch event'));
      return;
    }
    callbacks.onEvent(event.type, event.object);
  };

  const onResponse = (response: IncomingMessage): void => {
    const status = response.statusCode ?? 0;
    if (status !== 200) {
      readText(response, 64 * 1024).then((text) => {
        end(statusEnd(status, text));
      }, fail);
      return;
    }
    connected = true;
    callbacks.onConnected();
    response.setEncoding('utf8');
    let pending = '';
    response.on('data', (chunk: string) => {
      pending += chunk;
      let newline = pending.indexOf('\n');
      while (newline >= 0 && !settled) {
        const line = pending.slice(0, newline).trim();
        pending = pending.slice(newline + 1);
        if (line !== '') deliver(line);
        newline = pending.indexOf('\n');
      }
    });
    response.on('end', () => {
      if (pending.trim() !== '' && !settled) deliver(pending.trim());
      end({ kind: 'ended' });
    });
    response.on('error', fail);
    response.on('close', () => {
      if (!response.complete) fail(new Error('the watch stream was cut'));
    });
  };

  startGet(
    kc,
    url,
    { signal: abort.signal, idleTimeoutMs },
    {
      onResponse,
      onError: fail,
      onTimeout: () => {
        timedOut = true;
      },
      onClose: () => {
        closed.resolve(undefined);
      },
    },
  ).catch((error: unknown) => {
    // No request was made (no current cluster, a credential plugin failed, or stopped).
    end({ kind: 'error', error: asError(error) });
    closed.resolve(undefined);
  });

  return { ended: ended.promise, closed: closed.promise, end };
}

/** A non-200 answer to a WATCH: 410 (or a Status saying Expired/Gone) means relist. */
function statusEnd(httpStatus: number, text: string): StreamEnd {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  const status = toStatus(body);
  const error = new ApiError(httpStatus, status.message ?? `HTTP ${httpStatus}`, status.reason);
  return isGoneStatus({ code: httpStatus, ...(status.reason ? { reason: status.reason } : {}) })
    ? { kind: 'gone', error }
    : { kind: 'error', error };
}
