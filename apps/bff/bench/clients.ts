import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { writeSync } from 'node:fs';
import { createInterface } from 'node:readline';
import {
  benchScale,
  loadAverage,
  meets,
  printSection,
  record,
  type BenchRow,
} from '../../../bench/results';
import { child, cpuSeconds, rssMb, stop, type Child } from './procs';

/**
 * `pnpm --filter @dcs/bff bench:clients` (issue 14): the embedded API server under the load of
 * the clients users actually run against a management cluster, at 5,000 and 20,000 Machines.
 *  - An informer (LIST, then WATCH) on the Machines: the BFF's own (@dcs/informer), with
 *    client-node's `makeInformer` as the peer: time to the first synced cache, every object
 *    cached, event-to-handler p50/p99 and every event delivered under a steady event load, the
 *    client's RSS, the API server's RSS and CPU meanwhile.
 *  - kubectl: `get` (a chunked LIST, 500 per request), `get --watch-only` under the same events,
 *    and `apply --server-side` of one Machine.
 * Each client runs in its own process; the API server in another (cluster.ts). Targets are
 * correctness (every object listed and cached, every event delivered); the rest are figures.
 * With BENCH_SCALE=small: 100 Machines. Needs kubectl (or KUBECTL=/path/to/kubectl).
 */

const small = benchScale() === 'small';
const sizes = (process.env.BENCH_CLIENTS_MACHINES ?? (small ? '100' : '5000,20000'))
  .split(',')
  .map(Number);
const perPool = small ? 50 : 100;
const eventRate = 50;
const eventSeconds = small ? 2 : 10;
const kubectl = process.env.KUBECTL ?? 'kubectl';
const resource = 'machines.cluster.x-k8s.io';
if (process.argv.slice(2).some((a) => a !== '--')) {
  console.error(
    `bench:clients: takes no arguments (BENCH_CLIENTS_MACHINES, BENCH_SCALE, KUBECTL), got ${process.argv.slice(2).join(' ')}`,
  );
  process.exit(2);
}
if (!sizes.every((n) => Number.isInteger(n) && n >= perPool && n % perPool === 0)) {
  console.error(
    `bench:clients: BENCH_CLIENTS_MACHINES must be multiples of ${String(perPool)}, comma-separated, got ${String(process.env.BENCH_CLIENTS_MACHINES)}`,
  );
  process.exit(2);
}
if (spawnSync(kubectl, ['version', '--client'], { encoding: 'utf8' }).status !== 0) {
  console.error(
    `bench:clients: needs kubectl (${kubectl}): Debian's kubernetes-client package or the official binary (root README, "Benchmarks"); or KUBECTL=/path/to/kubectl`,
  );
  process.exit(2);
}
// DCS_CHECK_ARGS=1: the command line is parsed and checked, nothing runs (README commands test).
if (process.env.DCS_CHECK_ARGS === '1') {
  writeSync(1, `args ok: ${JSON.stringify({ machines: sizes, kubectl })}\n`);
  process.exit(0);
}
const loadAtStart = loadAverage();
const all: ChildProcess[] = [];
process.on('exit', () => {
  for (const p of all) if (p.exitCode === null) p.kill('SIGKILL');
});
const t0 = Date.now();
const log = (s: string) =>
  process.stderr.write(`clients: ${s} (${String(Math.round((Date.now() - t0) / 1000))} s)\n`);

const percentile = (xs: readonly number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? 0;
};
const median = (xs: readonly number[]) => percentile(xs, 0.5);

/** The API server's RSS and CPU while `work` runs: RSS sampled every 100 ms. */
async function watched<T>(
  pid: number,
  work: () => Promise<T>,
): Promise<T & { serverRssMax: number; serverCpu: number }> {
  let serverRssMax = rssMb(pid);
  const timer = setInterval(() => {
    serverRssMax = Math.max(serverRssMax, rssMb(pid));
  }, 100);
  const cpu0 = cpuSeconds(pid);
  const at0 = Date.now();
  try {
    const result = await work();
    const seconds = (Date.now() - at0) / 1000;
    return {
      ...result,
      serverRssMax,
      serverCpu: Math.round(((cpuSeconds(pid) - cpu0) / seconds) * 100) / 100,
    };
  } finally {
    clearInterval(timer);
  }
}

interface EventsDone {
  firstSeq: number;
  lastSeq: number;
}

/** Stamped events on the cluster at the bench rate; resolves when the last is written. */
async function events(cluster: Child): Promise<EventsDone> {
  cluster.send({ cmd: 'events', rate: eventRate, seconds: eventSeconds });
  const done = await cluster.next((o) => 'eventsDone' in o);
  return { firstSeq: Number(done.firstSeq), lastSeq: Number(done.lastSeq) };
}

/** Delays of the events in [firstSeq, lastSeq] a client saw, and the share of them it saw. */
function judge(delays: readonly number[], seqs: readonly number[], done: EventsDone) {
  const wanted = done.lastSeq - done.firstSeq + 1;
  const got = seqs.filter((s) => s >= done.firstSeq && s <= done.lastSeq).length;
  return {
    p50: percentile(delays, 0.5),
    p99: percentile(delays, 0.99),
    delivered: Math.floor((got / wanted) * 1000) / 1000,
  };
}

async function informerPhase(impl: 'dcs' | 'client-node', kubeconfig: string, cluster: Child) {
  const c = child('informer-client.ts', ['--impl', impl, '--kubeconfig', kubeconfig]);
  all.push(c.proc);
  const synced = await c.next((o) => 'synced' in o);
  const done = await events(cluster);
  // Every event has been written; give the watch a generous deadline to bring the last ones.
  const wanted = done.lastSeq - done.firstSeq + 1;
  let report: { delays: number[]; seqs: number[]; cached: number; rssMb: number };
  const deadline = Date.now() + 30_000;
  for (;;) {
    c.send({ cmd: 'report' });
    report = (await c.next((o) => 'report' in o)).report as typeof report;
    const got = report.seqs.filter((s) => s >= done.firstSeq && s <= done.lastSeq).length;
    if (got >= wanted || Date.now() > deadline) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  c.send({ cmd: 'stop' });
  await stop(c.proc);
  return {
    syncMs: Number(synced.ms),
    cached: Number(synced.synced),
    rss: Math.round(report.rssMb * 10) / 10,
    ...judge(report.delays, report.seqs, done),
  };
}

/**
 * kubectl get, three times: the median wall time, what it listed, and the API server's CPU time
 * per get (kubectl decodes and prints each 500-object chunk itself, which is most of its time).
 */
function kubectlList(
  kubeconfig: string,
  serverPid: number,
): { ms: number; listed: number; serverCpuMs: number } {
  const cpu0 = cpuSeconds(serverPid);
  const runs = Array.from({ length: 3 }, () => {
    const at = performance.now();
    const r = spawnSync(
      kubectl,
      ['--kubeconfig', kubeconfig, 'get', resource, '-n', 'cpaas-system', '-o', 'name'],
      { encoding: 'utf8', maxBuffer: 64 * 2 ** 20 },
    );
    if (r.status !== 0) throw new Error(`kubectl get: ${r.stderr}`);
    return { ms: performance.now() - at, listed: r.stdout.split('\n').filter(Boolean).length };
  });
  return {
    ms: Math.round(median(runs.map((r) => r.ms))),
    listed: runs[0]?.listed ?? 0,
    serverCpuMs: Math.round(((cpuSeconds(serverPid) - cpu0) * 1000) / runs.length),
  };
}

async function kubectlWatch(kubeconfig: string, cluster: Child) {
  const stats = async () => {
    cluster.send({ cmd: 'stats' });
    return ((await cluster.next((m) => 'stats' in m)).stats as { watches: number }).watches;
  };
  const before = await stats();
  const proc = spawn(
    kubectl,
    [
      '--kubeconfig',
      kubeconfig,
      'get',
      resource,
      '-n',
      'cpaas-system',
      '--watch-only',
      '-o',
      // One condition by type: a `{range}` template prints only the first event of a watch.
      // The events write v1beta1 conditions: where kubectl reads v1beta2 (Cluster API >= v1.11),
      // they are under status.deprecated.v1beta1; the path that is missing prints nothing.
      'jsonpath={.status.conditions[?(@.type=="NodeHealthy")].message}{.status.deprecated.v1beta1.conditions[?(@.type=="NodeHealthy")].message}{"\\n"}',
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  all.push(proc);
  const delays: number[] = [];
  const seqs: number[] = [];
  createInterface({ input: proc.stdout }).on('line', (line) => {
    const m = /^bench:(\d+):(\d+)$/.exec(line.trim());
    if (!m) return;
    seqs.push(Number(m[1]));
    delays.push(Date.now() - Number(m[2]));
  });
  const deadline = Date.now() + 120_000;
  while ((await stats()) <= before) {
    if (Date.now() > deadline) throw new Error('kubectl --watch-only never opened its watch');
    await new Promise((r) => setTimeout(r, 100));
  }
  const done = await events(cluster);
  const wanted = done.lastSeq - done.firstSeq + 1;
  const until = Date.now() + 30_000;
  while (
    seqs.filter((s) => s >= done.firstSeq && s <= done.lastSeq).length < wanted &&
    Date.now() < until
  )
    await new Promise((r) => setTimeout(r, 250));
  await stop(proc);
  return judge(delays, [...new Set(seqs)], done);
}

function kubectlApply(kubeconfig: string): number {
  const times = Array.from({ length: 5 }, (_, i) => {
    const machine = {
      apiVersion: 'cluster.x-k8s.io/v1beta1',
      kind: 'Machine',
      metadata: {
        name: 'bench-apply',
        namespace: 'cpaas-system',
        labels: { 'cluster.x-k8s.io/cluster-name': 'demo', 'bench/round': String(i) },
      },
      spec: {
        clusterName: 'demo',
        bootstrap: { dataSecretName: 'bench-apply' },
        infrastructureRef: {
          apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1',
          kind: 'DCSMachine',
          name: 'bench-apply',
        },
      },
    };
    const at = performance.now();
    const r = spawnSync(
      kubectl,
      [
        '--kubeconfig',
        kubeconfig,
        'apply',
        '--server-side',
        '--field-manager',
        'bench-kubectl',
        '-f',
        '-',
      ],
      { input: JSON.stringify(machine), encoding: 'utf8' },
    );
    if (r.status !== 0) throw new Error(`kubectl apply: ${r.stderr}`);
    return performance.now() - at;
  });
  return Math.round(median(times));
}

const rows: BenchRow[] = [];
const peer = 'client-node makeInformer';
for (const size of sizes) {
  const kubeconfig = `/tmp/bench-clients-kubeconfig-${String(process.pid)}-${String(size)}`;
  const cluster = child('cluster.ts', [
    '--pools',
    String(size / perPool),
    '--machines',
    String(perPool),
    '--kubeconfig',
    kubeconfig,
  ]);
  all.push(cluster.proc);
  const ready = await cluster.next((o) => 'ready' in o);
  const pid = Number(ready.pid);
  // The seed adds 3 control-plane Machines to the workers.
  const machines = size + 3;
  log(`${String(machines)} machines seeded`);
  const ours = await watched(pid, () => informerPhase('dcs', kubeconfig, cluster));
  log(`@dcs/informer: synced in ${String(ours.syncMs)} ms, p99 ${String(ours.p99)} ms`);
  const theirs = await watched(pid, () => informerPhase('client-node', kubeconfig, cluster));
  log(`client-node: synced in ${String(theirs.syncMs)} ms, p99 ${String(theirs.p99)} ms`);
  const list = kubectlList(kubeconfig, pid);
  const watch = await watched(pid, () => kubectlWatch(kubeconfig, cluster));
  const apply = kubectlApply(kubeconfig);
  log(
    `kubectl: list ${String(list.ms)} ms, watch p99 ${String(watch.p99)} ms, apply ${String(apply)} ms`,
  );
  const at = `${machines.toLocaleString('en-US')} machines`;
  const vs = (value: number) => ({ name: peer, value });
  rows.push(
    {
      figure: `${at}: informer LIST to synced cache`,
      value: ours.syncMs,
      unit: 'ms',
      peer: vs(theirs.syncMs),
    },
    {
      figure: `${at}: informer objects cached`,
      value: ours.cached,
      unit: '',
      target: { value: machines, better: 'higher' },
      always: true,
      peer: vs(theirs.cached),
    },
    {
      figure: `${at}: informer event→handler p50`,
      value: ours.p50,
      unit: 'ms',
      peer: vs(theirs.p50),
    },
    {
      figure: `${at}: informer event→handler p99`,
      value: ours.p99,
      unit: 'ms',
      peer: vs(theirs.p99),
    },
    {
      figure: `${at}: informer events delivered`,
      value: ours.delivered,
      unit: 'ratio',
      target: { value: 0.999, better: 'higher' },
      always: true,
      peer: vs(theirs.delivered),
    },
    {
      figure: `${at}: informer process RSS max`,
      value: ours.rss,
      unit: 'MB',
      peer: vs(theirs.rss),
    },
    {
      figure: `${at}: API server RSS max (informer)`,
      value: ours.serverRssMax,
      unit: 'MB',
      peer: vs(theirs.serverRssMax),
    },
    {
      figure: `${at}: API server CPU (informer)`,
      value: ours.serverCpu,
      unit: 'cores',
      peer: vs(theirs.serverCpu),
    },
    { figure: `${at}: kubectl get (LIST, 500 per chunk)`, value: list.ms, unit: 'ms' },
    { figure: `${at}: API server CPU time per kubectl get`, value: list.serverCpuMs, unit: 'ms' },
    {
      figure: `${at}: kubectl get objects listed`,
      value: list.listed,
      unit: '',
      target: { value: machines, better: 'higher' },
      always: true,
    },
    { figure: `${at}: kubectl get --watch-only event p50`, value: watch.p50, unit: 'ms' },
    { figure: `${at}: kubectl get --watch-only event p99`, value: watch.p99, unit: 'ms' },
    {
      figure: `${at}: kubectl get --watch-only events delivered`,
      value: watch.delivered,
      unit: 'ratio',
      target: { value: 0.999, better: 'higher' },
      always: true,
    },
    { figure: `${at}: kubectl apply --server-side (one Machine) p50`, value: apply, unit: 'ms' },
  );
  cluster.send({ cmd: 'stop' });
  await stop(cluster.proc);
}

const section = {
  section: 'Embedded API server under real clients: informers and kubectl',
  setup: `Machines in pools of ${String(perPool)} (plus 3 control-plane machines) on the embedded API server (own process, TLS). Each client alone in its process: the BFF's informer (@dcs/informer) beside client-node's makeInformer (the peer), then kubectl get, get --watch-only and apply --server-side (${kubectl}). Events: ${String(eventRate)} Machine status changes/s for ${String(eventSeconds)} s per client, each stamped with its send time. \`pnpm --filter @dcs/bff bench:clients\`.`,
  scale: small ? ('small' as const) : ('full' as const),
  loadAverage: { start: loadAtStart, end: loadAverage() },
  measuredAt: new Date().toISOString(),
  rows,
};
record(section);
printSection(section);
process.exit(rows.every((r) => meets(r, section.scale) !== false) ? 0 : 1);
