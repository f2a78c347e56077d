/**
 * Benchmark of the API server over loopback HTTP, printing a table of figures.
 *   pnpm --filter @dcs/apiserver bench [SCALE]     (SCALE 1 = the full targets; CI runs 0.02)
 *   BENCH_CPU_PROFILE=DIR ... writes one .cpuprofile of the server per phase into DIR;
 *   BENCH_LOAD_CPU_PROFILE=DIR ... one of each load process;
 *   BENCH_WATCH_FLUSH_MS=N ... the server's watchFlushIntervalMs (default 10);
 *   BENCH_SERVER_NODE_FLAGS='--trace-gc' ... more node flags for the server process;
 *   BENCH_READER_PROCESSES=N ... the processes the watchers are spread over (default 4);
 *   BENCH_WATCHERS=N, BENCH_EVENTS=N ... the watch phase's watchers and events whatever the scale
 *   (a small scale with the full 100 watchers measures the fan-out's tail without the 20,000 fill).
 *
 * The server runs alone in a child process (bench/server-process.ts); every client runs in other
 * child processes (bench/load.ts), so the server's CPU time and RSS are its own. This process only
 * orchestrates. The phases, in order:
 *   create  5,000 Machines of ~3 KB from 32 keep-alive connections, as fast as answered;
 *   list    the 5,000, 20 times one after another, each timed until its last byte;
 *   fill    creates up to 20,000 Machines, then the server's RSS after a full GC
 *           (VmRSS from /proc/PID/status, process.memoryUsage().rss where there is no /proc);
 *   watch   100 watches (one connection each) in a readers process, a writer process patching
 *           Machines 500 times a second, each patch stamped with a sequence number and its send
 *           time; readers record receive − send for every event at every watcher and check that
 *           each watcher got every sequence number once, in resourceVersion order.
 * Along with each figure the server's own CPU time for the phase is printed.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync, writeSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  benchScale,
  loadAverage,
  meets,
  printSection,
  record,
  type BenchRow,
} from '../../../bench/results';
import {
  BENCH_NAMESPACE,
  BENCH_TOKEN,
  MACHINES,
  WATCH_NAMESPACE,
  percentile,
  type CreateResult,
  type ListResult,
  type LoadMessage,
  type LoadResult,
  type LoadTask,
  type ReadersResult,
  type ServerCommand,
  type ServerReply,
  type WriterResult,
} from './shared';

export type { BenchRow };

/** A positive integer from the environment (a phase's size whatever the scale), or undefined. */
function envCount(name: string): number | undefined {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return undefined;
  const v = Number(raw);
  if (!Number.isInteger(v) || v < 1)
    throw new Error(`${name} must be a positive integer, not ${raw}`);
  return v;
}

interface Timed {
  cpuMs?: number;
}

export interface BenchOptions {
  /** Directory for one CPU profile of the server per phase. */
  profileDir?: string;
}

const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));
const SERVER_SCRIPT = fileURLToPath(new URL('server-process.ts', import.meta.url));
const LOAD_SCRIPT = fileURLToPath(new URL('load.ts', import.meta.url));
/** Processes the 100 watchers are spread over (BENCH_READER_PROCESSES, default 4). */
const READER_PROCESSES = envCount('BENCH_READER_PROCESSES') ?? 4;

function forkTs(script: string, nodeFlags: string[], env: NodeJS.ProcessEnv = process.env) {
  return fork(script, [], {
    cwd: PACKAGE_DIR,
    // Explicit flags: under Vitest this process's execArgv belongs to the test runner.
    execArgv: [...nodeFlags, '--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    // Typed arrays (the readers' latencies) cross as they are.
    serialization: 'advanced',
    env,
  });
}

function exited(child: ChildProcess, what: string): Promise<never> {
  return new Promise((_, reject) => {
    // 'close', not 'exit': messages still in the IPC pipe when the process exits are read first.
    child.once('close', (code, signal) => {
      reject(new Error(`${what} exited (${String(code ?? signal)}) before answering`));
    });
  });
}

/** The server process: one request at a time over IPC. */
class ServerProcess {
  private nextId = 1;
  private readonly pending = new Map<number, (r: ServerReply) => void>();
  private readonly gone: Promise<never>;

  private constructor(
    readonly child: ChildProcess,
    readonly url: string,
  ) {
    this.gone = exited(child, 'the server process');
    this.gone.catch(() => undefined);
    child.on('message', (m: ServerReply) => {
      if (!('id' in m)) return;
      this.pending.get(m.id)?.(m);
      this.pending.delete(m.id);
    });
  }

  static async start(profileDir: string | undefined): Promise<ServerProcess> {
    const env = { ...process.env };
    if (profileDir) env.BENCH_CPU_PROFILE = profileDir;
    else delete env.BENCH_CPU_PROFILE;
    // BENCH_SERVER_NODE_FLAGS: more flags for the server's node, e.g. `--trace-gc` (GC pauses).
    const extra = (process.env.BENCH_SERVER_NODE_FLAGS ?? '').split(/\s+/).filter(Boolean);
    const child = forkTs(SERVER_SCRIPT, ['--expose-gc', ...extra], env);
    const url = await Promise.race([
      new Promise<string>((resolve) => {
        child.once('message', (m: ServerReply) => {
          if (m.type === 'ready') resolve(m.url);
        });
      }),
      exited(child, 'the server process'),
    ]);
    return new ServerProcess(child, url);
  }

  ask<T extends ServerReply['type']>(
    cmd: ServerCommand extends infer C ? (C extends { id: number } ? Omit<C, 'id'> : never) : never,
    _expect: T,
  ): Promise<Extract<ServerReply, { type: T }>> {
    const id = this.nextId++;
    const answer = new Promise<Extract<ServerReply, { type: T }>>((resolve) => {
      this.pending.set(id, (r) => {
        resolve(r as Extract<ServerReply, { type: T }>);
      });
    });
    this.child.send({ ...cmd, id });
    return Promise.race([answer, this.gone]);
  }

  /** VmRSS as the kernel counts it; the process's own figure where there is no /proc. */
  rssBytes(reported: number): number {
    try {
      const status = readFileSync(`/proc/${String(this.child.pid)}/status`, 'utf8');
      const kb = /^VmRSS:\s+(\d+) kB/m.exec(status)?.[1];
      if (kb) return Number(kb) * 1024;
    } catch {
      // not Linux
    }
    return reported;
  }

  async close(): Promise<void> {
    if (this.child.exitCode !== null) return;
    let timer: NodeJS.Timeout | undefined;
    const done = new Promise<boolean>((r) =>
      this.child.once('exit', () => {
        r(true);
      }),
    );
    try {
      await this.ask({ type: 'close' }, 'ok');
    } catch {
      // already gone
    }
    const ended = await Promise.race([
      done,
      new Promise<boolean>(
        (r) =>
          (timer = setTimeout(() => {
            r(false);
          }, 5000)),
      ),
    ]);
    clearTimeout(timer);
    if (!ended) this.child.kill('SIGKILL');
  }
}

/** A load process running one task; `ready` resolves when it says so (watch roles). */
function startLoad(task: LoadTask) {
  // BENCH_LOAD_CPU_PROFILE=DIR profiles the load processes too (to keep them cheap).
  const dir = process.env.BENCH_LOAD_CPU_PROFILE;
  const child = forkTs(LOAD_SCRIPT, dir ? ['--cpu-prof', `--cpu-prof-dir=${dir}`] : []);
  let onReady: () => void = () => undefined;
  const ready = new Promise<void>((r) => (onReady = r));
  const result = new Promise<LoadResult>((resolve, reject) => {
    child.on('message', (m: LoadMessage) => {
      if (m.type === 'ready') onReady();
      else if (m.type === 'result') resolve(m.result);
      else reject(new Error(`load process (${task.role}): ${m.message}`));
    });
    void exited(child, `load process (${task.role})`).catch(reject);
  });
  result.catch(() => undefined);
  child.send(task);
  return {
    child,
    ready: Promise.race([ready, result.then(() => undefined)]),
    result,
    send: (m: object) => child.send(m),
  };
}

async function runLoad<R extends LoadResult>(task: LoadTask): Promise<R & Timed> {
  return (await startLoad(task).result) as R & Timed;
}

export async function runBenchmark(
  scale = 1,
  log: (line: string) => void = console.log,
  options: BenchOptions = {},
): Promise<BenchRow[]> {
  const n = (full: number, min: number) => Math.max(min, Math.round(full * scale));
  const loadAtStart = loadAverage();
  const server = await ServerProcess.start(options.profileDir);
  const url = server.url;
  const rows: BenchRow[] = [];
  const row = (
    figure: string,
    value: number,
    unit: string,
    target?: BenchRow['target'],
    always = false,
  ) =>
    rows.push({
      figure,
      value,
      unit,
      ...(target ? { target } : {}),
      ...(always ? { always } : {}),
    });
  const atMost = (value: number) => ({ value, better: 'lower' as const });
  const atLeast = (value: number) => ({ value, better: 'higher' as const });
  const phase = async <T>(name: string, body: () => Promise<T>) => {
    await server.ask({ type: 'phase-start', phase: name }, 'ok');
    const machineBefore = machineCpu();
    const started = performance.now();
    const out = await body();
    const seconds = (performance.now() - started) / 1000;
    const machineBusy = machineCpu() - machineBefore;
    const end = await server.ask({ type: 'phase-end' }, 'phase');
    if (end.profile) log(`cpu profile of the server (${name}): ${end.profile}`);
    return { out, cpuMs: end.cpuMs, seconds, machineBusy, loopDelay: end.loopDelay };
  };
  /**
   * What the rest of the machine used meanwhile: the contention the figures were taken under.
   * The machine's busy time comes from /proc/stat's ticks, ours from the processes' own clocks,
   * which count loopback network work 4–7 % higher (a process doing only loopback round trips
   * for 4 s: 4.3 s by its clock, 4.15 s by /proc/stat). Near 0 the difference reads as a negative
   * share of the machine (-0.1 to -0.2 cores in the watch phase of a quiet machine): that is 0.
   */
  const others = (p: { cpuMs: number; seconds: number; machineBusy: number }, clientMs: number) => {
    if (Number.isNaN(p.machineBusy)) return;
    const ours = (p.cpuMs + clientMs) / 1000;
    const rest = Math.max(0, (p.machineBusy - ours) / p.seconds);
    row('  CPU used by other processes meanwhile', rest, 'cores');
  };
  try {
    const idle = await server.ask({ type: 'memory' }, 'memory');
    const idleRss = server.rssBytes(idle.rss);

    // 1. creates per second
    const creates = n(5000, 50);
    const clients = 32;
    const created = await phase('create', () =>
      runLoad<CreateResult>({
        role: 'create',
        url,
        namespace: BENCH_NAMESPACE,
        from: 0,
        to: creates,
        clients,
      }),
    );
    row(
      `creates/s (${creates} Machines, ${clients} connections)`,
      creates / created.out.seconds,
      '/s',
      atLeast(1000),
    );
    row('  server CPU per create', created.cpuMs / creates, 'ms');
    row('  client CPU per create', (created.out.cpuMs ?? 0) / creates, 'ms');
    others(created, created.out.cpuMs ?? 0);

    // 2. list latency
    const runs = n(20, 5);
    const listed = await phase('list', () =>
      runLoad<ListResult>({
        role: 'list',
        url,
        namespace: BENCH_NAMESPACE,
        runs,
        expectItems: creates,
      }),
    );
    if (listed.out.items !== creates)
      throw new Error(`a list returned ${listed.out.items} items, expected ${creates}`);
    const lists = [...listed.out.ms].sort((a, b) => a - b);
    const mb = (listed.out.bytes / 1e6).toFixed(1);
    row(`list ${creates} Machines (${mb} MB) p50`, percentile(lists, 50), 'ms', atMost(150));
    row(`list ${creates} Machines p95`, percentile(lists, 95), 'ms');
    row('  server CPU per list', listed.cpuMs / (runs + 1), 'ms');
    others(listed, listed.out.cpuMs ?? 0);

    // 3. RSS holding 20,000 objects
    const total = n(20000, 100);
    const filled = await phase('fill', () =>
      runLoad<CreateResult>({
        role: 'create',
        url,
        namespace: BENCH_NAMESPACE,
        from: creates,
        to: total,
        clients,
      }),
    );
    row(
      `  creates/s from ${creates} to ${total} objects`,
      (total - creates) / filled.out.seconds,
      '/s',
    );
    const mem = await server.ask({ type: 'memory' }, 'memory');
    row(
      `RSS of the server process holding ${total} objects`,
      server.rssBytes(mem.rss) / 2 ** 20,
      'MB',
      atMost(300),
    );
    row('  of which JS heap used', mem.heapUsed / 2 ** 20, 'MB');
    row('  RSS of the same server empty, at start', idleRss / 2 ** 20, 'MB');

    // 4. watch fan-out
    const watchers = envCount('BENCH_WATCHERS') ?? n(100, 3);
    const rate = 500;
    const events = envCount('BENCH_EVENTS') ?? n(3000, 30);
    const writer = startLoad({
      role: 'writer',
      url,
      namespace: WATCH_NAMESPACE,
      lanes: 16,
      events,
      rate,
    });
    await writer.ready;
    // The watchers are spread over a few processes, as the clients of 100 watches would be.
    const resourceVersion = await currentResourceVersion(url);
    const perProcess = Math.ceil(watchers / READER_PROCESSES);
    const readers = Array.from({ length: Math.ceil(watchers / perProcess) }, (_, i) =>
      startLoad({
        role: 'readers',
        url,
        namespace: WATCH_NAMESPACE,
        first: i * perProcess,
        watchers: Math.min(perProcess, watchers - i * perProcess),
        events,
        resourceVersion,
      }),
    );
    await Promise.all(readers.map((r) => r.ready));
    const watched = await phase('watch', async () => {
      writer.send({ type: 'go' });
      const w = (await writer.result) as WriterResult & Timed;
      for (const r of readers) r.send({ type: 'stop', graceMs: 10_000 });
      const rs = (await Promise.all(readers.map((r) => r.result))) as (ReadersResult & Timed)[];
      return { w, rs };
    });
    const { w, rs } = watched.out;
    const latencies = new Float64Array(rs.reduce((sum, r) => sum + r.latencies.length, 0));
    let at = 0;
    for (const r of rs) {
      latencies.set(r.latencies, at);
      at += r.latencies.length;
    }
    latencies.sort();
    for (const p of rs.flatMap((r) => r.problems)) log(`watch: ${p}`);
    row(
      `watch: ${watchers} watchers x ${events} events at ${w.achievedRate.toFixed(0)}/s, all delivered`,
      rs.every((r) => r.complete) ? 1 : 0,
      'yes=1',
      atLeast(1),
      true,
    );
    row(`watch delivery p50 (${latencies.length} deliveries)`, percentile(latencies, 50), 'ms');
    row('watch delivery p95', percentile(latencies, 95), 'ms');
    row('watch delivery p99', percentile(latencies, 99), 'ms', atMost(50));
    row('watch delivery max', latencies[latencies.length - 1] ?? 0, 'ms');
    row('  writes sent > 10 ms after their slot', w.late, '');
    // Where the tail is: the write's own round trip (the server's queue and handling), the
    // server's event loop (a flush or a request holding it), and the readers' (a reader that runs
    // late stamps every event late: then the figure is the client's, not the server's).
    const trips = Float64Array.from(w.roundTrips).sort();
    row('  PATCH round trip p50 (the writes that make the events)', percentile(trips, 50), 'ms');
    row('  PATCH round trip p99', percentile(trips, 99), 'ms');
    row('  server event-loop delay p99', watched.loopDelay.p99, 'ms');
    row('  server event-loop delay max', watched.loopDelay.max, 'ms');
    row(
      '  readers event-loop delay p99 (worst process)',
      Math.max(...rs.map((r) => r.loopDelay.p99)),
      'ms',
    );
    row('  readers event-loop delay max', Math.max(...rs.map((r) => r.loopDelay.max)), 'ms');
    row(`  server CPU per event (${watchers} watchers)`, watched.cpuMs / events, 'ms');
    row('  writer CPU per event', (w.cpuMs ?? 0) / events, 'ms');
    const readersCpu = rs.reduce((sum, r) => sum + (r.cpuMs ?? 0), 0);
    row(`  readers CPU per event (${rs.length} processes)`, readersCpu / events, 'ms');
    others(watched, readersCpu + (w.cpuMs ?? 0));
  } finally {
    await server.close();
  }
  log(
    `apiserver benchmark (scale ${scale}; load average ${loadAtStart} at start, ${loadAverage()} at end)`,
  );
  log(`${'figure'.padEnd(64)} ${'value'.padStart(10)} unit   target`);
  for (const r of rows)
    log(
      `${r.figure.padEnd(64)} ${r.value.toFixed(1).padStart(10)} ${r.unit.padEnd(6)} ${r.target ? `${r.target.better === 'lower' ? '<=' : '>='} ${String(r.target.value)}` : ''}`,
    );
  return rows;
}

async function currentResourceVersion(url: string): Promise<string> {
  const res = await fetch(`${url}${MACHINES}/${WATCH_NAMESPACE}/machines?limit=1`, {
    headers: { authorization: `Bearer ${BENCH_TOKEN}` },
  });
  const list = (await res.json()) as { metadata: { resourceVersion: string } };
  return list.metadata.resourceVersion;
}

/** CPU seconds the whole machine has been busy (all cores), from /proc/stat; NaN without it. */
function machineCpu(): number {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]?.trim().split(/\s+/).slice(1);
    const ticks = (fields ?? []).map(Number);
    const total = ticks.slice(0, 8).reduce((a, b) => a + b, 0);
    const idle = (ticks[3] ?? 0) + (ticks[4] ?? 0);
    // USER_HZ is 100 on every Linux build Node runs on.
    return (total - idle) / 100;
  } catch {
    return Number.NaN;
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  // `pnpm --filter @dcs/apiserver bench [SCALE]`; pnpm may pass a `--` on. Without SCALE,
  // `BENCH_SCALE=small` (`pnpm bench --scale small` at the root) is 0.02, else 1.
  const args = process.argv.slice(2).filter((a) => a !== '--');
  const scale = Number(args[0] ?? (benchScale() === 'small' ? '0.02' : '1'));
  if (args.length > 1 || !(Number.isFinite(scale) && scale > 0)) {
    console.error(`bench: usage: bench [SCALE] (a positive number), got ${args.join(' ')}`);
    process.exit(2);
  }
  const profileDir = process.env.BENCH_CPU_PROFILE;
  // DCS_CHECK_ARGS=1: the command line is parsed and checked, nothing runs (README commands test).
  if (process.env.DCS_CHECK_ARGS === '1') {
    writeSync(1, `args ok: ${JSON.stringify({ scale })}\n`);
    process.exit(0);
  }
  const loadAtStart = loadAverage();
  const rows = await runBenchmark(scale, console.log, profileDir ? { profileDir } : {});
  const section = {
    section: 'API server: creates, lists, memory, watch fan-out',
    setup: `The embedded API server alone in a process over loopback HTTP (no TLS), every client in other processes; scale ${String(scale)}. \`pnpm --filter @dcs/apiserver bench\`.`,
    scale: scale >= 1 ? ('full' as const) : ('small' as const),
    loadAverage: { start: loadAtStart, end: loadAverage() },
    measuredAt: new Date().toISOString(),
    rows,
  };
  record(section);
  printSection(section);
  process.exitCode = rows.every((r) => meets(r, section.scale) !== false) ? 0 : 1;
}
