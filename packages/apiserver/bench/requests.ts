/**
 * Server CPU and wall latency per request, by verb: `pnpm --filter @dcs/apiserver bench:requests
 * [N]` (default 1,000). The server runs in this process (its CPU time is read around each phase,
 * with `process.cpuUsage`), the client in a child process over keep-alive loopback connections
 * (bench/http-client.ts), as an ordinary user bound to `edit`, so every request goes through
 * RBAC. Phases, in order: create N Machines, get each, PUT the status of each, merge-patch the
 * status of each, merge-patch a label of each, list the namespace 10 times. Prints one line per
 * phase: the server's CPU per request, the client's send → answer p50/p99, and how late the
 * server's event loop ran (p99): a latency far above CPU x connections is time the server spent
 * waiting (for a core, a timer, the disk), not working.
 *   BENCH_CONNECTIONS=C  connections, each one request at a time (default 4);
 *   BENCH_TLS=1          HTTPS with a generated CA, as the simulator serves (default plain HTTP);
 *   BENCH_WATCHERS=W     W watches of the namespace held open by another child process (one
 *                        connection each, bytes counted), so that every write fans out to them;
 *   BENCH_CPU_PROFILE=DIR one .cpuprofile per phase.
 * Nothing is asserted and nothing is written to bench/results.*: it is the tool to find where a
 * request's time goes.
 */
import { fork } from 'node:child_process';
import { writeFileSync, writeSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { startApiServer } from '../src/index';
import { machineKind } from '../test/support/kinds';
import { Connection, type Reply } from './http-client';

const N = Number(process.argv[2] ?? 1000);
if (process.argv.length > 3 || !Number.isInteger(N) || N < 1) {
  console.error(
    `bench:requests: usage: bench:requests [N] (a positive integer), got ${process.argv.slice(2).join(' ')}`,
  );
  process.exit(2);
}
// DCS_CHECK_ARGS=1: the command line is parsed and checked, nothing runs (README commands test).
if (process.env.DCS_CHECK_ARGS === '1') {
  writeSync(1, `args ok: ${JSON.stringify({ n: N })}\n`);
  process.exit(0);
}
const TOKEN = 'requests-bench';
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 4);
const WATCHERS = Number(process.env.BENCH_WATCHERS ?? 0);
const TLS = process.env.BENCH_TLS === '1';
if (
  !Number.isInteger(CONNECTIONS) ||
  CONNECTIONS < 1 ||
  !Number.isInteger(WATCHERS) ||
  WATCHERS < 0
) {
  console.error(
    'bench:requests: BENCH_CONNECTIONS must be >= 1 and BENCH_WATCHERS >= 0 (integers)',
  );
  process.exit(2);
}
const BASE = '/apis/cluster.x-k8s.io/v1beta1/namespaces/bench/machines';

const name = (i: number) => `m-${String(i).padStart(6, '0')}`;

function machine(i: number): string {
  return JSON.stringify({
    apiVersion: 'cluster.x-k8s.io/v1beta1',
    kind: 'Machine',
    metadata: {
      name: name(i),
      namespace: 'bench',
      labels: {
        'cluster.x-k8s.io/cluster-name': 'c1',
        'cluster.x-k8s.io/deployment-name': `md-${String(i % 7)}`,
      },
      annotations: { 'bench/padding': 'x'.repeat(1200) },
      ownerReferences: [
        {
          apiVersion: 'cluster.x-k8s.io/v1beta1',
          kind: 'MachineSet',
          name: `ms-${String(i % 7)}`,
          uid: `uid-${String(i % 7)}`,
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    spec: {
      clusterName: 'c1',
      version: 'v1.32.0',
      providerID: `dcs://${name(i)}`,
      bootstrap: { dataSecretName: `${name(i)}-bootstrap` },
    },
  });
}

function conditions(k: number) {
  return ['Ready', 'BootstrapReady', 'InfrastructureReady', 'NodeHealthy'].map((type, j) => ({
    type,
    status: (k + j) % 2 ? 'True' : 'False',
    lastTransitionTime: '2026-12-01T10:00:00Z',
    reason: `R${String(k)}`,
    message: `message ${String(k)} ${String(j)}`,
  }));
}

type Phase = [
  label: string,
  count: number,
  want: number,
  send: (i: number, c: Connection) => Promise<Reply>,
];

const headers = { Authorization: `Bearer ${TOKEN}` };

/** W watches of the namespace from its current resourceVersion, held until the parent says so. */
async function watchers(url: string, ca: string | undefined): Promise<void> {
  const first = new Connection(url, headers, ca);
  const list = await first.request('GET', `${BASE}?limit=1`);
  first.close();
  const rv = (JSON.parse(list.body.toString()) as { metadata: { resourceVersion: string } })
    .metadata.resourceVersion;
  let bytes = 0;
  let open = 0;
  const conns = Array.from({ length: WATCHERS }, () => new Connection(url, headers, ca));
  await new Promise<void>((resolve, reject) => {
    for (const c of conns)
      c.request(
        'GET',
        `${BASE}?watch=1&resourceVersion=${rv}`,
        undefined,
        undefined,
        (piece) => (bytes += piece.length),
        (status) => {
          if (status !== 200) reject(new Error(`watch answered ${String(status)}`));
          else if (++open === WATCHERS) resolve();
        },
      ).catch(() => undefined);
  });
  process.send?.('watching');
  await new Promise<void>((resolve) => {
    process.once('message', () => {
      resolve();
    });
  });
  for (const c of conns) c.close();
  console.log(`  (${String(WATCHERS)} watchers received ${(bytes / 1e6).toFixed(1)} MB)`);
}

async function client(url: string, ca: string | undefined): Promise<void> {
  const conns = Array.from({ length: CONNECTIONS }, () => new Connection(url, headers, ca));
  const got = new Map<number, string>();
  const merge = 'application/merge-patch+json';
  const phases: Phase[] = [
    ['create', N, 201, (i, c) => c.request('POST', `${BASE}?fieldManager=ctl`, machine(i))],
    [
      'get',
      N,
      200,
      async (i, c) => {
        const r = await c.request('GET', `${BASE}/${name(i)}`);
        got.set(i, r.body.toString());
        return r;
      },
    ],
    [
      'update (PUT) status',
      N,
      200,
      (i, c) => {
        const o = JSON.parse(got.get(i) ?? '{}') as Record<string, unknown>;
        o.status = { phase: 'Provisioning', conditions: conditions(i) };
        return c.request('PUT', `${BASE}/${name(i)}/status?fieldManager=ctl`, JSON.stringify(o));
      },
    ],
    [
      'merge patch of status',
      N,
      200,
      (i, c) =>
        c.request(
          'PATCH',
          `${BASE}/${name(i)}/status?fieldManager=ctl`,
          JSON.stringify({ status: { phase: 'Running', conditions: conditions(i + 1) } }),
          merge,
        ),
    ],
    [
      'merge patch of a label',
      N,
      200,
      (i, c) =>
        c.request(
          'PATCH',
          `${BASE}/${name(i)}?fieldManager=ctl2`,
          JSON.stringify({ metadata: { labels: { x: String(i) } } }),
          merge,
        ),
    ],
    [`list of ${String(N)}`, 10, 200, (_i, c) => c.request('GET', BASE)],
  ];
  const rpc = (m: string) =>
    new Promise<void>((resolve) => {
      process.once('message', () => {
        resolve();
      });
      process.send?.(m);
    });
  for (const [label, count, want, send] of phases) {
    await rpc(`start\t${label}`);
    let next = 0;
    const ms = new Float64Array(count);
    await Promise.all(
      conns.map(async (c) => {
        for (let i = next++; i < count; i = next++) {
          const t0 = performance.now();
          const r = await send(i, c);
          ms[i] = performance.now() - t0;
          if (r.status !== want)
            throw new Error(
              `${label} ${String(i)}: ${String(r.status)} ${r.body.toString().slice(0, 300)}`,
            );
        }
      }),
    );
    ms.sort();
    const at = (p: number) => ms[Math.min(count - 1, Math.floor((p / 100) * count))] ?? 0;
    await rpc(`end\t${label}\t${String(count)}\t${at(50).toFixed(2)}\t${at(99).toFixed(2)}`);
  }
  for (const c of conns) c.close();
}

async function server(): Promise<void> {
  const api = await startApiServer({
    tls: TLS,
    kinds: [machineKind],
    namespaces: ['bench'],
    tokens: [{ token: TOKEN, user: 'bench' }],
  });
  await api.client.create({
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'RoleBinding',
    metadata: { name: 'bench-edit', namespace: 'bench' },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'edit' },
    subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'bench' }],
  });
  const profileDir = process.env.BENCH_CPU_PROFILE;
  const session = profileDir ? new Session() : undefined;
  if (session) {
    session.connect();
    await session.post('Profiler.enable');
  }
  const cpu = () => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  };
  const env = {
    ...process.env,
    REQUESTS_BENCH_URL: api.url,
    ...(api.caPem ? { REQUESTS_BENCH_CA: api.caPem } : {}),
  };
  const self = fileURLToPath(import.meta.url);
  const watching = WATCHERS
    ? fork(self, [String(N)], {
        execArgv: ['--import', 'tsx'],
        env: { ...env, REQUESTS_BENCH_ROLE: 'watchers' },
      })
    : undefined;
  if (watching) await new Promise((resolve) => watching.once('message', resolve));
  console.log(
    `apiserver requests benchmark: ${String(N)} Machines, ${String(CONNECTIONS)} connections, ` +
      `${String(WATCHERS)} watchers, ${TLS ? 'HTTPS' : 'HTTP'}`,
  );
  console.log(
    `  ${'phase'.padEnd(24)} ${'server CPU'.padStart(10)} ${'p50'.padStart(8)} ${'p99'.padStart(8)} ${'loop p99'.padStart(8)}  (ms per request)`,
  );
  const child = fork(self, [String(N)], { execArgv: ['--import', 'tsx'], env });
  let started = 0;
  const loop = monitorEventLoopDelay({ resolution: 2 });
  child.on('message', (m: string) => {
    void (async () => {
      const [what, label = '', count = '1', p50 = '', p99 = ''] = m.split('\t');
      if (what === 'start') {
        if (session) await session.post('Profiler.start');
        loop.reset();
        loop.enable();
        started = cpu();
      } else {
        const ms = cpu() - started;
        loop.disable();
        const cols = [
          (ms / Number(count)).toFixed(2),
          p50,
          p99,
          (loop.percentile(99) / 1e6).toFixed(1),
        ];
        console.log(
          `  ${label.padEnd(24)} ${cols.map((c, i) => c.padStart(i ? 8 : 10)).join(' ')}`,
        );
        if (session && profileDir) {
          const { profile } = await session.post('Profiler.stop');
          writeFileSync(
            join(profileDir, `${label.replace(/\W+/g, '-')}.cpuprofile`),
            JSON.stringify(profile),
          );
        }
      }
      child.send('ok');
    })();
  });
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  if (watching) {
    watching.send('stop');
    await new Promise((resolve) => watching.on('exit', resolve));
  }
  await api.close();
  if (code !== 0) throw new Error(`the client process exited with ${String(code)}`);
}

const url = process.env.REQUESTS_BENCH_URL;
const ca = process.env.REQUESTS_BENCH_CA;
if (!url) await server();
else if (process.env.REQUESTS_BENCH_ROLE === 'watchers') await watchers(url, ca);
else await client(url, ca);
