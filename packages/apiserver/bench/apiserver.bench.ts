/**
 * Benchmark of the API server over loopback HTTP, printing a table of figures.
 *   pnpm --filter @dcs/apiserver bench [SCALE]     (SCALE 1 = the full targets; CI runs 0.02)
 * Figures: creates per second (32 concurrent clients), list of 5,000 Machines of ~3 KB (p50/p95,
 * until the last byte arrives), 100 watchers each receiving every event at 500 events/s
 * (delivery p50/p99), and RSS holding 20,000 objects. Clients run in the same process as the
 * server, so every figure includes their cost too.
 */
import { fileURLToPath } from 'node:url';
import { startApiServer } from '../src/index';
import { machineKind } from '../test/support/kinds';

export interface BenchRow {
  figure: string;
  value: number;
  unit: string;
  target: string;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

function machine(name: string) {
  return {
    apiVersion: 'cluster.x-k8s.io/v1beta1',
    kind: 'Machine',
    metadata: {
      name,
      labels: {
        'cluster.x-k8s.io/cluster-name': 'c1',
        'cluster.x-k8s.io/deployment-name': `md-${name.length % 7}`,
      },
      // ~3 KB per object, like a real Machine with its conditions and annotations.
      annotations: { 'bench/padding': 'x'.repeat(2600) },
    },
    spec: {
      clusterName: 'c1',
      version: 'v1.32.0',
      providerID: `dcs://${name}`,
      bootstrap: { dataSecretName: `${name}-bootstrap` },
    },
  };
}

export async function runBenchmark(
  scale = 1,
  log: (line: string) => void = console.log,
): Promise<BenchRow[]> {
  const n = (full: number, min: number) => Math.max(min, Math.round(full * scale));
  const server = await startApiServer({
    tls: false,
    kinds: [machineKind],
    tokens: [{ token: 'b', user: 'bench', groups: ['system:masters'] }],
    namespaces: ['bench'],
  });
  const headers = { authorization: 'Bearer b', 'content-type': 'application/json' };
  const base = `${server.url}/apis/cluster.x-k8s.io/v1beta1/namespaces/bench/machines`;
  const rows: BenchRow[] = [];
  try {
    // 1. creates per second
    const creates = n(5000, 50);
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: 32 }, async () => {
        for (let i = next++; i < creates; i = next++) {
          const res = await fetch(base, {
            method: 'POST',
            headers,
            body: JSON.stringify(machine(`m-${String(i).padStart(6, '0')}`)),
          });
          if (res.status !== 201) throw new Error(`create answered ${res.status}`);
          await res.arrayBuffer();
        }
      }),
    );
    const createSeconds = (performance.now() - started) / 1000;
    rows.push({
      figure: `creates/s (${creates} Machines, 32 clients)`,
      value: creates / createSeconds,
      unit: '/s',
      target: '>= 1000',
    });

    // 2. list latency
    const lists: number[] = [];
    let bytes = 0;
    for (let i = 0; i < n(20, 5); i++) {
      const t0 = performance.now();
      const res = await fetch(base, { headers });
      bytes = (await res.arrayBuffer()).byteLength;
      lists.push(performance.now() - t0);
    }
    lists.sort((a, b) => a - b);
    rows.push({
      figure: `list ${creates} Machines (${(bytes / 1e6).toFixed(1)} MB) p50`,
      value: percentile(lists, 50),
      unit: 'ms',
      target: '<= 150',
    });
    rows.push({
      figure: `list ${creates} Machines p95`,
      value: percentile(lists, 95),
      unit: 'ms',
      target: '',
    });

    // 3. RSS holding 20,000 objects
    const total = n(20000, 100);
    for (let i = creates; i < total; i += 500) {
      await Promise.all(
        Array.from({ length: Math.min(500, total - i) }, (_, j) =>
          server.client.create(machine(`m-${String(i + j).padStart(6, '0')}`)),
        ),
      );
    }
    (globalThis as { gc?: () => void }).gc?.();
    rows.push({
      figure: `RSS holding ${total} objects`,
      value: process.memoryUsage().rss / 1024 / 1024,
      unit: 'MB',
      target: '<= 300',
    });

    // 4. watch fan-out
    const watchers = n(100, 3);
    const rate = 500;
    const events = n(1500, 30);
    const latencies: number[] = [];
    const received = new Array<number>(watchers).fill(0);
    const rv = server.resourceVersion;
    const aborts: AbortController[] = [];
    await Promise.all(
      Array.from({ length: watchers }, async (_, w) => {
        const ac = new AbortController();
        aborts.push(ac);
        const res = await fetch(
          `${base}?watch=1&resourceVersion=${rv}&fieldSelector=metadata.name%3Dm-000000`,
          { headers, signal: ac.signal },
        );
        const reader = (res.body as ReadableStream<Uint8Array> | null)?.getReader();
        if (!reader) return;
        const dec = new TextDecoder();
        let buf = '';
        void (async () => {
          try {
            for (;;) {
              const { value, done } = await reader.read();
              if (done) return;
              buf += dec.decode(value, { stream: true });
              let nl: number;
              while ((nl = buf.indexOf('\n')) >= 0) {
                const line = buf.slice(0, nl);
                buf = buf.slice(nl + 1);
                const m = /"bench\/sent":"([\d.]+)"/.exec(line);
                if (m?.[1]) {
                  latencies.push(performance.timeOrigin + performance.now() - Number(m[1]));
                  received[w] = (received[w] ?? 0) + 1;
                }
              }
            }
          } catch {
            // aborted
          }
        })();
      }),
    );
    const interval = 1000 / rate;
    const t0 = performance.now();
    for (let i = 0; i < events; i++) {
      const due = t0 + i * interval;
      const wait = due - performance.now();
      if (wait > 1) await new Promise((r) => setTimeout(r, wait));
      await server.client.patch(
        {
          apiVersion: 'cluster.x-k8s.io/v1beta1',
          kind: 'Machine',
          namespace: 'bench',
          name: 'm-000000',
        },
        'merge',
        {
          metadata: {
            annotations: { 'bench/sent': String(performance.timeOrigin + performance.now()) },
          },
        },
      );
    }
    const achieved = events / ((performance.now() - t0) / 1000);
    const deadline = Date.now() + 10_000;
    while (received.some((r) => r < events) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));
    for (const a of aborts) a.abort();
    latencies.sort((a, b) => a - b);
    rows.push({
      figure: `watch: ${watchers} watchers x ${events} events at ${achieved.toFixed(0)}/s, all delivered`,
      value: received.every((r) => r === events) ? 1 : 0,
      unit: 'yes=1',
      target: '1',
    });
    rows.push({
      figure: 'watch delivery p50',
      value: percentile(latencies, 50),
      unit: 'ms',
      target: '',
    });
    rows.push({
      figure: 'watch delivery p99',
      value: percentile(latencies, 99),
      unit: 'ms',
      target: '<= 50',
    });
  } finally {
    await server.close();
  }
  log(`apiserver benchmark (scale ${scale})`);
  log(`${'figure'.padEnd(64)} ${'value'.padStart(10)} unit   target`);
  for (const r of rows)
    log(
      `${r.figure.padEnd(64)} ${r.value.toFixed(1).padStart(10)} ${r.unit.padEnd(6)} ${r.target}`,
    );
  return rows;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const scale = Number(process.argv[2] ?? '1');
  await runBenchmark(Number.isFinite(scale) && scale > 0 ? scale : 1);
}
