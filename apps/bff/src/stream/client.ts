import type { LoggedEvent } from './events';

/**
 * One browser tab's stream. Frames go straight to the socket while it keeps up; when the socket
 * pushes back (`write` returns false) they wait in a bounded queue that coalesces by object
 * (a newer view of the same object replaces the queued one and moves to the end, so ids stay in
 * order). A queue that would outgrow its bound is dropped as a whole and replaced by one
 * `resync`: the client reloads, never silently missing a change.
 */

export interface SseWriter {
  /** Writes a chunk; false = the socket is full, wait for `onDrain`. */
  write(chunk: string | Buffer): boolean;
  onDrain(listener: () => void): void;
  end(): void;
}

/** Builds a resync frame at the moment it is written, with the stream's id at that moment. */
export type ResyncBuilder = () => { frame: string; id: string };

export class SseClient {
  readonly id: number;
  readonly #writer: SseWriter;
  readonly #limit: number;
  readonly #queue = new Map<string, LoggedEvent>();
  #blocked = false;
  #closed = false;
  #pendingResync: ResyncBuilder | undefined;
  #lastWriteAt: number;
  /** The id of the last event written to this client: what its heartbeats carry. */
  lastId: string;
  coalesced = 0;
  overflows = 0;
  onClose: (() => void) | undefined;

  constructor(id: number, writer: SseWriter, limit: number, lastId: string, now: number) {
    this.id = id;
    this.#writer = writer;
    this.#limit = limit;
    this.lastId = lastId;
    this.#lastWriteAt = now;
    writer.onDrain(() => {
      this.#blocked = false;
      this.#flush();
    });
  }

  get closed(): boolean {
    return this.#closed;
  }

  get queued(): number {
    return this.#queue.size;
  }

  get blocked(): boolean {
    return this.#blocked;
  }

  get lastWriteAt(): number {
    return this.#lastWriteAt;
  }

  /** Writes or queues one logged change; on overflow the queue becomes one pending resync. */
  send(event: LoggedEvent, resync: ResyncBuilder): void {
    if (this.#closed || this.#pendingResync) return;
    if (!this.#blocked && this.#queue.size === 0) {
      this.#write(event.frame, event.id);
      return;
    }
    if (this.#queue.delete(event.key)) this.coalesced++;
    this.#queue.set(event.key, event);
    if (this.#queue.size > this.#limit) {
      this.#queue.clear();
      this.overflows++;
      this.#pendingResync = resync;
    }
  }

  /**
   * Several logged changes at once: one socket write of the frames joined (shared by every
   * client of the room) when the client keeps up, else each queued as `send` does.
   */
  sendBatch(events: readonly LoggedEvent[], joined: Buffer, resync: ResyncBuilder): void {
    const last = events[events.length - 1];
    if (this.#closed || this.#pendingResync || !last) return;
    if (!this.#blocked && this.#queue.size === 0) {
      this.#write(joined, last.id);
      return;
    }
    for (const e of events) this.send(e, resync);
  }

  /** Writes a control frame (resync, heartbeat) now, unless the socket or the queue is busy. */
  sendControl(frame: string, id: string, now = Date.now()): boolean {
    if (this.#closed || this.#blocked || this.#queue.size > 0 || this.#pendingResync) return false;
    this.#write(frame, id, now);
    return true;
  }

  /** Forces a resync: what is queued is dropped, the resync goes first when the socket allows. */
  resync(resync: ResyncBuilder): void {
    if (this.#closed) return;
    this.#queue.clear();
    this.#pendingResync = resync;
    if (!this.#blocked) this.#flush();
  }

  close(finalFrame?: string): void {
    if (this.#closed) return;
    if (finalFrame !== undefined && !this.#blocked) this.#writer.write(finalFrame);
    this.#closed = true;
    this.#queue.clear();
    this.#pendingResync = undefined;
    this.#writer.end();
    this.onClose?.();
  }

  #write(frame: string | Buffer, id: string, now = Date.now()): void {
    this.lastId = id;
    this.#lastWriteAt = now;
    if (!this.#writer.write(frame)) this.#blocked = true;
  }

  #flush(): void {
    if (this.#closed) return;
    if (this.#pendingResync) {
      const { frame, id } = this.#pendingResync();
      this.#pendingResync = undefined;
      this.#write(frame, id);
      if (this.#blocked) return;
    }
    for (const [key, event] of this.#queue) {
      this.#queue.delete(key);
      this.#write(event.frame, event.id);
      if (this.#blocked) return;
    }
  }
}
