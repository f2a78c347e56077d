import { parseArgs } from 'node:util';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config/env';

/** Benchmark child 2: the BFF alone in its process (so its RSS is its own), local mode. */
const { values } = parseArgs({ options: { kubeconfig: { type: 'string' } } });
const config = loadConfig({
  argv: ['--kubeconfig', values.kubeconfig ?? '/tmp/bench-kubeconfig'],
  env: {
    HOST: '127.0.0.1',
    PORT: '0',
    AUTH_MODE: 'local',
    LOG_LEVEL: 'warn',
    SSE_MAX_CLIENTS: '20000',
  },
});
const app = await buildApp({ config });
const url = await app.listen({ host: '127.0.0.1', port: 0 });
await app.cache.waitForSync();
process.stdout.write(`${JSON.stringify({ ready: url, pid: process.pid })}\n`);
// How busy the BFF's one thread is (event-loop utilization, 0..1), every second: on a shared
// machine the latency figures also carry other processes' load; this one is the BFF's own.
let last = performance.eventLoopUtilization();
setInterval(() => {
  const now = performance.eventLoopUtilization();
  process.stdout.write(
    `${JSON.stringify({ elu: performance.eventLoopUtilization(now, last).utilization, at: Date.now() })}\n`,
  );
  last = now;
}, 1000).unref();
process.on('SIGTERM', () => {
  void app.close().then(() => process.exit(0));
});

// Diagnostics: how long API-server events take to reach the cache (BENCH_TRACE=1).
if (process.env.BENCH_TRACE === '1') {
  const lat: number[] = [];
  app.cache.subscribe((c) => {
    if (c.kind !== 'Machine') return;
    const m = /bench:\d+:(\d+)/.exec(JSON.stringify(c.object));
    if (m) lat.push(Date.now() - Number(m[1]));
    if (lat.length === 150) {
      const s = [...lat].sort((a, b) => a - b);
      process.stderr.write(
        `trace: cache arrival p50 ${String(s[75])} p95 ${String(s[142])} max ${String(s[149])}\n`,
      );
    }
  });
}
