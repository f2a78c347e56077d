import http from 'node:http';
import net from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';

/**
 * Benchmark child 3: the load. `--mode http`: GET a URL at a fixed rate (open loop: requests are
 * sent on schedule whether or not earlier ones have answered) and report latency percentiles.
 * `--mode sse`: open `--clients` streams, report when all are open, then measure for every
 * client the delay from each stamped API-server event (`bench:<seq>:<ms>`) to its arrival, until
 * told `{"cmd":"report"}`. JSON lines on stdout. A report may carry the BFF's timings of each event
 * (bench/bff.ts `--timings`): the loader then splits each delivery's delay into where it went
 * (`decompose`), and reports its own event-loop delay, the lag it adds itself.
 */

const { values } = parseArgs({
  options: {
    mode: { type: 'string', default: 'http' },
    url: { type: 'string' },
    rate: { type: 'string', default: '200' },
    seconds: { type: 'string', default: '10' },
    clients: { type: 'string', default: '1' },
    // `application/json` for a Kubernetes watch (through kubectl proxy) instead of an SSE stream.
    accept: { type: 'string', default: 'text/event-stream' },
  },
});
const url = values.url ?? '';
const out = (o: unknown) => process.stdout.write(`${JSON.stringify(o)}\n`);

export function percentiles(xs: readonly number[]) {
  // A typed array sorts numbers natively: a loader's 1.25 million deliveries × six parts took
  // ~30 s of its CPU through Array#sort with a comparator, after every run.
  const s = Float64Array.from(xs).sort();
  const at = (p: number) =>
    s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))] ?? 0;
  return { count: s.length, p50: at(50), p95: at(95), p99: at(99), max: s[s.length - 1] ?? 0 };
}

async function httpLoad(): Promise<void> {
  const rate = Number(values.rate);
  const total = Math.round(rate * Number(values.seconds));
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const latencies: number[] = [];
  let errors = 0;
  let bytes = 0;
  const t0 = performance.now();
  const pending: Promise<void>[] = [];
  for (let k = 0; k < total; k++) {
    const due = t0 + (k * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    pending.push(
      new Promise<void>((resolve) => {
        const sent = performance.now();
        const req = http.get(url, { agent }, (res) => {
          res.on('data', (c: Buffer) => (bytes += c.length));
          res.on('end', () => {
            if (res.statusCode === 200) latencies.push(performance.now() - sent);
            else errors++;
            resolve();
          });
        });
        req.on('error', () => {
          errors++;
          resolve();
        });
      }),
    );
  }
  await Promise.all(pending);
  const seconds = (performance.now() - t0) / 1000;
  out({
    http: {
      ...percentiles(latencies),
      errors,
      achievedRate: latencies.length / seconds,
      bytesPerResponse: Math.round(bytes / Math.max(1, latencies.length)),
    },
  });
  agent.destroy();
}

const STAMP = Buffer.from('bench:');
/** More than a whole stamp (`bench:<seq>:<13-digit ms>"`, ~30 bytes): what a read boundary can cut. */
const EDGE = 48;
const RESYNC = Buffer.from('"resync"');
const DIGIT_0 = 0x30;
const DIGIT_9 = 0x39;
const COLON = 0x3a;

const isDigit = (b: number | undefined) => b !== undefined && b >= DIGIT_0 && b <= DIGIT_9;

/**
 * Every complete stamp `bench:<seq>:<ms>` in `buf`, found on the bytes (no text decoding: with
 * 2,000 streams the loaders read hundreds of MB/s, and decoding and regex-scanning all of it
 * took CPU the BFF needs on the same machine). The digits end at the first byte that is not one:
 * a Machine through kubectl proxy also carries its stamp inside CAPI's conversion-data annotation,
 * a JSON string in a JSON string, where it ends with `\"` (read up to the quote, the backslash
 * made a ms figure ten times too large: p50 −16 billion s at 1 to 100 clients, December 2026). A
 * stamp cut off at the end is left for the next chunk, which the caller scans again joined to
 * the head of the next (`Edge`).
 */
function stampsIn(buf: Buffer, found: (seq: number, at: number) => void): void {
  for (let i = buf.indexOf(STAMP); i >= 0; i = buf.indexOf(STAMP, i + STAMP.length)) {
    let j = i + STAMP.length;
    let seq = 0;
    for (; isDigit(buf[j]); j++) seq = seq * 10 + (buf[j] ?? 0) - DIGIT_0;
    if (j >= buf.length) return;
    if (buf[j] !== COLON) continue;
    let at = 0;
    for (j++; isDigit(buf[j]); j++) at = at * 10 + (buf[j] ?? 0) - DIGIT_0;
    if (j >= buf.length) return;
    found(seq, at);
  }
}

/**
 * The bytes around one stream's read boundaries: the last EDGE bytes of what it read so far, then
 * the first EDGE of the next read, scanned on their own, so that a stamp cut by the boundary is
 * found without joining the whole read to the tail (one copy of ≤ 96 bytes a read, instead of a
 * copy of every read). A stamp found twice (whole in the tail and in its own read) is counted once
 * by the caller's `seen`, as before.
 */
class Edge {
  readonly #bytes = Buffer.alloc(2 * EDGE);
  #length = 0;

  /** Stamps across the boundary before `read`, then keeps the end of `read` for the next. */
  scan(read: Buffer, found: (seq: number, at: number) => void): void {
    const head = Math.min(read.length, EDGE);
    read.copy(this.#bytes, this.#length, 0, head);
    if (this.#length > 0) stampsIn(this.#bytes.subarray(0, this.#length + head), found);
    if (read.length >= EDGE) {
      read.copy(this.#bytes, 0, read.length - EDGE);
      this.#length = EDGE;
    } else {
      const length = this.#length + read.length;
      this.#bytes.copyWithin(0, Math.max(0, length - EDGE), length);
      this.#length = Math.min(EDGE, length);
    }
  }
}

/**
 * The BFF's times for one event (bench/bff.ts): in its cache, the first batch carrying it began,
 * its first socket write, its last (to the last of the clients, over the slices of a large room).
 */
type EventTiming = [cachedAt: number, startedAt: number, firstWriteAt: number, lastWriteAt: number];

/** Where one delivery's delay went, ms; the parts add up to arrival − stamp. */
export interface Parts {
  /** API server's write → the BFF's cache (watch delivery, decoding). */
  watch: number;
  /** In the cache → the first batch carrying it began: the batch window (SSE_BATCH_MS). */
  window: number;
  /** That batch began → its first socket write: views refreshed, frames encoded. */
  refresh: number;
  /** The event's first socket write → this arrival, or its last write if that came first. */
  writes: number;
  /** The event's last socket write → this arrival: the loader's (and the kernel's) own lag. */
  after: number;
}
const LOOP_RESOLUTION_MS = 10;

/**
 * Splits deliveries (seq, arrival) by the BFF's timings: each part's p50 and p99, and the mean of
 * each part over the deliveries at or above the total's p99 — where the tail's time goes.
 */
function decompose(
  seqs: ArrayLike<number>,
  arrivals: ArrayLike<number>,
  stampOf: (seq: number) => number | undefined,
  timings: Readonly<Record<string, EventTiming>>,
) {
  const rows: (Parts & { total: number })[] = [];
  for (let i = 0; i < seqs.length; i++) {
    const seq = seqs[i] ?? 0;
    const t = timings[String(seq)];
    const stamp = stampOf(seq);
    const recv = arrivals[i] ?? 0;
    if (!t || stamp === undefined) continue;
    const [cachedAt, startedAt, firstWriteAt, lastWriteAt] = t;
    rows.push({
      total: recv - stamp,
      watch: cachedAt - stamp,
      window: startedAt - cachedAt,
      refresh: firstWriteAt - startedAt,
      writes: Math.max(0, Math.min(recv, lastWriteAt) - firstWriteAt),
      after: Math.max(0, recv - lastWriteAt),
    });
  }
  const pick = (k: keyof Parts | 'total') => percentiles(rows.map((r) => r[k]));
  const total = pick('total');
  const tail = rows.filter((r) => r.total >= total.p99);
  const mean = (k: keyof Parts) => tail.reduce((a, r) => a + r[k], 0) / Math.max(1, tail.length);
  const round = (x: number) => Math.round(x * 10) / 10;
  const each = (f: (k: keyof Parts) => number): Parts => ({
    watch: f('watch'),
    window: f('window'),
    refresh: f('refresh'),
    writes: f('writes'),
    after: f('after'),
  });
  return {
    matched: rows.length,
    p99: round(total.p99),
    tail: each((k) => round(mean(k))),
    p50Of: each((k) => round(pick(k).p50)),
    p99Of: each((k) => round(pick(k).p99)),
  };
}

async function sseLoad(): Promise<void> {
  const n = Number(values.clients);
  const latencies: number[] = [];
  // Each delivery's seq and arrival (wall ms, sub-ms), and each seq's stamp: for `decompose`.
  const deliveredSeqs: number[] = [];
  const arrivals: number[] = [];
  const stamps = new Map<number, number>();
  const wallNow = () => performance.timeOrigin + performance.now();
  let resyncs = 0;
  let bytes = 0;
  /** Reads (`onread` callbacks) while measuring: the loaders' CPU per read is their cost. */
  let reads = 0;
  let open = 0;
  let refused = 0;
  /** Why streams failed while opening (ECONNRESET, ETIMEDOUT, …): the fix depends on it. */
  const openErrors: Record<string, number> = {};
  const sockets: net.Socket[] = [];
  const target = new URL(url);
  // Raw TCP, like EventSource on the far side of a network: the request written by hand, the
  // response read as bytes. Node's HTTP client would add a parser and a stream per chunk, CPU
  // taken from the BFF on this shared machine and counted in its latency.
  const request = Buffer.from(
    `GET ${target.pathname}${target.search} HTTP/1.1\r\nHost: ${target.host}\r\nAccept: ${values.accept}\r\n\r\n`,
  );
  // One read buffer for every stream of the process (`onread`): each read is scanned before the
  // next, and Node hands it over without a Buffer and a stream 'data' event per read — per-read
  // cost of this process, on the machine the BFF runs on (issue 14: the loaders took 1.1 cores at
  // 5,000 clients). What is measured is unchanged: every stamp of every read, timed at its read.
  const readBuffer = Buffer.alloc(64 * 1024);
  await new Promise<void>((allOpen) => {
    for (let i = 0; i < n; i++) {
      // Events of one refresh arrive in view order, not stamp order: remember each seq seen.
      const seen = new Set<number>();
      const edge = new Edge();
      let first = true;
      let now = 0;
      let arrived = 0;
      const found = (seq: number, at: number) => {
        if (seen.has(seq)) return;
        seen.add(seq);
        latencies.push(now - at);
        deliveredSeqs.push(seq);
        arrivals.push(arrived);
        stamps.set(seq, at);
      };
      const onRead = (length: number, into: Uint8Array): boolean => {
        now = Date.now();
        arrived = wallNow();
        const chunk = Buffer.from(into.buffer, into.byteOffset, length);
        bytes += length;
        reads++;
        if (first) {
          first = false;
          // A refused stream is counted, not fatal: how many a side refuses is a figure too.
          if (!chunk.subarray(0, 12).toString('latin1').startsWith('HTTP/1.1 200')) {
            refused++;
            process.stderr.write(`stream refused: ${chunk.subarray(0, 80).toString('utf8')}\n`);
          }
          if (++open === n) allOpen();
        }
        if (chunk.includes(RESYNC)) resyncs++;
        edge.scan(chunk, found);
        stampsIn(chunk, found);
        return true;
      };
      const socket = net.connect(
        {
          port: Number(target.port),
          host: target.hostname,
          onread: { buffer: readBuffer, callback: onRead },
        },
        () => {
          socket.write(request);
        },
      );
      socket.on('error', (e: NodeJS.ErrnoException) => {
        if (!first) return;
        const code = e.code ?? e.message;
        openErrors[code] = (openErrors[code] ?? 0) + 1;
      });
      // Closed before any answer (reset while connecting): refused as well.
      socket.on('close', () => {
        if (!first) return;
        first = false;
        refused++;
        if (++open === n) allOpen();
      });
      sockets.push(socket);
    }
  });
  if (refused > 0)
    process.stderr.write(`streams failed while opening: ${JSON.stringify(openErrors)}\n`);
  out({ connected: open, refused, openErrors });
  // This process's own CPU while it measures: the load shares the machine with the BFF.
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  bytes = 0;
  reads = 0;
  // How late this process's own event loop runs: a delivery it reads late is measured late.
  const loopDelay = monitorEventLoopDelay({ resolution: LOOP_RESOLUTION_MS });
  loopDelay.enable();
  const commands = createInterface({ input: process.stdin });
  commands.on('line', (line) => {
    const cmd = JSON.parse(line) as { cmd: string; timings?: Record<string, EventTiming> };
    if (cmd.cmd === 'reset') latencies.length = 0;
    // Deliveries so far (one per stamped event per client): the runner waits for all of them.
    if (cmd.cmd === 'count') out({ count: latencies.length });
    if (cmd.cmd === 'report') {
      const used = process.cpuUsage(cpu0);
      const ms = performance.now() - t0;
      loopDelay.disable();
      out({
        sse: {
          ...percentiles(latencies),
          resyncs: resyncs - n,
          clients: open,
          refused,
          cpu: (used.user + used.system) / 1000 / ms,
          reads,
          cpuPerReadUs: (used.user + used.system) / Math.max(1, reads),
          bytesPerClientPerSecond: bytes / Math.max(1, open) / (ms / 1000),
          // The histogram holds whole timer periods: what exceeds the period is the delay.
          loopDelayP99: Math.max(0, loopDelay.percentile(99) / 1e6 - LOOP_RESOLUTION_MS),
          loopDelayMax: Math.max(0, loopDelay.max / 1e6 - LOOP_RESOLUTION_MS),
          ...(cmd.timings
            ? {
                parts: decompose(deliveredSeqs, arrivals, (q) => stamps.get(q), cmd.timings),
              }
            : {}),
        },
      });
      for (const s of sockets) s.destroy();
      process.exit(0);
    }
  });
}

if (values.mode === 'sse') await sseLoad();
else await httpLoad();
