import { writeHeapSnapshot } from 'node:v8';
import { parseArgs } from 'node:util';
import { DEFAULT_NAMESPACE, findKind } from '@dcs/domain';
import { startControllers } from '../src/controllers/start';
import { startEmbeddedCluster } from '../src/embedded';
import { createClock } from '../src/logic/clock';
import { KubeClient } from '../src/runtime/client';
import { loadKubeConfig } from '../src/runtime/kubeconfig';
import { seedClientOverHttp } from '../src/seed/clients';
import { platformObjects } from '../src/seed/demo';
import { clusterObjects, poolEntries, workerPoolObjects } from '../src/seed/objects';

/**
 * Memory per pool create/delete cycle (issue 25, item 13): the embedded API server and the
 * controllers in this one process, as `pnpm sim` runs them; a worker pool is created, reconciled
 * until its machines are Running, deleted with its templates and IP pool, and waited for until
 * no Machine of it is left, `--cycles` times. Every `--every` cycles the heap is collected
 * (needs `--expose-gc`) and its size printed. Prints numbers; asserts nothing.
 *   pnpm --filter @dcs/simulator bench:memory -- [--cycles 100] [--replicas 3]
 * `--heap-snapshot PREFIX` writes a snapshot after the warm-up and one at the end, to compare;
 * `--watch-history N` and `--event-ttl-s S` set the API server's watch history and Event TTL.
 * Issue 25, item 13: ~1.3 MB per cycle before (Events kept forever, a full watch history of
 * 10,000 events per kind, the controllers' string table keeping every version's conversion data).
 */

const { values } = parseArgs({
  args: process.argv.slice(2).filter((a, i) => !(i === 0 && a === '--')),
  options: {
    cycles: { type: 'string', default: '100' },
    every: { type: 'string', default: '10' },
    replicas: { type: 'string', default: '3' },
    'time-scale': { type: 'string', default: '300' },
    'watch-history': { type: 'string', default: '10000' },
    'event-ttl-s': { type: 'string', default: '3600' },
    'heap-snapshot': { type: 'string' },
  },
  strict: true,
});
const cycles = Number(values.cycles);
const every = Number(values.every);
const replicas = Number(values.replicas);
const timeScale = Number(values['time-scale']);
const watchHistory = Number(values['watch-history']);
const eventTtlS = Number(values['event-ttl-s']);
for (const [k, v] of Object.entries({ cycles, every, replicas, timeScale, watchHistory })) {
  if (!(v > 0)) {
    process.stderr.write(`memory-cycles: ${k} must be a positive number\n`);
    process.exit(2);
  }
}
if (!(eventTtlS >= 0)) {
  process.stderr.write(
    'memory-cycles: event-ttl-s must be a number ≥ 0 (0: Events never expire)\n',
  );
  process.exit(2);
}
// DCS_CHECK_ARGS=1: the command line is parsed and checked, nothing runs.
if (process.env.DCS_CHECK_ARGS === '1') {
  process.stdout.write(`args ok: ${JSON.stringify(values)}\n`);
  process.exit(0);
}
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) {
  process.stderr.write('memory-cycles: run with node --expose-gc\n');
  process.exit(2);
}

const kind = (k: string) => {
  const info = findKind(k);
  if (!info) throw new Error(`unknown kind ${k}`);
  return info;
};
const cluster = await startEmbeddedCluster({
  tls: false,
  watchHistorySize: watchHistory,
  eventTtlMs: eventTtlS * 1000,
});
const kubeconfig = await loadKubeConfig({ text: cluster.kubeconfig });
const clock = createClock({ timeScale });
const controllers = await startControllers({
  kubeconfig,
  clock,
  options: { randomSeed: 1, log: () => undefined },
});
const client = new KubeClient(kubeconfig, 'memory-cycles');
const seed = seedClientOverHttp(client);
for (const obj of [
  ...platformObjects(),
  ...clusterObjects({
    name: 'mem',
    version: 'v1.34.1',
    endpoint: '10.99.0.10',
    controlPlaneEntries: poolEntries({
      subnet: '10.99.0.',
      first: 11,
      count: 4,
      hostnamePrefix: 'mem-cp',
    }),
  }),
])
  await seed.create(obj);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until(what: string, ok: () => boolean, timeoutMs = 120_000): Promise<void> {
  const t0 = Date.now();
  while (!ok()) {
    if (Date.now() - t0 > timeoutMs)
      throw new Error(`timed out waiting for ${what}: ${JSON.stringify(phases())}`);
    await sleep(50);
  }
}
const phases = () => controllers.metrics().phases;
await until('the control plane', () => (phases()['mem-control-plane']?.Running ?? 0) >= 3);

async function gone(k: string, name: string): Promise<void> {
  const t0 = Date.now();
  for (;;) {
    const live = await client.get(kind(k), ns, name).catch(() => undefined);
    if (!live) return;
    if (Date.now() - t0 > 120_000) throw new Error(`timed out waiting for ${k} ${name} to go`);
    await sleep(50);
  }
}

const heapMb = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed / 2 ** 20;
};
const ns = DEFAULT_NAMESPACE;
async function cycle(i: number): Promise<void> {
  const name = `mem-pool-${String(i)}`;
  const objects = workerPoolObjects({
    name,
    cluster: 'mem',
    version: 'v1.34.1',
    replicas,
    maxSurge: 0,
    maxUnavailable: 1,
    entries: poolEntries({
      subnet: `10.100.${String(i % 2)}.`,
      first: 10,
      count: replicas,
      hostnamePrefix: name,
      persistentCpaas: i % 2 === 0,
    }),
  });
  for (const obj of objects) await seed.create(obj);
  await until(`${name} Running`, () => (phases()[name]?.Running ?? 0) >= replicas);
  // O-DELETE-POOL: the MachineDeployment (its MachineSets and Machines go by garbage
  // collection), then the templates and the IP pool once no machine uses them.
  const md = objects.at(-1);
  if (md) await client.delete(kind(md.kind), ns, md.metadata.name);
  await until(`${name} gone`, () => phases()[name] === undefined);
  for (const obj of objects.slice(0, -1))
    await client.delete(kind(obj.kind), ns, obj.metadata.name).catch(() => undefined);
  for (const obj of objects) await gone(obj.kind, obj.metadata.name);
  await controllers.idle();
}

const rows: string[] = [];
const samples: { cycle: number; mb: number }[] = [];
const t0 = Date.now();
const base = heapMb();
process.stdout.write(`cycle    0: heap ${base.toFixed(1)} MB\n`);
let warm = base;
for (let i = 1; i <= cycles; i++) {
  await cycle(i);
  if (i % every === 0 || i === cycles) {
    await sleep(200);
    const mb = heapMb();
    if (i === every) {
      warm = mb;
      if (values['heap-snapshot'])
        writeHeapSnapshot(`${values['heap-snapshot']}-warm.heapsnapshot`);
    }
    samples.push({ cycle: i, mb });
    const line = `cycle ${String(i).padStart(4)}: heap ${mb.toFixed(1)} MB, rss ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MB, ${((Date.now() - t0) / 1000).toFixed(0)} s`;
    rows.push(line);
    process.stdout.write(`${line}\n`);
  }
}
const end = heapMb();
if (values['heap-snapshot']) writeHeapSnapshot(`${values['heap-snapshot']}-end.heapsnapshot`);
// The API server keeps the watch events of the last 75 s (and the Events of the last hour):
// what it holds grows until the window is full, then stays. The second half is the slope to read.
const mid = samples.find((x) => x.cycle >= cycles / 2);
if (mid && mid.cycle < cycles) {
  process.stdout.write(
    `heap growth over the second half (cycles ${String(mid.cycle)}-${String(cycles)}): ${(((end - mid.mb) * 1024) / (cycles - mid.cycle)).toFixed(0)} KB per cycle\n`,
  );
}
const span = cycles - every;
process.stdout.write(
  `heap growth after the warm-up (${String(every)} cycles): ${(end - warm).toFixed(1)} MB over ${String(span)} cycles = ${span > 0 ? (((end - warm) * 1024) / span).toFixed(0) : '—'} KB per cycle\n`,
);
client.close();
await controllers.stop();
clock.stop();
await cluster.close();
process.exit(0);
