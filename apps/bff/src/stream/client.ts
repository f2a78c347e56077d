import type { LoggedEvent } from './events';

/**
 * One browser tab's stream. Frames go straight to the socket while it keeps up; when the socket
 * pushes back (`write` returns false) they wait in a bounded queue that coalesces by object
 * (a newer view of the same object replaces the queued one and moves to the end, so ids stay in
 * order). The queue is bounded twice: by events, and by bytes held for the client — the queued
 * frames plus what its socket accepted and has not yet handed to the OS — since one frame (an
 * IP pool's view) can weigh hundreds of kilobytes. A queue that would outgrow either bound is
 * dropped as a whole and replaced by one `resync`: the client reloads, never silently missing a
 * change. A client that reads nothing at all is dropped (its socket destroyed) by the hub's sweep.
 */

export interface SseWriter {
  /** Writes a chunk; false = the socket is full, wait for `onDrain`. */
  write(chunk: string | Buffer): boolean;
  onDrain(listener: () => void): void;
  end(): void;
  /** Bytes written but not yet handed to the OS (a socket's `writableLength`); 0 if unknown. */
  buffered?(): number;
  /** Ends the connection now, discarding what is buffered (a client that reads nothing). */
  destroy?(): void;
}

/** The writer of a real socket (or any Node Writable): what the stream route hands the hub. */
export function socketWriter(socket: {
  write(chunk: string | Buffer): boolean;
  on(event: 'drain', listener: () => void): unknown;
  end(): unknown;
  destroy(): unknown;
  readonly writableLength: number;
}): SseWriter {
  return {
    write: (chunk) => socket.write(chunk),
    onDrain: (listener) => {
      socket.on('drain', listener);
    },
    end: () => {
      socket.end();
    },
    buffered: () => socket.writableLength,
    destroy: () => {
      socket.destroy();
    },
  };
}

/** How much one client may have waiting: events in its queue, and bytes (queue + socket). */
export interface ClientLimits {
  events: number;
  bytes: number;
}

/**
 * Builds a resync frame at the moment it is written, with the stream's id at that moment, and its
 * sequence number: events up to it, still on their way to this client, are then not sent (the
 * page reloads everything up to there).
 */
export type ResyncBuilder = () => { frame: string; id: string; seq?: number };

export class SseClient {
  readonly id: number;
  readonly #writer: SseWriter;
  readonly #limits: ClientLimits;
  readonly #queue = new Map<string, LoggedEvent>();
  /** The bytes of the frames in `#queue`. */
  #queuedBytes = 0;
  #blocked = false;
  #closed = false;
  #pendingResync: ResyncBuilder | undefined;
  #lastWriteAt: number;
  /** The position of the last resync written: events up to it are covered by the reload. */
  #floor = 0;
  /** The id of the last event written to this client: what its heartbeats carry. */
  lastId: string;
  coalesced = 0;
  overflows = 0;
  onClose: (() => void) | undefined;

  constructor(id: number, writer: SseWriter, limits: ClientLimits, lastId: string, now: number) {
    this.id = id;
    this.#writer = writer;
    this.#limits = limits;
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

  /** Bytes held for this client: its queued frames and what its socket has not sent yet. */
  get heldBytes(): number {
    return this.#queuedBytes + (this.#writer.buffered?.() ?? 0);
  }

  /** Writes or queues one logged change; on overflow the queue becomes one pending resync. */
  send(event: LoggedEvent, resync: ResyncBuilder): void {
    if (this.#closed || this.#pendingResync || event.seq <= this.#floor) return;
    if (!this.#blocked && this.#queue.size === 0) {
      this.#write(event.frame, event.id);
      return;
    }
    if (this.#take(event.key)) this.coalesced++;
    this.#queue.set(event.key, event);
    this.#queuedBytes += Buffer.byteLength(event.frame);
    if (this.#queue.size > this.#limits.events || this.heldBytes > this.#limits.bytes) {
      this.#clearQueue();
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
    if (this.#closed || this.#pendingResync || !last || last.seq <= this.#floor) return;
    if (!this.#blocked && this.#queue.size === 0 && (events[0]?.seq ?? 0) > this.#floor) {
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
    this.#clearQueue();
    this.#pendingResync = resync;
    if (!this.#blocked) this.#flush();
  }

  close(finalFrame?: string): void {
    if (this.#closed) return;
    if (finalFrame !== undefined && !this.#blocked) this.#writer.write(finalFrame);
    this.#closed = true;
    this.#clearQueue();
    this.#pendingResync = undefined;
    this.#writer.end();
    this.onClose?.();
  }

  /**
   * Drops a client that reads nothing: its connection is destroyed, so what its socket held is
   * released now (ending it politely would keep that until the peer read it, i.e. never).
   */
  drop(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#clearQueue();
    this.#pendingResync = undefined;
    if (this.#writer.destroy) this.#writer.destroy();
    else this.#writer.end();
    this.onClose?.();
  }

  #take(key: string): boolean {
    const queued = this.#queue.get(key);
    if (!queued) return false;
    this.#queue.delete(key);
    this.#queuedBytes -= Buffer.byteLength(queued.frame);
    return true;
  }

  #clearQueue(): void {
    this.#queue.clear();
    this.#queuedBytes = 0;
  }

  #write(frame: string | Buffer, id: string, now = Date.now()): void {
    this.lastId = id;
    this.#lastWriteAt = now;
    if (!this.#writer.write(frame)) this.#blocked = true;
  }

  #flush(): void {
    if (this.#closed) return;
    if (this.#pendingResync) {
      const { frame, id, seq } = this.#pendingResync();
      this.#pendingResync = undefined;
      this.#floor = Math.max(this.#floor, seq ?? 0);
      this.#write(frame, id);
      if (this.#blocked) return;
    }
    // What waited goes out in one write (issue 14): with thousands of streams, a write is ~20 µs
    // of a core whatever its size, and a socket that drained takes the whole backlog at once.
    // The backlog is within the client's limits (checked as it queued), so is what the socket
    // now holds.
    let last: LoggedEvent | undefined;
    const frames: string[] = [];
    for (const event of this.#queue.values()) {
      frames.push(event.frame);
      last = event;
    }
    if (!last) return;
    this.#clearQueue();
    this.#write(frames.length === 1 ? (frames[0] ?? '') : frames.join(''), last.id);
  }
}
