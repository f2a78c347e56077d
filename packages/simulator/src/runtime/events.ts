import { kindTable } from '@dcs/domain';
import type { SimClock } from '../logic/clock';
import type { KubeClient, KubeObject } from './client';

/**
 * core/v1 Events as client-go's recorder writes them: one Event per (object, type, reason,
 * message), named `<object>.<hex time>`; a repeat within ten minutes bumps `count` and
 * `lastTimestamp` instead of adding an Event. Timestamps are wall-clock time, as a real
 * recorder's; the ten minutes are simulated (a repeat ten simulated minutes later is a new
 * Event, whatever --time-scale). Recording never blocks a
 * reconcile: events go out in the background, at most `concurrency` at a time, and when the API
 * server cannot keep up the oldest pending ones are dropped (and counted), as client-go does.
 *
 * Also as client-go's EventCorrelator (its defaults): a source may write 25 Events about one object,
 * then one more per 5 minutes (EventSourceObjectSpamFilter, a token bucket per source and
 * involved object; simulated minutes here, as the aggregation window); the rest are filtered and
 * counted. A MachineSet creating 100 machines writes 25 `SuccessfulCreate` Events, not 100 (issue
 * 14: 1.6 of the 30 requests per machine at the benchmark's scale were such Events). Both caches
 * keep their 4,096 most recently used keys (client-go's LRU size).
 */

export type EventType = 'Normal' | 'Warning';

interface Seen {
  name: string;
  namespace: string;
  count: number;
  firstTimestamp: string;
  lastAt: number;
}

const AGGREGATE_WINDOW_MS = 10 * 60_000;
/** client-go's maxLruCacheEntries, defaultSpamBurst and 1 / defaultSpamQPS. */
const MAX_KEYS = 4096;
export const SPAM_BURST = 25;
export const SPAM_REFILL_MS = 5 * 60_000;

interface Bucket {
  tokens: number;
  at: number;
}

/** Map as an LRU: a key used moves to the end; the first is the least recently used. */
function touch<V>(map: Map<string, V>, key: string, value: V): void {
  map.delete(key);
  if (map.size >= MAX_KEYS) {
    const oldest = map.keys().next().value;
    if (oldest !== undefined) map.delete(oldest);
  }
  map.set(key, value);
}

export interface EventRecorderOptions {
  enabled?: boolean;
  concurrency?: number;
  maxPending?: number;
}

export class EventRecorder {
  private readonly seen = new Map<string, Seen>();
  private readonly spam = new Map<string, Bucket>();
  private readonly pending: (() => Promise<void>)[] = [];
  private active = 0;
  private seq = 0;
  private stopped = false;
  private idleWaiters: (() => void)[] = [];
  readonly counters = { emitted: 0, filtered: 0, dropped: 0, failed: 0 };

  constructor(
    private readonly client: KubeClient,
    private readonly clock: SimClock,
    private readonly options: EventRecorderOptions = {},
  ) {}

  emit(obj: KubeObject, type: EventType, reason: string, message: string, component: string): void {
    if (this.options.enabled === false || this.stopped) return;
    const namespace = obj.metadata.namespace ?? 'default';
    const name = obj.metadata.name ?? '';
    const uid = obj.metadata.uid ?? `${obj.kind}/${namespace}/${name}`;
    const now = this.clock.now();
    const nowISO = this.clock.stamp();
    const wall = this.clock.wallNow();
    this.counters.emitted++;
    if (!this.allow(`${component}\u0000${obj.apiVersion}\u0000${obj.kind}\u0000${uid}`, now)) {
      this.counters.filtered++;
      return;
    }
    const key = `${uid}\u0000${type}\u0000${reason}\u0000${message}`;
    const previous = this.seen.get(key);
    if (previous && now - previous.lastAt < AGGREGATE_WINDOW_MS) {
      previous.count++;
      previous.lastAt = now;
      touch(this.seen, key, previous);
      const { count } = previous;
      this.enqueue(() =>
        this.client
          .patch(kindTable.Event, previous.namespace, previous.name, 'merge', {
            count,
            lastTimestamp: nowISO,
          })
          .then(() => undefined),
      );
      return;
    }
    // client-go names events <object>.<unix nanoseconds in hex>; a sequence number keeps them unique.
    const eventName = `${name}.${Math.floor(wall).toString(16)}${(this.seq++ % 0x100000).toString(16).padStart(5, '0')}`;
    touch(this.seen, key, {
      name: eventName,
      namespace,
      count: 1,
      firstTimestamp: nowISO,
      lastAt: now,
    });
    const event = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: eventName, namespace },
      involvedObject: {
        apiVersion: obj.apiVersion,
        kind: obj.kind,
        name,
        namespace,
        ...(obj.metadata.uid ? { uid: obj.metadata.uid } : {}),
        ...(obj.metadata.resourceVersion ? { resourceVersion: obj.metadata.resourceVersion } : {}),
      },
      reason,
      message,
      type,
      count: 1,
      firstTimestamp: nowISO,
      lastTimestamp: nowISO,
      source: { component },
      reportingComponent: component,
      reportingInstance: `${component}-sim`,
    };
    this.enqueue(() => this.client.createAndForget(kindTable.Event, event));
  }

  /** EventSourceObjectSpamFilter: takes a token of the source's bucket for the object, if it has one. */
  private allow(key: string, now: number): boolean {
    const previous = this.spam.get(key);
    const bucket = previous
      ? {
          tokens: Math.min(SPAM_BURST, previous.tokens + (now - previous.at) / SPAM_REFILL_MS),
          at: now,
        }
      : { tokens: SPAM_BURST, at: now };
    touch(this.spam, key, bucket);
    if (bucket.tokens < 1) return false;
    bucket.tokens -= 1;
    return true;
  }

  /** Resolves when every pending event has been written. */
  flush(): Promise<void> {
    if (this.pending.length === 0 && this.active === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  stop(): void {
    this.stopped = true;
    this.pending.length = 0;
  }

  private enqueue(send: () => Promise<void>): void {
    const max = this.options.maxPending ?? 5000;
    if (this.pending.length >= max) {
      this.pending.shift();
      this.counters.dropped++;
    }
    this.pending.push(send);
    this.pump();
  }

  private pump(): void {
    const concurrency = this.options.concurrency ?? 4;
    while (this.active < concurrency && this.pending.length > 0) {
      const send = this.pending.shift();
      if (!send) break;
      this.active++;
      send()
        .catch(() => {
          this.counters.failed++;
        })
        .finally(() => {
          this.active--;
          this.pump();
        });
    }
    if (this.pending.length === 0 && this.active === 0) {
      const waiters = this.idleWaiters;
      this.idleWaiters = [];
      for (const w of waiters) w();
    }
  }
}
