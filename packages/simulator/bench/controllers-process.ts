import { PerformanceObserver, constants } from 'node:perf_hooks';
import v8 from 'node:v8';
import { startControllers, type RunningControllers } from '../src/controllers/start';
import { createClock } from '../src/logic/clock';
import { loadKubeConfig } from '../src/runtime/kubeconfig';

/**
 * The benchmark's controllers, in their own process (started by `run.ts` with fork()), so that
 * their CPU and memory are theirs alone: not the benchmark's client that creates the objects, nor
 * the TypeScript loader when `run.ts` runs them bundled (see `controllersEntry`).
 * argv: KUBECONFIG TIME_SCALE RANDOM_SEED. Messages: `metrics` → `{ metrics, clock }`;
 * `report` → `{ report: { cpu, memory } }` (memory read before SIM_BENCH_HEAP's snapshot, which
 * grows the RSS by about its own size); `stop` → stops the controllers and exits.
 */

export type ControllersMetrics = ReturnType<RunningControllers['metrics']>;

export interface ControllersReport {
  cpu: NodeJS.CpuUsage;
  memory: NodeJS.MemoryUsage;
  /** The highest RSS and JS heap (total) seen at the benchmark's polls (every 200 ms), bytes. */
  peak: { rss: number; heapTotal: number };
  /** Garbage collection pauses of the main thread since the start, ms: young (scavenge) and full. */
  gc: { youngMs: number; youngCount: number; fullMs: number; fullCount: number };
}

const gc = { youngMs: 0, youngCount: 0, fullMs: 0, fullCount: 0 };
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    const kind = (entry as unknown as { detail?: { kind?: number } }).detail?.kind;
    if (kind === constants.NODE_PERFORMANCE_GC_MINOR) {
      gc.youngMs += entry.duration;
      gc.youngCount++;
    } else {
      gc.fullMs += entry.duration;
      gc.fullCount++;
    }
  }
}).observe({ entryTypes: ['gc'] });
const peak = { rss: 0, heapTotal: 0 };
const sample = () => {
  const m = process.memoryUsage();
  peak.rss = Math.max(peak.rss, m.rss);
  peak.heapTotal = Math.max(peak.heapTotal, m.heapTotal);
  return m;
};

const [kubeconfigPath, timeScale, randomSeed] = process.argv.slice(2);
if (!kubeconfigPath || !timeScale || !randomSeed)
  throw new Error('usage: controllers-process KUBECONFIG TIME_SCALE RANDOM_SEED');
const kc = await loadKubeConfig({ file: kubeconfigPath });
const clock = createClock({ timeScale: Number(timeScale) });
const logs: string[] = [];
const controllers = await startControllers({
  kubeconfig: kc,
  clock,
  options: { randomSeed: Number(randomSeed), log: (l) => logs.push(l) },
});
const send = (msg: object) => process.send?.(msg);
process.on('message', (msg) => {
  if (msg === 'metrics') {
    sample();
    send({ metrics: controllers.metrics(), clock: clock.stats?.() ?? null });
  }
  if (msg === 'report') {
    const memory = sample();
    const report: ControllersReport = {
      cpu: process.cpuUsage(),
      memory,
      peak: { ...peak },
      gc: { ...gc },
    };
    // SIM_BENCH_HEAP=FILE: a heap snapshot of the controllers at the end (what they hold).
    if (process.env.SIM_BENCH_HEAP) v8.writeHeapSnapshot(process.env.SIM_BENCH_HEAP);
    send({ report, logTail: logs.slice(-10) });
  }
  if (msg === 'stop') {
    void controllers.stop().then(() => {
      clock.stop();
      process.exit(0);
    });
  }
});
send({ ready: true });
