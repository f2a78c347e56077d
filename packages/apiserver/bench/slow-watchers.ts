/**
 * Slow watchers' memory: N watches whose clients send their request and never read (their
 * sockets paused), while a writer merge-patches Machines of the watched namespace at a steady
 * rate. Prints the server's RSS (peak while it runs, and after a full GC at the end) and how many
 * of the N watches the server ended. The server and the stalled clients share one process: a
 * paused client socket costs the process nothing but its kernel buffer, so the RSS is the
 * server's.
 *
 *   pnpm --filter @dcs/apiserver bench:slow-watchers            # 300 watchers, 500 events/s, 20 s
 *   BENCH_WATCHERS=500 BENCH_RATE=500 BENCH_SECONDS=20 BENCH_TLS=1 pnpm ... bench:slow-watchers
 *
 * Run with node's --expose-gc (the script re-runs itself with it).
 */
import { spawnSync } from 'node:child_process';
import { writeSync } from 'node:fs';
import { connect as connectTcp, type Socket } from 'node:net';
import { connect as connectTls } from 'node:tls';
import { startApiServer } from '../src/index';
import { machineKind } from '../test/support/kinds';
import { BENCH_TOKEN, MACHINES, WATCH_NAMESPACE, machine, machineName } from './shared';

const watchers = Number(process.env.BENCH_WATCHERS ?? 300);
const rate = Number(process.env.BENCH_RATE ?? 500);
const seconds = Number(process.env.BENCH_SECONDS ?? 20);
const tls = process.env.BENCH_TLS === '1';
const lanes = 16;
for (const [name, v] of Object.entries({ watchers, rate, seconds }))
  if (!Number.isInteger(v) || v <= 0) throw new Error(`${name} must be a positive integer`);
// DCS_CHECK_ARGS=1: the settings are parsed and checked, nothing runs (README commands test).
if (process.env.DCS_CHECK_ARGS === '1') {
  writeSync(1, `args ok: ${JSON.stringify({ watchers, rate, seconds, tls })}\n`);
  process.exit(0);
}

if (!(globalThis as { gc?: () => void }).gc) {
  const r = spawnSync(
    process.execPath,
    ['--expose-gc', ...process.execArgv, ...process.argv.slice(1)],
    {
      stdio: 'inherit',
    },
  );
  process.exit(r.status ?? 1);
}
const gc = (globalThis as unknown as { gc: () => void }).gc;

const server = await startApiServer({
  tls,
  kinds: [machineKind],
  tokens: [{ token: BENCH_TOKEN, user: 'bench', groups: ['system:masters'] }],
  namespaces: [WATCH_NAMESPACE],
});
const mb = (b: number) => (b / 1024 / 1024).toFixed(1);
for (let i = 0; i < lanes; i++)
  await server.client.create(machine(machineName(i), WATCH_NAMESPACE));
gc();
const rssIdle = process.memoryUsage().rss;
const first = server.client.get({
  apiVersion: 'cluster.x-k8s.io/v1beta1',
  kind: 'Machine',
  name: machineName(0),
  namespace: WATCH_NAMESPACE,
});
const rv = first?.metadata.resourceVersion ?? '0';

const sockets: Socket[] = [];
for (let i = 0; i < watchers; i++) {
  const opts = { host: '127.0.0.1', port: server.port };
  const s = tls ? connectTls({ ...opts, rejectUnauthorized: false }) : connectTcp(opts);
  await new Promise<void>((resolve, reject) => {
    s.once(tls ? 'secureConnect' : 'connect', resolve);
    s.once('error', reject);
  });
  s.pause();
  // The server may end a stalled watch and disconnect it: expected here, not a failure.
  s.on('error', () => undefined);
  s.write(
    `GET ${MACHINES}/${WATCH_NAMESPACE}/machines?watch=1&resourceVersion=${rv} HTTP/1.1\r\n` +
      `Host: bench\r\nAuthorization: Bearer ${BENCH_TOKEN}\r\n\r\n`,
  );
  sockets.push(s);
}
const deadline = Date.now() + 30_000;
while (server.watchCount() < watchers && Date.now() < deadline)
  await new Promise((r) => setTimeout(r, 20));
const opened = server.watchCount();

let peak = process.memoryUsage().rss;
let patched = 0;
const started = performance.now();
let allEndedAfterMs: number | undefined;
const curve: string[] = [];
let nextSample = 0;
const sampler = setInterval(() => {
  const t = performance.now() - started;
  if (process.env.BENCH_CURVE && t >= nextSample) {
    nextSample += 1000;
    curve.push(
      `${(t / 1000).toFixed(1)}s: ${String(server.watchCount())} open, rss ${mb(process.memoryUsage().rss)} MiB, ${String(patched)} events`,
    );
  }
  peak = Math.max(peak, process.memoryUsage().rss);
  if (allEndedAfterMs === undefined && server.watchCount() === 0)
    allEndedAfterMs = Math.round(performance.now() - started);
}, 100);
const total = rate * seconds;
while (patched < total) {
  const due = started + (patched / rate) * 1000;
  const wait = due - performance.now();
  // Behind schedule, still yield a turn: the in-process write resolves in microtasks, and the
  // server's flushes and timers must run as they would between requests from outside.
  await new Promise((r) => (wait > 0 ? setTimeout(r, wait) : setImmediate(r)));
  await server.client.patch(
    {
      apiVersion: 'cluster.x-k8s.io/v1beta1',
      kind: 'Machine',
      name: machineName(patched % lanes),
      namespace: WATCH_NAMESPACE,
    },
    'merge',
    { metadata: { annotations: { 'bench/seq': String(patched) } } },
  );
  patched++;
}
const elapsed = (performance.now() - started) / 1000;
await new Promise((r) => setTimeout(r, 2000));
clearInterval(sampler);
peak = Math.max(peak, process.memoryUsage().rss);
const open = server.watchCount();
gc();
const mem = process.memoryUsage();
const rssEnd = mem.rss;
console.log(
  JSON.stringify({
    watchers: opened,
    tls,
    events: patched,
    eventsPerSecond: Math.round(patched / elapsed),
    rssIdleMiB: mb(rssIdle),
    rssPeakMiB: mb(peak),
    rssEndAfterGcMiB: mb(rssEnd),
    heapUsedMiB: mb(mem.heapUsed),
    externalMiB: mb(mem.external),
    watchesEnded: opened - open,
    allEndedAfterMs,
  }),
);
if (curve.length > 0) console.log(curve.join('\n'));
for (const s of sockets) s.destroy();
await server.close();
