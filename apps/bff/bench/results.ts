import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The one table of `pnpm bench` (issue 14): each benchmark contributes a section of rows, each
 * figure beside its target and, where a peer exists, the peer's figure measured in the same run
 * and the ratio. `record()` replaces its section in `bench/results.json` and rewrites
 * `bench/results.md` from it, so both are written by the command, never by hand.
 */

export interface BenchRow {
  figure: string;
  value: number;
  unit: string;
  /** The target, and whether a lower or a higher value meets it. */
  target?: { value: number; better: 'lower' | 'higher' };
  /** The same figure measured for a peer (kubectl proxy, …) in the same run. */
  peer?: { name: string; value: number };
}

export interface BenchSection {
  section: string;
  /** How it was measured: scale, machine, anything a reader needs to reproduce it. */
  setup: string;
  measuredAt: string;
  rows: BenchRow[];
}

export const RESULTS_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../../../bench');

export const meets = (r: BenchRow): boolean | undefined =>
  r.target === undefined
    ? undefined
    : r.target.better === 'lower'
      ? r.value <= r.target.value
      : r.value >= r.target.value;

const num = (n: number) => (Number.isInteger(n) ? n.toLocaleString('en-US') : n.toFixed(1));

/** The Markdown table of every section, in the order they were first recorded. */
export function renderMarkdown(sections: readonly BenchSection[]): string {
  const out = ['# Benchmarks (written by `pnpm bench`; do not edit)', ''];
  for (const s of sections) {
    out.push(`## ${s.section}`, '', `${s.setup} Measured ${s.measuredAt}.`, '');
    out.push('| figure | value | target | met | peer | ratio to peer |');
    out.push('| --- | --- | --- | --- | --- | --- |');
    for (const r of s.rows) {
      const target = r.target
        ? `${r.target.better === 'lower' ? '≤' : '≥'} ${num(r.target.value)} ${r.unit}`
        : '—';
      const met = meets(r);
      const peer = r.peer ? `${r.peer.name}: ${num(r.peer.value)} ${r.unit}` : '—';
      const ratio =
        r.peer && r.peer.value !== 0
          ? `${Number((r.value / r.peer.value).toPrecision(3)).toString()}×`
          : '—';
      out.push(
        `| ${r.figure} | ${num(r.value)} ${r.unit} | ${target} | ${met === undefined ? '—' : met ? 'yes' : '**no**'} | ${peer} | ${ratio} |`,
      );
    }
    out.push('');
  }
  return out.join('\n');
}

/** Replaces (or adds) `section` in bench/results.json and rewrites bench/results.md. */
export function record(section: BenchSection, dir = RESULTS_DIR): BenchSection[] {
  const json = join(dir, 'results.json');
  let sections: BenchSection[] = [];
  try {
    sections = JSON.parse(readFileSync(json, 'utf8')) as BenchSection[];
  } catch {
    // No results yet: this is the first section.
  }
  const at = sections.findIndex((s) => s.section === section.section);
  if (at >= 0) sections[at] = section;
  else sections.push(section);
  mkdirSync(dir, { recursive: true });
  writeFileSync(json, `${JSON.stringify(sections, null, 2)}\n`);
  writeFileSync(join(dir, 'results.md'), renderMarkdown(sections));
  return sections;
}
