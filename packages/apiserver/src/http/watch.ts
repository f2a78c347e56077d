/**
 * Watch streams: newline-delimited JSON events on a 200 response, as kube-apiserver sends them.
 * Events come from the store synchronously and in order. The line of an event is encoded once,
 * from the stored version's serialized JSON, and the same bytes go to every watcher it reaches.
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
  /** A client that does not read is cut off past this many buffered bytes. */
  maxBufferedBytes?: number;
}

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

  res.writeHead(200, {
    'Content-Type': 'application/json',
    'Transfer-Encoding': 'chunked',
    'Cache-Control': 'no-cache, private',
  });
  res.flushHeaders();

  let headersSent = false;
  const maxBuffered = o.maxBufferedBytes ?? 64 * 1024 * 1024;
  let closed = false;
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  /** Bytes the response and its socket held after the last flush (an upper bound since). */
  let buffered = res.writableLength;

  const writeOut = () => {
    if (pending.length === 0) return;
    const lines = pending;
    const bytes = pendingBytes;
    pending = [];
    pendingBytes = 0;
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
  const flush = () => {
    if (closed) return;
    writeOut();
    buffered = res.writableLength;
    if (buffered > maxBuffered) finish();
  };

  const write = (line: Buffer) => {
    if (closed) return;
    if (pending.length === 0) flusher.schedule(flush);
    pending.push(line);
    pendingBytes += line.length;
    // A client that does not read is cut off, whether its bytes wait here or in the socket.
    // `buffered` (the socket's backlog at the last flush) only overstates it: the backlog can only
    // drain until the next flush writes. So the exact figure, a getter walking the response and
    // the socket (2.5% of the server's time in a fan-out to 100 TLS watchers), is read only near
    // the limit.
    if (pendingBytes + buffered > maxBuffered) {
      buffered = res.writableLength;
      if (pendingBytes + buffered > maxBuffered) finish();
    }
  };

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

  const deliver = (ev: StoreEvent) => {
    const now = matches(ev.obj);
    const before = ev.prev ? matches(ev.prev) : false;
    switch (ev.type) {
      case 'ADDED':
        if (now) write(lineFor('ADDED', ev.obj, ev));
        break;
      case 'MODIFIED':
        if (now && before) write(lineFor('MODIFIED', ev.obj, ev));
        else if (now) write(lineFor('ADDED', ev.obj, ev));
        else if (before) write(lineFor('DELETED', ev.obj, ev));
        break;
      case 'DELETED':
        if (before || now) write(lineFor('DELETED', ev.obj, ev));
        break;
    }
  };

  const subscription: { unsubscribe?: () => void } = {};
  let timers: NodeJS.Timeout[] = [];
  function finish(): void {
    if (closed) return;
    closed = true;
    if (!res.destroyed) writeOut();
    pending = [];
    subscription.unsubscribe?.();
    for (const t of timers) clearTimeout(t);
    timers = [];
    res.end();
  }
  onClose(finish);
  res.on('close', finish);

  const rv = o.resourceVersion;
  const fromState = rv === undefined || rv === '' || rv === '0' || o.sendInitialEvents === true;
  if (fromState) {
    for (const s of store.list(rt, o.namespace)) if (matches(s)) write(lineFor('ADDED', s));
    if (o.sendInitialEvents === true && o.allowBookmarks)
      bookmark({ 'k8s.io/initial-events-end': 'true' });
  } else {
    const since = store.eventsSince(rt, Number(rv));
    if (!since) {
      const status = expired(rv, store.compactedRv(rt) + 1).toStatus();
      write(Buffer.from(`{"type":"ERROR","object":${JSON.stringify(status)}}\n`));
      finish();
      return;
    }
    for (const ev of since) deliver(ev);
  }
  // Subscribing in the same tick as the replay: no event can fall between them.
  const watcher: Watcher = { namespace: o.namespace, name: exactName(o.fields), deliver };
  subscription.unsubscribe = store.watch(rt, watcher);

  timers.push(setTimeout(finish, o.timeoutMs));
  if (o.allowBookmarks) {
    const tick = () => {
      if (closed) return;
      bookmark();
      timers.push(setTimeout(tick, o.bookmarkIntervalMs));
    };
    timers.push(setTimeout(tick, o.bookmarkIntervalMs));
  }
}
