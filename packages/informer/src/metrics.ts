/** What the informer is doing right now. */
export type InformerState = 'idle' | 'listing' | 'connecting' | 'watching' | 'backoff' | 'stopped';

/**
 * A snapshot of one informer's health, as plain numbers for /metrics. Times are epoch
 * milliseconds, 0 meaning "never".
 */
export interface InformerMetrics {
  /** The resource, e.g. `machines.cluster.x-k8s.io/v1beta1 -n default -l a=b`. */
  readonly resource: string;
  readonly state: InformerState;
  readonly hasSynced: boolean;
  /** Objects in the cache. */
  readonly objects: number;
  /** Watches started after the first, whatever the reason (clean end, quiet, error, relist). */
  readonly restarts: number;
  /** LISTs after the initial one (each after a 410). */
  readonly relists: number;
  /** Restarts because the stream was silent (staleness alarm or transport idle timeout). */
  readonly staleRestarts: number;
  /** LIST/WATCH failures (each followed by backoff). Quiet or cleanly ended streams are not errors. */
  readonly errors: number;
  /** Failures since the last healthy period; 0 when healthy. */
  readonly consecutiveFailures: number;
  /**
   * When the current run of consecutive failures began; 0 when healthy (a LIST completed or a
   * watch connected since). With `lastError`, what a readiness probe needs to say "failing for
   * how long, and why".
   */
  readonly failingSince: number;
  /** The message of the last LIST/WATCH failure of the current run; '' when healthy. */
  readonly lastError: string;
  /** The last backoff delay chosen. */
  readonly backoffMs: number;
  /** HTTP requests made: LIST pages and WATCH requests. */
  readonly listRequests: number;
  readonly watchRequests: number;
  /** Last ADDED/MODIFIED/DELETED event. */
  readonly lastEventAt: number;
  readonly lastBookmarkAt: number;
  /** Last completed LIST. */
  readonly lastSyncAt: number;
  /**
   * now − the newest sign that the cache is current (an event, a bookmark or a completed LIST);
   * before the first of those, the time since start.
   */
  readonly lagMs: number;
  /** The resourceVersion a resumed watch starts from. Opaque. */
  readonly resourceVersion: string;
}

/** The mutable counters behind a snapshot. */
export interface Counters {
  restarts: number;
  relists: number;
  staleRestarts: number;
  errors: number;
  backoffMs: number;
  listRequests: number;
  watchRequests: number;
  lastEventAt: number;
  lastBookmarkAt: number;
  lastSyncAt: number;
}

export function newCounters(): Counters {
  return {
    restarts: 0,
    relists: 0,
    staleRestarts: 0,
    errors: 0,
    backoffMs: 0,
    listRequests: 0,
    watchRequests: 0,
    lastEventAt: 0,
    lastBookmarkAt: 0,
    lastSyncAt: 0,
  };
}
