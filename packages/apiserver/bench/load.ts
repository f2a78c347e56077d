/**
 * The load generator, one role per process (forked by apiserver.bench.ts with the task as its
 * first IPC message), so that nothing of the clients' cost lands in the server's process:
 *   create   N Machines over C keep-alive connections, as fast as the server answers;
 *   list     the namespace R times, one after another, timed until the last byte;
 *   writer   merge-patches at a fixed rate (open loop over a few connections), each stamped with a
 *            sequence number and its wall-clock send time;
 *   readers  W watches, each checking that it gets every sequence number exactly once and in
 *            resourceVersion order, and recording receive − send per event. Lines are scanned for
 *            the three values they need instead of parsed, so the readers keep up with ~180 MB/s.
 * Every role speaks HTTP through bench/http-client.ts, which costs the load processes a fraction
 * of what node:http's client does.
 */
import { Connection } from './http-client';
import {
  BENCH_TOKEN,
  MACHINES,
  epochMs,
  loopDelayMonitor,
  machine,
  machineName,
  type CreateTask,
  type ListTask,
  type LoadMessage,
  type LoadResult,
  type LoadTask,
  type ReadersStop,
  type WatchReadersTask,
  type WatchWriterTask,
} from './shared';

const HEADERS = {
  Authorization: `Bearer ${BENCH_TOKEN}`,
  'User-Agent': 'apiserver-bench/1',
};

/** Where the task's CPU time is counted from: its start, or where its measured part begins. */
let cpuFrom = process.cpuUsage();

function send(m: LoadMessage, then?: () => void): void {
  process.send?.(m, undefined, {}, () => then?.());
}

/** Lets the last message leave before the channel closes (a large one takes several writes). */
function finish(m: LoadMessage): void {
  send(m, () => {
    process.disconnect();
  });
}

function machinesPath(namespace: string): string {
  return `${MACHINES}/${namespace}/machines`;
}

async function creates(t: CreateTask): Promise<LoadResult> {
  const path = machinesPath(t.namespace);
  const conns = Array.from({ length: t.clients }, () => new Connection(t.url, HEADERS));
  let next = t.from;
  const started = performance.now();
  await Promise.all(
    conns.map(async (c) => {
      for (let i = next++; i < t.to; i = next++) {
        const body = JSON.stringify(machine(machineName(i), t.namespace));
        const res = await c.request('POST', path, body);
        if (res.status !== 201)
          throw new Error(`create answered ${res.status}: ${res.body.toString()}`);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  for (const c of conns) c.close();
  return { role: 'create', seconds, created: t.to - t.from };
}

async function lists(t: ListTask): Promise<LoadResult> {
  const c = new Connection(t.url, HEADERS);
  const path = machinesPath(t.namespace);
  const ms: number[] = [];
  let bytes = 0;
  for (let i = 0; i < t.runs; i++) {
    const t0 = performance.now();
    // Counting bytes only: the figure is the server's answer, not the client's JSON.parse.
    let n = 0;
    const res = await c.request('GET', path, undefined, undefined, (piece) => (n += piece.length));
    if (res.status !== 200) throw new Error(`list answered ${res.status}`);
    ms.push(performance.now() - t0);
    bytes = n;
  }
  // Untimed: the body is a complete list of every object.
  const check = await c.request('GET', path);
  const parsed = JSON.parse(check.body.toString('utf8')) as { items?: unknown[] };
  c.close();
  return { role: 'list', ms, bytes, items: parsed.items?.length ?? -1 };
}

function sleepUntil(due: number): Promise<void> {
  const wait = due - performance.now();
  return wait > 1 ? new Promise((r) => setTimeout(r, wait)) : Promise.resolve();
}

/** Creates one object per lane, then waits for `go` and patches at the given rate. */
async function writer(t: WatchWriterTask, go: Promise<void>): Promise<LoadResult> {
  const path = machinesPath(t.namespace);
  const lanes = Array.from({ length: t.lanes }, () => new Connection(t.url, HEADERS));
  for (const [l, c] of lanes.entries()) {
    const base = machine(`w-${l}`, t.namespace);
    // The stamps go first, so readers find them before the padding (merge patches keep the order).
    const annotations = { 'bench/seq': '0', 'bench/sent': '0', ...base.metadata.annotations };
    const obj = { ...base, metadata: { ...base.metadata, annotations } };
    const res = await c.request('POST', path, JSON.stringify(obj));
    if (res.status !== 201) throw new Error(`create answered ${res.status}`);
  }
  send({ type: 'ready' });
  await go;
  cpuFrom = process.cpuUsage();
  const interval = 1000 / t.rate;
  const t0 = performance.now() + 5;
  let late = 0;
  let lastSend = t0;
  const roundTrips = new Float64Array(t.events);
  // Lane l sends sequence numbers l, l+lanes, ... each at its slot, or as soon as its previous
  // request is answered when that comes later; writes to one object stay on one connection, so
  // they never race each other into conflicts.
  await Promise.all(
    lanes.map(async (c, l) => {
      for (let seq = l; seq < t.events; seq += t.lanes) {
        const due = t0 + seq * interval;
        await sleepUntil(due);
        const now = performance.now();
        if (now - due > 10) late++;
        lastSend = Math.max(lastSend, now);
        const body = `{"metadata":{"annotations":{"bench/seq":"${seq}","bench/sent":"${epochMs().toFixed(3)}"}}}`;
        const res = await c.request(
          'PATCH',
          `${path}/w-${l}`,
          body,
          'application/merge-patch+json',
        );
        roundTrips[seq] = performance.now() - now;
        if (res.status !== 200)
          throw new Error(`patch answered ${res.status}: ${res.body.toString()}`);
      }
    }),
  );
  for (const c of lanes) c.close();
  const seconds = (lastSend - t0) / 1000;
  return {
    role: 'writer',
    achievedRate: seconds > 0 ? (t.events - 1) / seconds : t.rate,
    late,
    roundTrips,
  };
}

const SEQ = Buffer.from('"bench/seq":"');
const SENT = Buffer.from('"bench/sent":"');
const RV = Buffer.from('"resourceVersion":"');
const MODIFIED = Buffer.from('{"type":"MODIFIED","object":');

/** The number in quotes that starts at `from` (digits and one dot), or NaN. */
function numberAt(buf: Buffer, from: number, end: number): number {
  let whole = 0;
  let fraction = 0;
  let scale = 0;
  for (let i = from; i < end; i++) {
    const c = buf[i] ?? 0;
    if (c === 0x22) return whole + fraction;
    if (c === 0x2e && scale === 0) scale = 1;
    else if (c >= 0x30 && c <= 0x39) {
      if (scale === 0) whole = whole * 10 + (c - 0x30);
      else fraction += (c - 0x30) * (scale /= 10);
    } else return Number.NaN;
  }
  return Number.NaN;
}

/**
 * The number after the first `marker` in [start, end), searching from `start`: the writer's
 * objects carry the sequence number and send time before their 2.6 KB padding annotation, so
 * the search reads a few hundred bytes of the line, not all of it.
 */
function numberAfter(buf: Buffer, marker: Buffer, start: number, end: number): number {
  const at = buf.indexOf(marker, start);
  return at < 0 || at >= end ? Number.NaN : numberAt(buf, at + marker.length, end);
}

/** The same for the last `marker`, searching back from `end` (resourceVersion ends metadata). */
function numberAfterLast(buf: Buffer, marker: Buffer, start: number, end: number): number {
  const at = buf.lastIndexOf(marker, end - marker.length);
  return at < start ? Number.NaN : numberAt(buf, at + marker.length, end);
}

interface WatchState {
  seen: Uint8Array;
  received: number;
  lastRv: number;
  pending: Buffer | undefined;
  conn?: Connection;
}

async function readers(t: WatchReadersTask, stop: Promise<ReadersStop>): Promise<LoadResult> {
  const path = `${machinesPath(t.namespace)}?watch=1&resourceVersion=${t.resourceVersion}`;
  const latencies = new Float64Array(t.watchers * t.events);
  let n = 0;
  const problems: string[] = [];
  const problem = (p: string) => {
    if (problems.length < 20) problems.push(p);
  };
  const states: WatchState[] = [];

  const onLine = (
    w: WatchState,
    idx: number,
    buf: Buffer,
    start: number,
    end: number,
    now: number,
  ) => {
    if (buf.compare(MODIFIED, 0, MODIFIED.length, start, start + MODIFIED.length) !== 0) {
      problem(
        `watcher ${idx}: unexpected line ${buf.toString('utf8', start, Math.min(end, start + 120))}`,
      );
      return;
    }
    const seq = numberAfter(buf, SEQ, start, end);
    const sent = numberAfter(buf, SENT, start, end);
    const objRv = numberAfterLast(buf, RV, start, end);
    if (!Number.isInteger(seq) || seq < 0 || seq >= t.events || Number.isNaN(sent)) {
      problem(`watcher ${idx}: event without a sequence number`);
      return;
    }
    if (w.seen[seq]) problem(`watcher ${idx}: sequence ${seq} twice`);
    if (!(objRv > w.lastRv)) problem(`watcher ${idx}: resourceVersion ${objRv} after ${w.lastRv}`);
    w.lastRv = objRv;
    w.seen[seq] = 1;
    w.received++;
    latencies[n++] = now - sent;
  };

  await new Promise<void>((resolve, reject) => {
    let open = 0;
    for (let i = 0; i < t.watchers; i++) {
      const w: WatchState = {
        seen: new Uint8Array(t.events),
        received: 0,
        lastRv: 0,
        pending: undefined,
      };
      states.push(w);
      // One connection per watcher, as 100 separate informers would have.
      const conn = new Connection(t.url, HEADERS);
      w.conn = conn;
      const onPiece = (piece: Buffer) => {
        const now = epochMs();
        let start = 0;
        if (w.pending) {
          // Only the line that straddles two reads is copied together, not the whole read.
          const nl = piece.indexOf(10);
          if (nl < 0) {
            w.pending = Buffer.concat([w.pending, piece]);
            return;
          }
          const line = Buffer.concat([w.pending, piece.subarray(0, nl + 1)]);
          w.pending = undefined;
          onLine(w, t.first + i, line, 0, line.length - 1, now);
          start = nl + 1;
        }
        for (let nl = piece.indexOf(10, start); nl >= 0; nl = piece.indexOf(10, start)) {
          onLine(w, t.first + i, piece, start, nl, now);
          start = nl + 1;
        }
        // A copy: the piece is a view of the socket's buffer.
        if (start < piece.length) w.pending = Buffer.from(piece.subarray(start));
      };
      const onHead = (status: number) => {
        if (status !== 200) reject(new Error(`watch answered ${status}`));
        else if (++open === t.watchers) resolve();
      };
      conn.request('GET', path, undefined, undefined, onPiece, onHead).then(
        () => {
          problem(`watcher ${t.first + i}: the server ended the watch`);
        },
        (e: unknown) => {
          reject(e instanceof Error ? e : new Error(String(e)));
        },
      );
    }
  });
  send({ type: 'ready' });
  cpuFrom = process.cpuUsage();
  const loopDelay = loopDelayMonitor();

  const { graceMs } = await stop;
  const deadline = performance.now() + graceMs;
  while (states.some((s) => s.received < t.events) && performance.now() < deadline)
    await new Promise((r) => setTimeout(r, 20));
  for (const s of states) s.conn?.close();
  states.forEach((s, i) => {
    if (s.received !== t.events)
      problem(`watcher ${t.first + i}: ${s.received} of ${t.events} events`);
  });
  return {
    role: 'readers',
    complete: problems.length === 0,
    minReceived: Math.min(...states.map((s) => s.received)),
    problems,
    latencies: latencies.slice(0, n),
    loopDelay: loopDelay(),
  };
}

function run(task: LoadTask): Promise<LoadResult> {
  const next = <T>(type: string) =>
    new Promise<T>((resolve) => {
      const on = (m: { type: string }) => {
        if (m.type !== type) return;
        process.off('message', on);
        resolve(m as T);
      };
      process.on('message', on);
    });
  switch (task.role) {
    case 'create':
      return creates(task);
    case 'list':
      return lists(task);
    case 'writer':
      return writer(
        task,
        next<unknown>('go').then(() => undefined),
      );
    case 'readers':
      return readers(task, next<ReadersStop>('stop'));
  }
}

process.once('message', (task: LoadTask) => {
  cpuFrom = process.cpuUsage();
  run(task).then(
    (result) => {
      const used = process.cpuUsage(cpuFrom);
      finish({ type: 'result', result: { ...result, cpuMs: (used.user + used.system) / 1000 } });
    },
    (e: unknown) => {
      finish({ type: 'error', message: e instanceof Error ? (e.stack ?? e.message) : String(e) });
    },
  );
});
