import type { ResyncReason, UpstreamStatus } from '@dcs/domain';
import { changeJson, type ClusterModel, type ViewChange } from '../views/cluster-model';
import type { ModelRegistry } from '../views/model-registry';
import { SseClient, type ResyncBuilder, type SseWriter } from './client';
import { formatEventId, parseEventId } from './event-id';
import { EventLog } from './event-log';
import { frameOf, frameOfJson, type LoggedEvent } from './events';

/**
 * The SSE hub: one room per cluster, fed by the shared cluster model (so by the one shared watch
 * per kind), fanned out to every subscribed tab. Each change is serialized once; each client
 * gets it directly or through its bounded, coalescing queue (client.ts). Rooms keep a replay log
 * so that `Last-Event-ID` resumes; ids carry this process's epoch (and the room's incarnation),
 * so an id from another replica, or from before a restart, gets `resync`.
 */

export interface HubOptions {
  epoch: string;
  heartbeatMs: number;
  replayEvents: number;
  clientBuffer: number;
  /** Bytes one client may have waiting (queue + socket) before it is told to resync. */
  clientBufferBytes?: number;
  maxClients: number;
  /**
   * The least delay of any refresh-and-send, ms. 0 (the default): a change to a quiet room is
   * sent on the event loop's next turn (`setImmediate`), together with whatever else the same
   * socket read of the watch brought. The fan-out's cost benchmark sets it huge to send by hand.
   */
  flushDelayMs?: number;
  /**
   * The window's floor (issue 28): two refresh-and-sends of a room start at least this far apart.
   * A change arriving after the room was quiet for its window (this, or the cost rule's below)
   * is sent at once (`immediate`); one arriving sooner waits for the window's end together with
   * every change behind it (`windowed`): batching starts only when there is something to batch.
   */
  minFlushIntervalMs?: number;
  /**
   * The window grows with the room (issue 14): after a refresh-and-send that took `c` ms (mostly
   * one socket write per client: ~10–20 µs of kernel time each, so 50–100 ms for 5,000 clients),
   * the next starts at least `c × (1 + flushCostRatio)` ms after its start, so that sending never
   * takes more than 1 / (1 + ratio) of the process, and each client gets fewer, larger writes as
   * the room grows. Never more than `maxFlushIntervalMs` apart.
   */
  flushCostRatio?: number;
  maxFlushIntervalMs?: number;
  /**
   * A refresh-and-send of a large room is split into slices of about this many ms of writes
   * (issue 14): the views are refreshed before each slice and the event loop runs between them,
   * so an event that arrives while thousands of sockets are being written reaches the clients
   * not yet written in this pass instead of waiting for the next window. Each client still gets
   * at most one write per window; a room smaller than one slice is sent as before, in one pass.
   */
  sliceMs?: number;
  /** A client whose socket accepted nothing for this long is dropped. */
  stalledAfterMs?: number;
  now?: () => number;
}

/**
 * How a refresh-and-send of a room began (issue 28): `immediate` — the room had been quiet for at
 * least its window, so the change went out on the next turn of the event loop; `windowed` — it
 * came within the window of the last one and waited for the window's end, batched with what
 * arrived meanwhile.
 */
export type FlushRegime = 'immediate' | 'windowed';

export interface HubObserver {
  onEvents?: (count: number) => void;
  /** A refresh-and-send of a room began (one per pass, however many slices it is written in). */
  onFlush?: (regime: FlushRegime) => void;
  onResync?: (reason: ResyncReason) => void;
  onClientsChanged?: (clients: number) => void;
}

/**
 * One refresh-and-send of a room, timed (wall-clock ms with sub-ms precision, comparable across
 * processes on one machine): where an event's time goes between the BFF's cache and its clients
 * (the fan-out benchmark's decomposition, issue 14).
 */
export interface BatchTiming {
  room: string;
  /** Clients written in this batch (a slice of the room's, in a large room). */
  clients: number;
  events: number;
  /** The room's event sequence numbers it carried: after `fromSeq`, up to `toSeq`. */
  fromSeq: number;
  toSeq: number;
  /** How its pass began: at once on a quiet room, or after waiting for the window. */
  regime: FlushRegime;
  /** When the batch began: its flush timer fired (or the publish began, when a read refreshed). */
  startedAt: number;
  /** The first socket write (the views are refreshed and the frames encoded by then). */
  firstWriteAt: number;
  /** After the last socket write of the batch. */
  lastWriteAt: number;
}

export interface SubscribeRequest {
  namespace: string;
  cluster: string;
  lastEventId: string | undefined;
  writer: SseWriter;
  /** Epoch ms when the user's session ends: the stream closes then. */
  expiresAt?: number | undefined;
  /** The user's session: the stream closes when it is signed out (`endSession`). */
  sessionId?: string | undefined;
}

interface Room {
  key: string;
  model: ClusterModel;
  log: EventLog;
  epoch: string;
  clients: Set<SseClient>;
  /** Each client's position in the log: it has been handed (written or queued) every event up to it. */
  handed: Map<SseClient, number>;
  /** The refresh-and-send in progress, when a large room's is split into slices. */
  round: Round | undefined;
  /**
   * Cancels the room's next pass, when one is scheduled (on the next turn of the loop, or at the
   * window's end).
   */
  cancelNext: (() => void) | undefined;
  /** When the room's last pass began (by `now`); -Infinity before its first. */
  lastFlushAt: number;
  /** How long the last refresh-and-send of the room took (ms, by `now`). */
  flushCost: number;
  recheckTimer: NodeJS.Timeout | undefined;
  idleSince: number | undefined;
}

interface Round {
  /** The room's clients when the pass began, in the order they are written. */
  clients: SseClient[];
  next: number;
  immediate: NodeJS.Immediate | undefined;
  regime: FlushRegime;
}

const ROOM_IDLE_MS = 10 * 60_000;

/** Wall-clock ms with sub-ms precision (Date.now() is whole ms: too coarse to time a batch). */
const wallNow = () => performance.timeOrigin + performance.now();

/**
 * The window's floor (HubOptions.minFlushIntervalMs, SSE_BATCH_MS): 5 ms, so that at 50 events/s
 * (one every 20 ms) a room of a few hundred clients sends each change at once, and a burst costs
 * a small room at most 200 refresh-and-sends a second. Larger rooms' windows follow their cost.
 */
export const DEFAULT_MIN_FLUSH_INTERVAL_MS = 5;

/** 4 MiB: hundreds of machine views, or a few large IP pools' (see HubOptions, SSE_CLIENT_BUFFER_BYTES). */
export const DEFAULT_CLIENT_BUFFER_BYTES = 4 * 1024 * 1024;

export class StreamHub {
  readonly #registry: ModelRegistry;
  readonly #o: Required<Omit<HubOptions, 'now'>> & { now: () => number };
  readonly #observer: HubObserver;
  readonly #rooms = new Map<string, Room>();
  readonly #expiry = new Map<SseClient, NodeJS.Timeout>();
  /** Open streams by session id, so that a sign-out ends them at once. */
  readonly #bySession = new Map<string, Set<SseClient>>();
  readonly #sessionOf = new Map<SseClient, string>();
  readonly #offChanges: () => void;
  readonly #offDirty: () => void;
  readonly #sweep: NodeJS.Timeout;
  readonly #batchListeners = new Set<(b: BatchTiming) => void>();
  #nextClientId = 0;
  #roomIncarnation = 0;
  #clients = 0;
  readonly #flushes: Record<FlushRegime, number> = { immediate: 0, windowed: 0 };
  #closing = false;
  #upstream: UpstreamStatus = { state: 'connected' };

  constructor(registry: ModelRegistry, options: HubOptions, observer: HubObserver = {}) {
    this.#registry = registry;
    this.#o = {
      flushDelayMs: 0,
      minFlushIntervalMs: DEFAULT_MIN_FLUSH_INTERVAL_MS,
      flushCostRatio: 1,
      maxFlushIntervalMs: 200,
      sliceMs: 10,
      clientBufferBytes: DEFAULT_CLIENT_BUFFER_BYTES,
      stalledAfterMs: Math.max(60_000, options.heartbeatMs * 3),
      now: Date.now,
      ...options,
    };
    this.#observer = observer;
    this.#offChanges = registry.onChanges((model, changes) => {
      this.#publish(model, changes);
    });
    this.#offDirty = registry.onDirty((model) => {
      this.#schedule(model);
    });
    const every = Math.max(50, Math.min(5_000, Math.floor(this.#o.heartbeatMs / 3)));
    this.#sweep = setInterval(() => {
      this.#heartbeat();
    }, every);
    this.#sweep.unref();
  }

  get clients(): number {
    return this.#clients;
  }

  get rooms(): number {
    return this.#rooms.size;
  }

  /**
   * Times every batch from now on (the benchmark's decomposition of event→client latency); returns
   * the unsubscribe. Costs two clock reads per batch while anyone listens, nothing otherwise.
   */
  onBatch(listener: (b: BatchTiming) => void): () => void {
    this.#batchListeners.add(listener);
    return () => {
      this.#batchListeners.delete(listener);
    };
  }

  /**
   * Refresh-and-sends begun so far, by how they began (FlushRegime): which regime the stream
   * runs in, for metrics (`dcs_bff_sse_flushes_total`), tests and the benchmark.
   */
  get flushes(): Readonly<Record<FlushRegime, number>> {
    return { ...this.#flushes };
  }

  /** The sequence number of a room's newest event (`namespace/cluster`), for the benchmark. */
  seqOf(key: string): number | undefined {
    return this.#rooms.get(key)?.log.seq;
  }

  /** Per-client figures: what each socket holds back, for metrics, tests and the benchmark. */
  stats(): {
    blocked: number;
    queued: number;
    coalesced: number;
    overflows: number;
    /** Bytes held for all clients (queues and sockets), and for the one holding most. */
    heldBytes: number;
    maxHeldBytes: number;
  } {
    let blocked = 0;
    let queued = 0;
    let coalesced = 0;
    let overflows = 0;
    let heldBytes = 0;
    let maxHeldBytes = 0;
    for (const room of this.#rooms.values()) {
      for (const c of room.clients) {
        if (c.blocked) blocked++;
        queued += c.queued;
        coalesced += c.coalesced;
        overflows += c.overflows;
        const held = c.heldBytes;
        heldBytes += held;
        maxHeldBytes = Math.max(maxHeldBytes, held);
      }
    }
    return { blocked, queued, coalesced, overflows, heldBytes, maxHeldBytes };
  }

  /** Subscribes a tab; undefined when the process already serves its maximum of clients. */
  subscribe(req: SubscribeRequest): SseClient | undefined {
    if (this.#closing || this.#clients >= this.#o.maxClients) return undefined;
    const room = this.#room(req.namespace, req.cluster);
    // Bring the model up to date first, so the replay below ends at the current position.
    this.#registry.refresh(room.model);
    const now = this.#o.now();
    const client = new SseClient(
      ++this.#nextClientId,
      req.writer,
      { events: this.#o.clientBuffer, bytes: this.#o.clientBufferBytes },
      room.log.lastId,
      now,
    );
    room.clients.add(client);
    room.idleSince = undefined;
    this.#clients++;
    this.#observer.onClientsChanged?.(this.#clients);
    client.onClose = () => {
      this.#detach(room, client);
    };
    if (req.sessionId !== undefined) {
      const set = this.#bySession.get(req.sessionId) ?? new Set<SseClient>();
      set.add(client);
      this.#bySession.set(req.sessionId, set);
      this.#sessionOf.set(client, req.sessionId);
    }
    if (req.expiresAt !== undefined) {
      const timer = setTimeout(
        () => {
          client.close(frameOf(client.lastId, { type: 'expired' }, 'expired'));
        },
        Math.max(0, req.expiresAt - now),
      );
      timer.unref();
      this.#expiry.set(client, timer);
    }
    // Tell EventSource to wait a little before reconnecting, and open the stream.
    req.writer.write(`retry: 2000\n\n`);
    this.#resume(room, client, req.lastEventId);
    room.handed.set(client, room.log.seq);
    if (this.#upstream.state === 'disconnected') {
      const status = this.#upstream;
      client.sendControl(
        frameOf(client.lastId, { type: 'upstream', status }, 'upstream'),
        client.lastId,
      );
    }
    this.#scheduleRecheck(room);
    return client;
  }

  /**
   * The management cluster's reachability changed (issue 10 item 4): every stream hears it at
   * once (the named event `upstream`), new streams on subscribe, and heartbeats repeat it. On
   * recovery every stream also gets `resync` (`reconnected`): what a page fetched during the
   * outage may be stale, and the cache has just relisted.
   */
  setUpstream(status: UpstreamStatus): void {
    const recovered = this.#upstream.state === 'disconnected' && status.state === 'connected';
    this.#upstream = status;
    for (const room of this.#rooms.values()) {
      for (const c of room.clients) {
        c.sendControl(frameOf(c.lastId, { type: 'upstream', status }, 'upstream'), c.lastId);
        if (recovered) {
          c.resync(this.#resyncOf(room, 'reconnected'));
          room.handed.set(c, room.log.seq);
        }
      }
    }
  }

  /**
   * The session was signed out (on this replica or another, issue 10): each of its open streams
   * ends now with `expired` — the same end as the session's natural one, so the page signs in
   * again — instead of serving a revoked credential until it reconnects. Returns how many.
   */
  endSession(sessionId: string): number {
    const clients = [...(this.#bySession.get(sessionId) ?? [])];
    for (const c of clients) c.close(frameOf(c.lastId, { type: 'expired' }, 'expired'));
    return clients.length;
  }

  /** Graceful shutdown: every stream ends with a `shutdown` event; clients reconnect elsewhere. */
  closeAll(): void {
    this.#closing = true;
    for (const room of this.#rooms.values()) {
      for (const c of [...room.clients])
        c.close(frameOf(c.lastId, { type: 'shutdown' }, 'shutdown'));
    }
  }

  stop(): void {
    this.closeAll();
    clearInterval(this.#sweep);
    this.#offChanges();
    this.#offDirty();
    for (const room of this.#rooms.values()) {
      this.#cancelNext(room);
      clearTimeout(room.recheckTimer);
      clearImmediate(room.round?.immediate);
      room.round = undefined;
    }
  }

  #cancelNext(room: Room): void {
    room.cancelNext?.();
    room.cancelNext = undefined;
  }

  #room(namespace: string, cluster: string): Room {
    const key = `${namespace}/${cluster}`;
    let room = this.#rooms.get(key);
    if (!room) {
      const epoch = `${this.#o.epoch}.${++this.#roomIncarnation}`;
      room = {
        key,
        model: this.#registry.get(namespace, cluster),
        epoch,
        log: new EventLog(this.#o.replayEvents, (seq) => formatEventId(epoch, seq)),
        clients: new Set(),
        handed: new Map(),
        round: undefined,
        cancelNext: undefined,
        lastFlushAt: -Infinity,
        flushCost: 0,
        recheckTimer: undefined,
        idleSince: undefined,
      };
      this.#rooms.set(key, room);
    }
    return room;
  }

  #resyncOf(room: Room, reason: ResyncReason): ResyncBuilder {
    return () => {
      this.#observer.onResync?.(reason);
      const id = room.log.lastId;
      return { id, seq: room.log.seq, frame: frameOf(id, { type: 'resync', reason }) };
    };
  }

  #resume(room: Room, client: SseClient, lastEventId: string | undefined): void {
    const parsed = parseEventId(lastEventId);
    let reason: ResyncReason | undefined;
    if (lastEventId === undefined || lastEventId === '') reason = 'initial';
    else if (!parsed) reason = 'unknown-id';
    else if (parsed.epoch !== room.epoch) reason = 'epoch';
    if (reason === undefined && parsed) {
      const missed = room.log.since(parsed.seq);
      if (missed) {
        const resync = this.#resyncOf(room, 'overflow');
        for (const e of missed) client.send(e, resync);
        return;
      }
      reason = parsed.seq > room.log.seq ? 'unknown-id' : 'gap';
    }
    client.resync(this.#resyncOf(room, reason ?? 'initial'));
  }

  #detach(room: Room, client: SseClient): void {
    if (!room.clients.delete(client)) return;
    room.handed.delete(client);
    clearTimeout(this.#expiry.get(client));
    this.#expiry.delete(client);
    const sid = this.#sessionOf.get(client);
    if (sid !== undefined) {
      this.#sessionOf.delete(client);
      const set = this.#bySession.get(sid);
      set?.delete(client);
      if (set?.size === 0) this.#bySession.delete(sid);
    }
    this.#clients--;
    this.#observer.onClientsChanged?.(this.#clients);
    if (room.clients.size === 0) room.idleSince = this.#o.now();
  }

  /** A model became dirty: refresh it soon if anyone is watching (others refresh on read). */
  #schedule(model: ClusterModel): void {
    const room = this.#rooms.get(`${model.namespace}/${model.name}`);
    if (room) this.#scheduleRoom(room);
  }

  /**
   * Schedules the room's next pass (issue 28): a room quiet for at least its window (since its
   * last pass began) is sent on the event loop's next turn — the first change after a quiet
   * spell waits for nothing; a change within the window waits for its end, and everything that
   * arrives meanwhile goes in the same pass: one write per client.
   */
  #scheduleRoom(room: Room): void {
    // A pass in progress refreshes before each of its slices, and schedules the next when done.
    if (room.clients.size === 0 || room.cancelNext || room.round) return;
    const windowLeft = room.lastFlushAt + this.flushIntervalOf(room.key) - this.#o.now();
    const regime: FlushRegime = windowLeft > 0 ? 'windowed' : 'immediate';
    const delay = Math.max(this.#o.flushDelayMs, windowLeft);
    const start = () => {
      room.cancelNext = undefined;
      this.#startPass(room, regime);
    };
    if (delay > 0) {
      const timer = setTimeout(start, delay);
      room.cancelNext = () => {
        clearTimeout(timer);
      };
    } else {
      const immediate = setImmediate(start);
      room.cancelNext = () => {
        clearImmediate(immediate);
      };
    }
  }

  #startPass(room: Room, regime: FlushRegime): void {
    room.lastFlushAt = this.#o.now();
    room.round = { clients: [...room.clients], next: 0, immediate: undefined, regime };
    this.#flushes[regime]++;
    this.#observer.onFlush?.(regime);
    this.#slice(room);
  }

  /**
   * One slice of a refresh-and-send: refresh the views (new changes join the log), then write to
   * the next clients of the pass what each has not been handed yet, until `sliceMs` is spent;
   * the rest after the event loop has run (HubOptions.sliceMs).
   */
  #slice(room: Room): void {
    const round = room.round;
    if (!round) return;
    round.immediate = undefined;
    const start = this.#o.now();
    const timed = this.#batchListeners.size > 0;
    const startedAt = timed ? wallNow() : 0;
    this.#registry.refresh(room.model);
    const toSeq = room.log.seq;
    const resync = this.#resyncOf(room, 'overflow');
    const firstWriteAt = timed ? wallNow() : 0;
    // Clients of one slice were handed the same events so far (all but newcomers): one encoding
    // of the frames for all of them (encoding per socket was the largest cost of a stream).
    let shared: { from: number; events: LoggedEvent[]; joined: Buffer } | undefined;
    let written = 0;
    let fromSeq = toSeq;
    let i = round.next;
    for (; i < round.clients.length; i++) {
      // The clock is read every 64 writes (~1 ms): often enough to keep slices near sliceMs.
      if ((i - round.next) % 64 === 63 && this.#o.now() - start >= this.#o.sliceMs) break;
      const c = round.clients[i];
      const handed = c && room.handed.get(c);
      if (!c || handed === undefined || handed >= toSeq || c.closed) continue;
      room.handed.set(c, toSeq);
      if (shared?.from !== handed) {
        const events = room.log.since(handed);
        if (!events) {
          // Beyond the replay log (a pass slower than thousands of events): reload, never a gap.
          c.resync(resync);
          continue;
        }
        shared = {
          from: handed,
          events,
          joined: Buffer.from(events.map((e) => e.frame).join(''), 'utf8'),
        };
      }
      c.sendBatch(shared.events, shared.joined, resync);
      written++;
      fromSeq = Math.min(fromSeq, handed);
    }
    round.next = i;
    if (timed && written > 0) {
      const timing: BatchTiming = {
        room: room.key,
        regime: round.regime,
        clients: written,
        events: toSeq - fromSeq,
        fromSeq,
        toSeq,
        startedAt,
        firstWriteAt,
        lastWriteAt: wallNow(),
      };
      for (const l of this.#batchListeners) l(timing);
    }
    if (i < round.clients.length) {
      round.immediate = setImmediate(() => {
        this.#slice(room);
      });
      return;
    }
    room.round = undefined;
    // The pass's cost is its wall time, gaps between slices included, as a pass in one piece
    // was: what sets the window (flushIntervalOf), so each client's writes per second, so the CPU.
    room.flushCost = this.#o.now() - room.lastFlushAt;
    this.#scheduleRecheck(room);
    // Clients written early in the pass wait for what later slices' refreshes brought: next pass.
    for (const [c, handed] of room.handed) {
      if (handed < room.log.seq && !c.closed) {
        this.#scheduleRoom(room);
        break;
      }
    }
  }

  /**
   * The least time between two refresh-and-sends of a room (`namespace/cluster`), from the cost
   * of its last one (HubOptions.flushCostRatio); for metrics and tests.
   */
  flushIntervalOf(key: string): number {
    const room = this.#rooms.get(key);
    const o = this.#o;
    const byCost = (room?.flushCost ?? 0) * (1 + o.flushCostRatio);
    return Math.max(o.minFlushIntervalMs, Math.min(o.maxFlushIntervalMs, byCost));
  }

  /** Views that change with the clock alone (T-1: a machine becoming stuck) need a timer. */
  #scheduleRecheck(room: Room): void {
    clearTimeout(room.recheckTimer);
    room.recheckTimer = undefined;
    const at = room.model.recheckAt;
    if (at === undefined || room.clients.size === 0) return;
    room.recheckTimer = setTimeout(
      () => {
        room.recheckTimer = undefined;
        this.#registry.refresh(room.model);
        this.#scheduleRecheck(room);
      },
      Math.min(2 ** 31 - 1, Math.max(0, at - this.#o.now()) + 5),
    );
    room.recheckTimer.unref();
  }

  #publish(model: ClusterModel, changes: readonly ViewChange[]): void {
    const room = this.#rooms.get(`${model.namespace}/${model.name}`);
    if (!room) return;
    for (const change of changes)
      room.log.append(`${change.kind}/${change.id}`, (id) => frameOfJson(id, changeJson(change)));
    this.#observer.onEvents?.(changes.length * room.clients.size);
    // Written by the room's next pass (#slice): a refresh outside one (a read, a subscribe, a
    // recheck) schedules it.
    this.#scheduleRoom(room);
  }

  #heartbeat(): void {
    const now = this.#o.now();
    for (const [key, room] of this.#rooms) {
      if (room.clients.size === 0) {
        if (room.idleSince !== undefined && now - room.idleSince > ROOM_IDLE_MS) {
          this.#cancelNext(room);
          clearTimeout(room.recheckTimer);
          clearImmediate(room.round?.immediate);
          this.#rooms.delete(key);
        }
        continue;
      }
      for (const c of [...room.clients]) {
        const quiet = now - c.lastWriteAt;
        if (c.blocked && quiet > this.#o.stalledAfterMs) {
          c.drop();
          continue;
        }
        // Heartbeats carry the client's own last id: resuming from one loses nothing.
        if (quiet >= this.#o.heartbeatMs * 0.6) {
          c.sendControl(
            frameOf(
              c.lastId,
              { at: new Date(now).toISOString(), upstream: this.#upstream },
              'heartbeat',
            ),
            c.lastId,
            now,
          );
        }
      }
    }
  }
}
