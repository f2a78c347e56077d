import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { record, type BenchSection } from '../../../bench/results';

const section = (name: string, value: number, scale: 'full' | 'small' = 'full'): BenchSection => ({
  section: name,
  setup: 'test.',
  scale,
  loadAverage: { start: '1.00 2.00 3.00', end: '4.00 5.00 6.00' },
  measuredAt: '2026-01-01T00:00:00Z',
  rows: [
    { figure: 'p99', value, unit: 'ms', target: { value: 250, better: 'lower' } },
    { figure: 'watches', value: 7, unit: '', peer: { name: 'kubectl proxy', value: 2000 } },
    { figure: 'regime', value: 97, unit: '%', label: 'immediate' },
    {
      figure: 'delivered',
      value: value > 200 ? 0 : 1,
      unit: '',
      target: { value: 1, better: 'higher' },
      always: true,
    },
  ],
});

describe('the one bench table (issue 14)', () => {
  it('replaces a section on a re-run, keeps the others, and writes Markdown with targets and peers', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'bench-results-'));
    try {
      record(section('SSE', 300), dir);
      record(section('static', 10), dir);
      const sections = record(section('SSE', 120), dir);
      expect(sections.map((s) => [s.section, s.rows[0]?.value])).toEqual([
        ['SSE', 120],
        ['static', 10],
      ]);
      const md = await readFile(join(dir, 'results.md'), 'utf8');
      expect(md).toContain('| p99 | 120 ms | ≤ 250 ms | yes | — | — |');
      expect(md).toContain('| watches | 7 | — | — | kubectl proxy: 2,000 | 0.0035× |');
      // A labelled figure (the stream's regime, issue 28): the word beside the number.
      expect(md).toContain('| regime | 97 % (immediate) | — | — | — | — |');
      expect(md).toContain('load average 1.00 2.00 3.00 at the start, 4.00 5.00 6.00 at the end');
      record(section('SSE', 300), dir);
      expect(await readFile(join(dir, 'results.md'), 'utf8')).toContain('| **no** |');
      expect(JSON.parse(await readFile(join(dir, 'results.json'), 'utf8'))).toHaveLength(2);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('at reduced scale judges only the correctness targets', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'bench-results-'));
    try {
      record(section('SSE', 300, 'small'), dir);
      const md = await readFile(join(dir, 'results.md'), 'utf8');
      expect(md).toContain('Reduced scale');
      expect(md).toContain('| p99 | 300 ms | ≤ 250 ms | — |');
      expect(md).toContain('| delivered | 0 | ≥ 1 | **no** |');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("names the machine's speed measured before the part, or says it was not measured", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'bench-results-'));
    try {
      record(section('alone', 10), dir);
      vi.stubEnv(
        'BENCH_CALIBRATION',
        JSON.stringify({ cpu: 'Xeon', cores: 2, node: 'v20', jsonMicros: 8.5, tcpMicros: 12.5 }),
      );
      const [, calibrated] = record(section('calibrated', 10), dir);
      expect(calibrated?.machine?.tcpMicros).toBe(12.5);
      const md = await readFile(join(dir, 'results.md'), 'utf8');
      expect(md).toContain('Machine speed not measured');
      expect(md).toContain(
        'Machine just before: Xeon, 2 cores, Node v20; JSON round trip of a Machine 8.5 µs, loopback TCP round trip of 1 KiB 12.5 µs',
      );
      vi.stubEnv('BENCH_CALIBRATION', 'not json');
      expect(record(section('garbled', 10), dir)[2]?.machine).toBeUndefined();
    } finally {
      vi.unstubAllEnvs();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
