import { expect, it } from 'vitest';
import { formatBenchmark, runBenchmark } from '../bench/run';

/**
 * The benchmark at 1,000 machines, as CI's correctness check: every machine of 10 pools reaches
 * Running at --time-scale 60. The figures are printed; the time and CPU limits of `pnpm bench`
 * (5,000 machines) are not asserted here, as CI machines vary. It takes about 20 s on a 2-core
 * machine at load average 6; the bound of 300 s only catches a run that stopped converging.
 */
it('benchmark at 1,000 machines: every machine reaches Running', async () => {
  const options = { machines: 1000, timeScale: 60, timeoutS: 300, maxCpu: 1 };
  const result = await runBenchmark(options);
  process.stdout.write(
    `\nsimulator controllers benchmark (CI, 1,000 machines)\n${formatBenchmark(result, options)}\n`,
  );
  expect(result.running).toBe(result.total);
  expect(result.metrics.errors).toBeLessThan(10);
}, 360_000);
