import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { meets, type BenchSection } from '../../../bench/results';

/**
 * `pnpm bench --scale small` as CI's correctness check (issue 14): every package's benchmark runs
 * at reduced scale and writes its section of the one table, into a temporary directory (the
 * committed bench/results.* stay as the last full run left them). Asserts the table is complete —
 * every section, every figure a number, every peer column filled where the section has a peer,
 * the machine's calibration beside each —
 * and that the correctness figures (every event delivered, every machine Running, upstream
 * watches constant) meet their targets. Timings are not asserted: the machine is shared.
 */
const run = promisify(execFile);
const root = join(import.meta.dirname, '..', '..', '..');

/**
 * The web's route modules: each `import()` of its router (issue 28: the transfer section has a
 * row for each, judged against its budget like every `always` row).
 */
const routeModules = async () => {
  const router = await readFile(join(root, 'apps', 'web', 'src', 'app', 'router.tsx'), 'utf8');
  const names = [...router.matchAll(/import\('[^']*\/(\w+)'\)/g)].map((m) => m[1] ?? '');
  return [...new Set(names)].sort();
};

/** Each section and the figures it must have (a prefix of each figure's name). */
const expected: Record<string, string[]> = {
  'Served app: transfer sizes (BFF static hosting)': [
    'first load on the wire, brotli',
    'first-load JavaScript, gzip',
    'first-load JavaScript, brotli',
    'route chunk ',
    'heaviest first visit of a route',
    'missing asset answered 404',
  ],
  'BFF: GET nodepools and SSE fan-out': [
    'GET nodepools p95',
    'SSE event→client p99',
    'events delivered to every client',
    'BFF RSS max',
    'upstream watches, 1 client',
  ],
  'BFF SSE fan-out vs kubectl proxy': [
    '1 client: watches on the API server',
    '1 client: event→client p99',
    '1 client: BFF stream regime',
    '4 clients: watches on the API server',
    '4 clients: event→client p99',
    '16 clients: events delivered to every client',
    '16 clients: API server CPU',
    '16 clients: API server RSS',
    '16 clients: BFF RSS max',
    // Issue 28: the regime each row ran in, from the BFF's own count of its sends.
    '16 clients: BFF stream regime',
    '16 clients: BFF sends made at once',
    '16 clients: BFF sends after a window',
  ],
  'Embedded API server under real clients: informers and kubectl': [
    '103 machines: informer LIST to synced cache',
    '103 machines: informer objects cached',
    '103 machines: informer event→handler p99',
    '103 machines: informer events delivered',
    '103 machines: kubectl get objects listed',
    '103 machines: kubectl get --watch-only events delivered',
    '103 machines: kubectl apply --server-side',
  ],
  'API server: creates, lists, memory, watch fan-out': [
    'creates/s',
    'list',
    'RSS of the server process',
    'watch delivery p99',
  ],
  'Simulator: controllers reconciling pools to Running': [
    'machines Running',
    'wall time to all Running',
    'controllers CPU',
    'controllers RSS',
  ],
  'Web app: a big cluster in the browser': [
    'Node Pools tab interactive',
    'Node Pools tab interactive, first visit at 1.6 Mbit/s',
    'bytes on the wire of that first visit',
    'pools listed',
    'longest task under 200 machine events/s',
    'page JS heap after the events',
  ],
  'Click to screen: a status change in the browser': [
    'machine status change → its condition on the page, p50',
    'machine status change → its condition on the page, p99',
    'changes of the shown machine on the page',
  ],
};

describe('pnpm bench --scale small', () => {
  it('writes the whole table: every section and figure, peers filled, correctness targets met', async () => {
    const out = await mkdtemp(join(tmpdir(), 'bench-small-'));
    try {
      const result = await run(
        process.execPath,
        [join(root, 'bench', 'run.mjs'), '--scale', 'small', '--out', out],
        { cwd: root, timeout: 840_000, maxBuffer: 64 * 2 ** 20 },
      ).catch((e: unknown) => e as { stdout: string; stderr: string; code: number });
      const sections = JSON.parse(
        await readFile(join(out, 'results.json'), 'utf8'),
      ) as BenchSection[];
      // On a failure, what the benchmarks printed says why.
      const log = `${result.stdout.slice(-6000)}\n${result.stderr.slice(-6000)}`;
      expect(
        sections.map((s) => s.section),
        log,
      ).toEqual(Object.keys(expected));
      for (const s of sections) {
        expect(s.scale).toBe('small');
        expect(s.loadAverage.start).toMatch(/\d/);
        // The machine's speed before the part ran, so that a slow day is told from slow code.
        expect(s.machine?.jsonMicros, s.section).toBeGreaterThan(0);
        expect(s.machine?.tcpMicros, s.section).toBeGreaterThan(0);
        for (const figure of expected[s.section] ?? [])
          expect(s.rows.map((r) => r.figure).some((f) => f.startsWith(figure))).toBe(true);
        for (const r of s.rows) {
          expect(Number.isFinite(r.value), `${s.section}: ${r.figure}`).toBe(true);
          if (r.peer) expect(Number.isFinite(r.peer.value), `${s.section}: ${r.figure}`).toBe(true);
          if (r.always) expect(meets(r, 'small'), `${s.section}: ${r.figure}`).toBe(true);
        }
      }
      const transfer = sections.find((s) => s.section.startsWith('Served app'));
      const routeRows = (transfer?.rows ?? [])
        .map((r) => /^route chunk (\w+),/.exec(r.figure)?.[1])
        .filter((r) => r !== undefined)
        .sort();
      expect(routeRows).toEqual(await routeModules());
      expect(routeRows.length).toBeGreaterThan(5);
      // Issue 28: each fan-out row says its stream's regime, counted from sends that happened.
      const fanout = sections.find((s) => s.section === 'BFF SSE fan-out vs kubectl proxy');
      const regimes = fanout?.rows.filter((r) => r.figure.includes('BFF stream regime')) ?? [];
      expect(regimes.map((r) => r.figure.split(':')[0])).toEqual([
        '1 client',
        '4 clients',
        '16 clients',
      ]);
      for (const r of regimes) expect(['immediate', 'mixed', 'batched']).toContain(r.label);
      for (const at of ['1 client', '4 clients', '16 clients']) {
        const sends = (fanout?.rows ?? []).filter((r) => r.figure.startsWith(`${at}: BFF sends `));
        expect(
          sends.reduce((a, r) => a + r.value, 0),
          at,
        ).toBeGreaterThan(0);
      }
      const md = await readFile(join(out, 'results.md'), 'utf8');
      for (const name of Object.keys(expected)) expect(md).toContain(`## ${name}`);
      expect('code' in result ? result.code : 0, log).toBe(0);
    } finally {
      await rm(out, { recursive: true, force: true });
    }
  }, 900_000);
});
