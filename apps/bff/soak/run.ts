import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import { createServer } from 'node:net';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { KubeConfig, Watch } from '@kubernetes/client-node';

/**
 * `pnpm soak` (issue 10; not in CI): mixed load against a started console for a long time,
 * printing the BFF's and the simulator's RSS and open handles every minute, and failing when the
 * BFF's memory grows past a stated slope. See apps/bff/README.md, "Soak".
 *
 *   pnpm soak                       # 30 minutes against a console it starts (the launcher)
 *   pnpm soak -- --minutes 5        # a short run
 *   pnpm soak -- --url http://127.0.0.1:8080 --pid 1234   # against a console already running
 *
 * Load: reads (every GET route of one cluster) at `--reads` per second; a writer that scales a
 * worker pool up and down and appends and removes an IP-pool entry, each with the
 * resourceVersion it just read (409s are expected and counted); `--streams` SSE clients, a
 * quarter of them replaced every minute, plus one that never reads (a slow client); and two
 * watches straight on the API server, restarted every minute. Any 5xx fails the run.
 */

const HERE = dirname(fileURLToPath(import.meta.url));
const BFF = resolve(HERE, '..');
const ROOT = resolve(BFF, '../..');

interface Options {
  minutes: number;
  url?: string;
  pid?: number;
  reads: number;
  streams: number;
  /** MB per minute of BFF RSS growth, fitted after the warm-up, above which the run fails. */
  maxSlope: number;
  /** Growth from the end of the warm-up to the end (MB) below which a slope is noise. */
  noiseMb: number;
}

function parseArgs(argv: readonly string[]): Options {
  const o: Options = { minutes: 30, reads: 20, streams: 20, maxSlope: 1.5, noiseMb: 32 };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const v = argv[i + 1];
    const num = () => {
      const n = Number(v);
      if (!Number.isFinite(n) || n <= 0) throw new Error(`${String(a)} needs a positive number`);
      i++;
      return n;
    };
    if (a === '--') continue;
    else if (a === '--minutes') o.minutes = num();
    else if (a === '--reads') o.reads = num();
    else if (a === '--streams') o.streams = Math.round(num());
    else if (a === '--max-slope') o.maxSlope = num();
    else if (a === '--noise-mb') o.noiseMb = num();
    else if (a === '--pid') o.pid = Math.round(num());
    else if (a === '--url' && v) {
      o.url = v.replace(/\/$/, '');
      i++;
    } else throw new Error(`unknown option ${String(a)}`);
  }
  return o;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const s = createServer();
    s.once('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => {
        ok(port);
      });
    });
  });
}

/** RSS (MB) and open file descriptors of a process, from /proc (Linux). */
function usage(pid: number): { rssMb: number; fds: number } | undefined {
  try {
    const status = readFileSync(`/proc/${String(pid)}/status`, 'utf8');
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN);
    const fds = readdirSync(`/proc/${String(pid)}/fd`).length;
    return { rssMb: kb / 1024, fds };
  } catch {
    return undefined;
  }
}

function childrenOf(pid: number): number[] {
  const out: number[] = [];
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) out.push(Number(d));
    } catch {
      // Gone meanwhile.
    }
  }
  return out;
}

/** Least-squares slope of y over x. */
function slope(points: readonly { x: number; y: number }[]): number {
  const n = points.length;
  if (n < 2) return 0;
  const mx = points.reduce((s, p) => s + p.x, 0) / n;
  const my = points.reduce((s, p) => s + p.y, 0) / n;
  let num = 0;
  let den = 0;
  for (const p of points) {
    num += (p.x - mx) * (p.y - my);
    den += (p.x - mx) ** 2;
  }
  return den === 0 ? 0 : num / den;
}

class Console {
  cookie = '';
  csrf = '';
  readonly counts = { reads: 0, writes: 0, conflicts: 0, refused: 0, errors5xx: 0, failed: 0 };
  readonly fiveXx: string[] = [];

  constructor(readonly url: string) {}

  async call(
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; json: unknown }> {
    try {
      const res = await fetch(`${this.url}${path}`, {
        method,
        headers: {
          accept: 'application/json',
          ...(this.cookie ? { cookie: this.cookie } : {}),
          ...(method === 'GET'
            ? {}
            : { origin: this.url, 'x-csrf-token': this.csrf, 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await res.text();
      if (res.status >= 500) {
        this.counts.errors5xx++;
        if (this.fiveXx.length < 10)
          this.fiveXx.push(`${method} ${path}: ${String(res.status)} ${text.slice(0, 200)}`);
      }
      let json: unknown;
      try {
        json = text ? (JSON.parse(text) as unknown) : undefined;
      } catch {
        json = text;
      }
      return { status: res.status, json };
    } catch (error) {
      this.counts.failed++;
      return { status: 0, json: String(error) };
    }
  }

  async signIn(): Promise<void> {
    const res = await fetch(`${this.url}/api/v1/session`);
    const cookies = res.headers.getSetCookie().map((c) => c.split(';')[0] ?? '');
    this.cookie = cookies.join('; ');
    this.csrf = ((await res.json()) as { csrfToken: string }).csrfToken;
  }
}

/** One SSE client: reads and counts frames, or (slow) never reads after connecting. */
function sseClient(url: string, slow: boolean, onEvent: () => void): { close: () => void } {
  const req = http.get(url, { headers: { accept: 'text/event-stream' }, agent: false }, (res) => {
    if (slow) {
      res.pause();
      return;
    }
    res.on('data', (chunk: Buffer) => {
      for (let i = chunk.indexOf('\n\n'); i >= 0; i = chunk.indexOf('\n\n', i + 2)) onEvent();
    });
    res.on('error', () => undefined);
  });
  req.on('error', () => undefined);
  return { close: () => req.destroy() };
}

async function main(): Promise<number> {
  const o = parseArgs(process.argv.slice(2));
  // DCS_CHECK_ARGS=1: the command line is parsed and checked, nothing runs (README commands test).
  if (process.env.DCS_CHECK_ARGS === '1') {
    process.stdout.write(`args ok: ${JSON.stringify(o)}\n`);
    return 0;
  }
  let launcher: ChildProcess | undefined;
  let url = o.url;
  let bffPid = o.pid;
  if (url === undefined) {
    const port = await freePort();
    url = `http://127.0.0.1:${String(port)}`;
    launcher = spawn(process.execPath, ['--import', 'tsx', 'src/cli/launch.ts'], {
      cwd: BFF,
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'warn' },
    });
    bffPid = launcher.pid;
    process.stdout.write(`soak: started the console (pid ${String(bffPid)}) on ${url}\n`);
  }
  const stop = () => {
    if (launcher?.exitCode === null) launcher.kill('SIGTERM');
  };
  process.once('SIGINT', () => {
    stop();
    process.exit(130);
  });
  try {
    return await soak(o, url, bffPid);
  } finally {
    if (launcher?.exitCode === null) {
      const child = launcher;
      const exited = new Promise((r) => child.once('exit', r));
      stop();
      await Promise.race([exited, sleep(20_000)]);
    }
  }
}

async function soak(o: Options, url: string, bffPid: number | undefined): Promise<number> {
  const deadline = Date.now() + 180_000;
  for (;;) {
    const ok = await fetch(`${url}/readyz`)
      .then((r) => r.status === 200)
      .catch(() => false);
    if (ok) break;
    if (Date.now() > deadline) throw new Error(`${url}/readyz did not answer 200 within 180 s`);
    await sleep(500);
  }
  const c = new Console(url);
  await c.signIn();
  const clusters = (await c.call('GET', '/api/v1/clusters')).json as {
    namespace: string;
    name: string;
  }[];
  const cluster = clusters[0];
  if (!cluster) throw new Error('the console shows no cluster');
  const base = `/api/v1/clusters/${cluster.namespace}/${cluster.name}`;
  const pools = (await c.call('GET', `${base}/nodepools`)).json as {
    id: string;
    kind: string;
    ipPool?: { name: string };
    replicas: { desired: number };
  }[];
  const pool = pools.find((p) => p.kind === 'worker' && p.ipPool);
  if (!pool?.ipPool) throw new Error('the cluster has no worker pool with an IP pool');
  const ipPool = pool.ipPool.name;
  const ns = cluster.namespace;
  // The launcher's child running the simulator (not tsx's esbuild service, also its child).
  const simPid =
    bffPid !== undefined
      ? childrenOf(bffPid).find((pid) => {
          try {
            return readFileSync(`/proc/${String(pid)}/cmdline`, 'utf8').includes('sim.ts');
          } catch {
            return false;
          }
        })
      : undefined;
  process.stdout.write(
    `soak: ${String(o.minutes)} min against ${url}: cluster ${ns}/${cluster.name}, pool ${pool.id}, IP pool ${ipPool}; ${String(o.reads)} reads/s, ${String(o.streams)} streams; BFF pid ${String(bffPid ?? '?')}, simulator pid ${String(simPid ?? '?')}\n`,
  );

  const end = Date.now() + o.minutes * 60_000;
  const running = () => Date.now() < end;
  const reads = [
    '/api/v1/session',
    '/api/v1/clusters',
    `${base}/nodepools`,
    `${base}/nodepools/${pool.id}`,
    `${base}/nodepools/${pool.id}/machines`,
    `${base}/nodepools/${pool.id}/events`,
    `${base}/machines`,
    `${base}/context`,
    `/api/v1/namespaces/${ns}/ippools`,
    `/api/v1/namespaces/${ns}/ippools/${ipPool}`,
  ];

  const readLoop = async () => {
    let i = 0;
    while (running()) {
      const path = reads[i++ % reads.length] ?? '/healthz';
      await c.call('GET', path);
      c.counts.reads++;
      await sleep(1000 / o.reads);
    }
  };

  const writeLoop = async () => {
    const start = pool.replicas.desired;
    let k = 0;
    while (running()) {
      k++;
      if (k % 2 === 1) {
        const view = (await c.call('GET', `${base}/nodepools/${pool.id}`)).json as {
          resourceVersions?: { md?: string };
          replicas?: { desired: number };
        };
        const replicas = view.replicas?.desired === start ? start + 1 : start;
        const res = await c.call('POST', `${base}/nodepools/${pool.id}/scale`, {
          replicas,
          resourceVersion: view.resourceVersions?.md ?? '',
        });
        tally(res.status, res.json);
      } else {
        const view = (await c.call('GET', `/api/v1/namespaces/${ns}/ippools/${ipPool}`)).json as {
          resourceVersion?: string;
          entries?: { ip: string }[];
        };
        const ip = '10.250.0.9';
        const present = view.entries?.some((e) => e.ip === ip) ?? false;
        const res = await c.call('PATCH', `/api/v1/namespaces/${ns}/ippools/${ipPool}`, {
          resourceVersion: view.resourceVersion ?? '',
          ...(present
            ? { remove: [ip] }
            : {
                append: [
                  {
                    ip,
                    mask: '24',
                    gateway: '10.250.0.1',
                    hostname: 'soak-node',
                    // R-DISK-5: the demo's pools keep /var/cpaas as a pool persistent disk.
                    persistentDisk: [
                      { slot: 0, quantityGB: 40, path: '/var/cpaas', format: 'xfs' },
                    ],
                  },
                ],
              }),
        });
        tally(res.status, res.json);
      }
      await sleep(3000);
    }
  };
  const refusals = new Map<string, number>();
  const tally = (status: number, json: unknown) => {
    if (status >= 200 && status < 300) c.counts.writes++;
    else if (status === 409) c.counts.conflicts++;
    else if (status < 500) {
      c.counts.refused++;
      // Refusals are the console's rules at work (a pool mid-rollout, a rate limit), not
      // failures; the reasons are printed at the end so that a surprising one is seen.
      const message = (json as { message?: unknown } | undefined)?.message;
      const key = `${String(status)} ${typeof message === 'string' ? message.slice(0, 160) : ''}`;
      refusals.set(key, (refusals.get(key) ?? 0) + 1);
    }
  };

  let sseEvents = 0;
  let sseOpened = 0;
  const streamUrl = `${url}/api/v1/stream?cluster=${ns}/${cluster.name}`;
  const open = (slow = false) => {
    sseOpened++;
    return sseClient(streamUrl, slow, () => sseEvents++);
  };
  const streams = Array.from({ length: o.streams }, () => open());
  let slowClient = open(true);

  let kubeEvents = 0;
  const kubeconfig = resolve(ROOT, '.sim/kubeconfig');
  const watches: AbortController[] = [];
  const startWatches = async () => {
    if (!existsSync(kubeconfig)) return;
    const kc = new KubeConfig();
    kc.loadFromFile(kubeconfig);
    const w = new Watch(kc);
    for (const path of [
      `/apis/cluster.x-k8s.io/v1beta1/namespaces/${ns}/machines`,
      `/apis/infrastructure.cluster.x-k8s.io/v1beta1/namespaces/${ns}/dcsiphostnamepools`,
    ]) {
      try {
        watches.push(
          await w.watch(
            path,
            { allowWatchBookmarks: true },
            () => kubeEvents++,
            () => undefined,
          ),
        );
      } catch {
        // The next minute tries again.
      }
    }
  };
  const stopWatches = () => {
    for (const w of watches.splice(0)) w.abort();
  };
  if (o.url === undefined) await startWatches();

  const samples: { min: number; rssMb: number; fds: number }[] = [];
  const started = Date.now();
  const sample = (print: boolean) => {
    const min = (Date.now() - started) / 60_000;
    const bff = bffPid !== undefined ? usage(bffPid) : undefined;
    const sim = simPid !== undefined ? usage(simPid) : undefined;
    if (bff) samples.push({ min, rssMb: bff.rssMb, fds: bff.fds });
    if (!print) return;
    const f = (n: number | undefined, d = 0) => (n === undefined ? '?' : n.toFixed(d));
    process.stdout.write(
      `soak: ${f(min, 1).padStart(5)} min  BFF ${f(bff?.rssMb).padStart(4)} MB ${f(bff?.fds).padStart(4)} fds  sim ${f(sim?.rssMb).padStart(4)} MB ${f(sim?.fds).padStart(4)} fds  reads ${String(c.counts.reads)}  writes ${String(c.counts.writes)} ok / ${String(c.counts.conflicts)} 409 / ${String(c.counts.refused)} 4xx / ${String(c.counts.errors5xx)} 5xx  SSE ${String(sseEvents)} events, ${String(sseOpened)} opened  kube watch ${String(kubeEvents)} events\n`,
    );
  };
  sample(true);
  let ticks = 0;
  const sampler = setInterval(() => {
    ticks++;
    sample(ticks % 4 === 0);
    if (ticks % 4 !== 0) return;
    // Every minute: a quarter of the streams and the slow client replaced, watches restarted.
    for (let i = 0; i < Math.ceil(o.streams / 4); i++) {
      const k = Math.floor(Math.random() * streams.length);
      streams[k]?.close();
      streams[k] = open();
    }
    slowClient.close();
    slowClient = open(true);
    if (o.url === undefined) {
      stopWatches();
      void startWatches();
    }
  }, 15_000);

  await Promise.all([readLoop(), readLoop(), writeLoop()]);
  clearInterval(sampler);
  sample(true);
  for (const s of streams) s.close();
  slowClient.close();
  stopWatches();

  // The verdict: a slope fitted after the warm-up (caches fill, the JIT settles), and the growth
  // over the same span; both must exceed their bound to call it a leak (RSS moves with GC).
  const warm = Math.max(1, o.minutes * 0.2);
  const after = samples.filter((s) => s.min >= warm);
  const fitted = slope(after.map((s) => ({ x: s.min, y: s.rssMb })));
  const first = after[0];
  const last = after[after.length - 1];
  const growth = first && last ? last.rssMb - first.rssMb : 0;
  const fdGrowth = first && last ? last.fds - first.fds : 0;
  const problems: string[] = [];
  if (after.length >= 3 && fitted > o.maxSlope && growth > o.noiseMb)
    problems.push(
      `BFF RSS grows ${fitted.toFixed(2)} MB/min after the warm-up (limit ${String(o.maxSlope)}), +${growth.toFixed(0)} MB`,
    );
  if (fdGrowth > 64) problems.push(`BFF open handles grew by ${String(fdGrowth)}`);
  if (c.counts.errors5xx > 0)
    problems.push(`${String(c.counts.errors5xx)} answers were 5xx: ${c.fiveXx.join(' | ')}`);
  if (c.counts.reads === 0 || sseEvents === 0) problems.push('no load reached the console');
  process.stdout.write(
    `soak: after the ${warm.toFixed(1)}-min warm-up: BFF RSS slope ${fitted.toFixed(2)} MB/min (limit ${String(o.maxSlope)}), growth ${growth.toFixed(1)} MB (noise band ${String(o.noiseMb)}), handles ${fdGrowth >= 0 ? '+' : ''}${String(fdGrowth)}; ${String(c.counts.failed)} requests without an answer\n`,
  );
  for (const [reason, count] of refusals)
    process.stdout.write(`soak: refused ${String(count)}×: ${reason}\n`);
  if (problems.length) {
    process.stdout.write(`soak: FAILED: ${problems.join('; ')}\n`);
    return 1;
  }
  process.stdout.write('soak: passed\n');
  return 0;
}

try {
  process.exitCode = await main();
} catch (error) {
  process.stderr.write(`soak: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 2;
}
