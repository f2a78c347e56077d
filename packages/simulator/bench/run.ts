import { fork, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KubeClient } from '../src/runtime/client';
import { loadKubeConfig } from '../src/runtime/kubeconfig';
import { seedClientOverHttp } from '../src/seed/clients';
import { platformObjects } from '../src/seed/demo';
import { clusterObjects, poolEntries, workerPoolObjects, type Obj } from '../src/seed/objects';
import type { ControllersMetrics, ControllersReport } from './controllers-process';

/**
 * The controllers' benchmark: `pools` worker pools of `machines / pools` machines each (half of
 * them with pool-managed persistent disks), created at once with one cluster on the embedded API
 * server, which runs in a child process so that the controllers' CPU is measured apart from the
 * server's, and reconciled until every machine is Running.
 */

export interface BenchOptions {
  machines: number;
  pools?: number;
  timeScale: number;
  timeoutS: number;
  randomSeed?: number;
  /** Progress lines while it runs, every progressEveryMs (default 5000). */
  progressEveryMs?: number;
  progress?: (line: string) => void;
}

export interface BenchResult {
  pools: number;
  perPool: number;
  total: number;
  running: number;
  wallS: number;
  seedS: number;
  controllerCores: number;
  serverCores: number;
  controllerRssMiB: number;
  /** The controllers' process memory by part (process.memoryUsage), MiB: what the RSS is made of. */
  controllerMemory: { heapUsed: number; heapTotal: number; external: number; arrayBuffers: number };
  /** The controllers' highest RSS and JS heap seen while it ran (MiB), and their GC pauses. */
  controllerPeak: { rssMiB: number; heapTotalMiB: number };
  controllerGc: ControllersReport['gc'];
  serverRssMiB: number;
  metrics: ControllersMetrics;
  objects: number;
  logTail: string[];
}

interface CpuReport {
  cpu: NodeJS.CpuUsage;
  memory: number;
}

export async function runBenchmark(o: BenchOptions): Promise<BenchResult> {
  const pools = o.pools ?? Math.max(1, Math.round(o.machines / 100));
  const perPool = Math.ceil(o.machines / pools);
  const total = pools * perPool;
  const dir = await mkdtemp(join(tmpdir(), 'sim-bench-'));
  const kubeconfigPath = join(dir, 'kubeconfig');
  const server = fork(join(import.meta.dirname, 'server.ts'), [kubeconfigPath], {
    execArgv: [
      '--import',
      'tsx',
      ...(process.env.SIM_BENCH_SERVER_PROF
        ? ['--cpu-prof', `--cpu-prof-dir=${process.env.SIM_BENCH_SERVER_PROF}`]
        : []),
    ],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const ask = <T>(msg: string, key: string): Promise<T> => askChild<T>(server, msg, key);
  let bundle: string | undefined;
  try {
    await ask<{ ready: string }>('', 'ready');
    const entry = await controllersEntry();
    bundle = entry.bundle;
    const controllers = fork(
      entry.path,
      [kubeconfigPath, String(o.timeScale), String(o.randomSeed ?? 1)],
      {
        execArgv: [
          ...entry.execArgv,
          ...CONTROLLERS_NODE_FLAGS,
          ...(process.env.SIM_BENCH_PROF
            ? ['--cpu-prof', `--cpu-prof-dir=${process.env.SIM_BENCH_PROF}`]
            : []),
        ],
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      },
    );
    const exited = new Promise((r) => controllers.once('exit', r));
    const askControllers = <T>(msg: string, key: string): Promise<T> =>
      askChild<T>(controllers, msg, key);
    const client = new KubeClient(await loadKubeConfig({ file: kubeconfigPath }), 'bench');
    try {
      await askControllers<{ ready: true }>('', 'ready');
      const serverCpu0 = (await ask<CpuReport>('cpu', 'cpu')).cpu;
      const cpu0 = (await askControllers<{ report: ControllersReport }>('report', 'report')).report
        .cpu;
      const t0 = Date.now();
      const objects: Obj[] = [
        ...platformObjects(),
        ...clusterObjects({
          name: 'bench',
          version: 'v1.34.1',
          endpoint: '10.99.0.10',
          controlPlaneEntries: poolEntries({
            subnet: '10.99.0.',
            first: 11,
            count: 4,
            hostnamePrefix: 'bench-cp',
          }),
        }),
      ];
      for (let p = 0; p < pools; p++) {
        objects.push(
          ...workerPoolObjects({
            name: `bench-pool-${String(p).padStart(3, '0')}`,
            cluster: 'bench',
            version: 'v1.34.1',
            replicas: perPool,
            maxSurge: 0,
            maxUnavailable: 1,
            entries: poolEntries({
              subnet: `10.${String(100 + Math.floor(p / 200))}.${String(p % 200)}.`,
              first: 10,
              count: perPool,
              hostnamePrefix: `bench-${String(p)}`,
              persistentCpaas: p % 2 === 0,
            }),
          }),
        );
      }
      const seed = seedClientOverHttp(client);
      for (const obj of objects) await seed.create(obj);
      const seedS = (Date.now() - t0) / 1000;

      let running = 0;
      let lastPrint = 0;
      const prevRec: Record<string, number> = {};
      const prevVerb: Record<string, number> = {};
      const prevWake: Record<string, number> = {};
      for (;;) {
        const { metrics, clock } = await askControllers<{
          metrics: ControllersMetrics;
          clock: unknown;
        }>('metrics', 'metrics');
        const phases = metrics.phases;
        const workers: Record<string, number> = {};
        for (const [pool, counts] of Object.entries(phases)) {
          if (!pool.startsWith('bench-pool')) continue;
          for (const [phase, n] of Object.entries(counts))
            workers[phase] = (workers[phase] ?? 0) + n;
        }
        running = workers.Running ?? 0;
        const elapsed = (Date.now() - t0) / 1000;
        if (o.progress && Date.now() - lastPrint > (o.progressEveryMs ?? 5000)) {
          lastPrint = Date.now();
          o.progress(
            `${elapsed.toFixed(0)} s: ${String(running)} / ${String(total)} Running; workers ${JSON.stringify(workers)}; control plane ${JSON.stringify(phases['bench-control-plane'] ?? {})}`,
          );
          if (process.env.SIM_BENCH_DETAIL) {
            const m = metrics;
            const rec = m.controllers
              .map((c) => {
                const d = c.reconciles - (prevRec[c.name] ?? 0);
                prevRec[c.name] = c.reconciles;
                return `${c.name} +${String(d)}/q${String(c.queued)}`;
              })
              .join(' ');
            const pending = Object.entries(m.caches)
              .filter(([, c]) => c.pending > 0)
              .map(([k, c]) => `${k}:${String(c.pending)}`)
              .join(' ');
            const verbs = Object.entries(m.byVerb)
              .map(([k, v]) => {
                const d = v - (prevVerb[k] ?? 0);
                prevVerb[k] = v;
                return [k, d] as const;
              })
              .filter(([, d]) => d > 0)
              .sort((a, b) => b[1] - a[1])
              .slice(0, 6)
              .map(([k, d]) => `${k} +${String(d)}`)
              .join(', ');
            const wakes = Object.entries(m.wakes)
              .map(([k, v]) => {
                const d = v - (prevWake[k] ?? 0);
                prevWake[k] = v;
                return [k, d] as const;
              })
              .filter(([, d]) => d > 0)
              .sort((a, b) => b[1] - a[1])
              .slice(0, 8)
              .map(([k, d]) => `${k} +${String(d)}`)
              .join(', ');
            o.progress(`    wakes ${wakes}`);
            o.progress(
              `    reconciles ${rec}\n    requests ${String(m.requests)} 409 ${String(m.conflicts)} err ${String(m.errors)} events ${String(m.events.emitted)}/${String(m.events.dropped)} pending ${pending} late ${JSON.stringify(clock)}\n    verbs ${verbs}`,
            );
          }
        }
        if (running >= total || elapsed > o.timeoutS) break;
        await new Promise((r) => setTimeout(r, 200));
      }
      const wallS = (Date.now() - t0) / 1000;
      const end = await askControllers<{ report: ControllersReport; logTail: string[] }>(
        'report',
        'report',
      );
      const memory = end.report.memory;
      const final = await askControllers<{ metrics: ControllersMetrics }>('metrics', 'metrics');
      const serverReport = await ask<CpuReport>('cpu', 'cpu');
      const serverCpu =
        serverReport.cpu.user + serverReport.cpu.system - serverCpu0.user - serverCpu0.system;
      return {
        pools,
        perPool,
        total,
        running,
        wallS,
        seedS,
        controllerCores:
          (end.report.cpu.user + end.report.cpu.system - cpu0.user - cpu0.system) / 1e6 / wallS,
        serverCores: serverCpu / 1e6 / wallS,
        controllerRssMiB: memory.rss / 2 ** 20,
        controllerMemory: (() => {
          const u = memory;
          const mib = (n: number) => n / 2 ** 20;
          return {
            heapUsed: mib(u.heapUsed),
            heapTotal: mib(u.heapTotal),
            external: mib(u.external),
            arrayBuffers: mib(u.arrayBuffers),
          };
        })(),
        controllerPeak: {
          rssMiB: end.report.peak.rss / 2 ** 20,
          heapTotalMiB: end.report.peak.heapTotal / 2 ** 20,
        },
        controllerGc: end.report.gc,
        serverRssMiB: serverReport.memory / 2 ** 20,
        metrics: final.metrics,
        objects: objects.length,
        logTail: end.logTail,
      };
    } finally {
      client.close();
      if (controllers.connected) controllers.send('stop');
      await exited;
    }
  } finally {
    server.send('stop');
    await new Promise((r) => server.once('exit', r));
    await rm(dir, { recursive: true, force: true });
    if (bundle) await rm(bundle, { force: true });
  }
}

/** The figures as a two-column table. */
export function formatBenchmark(r: BenchResult, o: BenchOptions & { maxCpu: number }): string {
  const m = r.metrics;
  const rows: [string, string][] = [
    ['pools × machines', `${String(r.pools)} × ${String(r.perPool)} = ${String(r.total)}`],
    ['time scale', String(o.timeScale)],
    ['objects created by the benchmark', `${String(r.objects)} in ${r.seedS.toFixed(1)} s`],
    ['machines Running', `${String(r.running)} / ${String(r.total)}`],
    ['wall time to all Running', `${r.wallS.toFixed(1)} s (limit ${String(o.timeoutS)} s)`],
    ['simulated time', `${((r.wallS * o.timeScale) / 60).toFixed(1)} min`],
    [
      'controllers CPU (average cores)',
      `${r.controllerCores.toFixed(2)} (limit ${String(o.maxCpu)})`,
    ],
    ['API server CPU (average cores)', r.serverCores.toFixed(2)],
    [
      'controllers RSS',
      `${r.controllerRssMiB.toFixed(0)} MiB (JS heap ${r.controllerMemory.heapUsed.toFixed(0)} used of ${r.controllerMemory.heapTotal.toFixed(0)}, external ${r.controllerMemory.external.toFixed(0)}, array buffers ${r.controllerMemory.arrayBuffers.toFixed(0)})`,
    ],
    [
      'controllers peak RSS / JS heap',
      `${r.controllerPeak.rssMiB.toFixed(0)} / ${r.controllerPeak.heapTotalMiB.toFixed(0)} MiB`,
    ],
    [
      'controllers GC pauses (young / full)',
      `${(r.controllerGc.youngMs / 1000).toFixed(1)} s in ${String(r.controllerGc.youngCount)} / ${(r.controllerGc.fullMs / 1000).toFixed(1)} s in ${String(r.controllerGc.fullCount)}`,
    ],
    ['API server RSS', `${r.serverRssMiB.toFixed(0)} MiB`],
    [
      'API requests by controllers',
      `${String(m.requests)} (${(m.requests / r.total).toFixed(1)} per machine)`,
    ],
    [
      // The figure to compare runs by on a shared machine: what the two processes spend per
      // write does not depend on how much of the cores they got (the totals above do).
      'CPU per request (controllers / server)',
      `${((r.controllerCores * r.wallS * 1000) / Math.max(1, m.requests)).toFixed(3)} / ${((r.serverCores * r.wallS * 1000) / Math.max(1, m.requests)).toFixed(3)} ms`,
    ],
    [
      'request latency (average / max)',
      `${(m.latencyMs / Math.max(1, m.requests)).toFixed(1)} / ${m.maxLatencyMs.toFixed(0)} ms`,
    ],
    ['409 conflicts / errors', `${String(m.conflicts)} / ${String(m.errors)}`],
    [
      'events emitted / spam-filtered / dropped',
      `${String(m.events.emitted)} / ${String(m.events.filtered)} / ${String(m.events.dropped)}`,
    ],
    [
      'requests by verb',
      Object.entries(m.byVerb)
        .sort((a, b) => b[1] - a[1])
        .map(([k, v]) => `${k} ${String(v)}`)
        .join(', '),
    ],
    [
      'reconciles (per machine)',
      m.controllers
        .map((c) => `${c.name} ${String(c.reconciles)} (${(c.reconciles / r.total).toFixed(1)})`)
        .join(', '),
    ],
  ];
  const width = Math.max(...rows.map(([k]) => k.length));
  return rows.map(([k, v]) => `  ${k.padEnd(width)}  ${v}`).join('\n');
}

/** Sends `msg` (none if empty) and resolves with the first message carrying `key`. */
function askChild<T>(child: ChildProcess, msg: string, key: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const on = (m: unknown) => {
      if (typeof m === 'object' && m !== null && key in m) {
        child.off('message', on);
        child.off('exit', onExit);
        resolve(m as T);
      }
    };
    const onExit = (code: number | null) => {
      child.off('message', on);
      reject(
        new Error(`the benchmark's child process exited (code ${String(code)}) before "${key}"`),
      );
    };
    child.on('message', on);
    child.once('exit', onExit);
    if (msg) child.send(msg);
  });
}

/**
 * Node flags of the controllers' process: `--heap-growing-percent=50` (README, "V8 settings"):
 * V8 lets the old generation grow to up to 4× what survived the last full collection before the
 * next one, and a process that allocates as fast as these controllers gets near that; 1.5× costs
 * more (short, mostly concurrent) full collections and keeps the heap near what is live.
 * `SIM_BENCH_CONTROLLERS_FLAGS` (space-separated; empty for none) replaces them, to compare.
 */
const CONTROLLERS_NODE_FLAGS: string[] = (
  process.env.SIM_BENCH_CONTROLLERS_FLAGS ?? '--heap-growing-percent=50'
)
  .split(' ')
  .filter((f) => f !== '');

/**
 * How the controllers' process runs: by default one ES module bundled with esbuild, under plain
 * node, as a deployed controller runs (a build, not the sources); `SIM_BENCH_CONTROLLERS=tsx`
 * runs the TypeScript sources through tsx instead, as `pnpm sim:controllers` does. tsx is a
 * development tool and costs the process about 90 MiB of RSS before any machine (its loader
 * thread, every module's source and source map kept in memory; 161 against 68 MiB at start),
 * which is no part of what the controllers hold. The bundle is written under
 * `node_modules/.cache` of this package, so that the one package left out of it
 * (`@kubernetes/client-node`, loaded only for exotic kubeconfigs) still resolves.
 */
async function controllersEntry(): Promise<{
  path: string;
  execArgv: string[];
  /** The bundle written (deleted after the run). */
  bundle?: string;
}> {
  const source = join(import.meta.dirname, 'controllers-process.ts');
  if (process.env.SIM_BENCH_CONTROLLERS === 'tsx')
    return { path: source, execArgv: ['--import', 'tsx'] };
  const { build } = await import('esbuild');
  const dir = join(import.meta.dirname, '..', 'node_modules', '.cache', 'sim-bench');
  await mkdir(dir, { recursive: true });
  const path = join(dir, `controllers-${String(process.pid)}.mjs`);
  await build({
    entryPoints: [source],
    outfile: path,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: ['@kubernetes/client-node'],
    // The CommonJS dependencies (undici) call require(): give the ES module one.
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
    },
    logLevel: 'warning',
  });
  return { path, execArgv: [], bundle: path };
}
