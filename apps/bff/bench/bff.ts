import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { buildApp } from '../src/app';
import { listenOptionsOf, loadConfig } from '../src/config/env';

/**
 * Benchmark child 2: the BFF alone in its process (so its RSS is its own), local mode.
 * `--timings`: times each stamped event through the BFF (arrival in the cache, its batch's flush,
 * first and last socket write) and answers `{"cmd":"timings"}` on stdin with what it timed since
 * the last ask (the fan-out benchmark's decomposition of the latency, bench/fanout.ts).
 */
const { values } = parseArgs({
  options: { kubeconfig: { type: 'string' }, timings: { type: 'boolean', default: false } },
});
const config = loadConfig({
  argv: ['--kubeconfig', values.kubeconfig ?? '/tmp/bench-kubeconfig'],
  env: {
    HOST: '127.0.0.1',
    PORT: '0',
    AUTH_MODE: 'local',
    LOG_LEVEL: 'warn',
    SSE_MAX_CLIENTS: '20000',
    // `/metrics` has its own listener (never the app's port); the runner reads the watch count.
    METRICS_PORT: '0',
    // Stream tuning to compare settings (`SSE_BATCH_MS=50 pnpm bench`); the defaults otherwise.
    ...(process.env.SSE_BATCH_MS !== undefined ? { SSE_BATCH_MS: process.env.SSE_BATCH_MS } : {}),
    // The build the runner made (bench part `screen` opens the SPA); apps/web/dist otherwise.
    ...(process.env.STATIC_DIR !== undefined ? { STATIC_DIR: process.env.STATIC_DIR } : {}),
  },
});
const app = await buildApp({ config });
// As `serve` listens: the backlog decides whether a burst of thousands of connects is reset.
const url = await app.listen(listenOptionsOf(config));
await app.cache.waitForSync();
// The runner may go first (a failed target, ^C): then there is no one left to tell.
process.stdout.on('error', () => process.exit(0));
process.stdout.write(
  `${JSON.stringify({ ready: url, metrics: app.metricsUrl(), pid: process.pid })}\n`,
);
// How busy the BFF's one thread is (event-loop utilization, 0..1), every second: on a shared
// machine the latency figures also carry other processes' load; this one is the BFF's own.
let last = performance.eventLoopUtilization();
let lastCpu = process.cpuUsage();
let lastAt = performance.now();
setInterval(() => {
  const now = performance.eventLoopUtilization();
  const cpu = process.cpuUsage(lastCpu);
  const at = performance.now();
  // CPU time is the BFF's own whatever else runs; elapsed time and utilization are not.
  const cpuShare = (cpu.user + cpu.system) / 1000 / (at - lastAt);
  process.stdout.write(
    `${JSON.stringify({ elu: performance.eventLoopUtilization(now, last).utilization, cpu: cpuShare, heapMb: process.memoryUsage().heapUsed / 2 ** 20, at: Date.now() })}\n`,
  );
  last = now;
  lastCpu = process.cpuUsage();
  lastAt = at;
}, 1000).unref();
process.on('SIGTERM', () => {
  // As `serve` does: a graceful close, bounded (streams whose peers are gone may not finish it).
  setTimeout(() => process.exit(0), 3000).unref();
  void app.close().then(() => process.exit(0));
});

// Diagnostics (BENCH_TRACE=1): how long stamped API-server events take to reach the cache, and
// to be written to every stream (the hub's listener runs first, so this one sees the end of it).
if (process.env.BENCH_TRACE === '1') {
  const stampOf = (o: unknown) => /bench:\d+:(\d+)/.exec(JSON.stringify(o))?.[1];
  const arrival: number[] = [];
  const written: number[] = [];
  const report = (name: string, xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    const at = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? 0;
    process.stderr.write(
      `trace: ${name} p50 ${String(at(0.5))} p95 ${String(at(0.95))} p99 ${String(at(0.99))} max ${String(s.at(-1) ?? 0)} (${String(s.length)})\n`,
    );
  };
  app.cache.subscribe((c) => {
    if (c.kind !== 'Machine') return;
    const t = stampOf(c.object);
    if (t !== undefined) arrival.push(Date.now() - Number(t));
    if (arrival.length === 900) report('cache arrival', arrival);
  });
  app.views.onChanges((_model, changes) => {
    const now = Date.now();
    for (const c of changes) {
      const t = c.type === 'upsert' && c.kind === 'machine' ? stampOf(c.view) : undefined;
      if (t !== undefined) written.push(now - Number(t));
    }
    if (written.length >= 900 && written.length - changes.length < 900)
      report('written to every stream', written);
  });
}

if (values.timings) {
  const wallNow = () => performance.timeOrigin + performance.now();
  /**
   * Each stamped event: its room's sequence number and [in the cache, the first batch carrying
   * it began, its first socket write, its last] (wall ms). A large room is written in slices, so
   * an event's writes span the slices (and passes) that carry it to every client.
   */
  let timings: { seq: number; logSeq: number; t: [number, number, number, number] }[] = [];
  const cachedAt = new Map<number, number>();
  let batches: [number, number, number, number][] = [];
  const seqOf = (text: string) => /bench:(\d+):\d+/.exec(text)?.[1];
  app.cache.subscribe((c) => {
    if (c.kind !== 'Machine') return;
    const seq = seqOf(JSON.stringify(c.object));
    if (seq !== undefined && !cachedAt.has(Number(seq))) cachedAt.set(Number(seq), wallNow());
  });
  // Registered after the hub's listener: these changes are in the room's log by now, last at its
  // newest sequence number.
  app.views.onChanges((model, changes) => {
    const newest = app.hub.seqOf(`${model.namespace}/${model.name}`);
    if (newest === undefined) return;
    changes.forEach((c, i) => {
      if (c.type !== 'upsert' || c.kind !== 'machine') return;
      const seq = Number(seqOf(JSON.stringify(c.view)));
      const at = cachedAt.get(seq);
      if (at === undefined) return;
      cachedAt.delete(seq);
      timings.push({ seq, logSeq: newest - (changes.length - 1 - i), t: [at, 0, 0, 0] });
    });
  });
  app.hub.onBatch((b) => {
    batches.push([b.startedAt, b.firstWriteAt, b.lastWriteAt, b.clients]);
    // Newest last: walk back over the events this batch carried.
    for (let i = timings.length - 1; i >= 0; i--) {
      const e = timings[i];
      if (!e || e.logSeq <= b.fromSeq) break;
      if (e.logSeq > b.toSeq) continue;
      if (e.t[1] === 0) e.t = [e.t[0], b.startedAt, b.firstWriteAt, b.lastWriteAt];
      else e.t[3] = Math.max(e.t[3], b.lastWriteAt);
    }
  });
  createInterface({ input: process.stdin }).on('line', (line) => {
    const cmd = JSON.parse(line) as { cmd?: string };
    if (cmd.cmd !== 'timings') return;
    const bySeq = Object.fromEntries(timings.filter((e) => e.t[1] > 0).map((e) => [e.seq, e.t]));
    process.stdout.write(`${JSON.stringify({ timings: bySeq, batches })}\n`);
    timings = [];
    batches = [];
  });
}
