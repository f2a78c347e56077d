import { describe, expect, it } from 'vitest';
import { runBenchmark } from '../bench/apiserver.bench';

describe('benchmark at reduced scale', () => {
  it(
    'completes and prints a table of figures (timings are not asserted)',
    { timeout: 120_000 },
    async () => {
      const lines: string[] = [];
      const rows = await runBenchmark(0.02, (l) => lines.push(l));
      expect(rows.length).toBeGreaterThanOrEqual(7);
      for (const r of rows) expect(Number.isFinite(r.value)).toBe(true);
      expect(rows.find((r) => r.figure.includes('all delivered'))?.value).toBe(1);
      expect(lines.join('\n')).toMatch(/creates\/s/);
    },
  );
});
