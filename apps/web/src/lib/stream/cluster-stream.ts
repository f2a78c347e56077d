import {
  parseStreamEvent,
  parseUpstreamStatus,
  type StreamEvent,
  type UpstreamStatus,
} from '@dcs/domain';
import { apiUrl } from '../api-client';

/**
 * One SSE connection per open cluster page. Events are buffered and handed over in batches, at
 * most one every `flushMs`, so that hundreds of machine events a second cost one cache update and
 * one render each batch, never a long task. As the BFF's stream does (issue 28), a quiet stream
 * hands its first change over at once (on the next task, with whatever the same read of the
 * socket brought); only events that follow within `flushMs` of a hand-over wait for the window's
 * end. EventSource reconnects by itself and sends
 * Last-Event-ID; the BFF answers a gap with `resync`.
 */

export type StreamState = 'connecting' | 'live' | 'reconnecting';

export interface StreamStatus {
  state: StreamState;
  /** When the last event or heartbeat arrived (ms since epoch). */
  lastEventAt: number | undefined;
  /**
   * The console server's own connection to the management cluster, as it last said (the
   * `upstream` event, repeated by heartbeats); undefined until it says anything.
   */
  upstream?: UpstreamStatus;
}

export interface ClusterStreamOptions {
  namespace: string;
  cluster: string;
  onBatch: (events: StreamEvent[]) => void;
  /** At most one hand-over this often, ms (default `FLUSH_MS`). */
  flushMs?: number;
  /** For tests: an EventSource stand-in. */
  eventSource?: (url: string) => EventSource;
}

/**
 * The browser's batch window: at 200 events/s, 20 cache updates and renders a second. It was a
 * fixed 100 ms wait after every first event (issue 28: ~50 of the 72 ms p50 of click to screen).
 */
export const FLUSH_MS = 50;
const RETRY_MAX_MS = 30_000;
/** How stale `lastEventAt` may be while the stream is live (the indicator counts seconds). */
const ALIVE_RESOLUTION_MS = 1000;

export class ClusterStream {
  readonly #options: ClusterStreamOptions;
  #source: EventSource | undefined;
  #buffer: StreamEvent[] = [];
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** When the last batch was handed over (ms since epoch). */
  #lastFlush = Number.NEGATIVE_INFINITY;
  #retryTimer: ReturnType<typeof setTimeout> | undefined;
  #retries = 0;
  #closed = false;
  #status: StreamStatus = { state: 'connecting', lastEventAt: undefined };
  readonly #listeners = new Set<() => void>();

  constructor(options: ClusterStreamOptions) {
    this.#options = options;
  }

  get status(): StreamStatus {
    return this.#status;
  }

  subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  getStatus = (): StreamStatus => this.#status;

  start(): void {
    this.#closed = false;
    this.#open();
  }

  close(): void {
    this.#closed = true;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    if (this.#retryTimer !== undefined) clearTimeout(this.#retryTimer);
    this.#timer = undefined;
    this.#retryTimer = undefined;
    this.#source?.close();
    this.#source = undefined;
    this.#buffer = [];
  }

  #setStatus(next: Partial<StreamStatus>): void {
    const merged = { ...this.#status, ...next };
    if (
      merged.state === this.#status.state &&
      merged.lastEventAt === this.#status.lastEventAt &&
      sameUpstream(merged.upstream, this.#status.upstream)
    )
      return;
    this.#status = merged;
    for (const l of this.#listeners) l();
  }

  #open(): void {
    const { namespace, cluster } = this.#options;
    const url = apiUrl('/stream', { cluster: `${namespace}/${cluster}` });
    const source = this.#options.eventSource?.(url) ?? new EventSource(url);
    this.#source = source;
    source.onopen = () => {
      this.#retries = 0;
      this.#setStatus({ state: 'live', lastEventAt: Date.now() });
    };
    source.onmessage = (msg: MessageEvent<string>) => {
      this.#alive();
      const event = parseStreamEvent(msg.data);
      if (event) this.#push(event);
    };
    source.addEventListener('heartbeat', (msg: MessageEvent<string>) => {
      this.#alive(parseUpstreamStatus(msg.data));
    });
    source.addEventListener('upstream', (msg: MessageEvent<string>) => {
      this.#alive(parseUpstreamStatus(msg.data));
    });
    source.onerror = () => {
      if (this.#closed) return;
      this.#setStatus({ state: 'reconnecting' });
      // CLOSED: the browser gave up (an HTTP error); CONNECTING: it retries by itself.
      if (source.readyState === EventSource.CLOSED) {
        source.close();
        const delay = Math.min(RETRY_MAX_MS, 1000 * 2 ** this.#retries);
        this.#retries++;
        this.#retryTimer = setTimeout(() => {
          this.#retryTimer = undefined;
          if (!this.#closed) this.#open();
        }, delay);
      }
    };
  }

  #alive(upstream?: UpstreamStatus): void {
    // The freshness shown is in seconds: a busy stream (200 events/s) that re-rendered every
    // subscriber per message cost a React commit each. Within a second of the last stamp, only a
    // change of state or of the upstream's status is news.
    const last = this.#status.lastEventAt;
    if (
      this.#status.state === 'live' &&
      last !== undefined &&
      Date.now() - last < ALIVE_RESOLUTION_MS &&
      (upstream === undefined || sameUpstream(upstream, this.#status.upstream))
    )
      return;
    this.#setStatus({
      state: 'live',
      lastEventAt: Date.now(),
      ...(upstream !== undefined ? { upstream } : {}),
    });
  }

  #push(event: StreamEvent): void {
    this.#buffer.push(event);
    if (this.#timer !== undefined) return;
    const wait = this.#lastFlush + (this.#options.flushMs ?? FLUSH_MS) - Date.now();
    this.#timer = setTimeout(
      () => {
        this.#flush();
      },
      Math.max(0, wait),
    );
  }

  #flush(): void {
    this.#timer = undefined;
    this.#lastFlush = Date.now();
    const batch = this.#buffer;
    this.#buffer = [];
    if (batch.length > 0 && !this.#closed) this.#options.onBatch(batch);
  }
}

function sameUpstream(a: UpstreamStatus | undefined, b: UpstreamStatus | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  if (a.state === 'connected' || b.state === 'connected') return a.state === b.state;
  return a.since === b.since && a.reason === b.reason;
}
