import { writeSync } from 'node:fs';
import { parseArgs } from 'node:util';

/**
 * `pnpm bench`: 50 pools / 5,000 machines created and reconciled to Running on the embedded API
 * server at --time-scale 60. Fails when not all are Running within --timeout seconds or when the
 * controllers used more than --max-cpu cores on average. CI runs it at 1,000 machines
 * (test/bench.test.ts).
 *   pnpm bench
 *   pnpm bench -- --machines 1000
 */

// `pnpm bench -- --machines 1000` passes the `--` on.
const args = process.argv.slice(2);
const { values } = parseArgs({
  args: args[0] === '--' ? args.slice(1) : args,
  options: {
    machines: { type: 'string', default: '5000' },
    pools: { type: 'string' },
    'time-scale': { type: 'string', default: '60' },
    timeout: { type: 'string', default: '120' },
    'max-cpu': { type: 'string', default: '1' },
    'random-seed': { type: 'string', default: '1' },
  },
  strict: true,
});
const options = {
  machines: Number(values.machines),
  ...(values.pools ? { pools: Number(values.pools) } : {}),
  timeScale: Number(values['time-scale']),
  timeoutS: Number(values.timeout),
  randomSeed: Number(values['random-seed']),
  maxCpu: Number(values['max-cpu']),
  progress: (line: string) => process.stdout.write(`  ${line}\n`),
};
for (const [name, value] of Object.entries(options)) {
  if (typeof value === 'number' && !(value >= 0)) {
    process.stderr.write(`bench: --${name} must be a non-negative number\n`);
    process.exit(2);
  }
}
// DCS_CHECK_ARGS=1: the command line is parsed and checked, nothing runs (README commands test).
if (process.env.DCS_CHECK_ARGS === '1') {
  writeSync(1, `args ok: ${JSON.stringify(values)}\n`);
  process.exit(0);
}
// Loaded only now, so that checking the arguments costs no simulator.
const { formatBenchmark, runBenchmark } = await import('./run');
const result = await runBenchmark(options);
process.stdout.write(`\nsimulator controllers benchmark\n${formatBenchmark(result, options)}\n`);
const ok =
  result.running >= result.total &&
  result.wallS <= options.timeoutS &&
  result.controllerCores <= options.maxCpu;
if (!ok) {
  process.stdout.write(`FAILED\n${result.logTail.join('\n')}\n`);
  process.exitCode = 1;
}
