import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The one table of `pnpm bench` (issue 14). Every package's benchmark contributes a section of
 * rows — each figure beside its target and, where a peer exists, the peer's figure measured in
 * the same run on the same machine, and the ratio. `record()` replaces its section in
 * `results.json` and rewrites `results.md` from it, so both are written by the command, never by
 * hand. The directory is `bench/` at the root, or `BENCH_RESULTS_DIR` (the reduced-scale test
 * writes into a temporary one so that it never touches the committed table).
 */

export interface BenchRow {
  figure: string;
  value: number;
  unit: string;
  /** The target, and whether a lower or a higher value meets it. */
  target?: { value: number; better: 'lower' | 'higher' };
  /**
   * A correctness figure (every event delivered, every machine Running): its target is judged at
   * every scale. Other targets (latency, memory, CPU) are judged at full scale only: the reduced
   * scale is a check that the benchmark runs, on a shared machine.
   */
  always?: boolean;
  /** The same figure measured for a peer (kubectl proxy, …) in the same run. */
  peer?: { name: string; value: number };
  /** A word for what the value says (the stream's regime: immediate, batched), shown after it. */
  label?: string;
}

export interface BenchSection {
  section: string;
  /** How it was measured: scale, sizes, anything a reader needs to reproduce it. */
  setup: string;
  /** `full` (the targets apply) or `small` (the correctness check). */
  scale: 'full' | 'small';
  /** The machine's load average (1, 5, 15 min) when the section started and when it ended. */
  loadAverage: { start: string; end: string };
  measuredAt: string;
  /** The machine's speed just before the part ran (`bench/calibrate.mjs`, through `pnpm bench`). */
  machine?: Calibration;
  rows: BenchRow[];
}

/** What `bench/calibrate.mjs` prints: the same code is slower on a slower day of a shared machine. */
export interface Calibration {
  cpu: string;
  cores: number;
  node: string;
  /** µs to parse and serialize a Machine's JSON. */
  jsonMicros: number;
  /** µs per loopback TCP round trip of 1 KiB within one process. */
  tcpMicros: number;
  /** Percent of the CPU time the host took from this machine meanwhile. */
  stealPercent?: number;
}

/** The calibration `pnpm bench` measured before this part (`BENCH_CALIBRATION`), if any. */
export function calibrationFromEnv(): Calibration | undefined {
  const raw = process.env.BENCH_CALIBRATION;
  if (!raw) return undefined;
  try {
    const c = JSON.parse(raw) as Partial<Calibration>;
    return typeof c.jsonMicros === 'number' && typeof c.tcpMicros === 'number'
      ? (c as Calibration)
      : undefined;
  } catch {
    return undefined;
  }
}

const machineLine = (m: Calibration | undefined): string =>
  m === undefined
    ? 'Machine speed not measured (the part ran on its own, not through `pnpm bench`).'
    : `Machine just before: ${m.cpu}, ${m.cores} cores, Node ${m.node}; JSON round trip of a Machine ${m.jsonMicros} µs, loopback TCP round trip of 1 KiB ${m.tcpMicros} µs${m.stealPercent === undefined ? '' : `, ${m.stealPercent} % of the CPU taken by the host`} (\`bench/calibrate.mjs\`: larger is a slower machine).`;

export const RESULTS_DIR = resolve(dirname(fileURLToPath(import.meta.url)));

/** The results directory: BENCH_RESULTS_DIR, else `bench/` at the root of the repository. */
export const resultsDir = (): string => process.env.BENCH_RESULTS_DIR ?? RESULTS_DIR;

/**
 * The scale asked for (`BENCH_SCALE`, set by `pnpm bench --scale small|full`): `full` unless
 * said otherwise, so a package's own `pnpm bench` measures the targets.
 */
export const benchScale = (): 'full' | 'small' =>
  process.env.BENCH_SCALE === 'small' ? 'small' : 'full';

/** The load average (1, 5, 15 min) as /proc/loadavg says it; `unknown` off Linux. */
export function loadAverage(): string {
  try {
    return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  } catch {
    return 'unknown';
  }
}

/** Whether the row meets its target; undefined when there is none or it is not judged here. */
export const meets = (r: BenchRow, scale: 'full' | 'small' = 'full'): boolean | undefined =>
  r.target === undefined || (scale === 'small' && !r.always)
    ? undefined
    : r.target.better === 'lower'
      ? r.value <= r.target.value
      : r.value >= r.target.value;

const num = (n: number) =>
  Number.isNaN(n) ? 'n/a' : Number.isInteger(n) ? n.toLocaleString('en-US') : n.toFixed(1);
const withUnit = (n: number, unit: string) => (unit ? `${num(n)} ${unit}` : num(n));
const valueOf = (r: BenchRow) =>
  r.label === undefined ? withUnit(r.value, r.unit) : `${withUnit(r.value, r.unit)} (${r.label})`;

/** The Markdown table of every section, in the order they were first recorded. */
export function renderMarkdown(sections: readonly BenchSection[]): string {
  const out = ['# Benchmarks (written by `pnpm bench`; do not edit)', ''];
  for (const s of sections) {
    out.push(
      `## ${s.section}`,
      '',
      `${s.scale === 'full' ? 'Full scale' : 'Reduced scale (a correctness check: only correctness targets are judged)'}. ${s.setup}`,
      '',
      `Measured ${s.measuredAt}; machine load average ${s.loadAverage.start} at the start, ${s.loadAverage.end} at the end.`,
      '',
      machineLine(s.machine),
      '',
    );
    out.push('| figure | value | target | met | peer | ratio to peer |');
    out.push('| --- | --- | --- | --- | --- | --- |');
    for (const r of s.rows) {
      const target = r.target
        ? `${r.target.better === 'lower' ? '≤' : '≥'} ${withUnit(r.target.value, r.unit)}`
        : '—';
      const met = meets(r, s.scale);
      const peer = r.peer ? `${r.peer.name}: ${withUnit(r.peer.value, r.unit)}` : '—';
      const ratio =
        r.peer && r.peer.value !== 0 && Number.isFinite(r.peer.value)
          ? `${Number((r.value / r.peer.value).toPrecision(3)).toString()}×`
          : '—';
      out.push(
        `| ${r.figure} | ${valueOf(r)} | ${target} | ${met === undefined ? '—' : met ? 'yes' : '**no**'} | ${peer} | ${ratio} |`,
      );
    }
    out.push('');
  }
  return out.join('\n');
}

/** Reads the sections recorded so far in `dir` (none when there is no results.json yet). */
export function readSections(dir = resultsDir()): BenchSection[] {
  try {
    return JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as BenchSection[];
  } catch {
    return [];
  }
}

/** Replaces (or adds) `section` in results.json and rewrites results.md. */
export function record(given: BenchSection, dir = resultsDir()): BenchSection[] {
  const machine = given.machine ?? calibrationFromEnv();
  const section = machine ? { ...given, machine } : given;
  const sections = readSections(dir);
  const at = sections.findIndex((s) => s.section === section.section);
  if (at >= 0) sections[at] = section;
  else sections.push(section);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'results.json'), `${JSON.stringify(sections, null, 2)}\n`);
  writeFileSync(join(dir, 'results.md'), renderMarkdown(sections));
  return sections;
}

/** Prints a section's rows to stdout, as each benchmark does when it is done. */
export function printSection(s: BenchSection): void {
  process.stdout.write(`\n${s.section} (${s.scale}; load average ${s.loadAverage.end})\n`);
  if (s.machine) process.stdout.write(`  ${machineLine(s.machine)}\n`);
  for (const r of s.rows) {
    const met = meets(r, s.scale);
    process.stdout.write(
      `  ${r.figure.padEnd(64)} ${valueOf(r).padStart(14)}${r.target ? `  target ${r.target.better === 'lower' ? '≤' : '≥'} ${num(r.target.value)}: ${met === undefined ? 'not judged' : met ? 'met' : 'MISSED'}` : ''}${r.peer ? `  ${r.peer.name} ${withUnit(r.peer.value, r.unit)}` : ''}\n`,
    );
  }
}
