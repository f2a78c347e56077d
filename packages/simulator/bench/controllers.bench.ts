import { writeSync } from 'node:fs';
import { parseArgs } from 'node:util';
import {
  benchScale,
  loadAverage,
  meets,
  printSection,
  record,
  type BenchRow,
} from '../../../bench/results';

/**
 * `pnpm bench`: 50 pools / 5,000 machines created and reconciled to Running on the embedded API
 * server at --time-scale 60; writes its section of bench/results.{md,json}. Targets (issue 14):
 * all Running within 60 s, the controllers ≤ 1 core on average and ≤ 400 MiB RSS. Exits non-zero
 * when one is missed. `BENCH_SCALE=small` (`pnpm bench --scale small` at the root) runs 200
 * machines in 2 pools at --time-scale 120, where only "every machine Running" is judged.
 *   pnpm bench
 *   pnpm bench -- --machines 1000
 */

// `pnpm bench -- --machines 1000` passes the `--` on.
const args = process.argv.slice(2);
const small = benchScale() === 'small';
const { values } = parseArgs({
  args: args[0] === '--' ? args.slice(1) : args,
  options: {
    machines: { type: 'string', default: small ? '200' : '5000' },
    pools: { type: 'string' },
    'time-scale': { type: 'string', default: small ? '120' : '60' },
    timeout: { type: 'string', default: small ? '300' : '120' },
    'max-cpu': { type: 'string', default: '1' },
    'max-rss': { type: 'string', default: '400' },
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
const loadAtStart = loadAverage();
const result = await runBenchmark(options);
process.stdout.write(`\nsimulator controllers benchmark\n${formatBenchmark(result, options)}\n`);
const m = result.metrics;
const rows: BenchRow[] = [
  {
    figure: `machines Running (${String(result.pools)} pools × ${String(result.perPool)})`,
    value: result.running,
    unit: `of ${String(result.total)}`,
    target: { value: result.total, better: 'higher' },
    always: true,
  },
  {
    figure: `wall time to all Running at --time-scale ${String(options.timeScale)}`,
    value: result.wallS,
    unit: 's',
    target: { value: 60, better: 'lower' },
  },
  {
    figure: 'controllers CPU (average)',
    value: result.controllerCores,
    unit: 'cores',
    target: { value: options.maxCpu, better: 'lower' },
  },
  {
    figure: 'controllers RSS at the end',
    value: result.controllerRssMiB,
    unit: 'MiB',
    target: { value: Number(values['max-rss']), better: 'lower' },
  },
  { figure: 'API server CPU (average)', value: result.serverCores, unit: 'cores' },
  { figure: 'API server RSS at the end', value: result.serverRssMiB, unit: 'MiB' },
  {
    figure: 'API requests by the controllers per machine',
    value: m.requests / result.total,
    unit: '',
  },
  { figure: '409 conflicts', value: m.conflicts, unit: '' },
  {
    figure: 'request errors',
    value: m.errors,
    unit: '',
    target: { value: 10, better: 'lower' },
    always: true,
  },
];
const section = {
  section: 'Simulator: controllers reconciling pools to Running',
  setup: `${String(result.total)} machines in ${String(result.pools)} pools (half with pool persistent disks) created at once on the embedded API server (own process); the controllers in their own process, bundled with esbuild and run by plain node (as deployed; \`SIM_BENCH_CONTROLLERS=tsx\` for the sources through tsx). \`pnpm --filter @dcs/simulator bench\`.`,
  scale: small ? ('small' as const) : ('full' as const),
  loadAverage: { start: loadAtStart, end: loadAverage() },
  measuredAt: new Date().toISOString(),
  rows,
};
record(section);
printSection(section);
if (!rows.every((r) => meets(r, section.scale) !== false)) {
  process.stdout.write(`FAILED\n${result.logTail.join('\n')}\n`);
  process.exitCode = 1;
}
