import { fork } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { KubeConfig } from '@kubernetes/client-node';
import { createClock } from '../src/logic/clock';
import { startControllers } from '../src/controllers/start';
import { KubeClient } from '../src/runtime/client';
import { seedClientOverHttp } from '../src/seed/clients';
import { clusterObjects, poolEntries, workerPoolObjects } from '../src/seed/objects';
import { platformObjects } from '../src/seed/demo';

/**
 * The controllers' benchmark: `pools` worker pools of `machines / pools` machines each, created
 * at once on the embedded API server (in a child process) and reconciled to Running, at
 * `--time-scale` 60. Prints wall time, the controllers' CPU (this process) and the server's
 * (the child), requests and conflicts. Fails when the machines are not all Running within
 * `--timeout` seconds or the controllers used more than `--max-cpu` cores on average.
 *   pnpm bench                      # 50 pools / 5,000 machines (full scale)
 *   pnpm bench -- --machines 1000   # what CI runs
 */

const { values } = parseArgs({
  options: {
    machines: { type: 'string', default: '5000' },
    pools: { type: 'string', default: '' },
    'time-scale': { type: 'string', default: '60' },
    timeout: { type: 'string', default: '120' },
    'max-cpu': { type: 'string', default: '1' },
    'random-seed': { type: 'string', default: '1' },
  },
  strict: true,
});
const machines = Number(values.machines);
const pools = Number(values.pools || Math.max(1, Math.round(machines / 100)));
const perPool = Math.ceil(machines / pools);
const timeScale = Number(values['time-scale']);
const timeoutS = Number(values.timeout);
const maxCpu = Number(values['max-cpu']);

const dir = await mkdtemp(join(tmpdir(), 'sim-bench-'));
const kubeconfigPath = join(dir, 'kubeconfig');
const server = fork(join(import.meta.dirname, 'server.ts'), [kubeconfigPath], {
  execArgv: ['--import', 'tsx'],
  stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
});
const ask = <T>(msg: string, key: string): Promise<T> =>
  new Promise((resolve) => {
    const on = (m: unknown) => {
      if (typeof m === 'object' && m !== null && key in m) {
        server.off('message', on);
        resolve(m as T);
      }
    };
    server.on('message', on);
    if (msg) server.send(msg);
  });
await ask<{ ready: string }>('', 'ready');

const kc = new KubeConfig();
kc.loadFromFile(kubeconfigPath);
const clock = createClock({ timeScale });
const logs: string[] = [];
const controllers = await startControllers({
  kubeconfig: kc,
  clock,
  options: { randomSeed: Number(values['random-seed']), log: (l) => logs.push(l) },
});
const client = new KubeClient(kc);
const seedClient = seedClientOverHttp(client);

const serverCpu0 = (await ask<{ cpu: NodeJS.CpuUsage }>('cpu', 'cpu')).cpu;
const cpu0 = process.cpuUsage();
const t0 = Date.now();

// One cluster, and `pools` pools on distinct /16 ranges: 10.<100 + pool / 200>.<pool % 200>.<1..>
const objects = [
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
  const subnet = `10.${String(100 + Math.floor(p / 200))}.${String(p % 200)}.`;
  objects.push(
    ...workerPoolObjects({
      name: `bench-pool-${String(p).padStart(3, '0')}`,
      cluster: 'bench',
      version: 'v1.34.1',
      replicas: perPool,
      maxSurge: 0,
      maxUnavailable: 1,
      entries: poolEntries({
        subnet,
        first: 10,
        count: perPool,
        hostnamePrefix: `bench-${String(p)}`,
        persistentCpaas: p % 2 === 0,
      }),
    }),
  );
}
for (const obj of objects) await seedClient.create(obj);
const seeded = Date.now();

const total = pools * perPool;
let running: number;
let lastPrint = 0;
for (;;) {
  const phases = controllers.metrics().phases;
  running = Object.entries(phases).reduce(
    (n, [k, v]) => n + (k.startsWith('bench-pool') ? (v.Running ?? 0) : 0),
    0,
  );
  const elapsed = (Date.now() - t0) / 1000;
  if (Date.now() - lastPrint > 5000) {
    lastPrint = Date.now();
    const cp = phases['bench-control-plane'] ?? {};
    const all: Record<string, number> = {};
    for (const [k, v] of Object.entries(phases))
      if (k.startsWith('bench-pool'))
        for (const [ph, n] of Object.entries(v)) all[ph] = (all[ph] ?? 0) + n;
    process.stdout.write(
      `  ${elapsed.toFixed(0)} s: ${String(running)} / ${String(total)} Running; workers ${JSON.stringify(all)}; control plane ${JSON.stringify(cp)}\n`,
    );
  }
  if (running >= total || elapsed > timeoutS) break;
  await new Promise((r) => setTimeout(r, 200));
}
const wall = (Date.now() - t0) / 1000;
const cpu = process.cpuUsage(cpu0);
const serverCpu = await ask<{ cpu: NodeJS.CpuUsage; memory: number }>('cpu', 'cpu');
const controllerCores = (cpu.user + cpu.system) / 1e6 / wall;
const serverCores =
  (serverCpu.cpu.user + serverCpu.cpu.system - serverCpu0.user - serverCpu0.system) / 1e6 / wall;
const m = controllers.metrics();
const rows: [string, string][] = [
  ['pools × machines', `${String(pools)} × ${String(perPool)} = ${String(total)}`],
  ['time scale', String(timeScale)],
  [
    'objects created by the benchmark',
    `${String(objects.length)} in ${((seeded - t0) / 1000).toFixed(1)} s`,
  ],
  ['machines Running', `${String(running)} / ${String(total)}`],
  ['wall time to all Running', `${wall.toFixed(1)} s (limit ${String(timeoutS)} s)`],
  ['simulated time', `${((wall * timeScale) / 60).toFixed(1)} min`],
  ['controllers CPU (average cores)', `${controllerCores.toFixed(2)} (limit ${String(maxCpu)})`],
  ['API server CPU (average cores)', serverCores.toFixed(2)],
  ['controllers RSS', `${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MiB`],
  ['API server RSS', `${(serverCpu.memory / 2 ** 20).toFixed(0)} MiB`],
  [
    'API writes by controllers',
    `${String(m.requests)} (${(m.requests / total).toFixed(1)} per machine)`,
  ],
  [
    'request latency (average / max)',
    `${(m.latencyMs / m.requests).toFixed(1)} / ${m.maxLatencyMs.toFixed(0)} ms`,
  ],
  ['409 conflicts', String(m.conflicts)],
  ['errors', String(m.errors)],
  ['events emitted / dropped', `${String(m.events.emitted)} / ${String(m.events.dropped)}`],
  [
    'writes by verb',
    Object.entries(m.byVerb)
      .sort((a, b) => b[1] - a[1])
      .map(([k, v]) => `${k} ${String(v)}`)
      .join(', '),
  ],
  ['reconciles', m.controllers.map((c) => `${c.name} ${String(c.reconciles)}`).join(', ')],
];
const width = Math.max(...rows.map(([k]) => k.length));
process.stdout.write(
  `\nsimulator controllers benchmark\n${rows.map(([k, v]) => `  ${k.padEnd(width)}  ${v}`).join('\n')}\n`,
);

await controllers.stop();
clock.stop();
client.close();
server.send('stop');
await new Promise((r) => server.once('exit', r));
await rm(dir, { recursive: true, force: true });
const ok = running >= total && wall <= timeoutS && controllerCores <= maxCpu;
if (!ok) {
  process.stdout.write(`FAILED\n${logs.slice(-10).join('\n')}\n`);
  process.exit(1);
}
