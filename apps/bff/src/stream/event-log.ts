import type { LoggedEvent } from './events';

/**
 * The replay buffer of one room: the last `capacity` events, so that a client that reconnects
 * with `Last-Event-ID` gets what it missed, coalesced by object, or `resync` when that is gone.
 */
export class EventLog {
  readonly #capacity: number;
  readonly #events: LoggedEvent[] = [];
  #seq: number;

  readonly #idOf: (seq: number) => string;

  constructor(capacity: number, idOf: (seq: number) => string, startSeq = 0) {
    this.#capacity = capacity;
    this.#idOf = idOf;
    this.#seq = startSeq;
  }

  /** The id of the newest event: what a resync or heartbeat carries. */
  get lastId(): string {
    return this.#idOf(this.#seq);
  }

  /** The sequence number of the newest event (the stream's position). */
  get seq(): number {
    return this.#seq;
  }

  get size(): number {
    return this.#events.length;
  }

  append(key: string, frameFor: (id: string) => string): LoggedEvent {
    const seq = ++this.#seq;
    const id = this.#idOf(seq);
    const event = { seq, id, key, frame: frameFor(id) };
    this.#events.push(event);
    if (this.#events.length > this.#capacity)
      this.#events.splice(0, this.#events.length - this.#capacity);
    return event;
  }

  /**
   * Events after `seq`, the latest per key in order, or undefined when some are no longer held
   * (or `seq` lies in the future: an id this log never issued).
   */
  since(seq: number): LoggedEvent[] | undefined {
    if (seq > this.#seq) return undefined;
    if (seq === this.#seq) return [];
    const oldest = this.#events[0]?.seq ?? this.#seq + 1;
    if (seq < oldest - 1) return undefined;
    // Sequence numbers are contiguous in the buffer: start at the first one after `seq` (the fan-out
    // asks for each slice of clients, usually for the last few events of thousands).
    const latest = new Map<string, LoggedEvent>();
    for (let i = Math.max(0, seq + 1 - oldest); i < this.#events.length; i++) {
      const e = this.#events[i];
      if (!e || e.seq <= seq) continue;
      latest.delete(e.key);
      latest.set(e.key, e);
    }
    return [...latest.values()];
  }
}
