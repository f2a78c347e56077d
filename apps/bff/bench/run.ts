import type { ChildProcess } from 'node:child_process';
import { readFileSync, writeSync } from 'node:fs';
import { parseArgs } from 'node:util';
import {
  benchScale,
  loadAverage,
  meets,
  printSection,
  record,
  type BenchRow,
} from '../../../bench/results';
import { child, rssMb } from './procs';

/**
 * `pnpm bench`: the BFF's benchmark, each part in its own process — the embedded API server with
 * the data and the event source (cluster.ts), the BFF (bff.ts), and the load (load.ts) — so that
 * the BFF's RSS and latencies are its own. Prints a table; exits non-zero when a target is missed.
 * `--scale 0.05` runs it small; `BENCH_SCALE=small` (`pnpm bench --scale small`) is 0.02, the
 * correctness check CI runs. Writes its section of bench/results.{md,json}.
 *
 * Targets (issue 14; full scale, 200 pools / 20,000 machines): GET nodepools p95 ≤ 50 ms at
 * 200 req/s; 2,000 SSE clients on one process, p99 ≤ 250 ms from API-server event to client at
 * 50 events/s, RSS ≤ 768 MB; the upstream watches for 1 and for 2,000 clients, equal. (The
 * fan-out to 5,000 clients beside kubectl proxy is fanout.ts.)
 */

// `pnpm --filter @dcs/bff bench -- --scale 0.1` passes the `--` on.
const argv = process.argv.slice(2);
const { values } = parseArgs({
  args: argv[0] === '--' ? argv.slice(1) : argv,
  options: { scale: { type: 'string' }, json: { type: 'boolean', default: false } },
  strict: true,
});
// BENCH_SCALE=small (`pnpm bench --scale small`) is 0.02; a number is taken as it is.
const envScale = process.env.BENCH_SCALE;
const scale = Number(
  values.scale ??
    (benchScale() === 'small' ? '0.02' : envScale && envScale !== 'full' ? envScale : '1'),
);
if (!(scale > 0)) {
  console.error(`bench: --scale (or BENCH_SCALE) must be a positive number, got ${String(scale)}`);
  process.exit(2);
}
// DCS_CHECK_ARGS=1: the command line is parsed and checked, nothing runs (README commands test).
if (process.env.DCS_CHECK_ARGS === '1') {
  writeSync(1, `args ok: ${JSON.stringify({ ...values, scale })}\n`);
  process.exit(0);
}
const loadAtStart = loadAverage();
const full = scale >= 1;
const pools = Math.max(2, Math.round(200 * scale));
const perPool = 100;
const clients = Math.max(4, Math.round(2000 * scale));
const httpRate = 200;
const httpSeconds = full ? 15 : 3;
const eventRate = 50;
const eventSeconds = full ? 20 : 4;

async function upstreamWatches(metricsUrl: string): Promise<number> {
  const res = await fetch(metricsUrl);
  const m = /^dcs_bff_upstream_watches (\d+)/m.exec(await res.text());
  return m ? Number(m[1]) : -1;
}

const all: ChildProcess[] = [];
const stopAll = () => {
  for (const p of all) if (p.exitCode === null) p.kill('SIGTERM');
};
process.on('exit', stopAll);

const t0 = Date.now();
const log = (s: string) =>
  process.stderr.write(`bench: ${s} (${String(Math.round((Date.now() - t0) / 1000))} s)\n`);

log(
  `scale ${String(scale)}: ${String(pools)} pools × ${String(perPool)} machines, ${String(clients)} SSE clients`,
);
const cluster = child('cluster.ts', ['--pools', String(pools), '--machines', String(perPool)]);
all.push(cluster.proc);
const ready = await cluster.next((o) => 'ready' in o);
log(`cluster seeded in ${String(ready.seedSeconds)} s`);
// BENCH_PROFILE=DIR writes a CPU profile of the BFF there (node --cpu-prof).
const profile = process.env.BENCH_PROFILE;
const bff = child(
  'bff.ts',
  ['--kubeconfig', String(ready.kubeconfig)],
  profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : [],
);
all.push(bff.proc);
const bffReady = await bff.next((o) => 'ready' in o);
const base = String(bffReady.ready);
const metricsUrl = String(bffReady.metrics);
const bffPid = Number(bffReady.pid);
log(`BFF synced at ${base}`);
const nodepools = `${base}/api/v1/clusters/cpaas-system/demo/nodepools`;
const stream = `${base}/api/v1/stream?cluster=cpaas-system/demo`;

// Upstream watches with one client.
const one = child('load.ts', ['--mode', 'sse', '--url', stream, '--clients', '1']);
all.push(one.proc);
await one.next((o) => 'connected' in o);
const watchesOne = await upstreamWatches(metricsUrl);
one.send({ cmd: 'report' });
await one.next((o) => 'sse' in o);

// GET nodepools at 200 req/s.
await fetch(nodepools);
const httpLoad = child('load.ts', [
  '--mode',
  'http',
  '--url',
  nodepools,
  '--rate',
  String(httpRate),
  '--seconds',
  String(httpSeconds),
]);
all.push(httpLoad.proc);
const httpResult = (await httpLoad.next((o) => 'http' in o)).http as {
  p50: number;
  p95: number;
  p99: number;
  max: number;
  count: number;
  errors: number;
  achievedRate: number;
  bytesPerResponse: number;
};
log(`GET nodepools p95 ${httpResult.p95.toFixed(1)} ms`);

const rssBefore = rssMb(bffPid);
// 2,000 streams in two load processes, then 50 events/s from the API server.
const halves = [Math.ceil(clients / 2), Math.floor(clients / 2)].filter((n) => n > 0);
const sse = halves.map((n) =>
  child('load.ts', ['--mode', 'sse', '--url', stream, '--clients', String(n)]),
);
all.push(...sse.map((c) => c.proc));
await Promise.all(sse.map((c) => c.next((o) => 'connected' in o)));
const rssIdle = rssMb(bffPid);
const watchesMany = await upstreamWatches(metricsUrl);
log(`${String(clients)} streams open; RSS ${rssIdle.toFixed(0)} MB`);
let rssMax = rssIdle;
const sampler = setInterval(() => {
  rssMax = Math.max(rssMax, rssMb(bffPid));
}, 250);
const eventsStart = Date.now();
const elu: number[] = [];
const cpu: number[] = [];
const heap: number[] = [];
const eluWatch = setInterval(() => {
  void bff
    .next((o) => 'elu' in o && Number(o.at) > eventsStart, 1500)
    .then(
      (o) => {
        elu.push(Number(o.elu));
        cpu.push(Number(o.cpu));
        heap.push(Number(o.heapMb));
      },
      () => undefined,
    );
}, 1000);
cluster.send({ cmd: 'events', rate: eventRate, seconds: eventSeconds });
const done = await cluster.next((o) => 'eventsDone' in o, (eventSeconds + 120) * 1000);
// Let the streams drain what is still on its way before the loaders report.
await new Promise((r) => setTimeout(r, 5000));
clearInterval(sampler);
clearInterval(eluWatch);
const average = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
const eluAvg = average(elu);
const cpuAvg = average(cpu);
const loadAvg = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
rssMax = Math.max(rssMax, rssMb(bffPid));
for (const c of sse) c.send({ cmd: 'report' });
const reports = (await Promise.all(sse.map((c) => c.next((o) => 'sse' in o)))).map(
  (o) =>
    o.sse as {
      count: number;
      p50: number;
      p95: number;
      p99: number;
      max: number;
      resyncs: number;
      clients: number;
      cpu: number;
      bytesPerClientPerSecond: number;
    },
);
const loadCpu = reports.reduce((n, r) => n + r.cpu, 0);
const perClientKBs = Math.max(...reports.map((r) => r.bytesPerClientPerSecond)) / 1024;
// Merge percentiles conservatively: the worst of the processes.
const sseResult = {
  delivered: reports.reduce((n, r) => n + r.count, 0),
  p50: Math.max(...reports.map((r) => r.p50)),
  p95: Math.max(...reports.map((r) => r.p95)),
  p99: Math.max(...reports.map((r) => r.p99)),
  max: Math.max(...reports.map((r) => r.max)),
  resyncs: reports.reduce((n, r) => n + r.resyncs, 0),
};
const expected = Number(done.eventsDone) - Number(done.failed);
const deliveredRatio = sseResult.delivered / (expected * clients);

const rows: BenchRow[] = [
  {
    figure: `GET nodepools p50 at ${String(httpRate)} req/s`,
    value: httpResult.p50,
    unit: 'ms',
  },
  {
    figure: `GET nodepools p95 at ${String(httpRate)} req/s`,
    value: httpResult.p95,
    unit: 'ms',
    target: { value: 50, better: 'lower' },
  },
  {
    figure: 'GET nodepools errors',
    value: httpResult.errors,
    unit: '',
    target: { value: 0, better: 'lower' },
    always: true,
  },
  {
    figure: `SSE event→client p50 (${String(clients)} clients, ${String(eventRate)} events/s)`,
    value: sseResult.p50,
    unit: 'ms',
  },
  {
    figure: `SSE event→client p99 (${String(clients)} clients, ${String(eventRate)} events/s)`,
    value: sseResult.p99,
    unit: 'ms',
    target: { value: 250, better: 'lower' },
  },
  {
    figure: 'events delivered to every client',
    value: Math.floor(deliveredRatio * 1000) / 1000,
    unit: 'ratio',
    target: { value: 0.999, better: 'higher' },
    always: true,
  },
  {
    figure: `BFF RSS max with ${String(clients)} streams under events`,
    value: rssMax,
    unit: 'MB',
    target: { value: 768, better: 'lower' },
  },
  { figure: 'BFF CPU under events', value: cpuAvg, unit: 'cores' },
  {
    figure: 'upstream watches, 1 client',
    value: watchesOne,
    unit: '',
    target: { value: 1, better: 'higher' },
    always: true,
  },
  {
    figure: `upstream watches, ${String(clients)} clients`,
    value: watchesMany,
    unit: '',
    // Constant in the number of clients: as many as for one.
    target: { value: watchesOne, better: 'lower' },
    always: true,
  },
];
const section = {
  section: 'BFF: GET nodepools and SSE fan-out',
  setup: `${String(pools)} pools × ${String(perPool)} machines on the embedded API server (own process); the BFF in its own process; ${String(clients)} raw-TCP SSE clients in two loader processes; ${String(eventRate)} machine status events/s for ${String(eventSeconds)} s. \`pnpm --filter @dcs/bff bench\`.`,
  scale: full ? ('full' as const) : ('small' as const),
  loadAverage: { start: loadAtStart, end: loadAvg },
  measuredAt: new Date().toISOString(),
  rows,
};
record(section);
const details: [string, string][] = [
  ['scale', `${String(scale)} (${String(pools)} pools, ${String(pools * perPool)} machines)`],
  [
    'GET nodepools',
    `${httpResult.count} requests at ${httpResult.achievedRate.toFixed(0)}/s: p50 ${httpResult.p50.toFixed(1)} ms, p95 ${httpResult.p95.toFixed(1)} ms, p99 ${httpResult.p99.toFixed(1)} ms, max ${httpResult.max.toFixed(1)} ms, ${String(httpResult.bytesPerResponse)} B each`,
  ],
  [
    'SSE clients',
    `${String(clients)} on one BFF process, ${perClientKBs.toFixed(1)} KB/s each (${((perClientKBs * clients) / 1024).toFixed(0)} MB/s in all)`,
  ],
  ['events', `${String(expected)} at ${String(eventRate)}/s over ${String(done.seconds)} s`],
  [
    'event → client',
    `p50 ${String(sseResult.p50)} ms, p95 ${String(sseResult.p95)} ms, p99 ${String(sseResult.p99)} ms, max ${String(sseResult.max)} ms; ${String(sseResult.delivered)} deliveries (${(deliveredRatio * 100).toFixed(2)} %), ${String(sseResult.resyncs)} resyncs`,
  ],
  [
    'BFF RSS',
    `${rssBefore.toFixed(0)} MB before the streams, ${rssIdle.toFixed(0)} MB with them open, ${rssMax.toFixed(0)} MB max under events (JS heap ${Math.min(...heap).toFixed(0)}–${Math.max(...heap).toFixed(0)} MB)`,
  ],
  [
    'BFF busy',
    `event loop ${(eluAvg * 100).toFixed(0)} % busy, ${(cpuAvg * 100).toFixed(0)} % of a core on average under events; loaders ${(loadCpu * 100).toFixed(0)} % of a core; machine load average ${loadAvg}`,
  ],
  [
    'upstream watches',
    `${String(watchesOne)} with 1 client, ${String(watchesMany)} with ${String(clients)} clients`,
  ],
];
const width = Math.max(...details.map(([k]) => k.length));
process.stderr.write(`\n${details.map(([k, v]) => `${k.padEnd(width)}  ${v}`).join('\n')}\n`);
printSection(section);
if (values.json)
  process.stdout.write(
    `${JSON.stringify({ scale, http: httpResult, sse: sseResult, rssIdle, rssMax, watchesOne, watchesMany, deliveredRatio })}\n`,
  );
cluster.send({ cmd: 'stop' });
// The BFF drains its streams on SIGTERM; one that outlives that would be left running orphaned.
await new Promise<void>((done) => {
  const kill = setTimeout(() => {
    bff.proc.kill('SIGKILL');
    done();
  }, 5000);
  bff.proc.once('exit', () => {
    clearTimeout(kill);
    done();
  });
  bff.proc.kill('SIGTERM');
});
stopAll();
process.exit(rows.every((r) => meets(r, section.scale) !== false) ? 0 : 1);
