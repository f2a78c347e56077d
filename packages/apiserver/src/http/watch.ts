/**
 * Watch streams: newline-delimited JSON events on a 200 response, as kube-apiserver sends them.
 * Events come from the store synchronously and in order. The line of an event is encoded once,
 * from the stored version's serialized JSON, and the same bytes go to every watcher it reaches;
 * the watches without a selector of one kind and namespace share a feed that takes each event
 * once for all of them (`WatchFeed`).
 * Writes are coalesced: a watcher's lines are queued and flushed together, at the end of the
 * current I/O turn, or — when the previous flush was less than `flushIntervalMs` ago — at that
 * interval, so a busy kind costs one socket write per watcher per interval instead of one per
 * event (a write is a syscall and a trip through loopback TCP; at 100 watchers x 500 events/s
 * those, not the JSON, are the cost). A filtered watch sees an object that stops matching as
 * DELETED and one that starts matching as ADDED. A resourceVersion older than the history
 * answers an ERROR event (410 Expired) on the 200 stream. Bookmarks carry the latest
 * resourceVersion on an interval.
 */
import type { ServerResponse } from 'node:http';
import type { ResourceType } from '../registry';
import {
  exactName,
  matchesFields,
  matchesLabels,
  type FieldSelector,
  type LabelSelector,
} from '../selectors';
import { expired } from '../status';
import type { EventType, Store, StoreEvent, Watcher } from '../store/store';
import type { Stored } from '../store/stored';
import { table, type IncludeObject } from '../table';

export interface WatchOptions {
  namespace: string | undefined;
  labels: LabelSelector;
  fields: FieldSelector;
  /** undefined / "0": start with ADDED events for the current state. */
  resourceVersion: string | undefined;
  sendInitialEvents: boolean | undefined;
  allowBookmarks: boolean;
  timeoutMs: number;
  bookmarkIntervalMs: number;
  table: IncludeObject | undefined;
  /** What may wait for a client that does not keep up (see `WatchBacklogLimits`). */
  backlog?: WatchBacklogLimits;
}

/**
 * A watch whose client does not keep up is ended, as kube-apiserver's cacher ends it (it gives
 * each watcher a channel of 10–1,000 events, 100 for a watch without an index, plus as many in
 * its result channel, and when a watcher's channel stays full past the dispatcher's time budget,
 * at most 100 ms, it forces the watcher closed: "Forcing watcher close due to unresponsiveness").
 * The client sees its stream end and re-watches from the last resourceVersion it received, which
 * the watch history serves. Here the backlog is what the client's socket has not taken yet (the
 * kernel's buffers in front of it are not counted: they are not this process's memory), counted
 * in live events and in their bytes; the initial state (ADDED events of a watch without a
 * resourceVersion, as upstream's initial interval) does not count, only what came after it. A
 * backlog over either bound is allowed for `graceMs` (a burst — a deletecollection, a start-up —
 * reaches a reading client faster than its socket drains); still over when the grace ends, the
 * watch is ended and whatever it had not been sent yet is dropped. Without this a client that
 * stopped reading held up to 64 MiB of the server (2,000 `kubectl proxy` watches: 3.9–5.1 GB).
 */
export interface WatchBacklogLimits {
  /** Live events written to the socket and not yet taken by the client (default 200). */
  events: number;
  /** Their bytes (default 1 MiB: about 300 Machines; at least twice the largest object). */
  bytes: number;
  /** How long the backlog may stay over a bound before the watch is ended (default 500 ms). */
  graceMs: number;
}

export const DEFAULT_WATCH_BACKLOG: WatchBacklogLimits = {
  events: 200,
  bytes: 1024 * 1024,
  graceMs: 500,
};

/**
 * After ending an unresponsive watch, its socket is kept this long for the client to read what
 * was already written and the end of the stream; a client that still does not read is
 * disconnected, so that the backlog it holds is freed.
 */
const UNRESPONSIVE_LINGER_MS = 30_000;

/**
 * Flushes the queued lines of every watch stream of one server together, at most once per
 * interval while events keep coming, and at the end of the I/O turn when they do not.
 *
 * The interval counts from the end of the previous flush, not its start. A flush is one socket
 * write per watcher, and on a loaded machine 100 of them can take longer than the interval;
 * counted from the start, the next flush was then due at once, so every I/O turn flushed its one
 * or two events to every socket: more writes per event exactly when writes were slowest, and the
 * requests that make the events waited behind them (issue 14, the watch p99). Counted from the
 * end, a slow flush makes the next batch larger instead.
 */
export class WatchFlusher {
  private readonly dirty = new Set<() => void>();
  private scheduled = false;
  private last = Number.NEGATIVE_INFINITY;

  constructor(private readonly intervalMs: number) {}

  schedule(flush: () => void): void {
    this.dirty.add(flush);
    if (this.scheduled) return;
    this.scheduled = true;
    const wait = this.last + this.intervalMs - performance.now();
    // setImmediate, not nextTick: the events of every request read in this I/O turn join in.
    if (wait <= 0) setImmediate(this.run);
    else setTimeout(this.run, wait);
  }

  private readonly run = (): void => {
    this.scheduled = false;
    const flushes = [...this.dirty];
    this.dirty.clear();
    try {
      for (const f of flushes) f();
    } finally {
      this.last = performance.now();
    }
  };
}

/**
 * The bytes of one event line; the lines of the last two events are kept for the next watcher
 * they reach. Two: a change of a resource served through two APIs (core/v1 and events.k8s.io
 * Events) reaches the watchers of both, interleaved, as two converted events.
 */
let recentLines: { ev: StoreEvent; lines: Map<EventType, Buffer> }[] = [];

function sharedLine(ev: StoreEvent, type: EventType): Buffer {
  let entry = recentLines.find((e) => e.ev === ev);
  if (!entry) {
    entry = { ev, lines: new Map() };
    recentLines = [entry, ...recentLines.slice(0, 1)];
  }
  let line = entry.lines.get(type);
  if (!line) {
    line = Buffer.from(`{"type":"${type}","object":${ev.obj.json}}\n`);
    entry.lines.set(type, line);
  }
  return line;
}

const CRLF = Buffer.from('\r\n', 'latin1');

/** Batches up to this size are framed into one shared buffer; larger ones are written as they are. */
const SHARED_CHUNK_BYTES = 1024 * 1024;

/**
 * The last HTTP chunk framed, for the next watcher whose queue holds the very same lines: the
 * watchers of one kind and namespace receive the same events in the same flush, so one chunk is
 * built per flush and written as it is to every socket.
 */
let framedLines: readonly Buffer[] = [];
let framed: Buffer | undefined;

function sameLines(a: readonly Buffer[], b: readonly Buffer[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** `<size hex>\r\n<lines>\r\n`: one chunk of the chunked transfer encoding. */
function chunkOf(lines: readonly Buffer[], bytes: number): Buffer {
  if (framed && sameLines(lines, framedLines)) return framed;
  const head = Buffer.from(`${bytes.toString(16)}\r\n`, 'latin1');
  framed = Buffer.concat([head, ...lines, CRLF], head.length + bytes + CRLF.length);
  framedLines = lines;
  return framed;
}

/** A watch stream as a shared feed hands it the live events it gathered for a flush. */
interface FeedMember {
  /** `lines[from..]` are this member's: appended to what it has pending (the array is shared). */
  take(lines: Buffer[], from: number, bytes: number): void;
  /** Writes what it has pending, as its own flush would (the feed's flush is its flush). */
  flush(): void;
  /** Ends the watch (its kind was redefined, or an event could not be converted for it). */
  end(): void;
}

/**
 * The live events of one kind and namespace (or every namespace) for all its plain watches — no
 * label or field selector, no Table — gathered once per event instead of once per watcher: the
 * store hands the feed an event, the feed appends its line to one list, and at the flush hands
 * that list to every member, which writes it as its own (one framed chunk for all, see
 * `chunkOf`). Before, each of 100 watches took each event itself (a selector check, a line
 * lookup, a push and a flush registration per watcher per event, in the turn of the write that
 * made it). A member remembers how far into the list it had come when it wrote a line of its
 * own (a bookmark) or joined, so that what it sends keeps the store's order.
 */
class WatchFeed {
  private lines: Buffer[] = [];
  private bytes = 0;
  /** Each member with its position in `lines` (where it joined, or last wrote a line of its own). */
  private readonly members = new Map<FeedMember, number>();
  private scheduled = false;
  private readonly unsubscribe: () => void;

  constructor(
    store: Store,
    rt: ResourceType,
    namespace: string | undefined,
    private readonly flusher: WatchFlusher,
    private readonly onEmpty: () => void,
  ) {
    // No selector: the store hands the feed only the events of its namespace, every one of which
    // a member sends as it is (a namespace does not change, so no MODIFIED turns into ADDED or
    // DELETED).
    this.unsubscribe = store.watch(rt, {
      namespace,
      name: undefined,
      streams: () => this.members.size,
      fail: () => {
        this.endAll();
      },
      end: () => {
        this.endAll();
      },
      deliver: (ev) => {
        const line = sharedLine(ev, ev.type);
        this.lines.push(line);
        this.bytes += line.length;
        if (!this.scheduled) {
          this.scheduled = true;
          this.flusher.schedule(this.flush);
        }
      },
    });
  }

  /** Every member's watch ends (each leaves the feed as it ends). */
  private endAll(): void {
    for (const m of [...this.members.keys()]) m.end();
  }

  join(m: FeedMember): void {
    this.members.set(m, this.lines.length);
  }

  leave(m: FeedMember): void {
    if (!this.members.delete(m) || this.members.size > 0) return;
    this.unsubscribe();
    this.onEmpty();
  }

  /** A member about to write a line of its own first takes the feed's lines before it. */
  catchUp(m: FeedMember): void {
    const from = this.members.get(m);
    if (from === undefined || from === this.lines.length) return;
    m.take(this.lines, from, bytesFrom(this.lines, from, this.bytes));
    this.members.set(m, this.lines.length);
  }

  private readonly flush = (): void => {
    this.scheduled = false;
    const lines = this.lines;
    const bytes = this.bytes;
    this.lines = [];
    this.bytes = 0;
    for (const [m, from] of this.members) {
      if (from < lines.length) m.take(lines, from, bytesFrom(lines, from, bytes));
      if (from !== 0) this.members.set(m, 0);
      m.flush();
    }
  };
}

/** The bytes of `lines[from..]`, whose total is `total`. */
function bytesFrom(lines: readonly Buffer[], from: number, total: number): number {
  if (from === 0) return total;
  let n = 0;
  for (let i = from; i < lines.length; i++) n += lines[i]?.length ?? 0;
  return n;
}

/** The feeds of each store, by kind and namespace (`*` for a watch of every namespace). */
const feeds = new WeakMap<Store, Map<ResourceType, Map<string, WatchFeed>>>();

function feedFor(
  store: Store,
  rt: ResourceType,
  namespace: string | undefined,
  flusher: WatchFlusher,
): WatchFeed {
  let byKind = feeds.get(store);
  if (!byKind) {
    byKind = new Map();
    feeds.set(store, byKind);
  }
  let byNs = byKind.get(rt);
  if (!byNs) {
    byNs = new Map();
    byKind.set(rt, byNs);
  }
  const key = namespace ?? '*';
  let feed = byNs.get(key);
  if (!feed) {
    const owner = byNs;
    feed = new WatchFeed(store, rt, namespace, flusher, () => {
      owner.delete(key);
    });
    byNs.set(key, feed);
  }
  return feed;
}

export function serveWatch(
  res: ServerResponse,
  store: Store,
  rt: ResourceType,
  o: WatchOptions,
  flusher: WatchFlusher,
  onClose: (fn: () => void) => void,
): void {
  // Only a selector costs a check per event (the store hands a watch only its namespace's or its
  // name's events; a watch narrowed to a name still checks that the namespace is its own).
  const selective = o.labels.length > 0 || o.fields.length > 0;
  const matches = (s: Stored) =>
    (o.namespace === undefined || s.namespace === o.namespace) &&
    (!selective ||
      (matchesLabels(o.labels, s.labels) && matchesFields(o.fields, (f) => s.field(f))));

  // What the watch starts with is read (and, for another version than the stored one,
  // converted) before the response starts: a failing conversion is answered as a Status.
  const rv = o.resourceVersion;
  const fromState = rv === undefined || rv === '' || rv === '0' || o.sendInitialEvents === true;
  const initial = fromState ? store.list(rt, o.namespace) : [];
  const since = fromState ? [] : store.eventsSince(rt, Number(rv));

  res.writeHead(200, {
    'Content-Type': 'application/json',
    'Transfer-Encoding': 'chunked',
    'Cache-Control': 'no-cache, private',
  });
  res.flushHeaders();

  let headersSent = false;
  const limits = o.backlog ?? DEFAULT_WATCH_BACKLOG;
  let closed = false;
  let pending: Buffer[] = [];
  /** `pending` is a feed's list, shared with the other members: copied before anything is added. */
  let pendingShared = false;
  let pendingBytes = 0;
  /** Of the pending lines, the live events (not the initial state) and their bytes. */
  let pendingLive = 0;
  let pendingLiveBytes = 0;

  /**
   * What each write handed to the response, in order, to tell how many live events and bytes the
   * client has not taken: `end` is the byte offset after the write (counting from the first one),
   * the response and its socket still hold the last `res.writableLength` bytes of `written`.
   */
  const ledger: { start: number; end: number; events: number; bytes: number }[] = [];
  let ledgerHead = 0;
  let written = 0;
  let ledgerEvents = 0;
  let ledgerBytes = 0;
  /** Since when the backlog has been over a bound (undefined: it is not). */
  let overSince: number | undefined;
  let graceTimer: NodeJS.Timeout | undefined;
  let drainArmed = false;

  const backlog = (): { events: number; bytes: number } => {
    const taken = written - res.writableLength;
    while (ledgerHead < ledger.length) {
      const e = ledger[ledgerHead];
      if (e === undefined || e.end > taken) break;
      ledgerEvents -= e.events;
      ledgerBytes -= e.bytes;
      ledgerHead++;
    }
    if (ledgerHead > 64 && ledgerHead * 2 > ledger.length) {
      ledger.splice(0, ledgerHead);
      ledgerHead = 0;
    }
    const head = ledger[ledgerHead];
    // The first write still held may be partly taken: of its live bytes, those not taken yet.
    const headTaken = head ? Math.min(head.bytes, Math.max(0, taken - head.start)) : 0;
    return { events: ledgerEvents, bytes: ledgerBytes - headTaken };
  };

  /**
   * At a flush and when a grace ends: is the client keeping up? While its backlog is over a
   * bound nothing more is written to it (the lines wait, shared with the other watchers, as
   * events wait in a full cacher channel): a backed-up socket would only take more memory and,
   * over TLS, more encryption. Back under the bounds within the grace, the watch goes on.
   */
  const checkBacklog = (): boolean => {
    // What waits in the socket only: the held lines are the other watchers' too (shared buffers),
    // and a client that has drained its socket is keeping up, however many were held meanwhile.
    const b = backlog();
    if (b.events <= limits.events && b.bytes <= limits.bytes) {
      overSince = undefined;
      return true;
    }
    const now = performance.now();
    overSince ??= now;
    const left = overSince + limits.graceMs - now;
    if (left <= 0) {
      endUnresponsive();
      return false;
    }
    graceTimer ??= setTimeout(() => {
      graceTimer = undefined;
      flush();
    }, left);
    // A client that reads again gets the held lines as soon as its socket has drained.
    if (!drainArmed) {
      drainArmed = true;
      (res.socket ?? res).once('drain', () => {
        drainArmed = false;
        flush();
      });
    }
    return false;
  };

  const writeOut = () => {
    if (pending.length === 0) return;
    const lines = pending;
    const bytes = pendingBytes;
    if (pendingLive > 0) {
      ledger.push({
        start: written,
        end: written + bytes,
        events: pendingLive,
        bytes: pendingLiveBytes,
      });
      ledgerEvents += pendingLive;
      ledgerBytes += pendingLiveBytes;
    }
    written += bytes;
    pending = [];
    pendingShared = false;
    pendingBytes = 0;
    pendingLive = 0;
    pendingLiveBytes = 0;
    const socket = res.socket;
    // The response is in chunked mode with its headers out and nothing buffered in it: a framed
    // chunk goes straight to the socket, shared with the other watchers (no per-watcher copy,
    // framing or cork/uncork tick in ServerResponse). Otherwise ServerResponse frames it.
    const direct =
      socket !== null &&
      !socket.destroyed &&
      res.chunkedEncoding &&
      res.headersSent &&
      res.req.method !== 'HEAD' &&
      res.writableLength === socket.writableLength;
    if (direct && bytes <= SHARED_CHUNK_BYTES) {
      socket.write(chunkOf(lines, bytes));
      return;
    }
    // A large batch (the initial state of a big kind) is not copied into one buffer: its lines
    // are gathered into one writev.
    const out = direct ? socket : res;
    out.cork();
    if (direct) socket.write(`${bytes.toString(16)}\r\n`, 'latin1');
    for (const line of lines) out.write(line);
    if (direct) socket.write(CRLF);
    out.uncork();
  };
  let flushQueued = false;
  const flush = () => {
    flushQueued = false;
    if (closed) return;
    // A flush of its own (a drained socket, a grace's end, a bookmark) sends the feed's lines too.
    feed?.catchUp(member);
    // Held while over a bound, until the socket drains or the grace ends.
    if (overSince !== undefined && !checkBacklog()) return;
    writeOut();
    // Only a watch with live events in its socket has a backlog to check (one getter walking the
    // response and the socket: per flush, not per event).
    if (ledgerEvents > 0) checkBacklog();
  };

  /** `live`: an event after the initial state (counts toward the backlog bounds). */
  const write = (line: Buffer, live = true) => {
    if (closed) return;
    // After the feed's lines that came before this one.
    feed?.catchUp(member);
    if (!flushQueued) {
      flushQueued = true;
      flusher.schedule(flush);
    }
    if (pendingShared) {
      pending = pending.slice();
      pendingShared = false;
    }
    pending.push(line);
    pendingBytes += line.length;
    if (live) {
      pendingLive++;
      pendingLiveBytes += line.length;
    }
  };

  /** What a feed hands this watch: live events, in the store's order. */
  const member: FeedMember = {
    take: (lines, from, bytes) => {
      if (closed) return;
      if (pending.length === 0 && from === 0) {
        pending = lines;
        pendingShared = true;
      } else {
        if (pendingShared) {
          pending = pending.slice();
          pendingShared = false;
        }
        for (let i = from; i < lines.length; i++) {
          const line = lines[i];
          if (line) pending.push(line);
        }
      }
      pendingBytes += bytes;
      pendingLive += lines.length - from;
      pendingLiveBytes += bytes;
    },
    flush: () => {
      flush();
    },
    end: () => {
      finish();
    },
  };
  let feed: WatchFeed | undefined;

  const lineFor = (type: EventType, s: Stored, ev?: StoreEvent): Buffer => {
    if (o.table) {
      const t = table(rt, [s], o.table, { resourceVersion: String(s.rv) }, !headersSent);
      headersSent = true;
      return Buffer.from(`{"type":"${type}","object":${JSON.stringify(t)}}\n`);
    }
    if (ev) return sharedLine(ev, type);
    return Buffer.from(`{"type":"${type}","object":${s.json}}\n`);
  };

  const bookmark = (annotations?: Record<string, string>) => {
    const meta: Record<string, unknown> = {
      resourceVersion: String(store.resourceVersion),
      creationTimestamp: null,
    };
    if (annotations) meta.annotations = annotations;
    write(
      Buffer.from(
        `{"type":"BOOKMARK","object":${JSON.stringify({ kind: rt.kind, apiVersion: rt.apiVersion, metadata: meta })}}\n`,
      ),
    );
  };

  /** `live` false: replayed from the history when the watch starts (not a backlog either). */
  const deliver = (ev: StoreEvent, live = true) => {
    const now = matches(ev.obj);
    const before = ev.prev ? matches(ev.prev) : false;
    switch (ev.type) {
      case 'ADDED':
        if (now) write(lineFor('ADDED', ev.obj, ev), live);
        break;
      case 'MODIFIED':
        if (now && before) write(lineFor('MODIFIED', ev.obj, ev), live);
        else if (now) write(lineFor('ADDED', ev.obj, ev), live);
        else if (before) write(lineFor('DELETED', ev.obj, ev), live);
        break;
      case 'DELETED':
        if (before || now) write(lineFor('DELETED', ev.obj, ev), live);
        break;
    }
  };

  const subscription: { unsubscribe?: () => void } = {};
  let timeoutTimer: NodeJS.Timeout | undefined = undefined;
  /** One timer for all of a watch's bookmarks, re-armed after each. */
  let bookmarkTimer: NodeJS.Timeout | undefined;
  function finish(): void {
    if (closed) return;
    feed?.catchUp(member);
    if (!res.destroyed) writeOut();
    stop();
    res.end();
  }
  function stop(): void {
    closed = true;
    pending = [];
    pendingShared = false;
    subscription.unsubscribe?.();
    clearTimeout(timeoutTimer);
    clearTimeout(bookmarkTimer);
    if (graceTimer !== undefined) clearTimeout(graceTimer);
    graceTimer = undefined;
  }
  /**
   * The client has not kept up: the stream ends after what its socket already holds (what was
   * not written yet is dropped), and the socket is closed if the client does not read even that.
   */
  function endUnresponsive(): void {
    if (closed) return;
    stop();
    res.end();
    const linger = setTimeout(() => {
      res.destroy();
    }, UNRESPONSIVE_LINGER_MS);
    linger.unref();
    res.once('close', () => {
      clearTimeout(linger);
    });
  }
  onClose(finish);
  res.on('close', finish);

  if (fromState) {
    // The initial state is not a backlog (upstream sends it from a snapshot, outside the
    // watcher's bounded channel): its lines do not count toward the bounds.
    for (const s of initial) if (matches(s)) write(lineFor('ADDED', s), false);
    if (o.sendInitialEvents === true && o.allowBookmarks)
      bookmark({ 'k8s.io/initial-events-end': 'true' });
  } else {
    if (!since) {
      const status = expired(rv, store.compactedRv(rt) + 1).toStatus();
      write(Buffer.from(`{"type":"ERROR","object":${JSON.stringify(status)}}\n`));
      finish();
      return;
    }
    for (const ev of since) deliver(ev, false);
  }
  // Subscribing in the same tick as the replay: no event can fall between them. A plain watch
  // joins its kind and namespace's feed; one with a selector or as a Table takes each event itself.
  if (!selective && !o.table) {
    const f = feedFor(store, rt, o.namespace, flusher);
    f.join(member);
    feed = f;
    subscription.unsubscribe = () => {
      feed = undefined;
      f.leave(member);
    };
  } else {
    const watcher: Watcher = {
      namespace: o.namespace,
      name: exactName(o.fields),
      deliver: (ev) => {
        deliver(ev);
      },
      fail: finish,
      end: finish,
    };
    subscription.unsubscribe = store.watch(rt, watcher);
  }

  timeoutTimer = setTimeout(finish, o.timeoutMs);
  if (o.allowBookmarks) {
    // Before, each bookmark armed a new timer kept in a list until the watch ended: 360–720
    // spent Timeout objects per watch over its 30–60 minutes.
    bookmarkTimer = setTimeout(() => {
      if (closed) return;
      bookmark();
      bookmarkTimer?.refresh();
    }, o.bookmarkIntervalMs);
  }
}
