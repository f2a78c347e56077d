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
 */
import { Agent, request, type IncomingMessage } from 'node:http';
import {
  BENCH_TOKEN,
  MACHINES,
  epochMs,
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
  authorization: `Bearer ${BENCH_TOKEN}`,
  'user-agent': 'apiserver-bench/1',
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

interface Reply {
  status: number;
  body: Buffer;
}

function call(
  agent: Agent | false,
  method: string,
  url: string,
  body?: string,
  contentType = 'application/json',
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { ...HEADERS };
    if (body !== undefined) {
      headers['content-type'] = contentType;
      headers['content-length'] = Buffer.byteLength(body);
    }
    const req = request(url, { method, agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

function machinesUrl(url: string, namespace: string): string {
  return `${url}${MACHINES}/${namespace}/machines`;
}

async function creates(t: CreateTask): Promise<LoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: t.clients });
  const base = machinesUrl(t.url, t.namespace);
  let next = t.from;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: t.clients }, async () => {
      for (let i = next++; i < t.to; i = next++) {
        const res = await call(
          agent,
          'POST',
          base,
          JSON.stringify(machine(machineName(i), t.namespace)),
        );
        if (res.status !== 201)
          throw new Error(`create answered ${res.status}: ${res.body.toString()}`);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  return { role: 'create', seconds, created: t.to - t.from };
}

async function lists(t: ListTask): Promise<LoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const url = machinesUrl(t.url, t.namespace);
  const ms: number[] = [];
  let bytes = 0;
  for (let i = 0; i < t.runs; i++) {
    const t0 = performance.now();
    // Counting bytes only: the figure is the server's answer, not the client's JSON.parse.
    bytes = await new Promise<number>((resolve, reject) => {
      request(url, { agent, headers: HEADERS }, (res) => {
        let n = 0;
        res.on('data', (c: Buffer) => (n += c.length));
        res.on('end', () => {
          if (res.statusCode === 200) resolve(n);
          else reject(new Error(`list answered ${res.statusCode ?? 0}`));
        });
      })
        .on('error', reject)
        .end();
    });
    ms.push(performance.now() - t0);
  }
  // Untimed: the body is a complete list of every object.
  const check = await call(agent, 'GET', url);
  const parsed = JSON.parse(check.body.toString('utf8')) as { items?: unknown[] };
  agent.destroy();
  return { role: 'list', ms, bytes, items: parsed.items?.length ?? -1 };
}

function sleepUntil(due: number): Promise<void> {
  const wait = due - performance.now();
  return wait > 1 ? new Promise((r) => setTimeout(r, wait)) : Promise.resolve();
}

/** Creates one object per lane, then waits for `go` and patches at the given rate. */
async function writer(t: WatchWriterTask, go: Promise<void>): Promise<LoadResult> {
  const base = machinesUrl(t.url, t.namespace);
  const agents = Array.from(
    { length: t.lanes },
    () => new Agent({ keepAlive: true, maxSockets: 1 }),
  );
  for (let l = 0; l < t.lanes; l++) {
    const res = await call(
      agents[l] ?? false,
      'POST',
      base,
      JSON.stringify(machine(`w-${l}`, t.namespace)),
    );
    if (res.status !== 201) throw new Error(`create answered ${res.status}`);
  }
  send({ type: 'ready' });
  await go;
  cpuFrom = process.cpuUsage();
  const interval = 1000 / t.rate;
  const t0 = performance.now() + 5;
  let late = 0;
  let lastSend = t0;
  // Lane l sends sequence numbers l, l+lanes, ... each at its slot, or as soon as its previous
  // request is answered when that comes later; writes to one object stay on one connection, so
  // they never race each other into conflicts.
  await Promise.all(
    agents.map(async (agent, l) => {
      for (let seq = l; seq < t.events; seq += t.lanes) {
        const due = t0 + seq * interval;
        await sleepUntil(due);
        const now = performance.now();
        if (now - due > 10) late++;
        lastSend = Math.max(lastSend, now);
        const body = `{"metadata":{"annotations":{"bench/seq":"${seq}","bench/sent":"${epochMs().toFixed(3)}"}}}`;
        const res = await call(
          agent,
          'PATCH',
          `${base}/w-${l}`,
          body,
          'application/merge-patch+json',
        );
        if (res.status !== 200)
          throw new Error(`patch answered ${res.status}: ${res.body.toString()}`);
      }
    }),
  );
  for (const a of agents) a.destroy();
  const seconds = (lastSend - t0) / 1000;
  return { role: 'writer', achievedRate: seconds > 0 ? (t.events - 1) / seconds : t.rate, late };
}

const SEQ = Buffer.from('"bench/seq":"');
const SENT = Buffer.from('"bench/sent":"');
const RV = Buffer.from('"resourceVersion":"');
const MODIFIED = Buffer.from('{"type":"MODIFIED","object":');

/** The digits (and dot) after `marker` inside [start, end), or NaN. */
function numberAfter(buf: Buffer, marker: Buffer, start: number, end: number): number {
  const at = buf.indexOf(marker, start);
  if (at < 0 || at >= end) return Number.NaN;
  const from = at + marker.length;
  const close = buf.indexOf(0x22, from);
  if (close < 0 || close >= end) return Number.NaN;
  return Number(buf.toString('latin1', from, close));
}

interface WatchState {
  seen: Uint8Array;
  received: number;
  lastRv: number;
  pending: Buffer | undefined;
  res?: IncomingMessage;
}

async function readers(t: WatchReadersTask, stop: Promise<ReadersStop>): Promise<LoadResult> {
  const base = machinesUrl(t.url, t.namespace);
  const rv = t.resourceVersion;
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
    const objRv = numberAfter(buf, RV, start, end);
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
      request(
        `${base}?watch=1&resourceVersion=${rv}`,
        { agent: false, headers: HEADERS },
        (res) => {
          w.res = res;
          if (res.statusCode !== 200) {
            reject(new Error(`watch answered ${res.statusCode ?? 0}`));
            return;
          }
          res.on('data', (chunk: Buffer) => {
            const now = epochMs();
            const buf = w.pending ? Buffer.concat([w.pending, chunk]) : chunk;
            let start = 0;
            for (let nl = buf.indexOf(10); nl >= 0; nl = buf.indexOf(10, start)) {
              onLine(w, t.first + i, buf, start, nl, now);
              start = nl + 1;
            }
            w.pending = start < buf.length ? buf.subarray(start) : undefined;
          });
          res.on('error', () => undefined);
          if (++open === t.watchers) resolve();
        },
      )
        .on('error', reject)
        .end();
    }
  });
  send({ type: 'ready' });
  cpuFrom = process.cpuUsage();

  const { graceMs } = await stop;
  const deadline = performance.now() + graceMs;
  while (states.some((s) => s.received < t.events) && performance.now() < deadline)
    await new Promise((r) => setTimeout(r, 20));
  for (const s of states) s.res?.destroy();
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
