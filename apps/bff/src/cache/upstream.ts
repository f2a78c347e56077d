import type { UpstreamStatus } from '@dcs/domain';
import type { SourceHealth } from './source';

/**
 * Whether the management cluster's API server is reachable, as the cache's watches see it
 * (issue 10 item 4). Pure: `/readyz`, the stream's `upstream` event and the mutation gate all ask
 * this one function.
 *
 * Disconnected when at least one watch has been failing without a break for `downAfterMs` or
 * longer: a blip shorter than that (a dropped connection, a server restart of a few seconds, a
 * 410 and relist) is absorbed by the informers' retries and says nothing. One failing watch is
 * enough: the data of its kind is then stale, and the views built from it with it. `since` is the
 * start of the oldest such run; `reason` its resource and last error.
 */
export function upstreamStatus(
  health: readonly SourceHealth[],
  now: number,
  downAfterMs: number,
): UpstreamStatus {
  const failing = health
    .filter((h) => h.failingSince > 0 && now - h.failingSince >= downAfterMs)
    .sort((a, b) => a.failingSince - b.failingSince);
  const first = failing[0];
  if (!first) return { state: 'connected' };
  const others = failing.length > 1 ? ` (and ${String(failing.length - 1)} more watches)` : '';
  return {
    state: 'disconnected',
    since: new Date(first.failingSince).toISOString(),
    reason: `${first.resource}: ${first.lastError || 'failing'}${others}`,
  };
}

/**
 * Keeps `upstreamStatus` current (checked every `intervalMs`) and tells listeners when it changes
 * state: the hub (stream events, resync on recovery) and the log. Reads are instant: `/readyz`
 * and the mutation gate ask `status()`, which re-evaluates on the spot.
 */
export class UpstreamMonitor {
  readonly #health: () => readonly SourceHealth[];
  readonly #downAfterMs: number;
  readonly #now: () => number;
  readonly #listeners = new Set<(status: UpstreamStatus, previous: UpstreamStatus) => void>();
  readonly #timer: NodeJS.Timeout;
  #last: UpstreamStatus = { state: 'connected' };

  constructor(
    health: () => readonly SourceHealth[],
    options: { downAfterMs: number; intervalMs?: number; now?: () => number },
  ) {
    this.#health = health;
    this.#downAfterMs = options.downAfterMs;
    this.#now = options.now ?? Date.now;
    this.#timer = setInterval(() => {
      this.status();
    }, options.intervalMs ?? 1_000);
    this.#timer.unref();
  }

  /** The status now; listeners hear of a change of state before this returns. */
  status(): UpstreamStatus {
    const next = upstreamStatus(this.#health(), this.#now(), this.#downAfterMs);
    const previous = this.#last;
    this.#last = next;
    if (next.state !== previous.state) {
      for (const listener of this.#listeners) listener(next, previous);
    }
    return next;
  }

  onChange(listener: (status: UpstreamStatus, previous: UpstreamStatus) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#listeners.clear();
  }
}
