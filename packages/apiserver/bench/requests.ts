/**
 * Server CPU per request, by verb: `pnpm --filter @dcs/apiserver bench:requests [N]` (default
 * 1,000). The server runs in this process (its CPU time is read around each phase, with
 * `process.cpuUsage`), the client in a child process over 4 keep-alive loopback connections
 * (bench/http-client.ts), as an ordinary user bound to `edit`, so every request goes through
 * RBAC. Phases, in order: create N Machines, get each, PUT the status of each, merge-patch the
 * status of each, merge-patch a label of each, list the namespace 10 times. Prints one line per
 * phase; `BENCH_CPU_PROFILE=DIR` also writes one .cpuprofile per phase. Nothing is asserted and
 * nothing is written to bench/results.*: it is the tool to find where a request's CPU goes.
 */
import { fork } from 'node:child_process';
import { writeFileSync, writeSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';
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

async function client(url: string): Promise<void> {
  const conns = Array.from(
    { length: 4 },
    () => new Connection(url, { Authorization: `Bearer ${TOKEN}` }),
  );
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
    await Promise.all(
      conns.map(async (c) => {
        for (let i = next++; i < count; i = next++) {
          const r = await send(i, c);
          if (r.status !== want)
            throw new Error(
              `${label} ${String(i)}: ${String(r.status)} ${r.body.toString().slice(0, 300)}`,
            );
        }
      }),
    );
    await rpc(`end\t${label}\t${String(count)}`);
  }
  for (const c of conns) c.close();
}

async function server(): Promise<void> {
  const api = await startApiServer({
    tls: false,
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
  console.log(`apiserver requests benchmark: ${String(N)} Machines; server CPU per request`);
  const child = fork(fileURLToPath(import.meta.url), [String(N)], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, REQUESTS_BENCH_URL: api.url },
  });
  let started = 0;
  child.on('message', (m: string) => {
    void (async () => {
      const [what, label = '', count = '1'] = m.split('\t');
      if (what === 'start') {
        if (session) await session.post('Profiler.start');
        started = cpu();
      } else {
        const ms = cpu() - started;
        console.log(`  ${label.padEnd(24)} ${(ms / Number(count)).toFixed(2).padStart(8)} ms`);
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
  await api.close();
  if (code !== 0) throw new Error(`the client process exited with ${String(code)}`);
}

const url = process.env.REQUESTS_BENCH_URL;
if (url) await client(url);
else await server();
