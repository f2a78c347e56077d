import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { record, type BenchSection } from '../bench/results';

const section = (name: string, value: number): BenchSection => ({
  section: name,
  setup: 'test.',
  measuredAt: '2026-01-01T00:00:00Z',
  rows: [
    { figure: 'p99', value, unit: 'ms', target: { value: 250, better: 'lower' } },
    { figure: 'watches', value: 7, unit: '', peer: { name: 'kubectl proxy', value: 2000 } },
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
      expect(md).toContain('| watches | 7  | — | — | kubectl proxy: 2,000  | 0.0035× |');
      record(section('SSE', 300), dir);
      expect(await readFile(join(dir, 'results.md'), 'utf8')).toContain('| **no** |');
      expect(JSON.parse(await readFile(join(dir, 'results.json'), 'utf8'))).toHaveLength(2);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
