#!/usr/bin/env node
// `pnpm bench`: every package's benchmark, one after another, each writing its section of the one
// table (bench/results.md and .json, see bench/results.ts). Prints the table at the end and exits
// non-zero when a benchmark failed, missed a target or wrote no section.
//   node bench/run.mjs [--scale full|small] [--out DIR] [--only NAME[,NAME]]
// --scale small runs everything at reduced scale as a correctness check (what the test in
// apps/bff/test/bench.test.ts runs, into a temporary --out); only correctness targets are judged
// there. --only runs some parts (names below), keeping the other sections of the table.
// Before each part, bench/calibrate.mjs measures the machine's speed (BENCH_CALIBRATION): its
// section names it beside the load average (bench/results.ts).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  // `pnpm bench -- --scale small` passes the `--` on.
  args: process.argv.slice(2).filter((a, i) => !(i === 0 && a === '--')),
  options: {
    scale: { type: 'string', default: 'full' },
    out: { type: 'string' },
    only: { type: 'string' },
  },
});
if (values.scale !== 'full' && values.scale !== 'small') {
  console.error(`--scale must be full or small, not ${values.scale}`);
  process.exit(2);
}
const small = values.scale === 'small';
const out = resolve(values.out ?? join(root, 'bench'));

/** The parts, in the order they run: a package's script and the section it writes. */
const PARTS = [
  { name: 'transfer', pkg: '@dcs/bff', script: 'bench:transfer' },
  { name: 'bff', pkg: '@dcs/bff', script: 'bench' },
  { name: 'fanout', pkg: '@dcs/bff', script: 'bench:fanout' },
  { name: 'clients', pkg: '@dcs/bff', script: 'bench:clients' },
  { name: 'apiserver', pkg: '@dcs/apiserver', script: 'bench' },
  { name: 'simulator', pkg: '@dcs/simulator', script: 'bench' },
  { name: 'web', pkg: '@dcs/e2e', script: 'bench' },
  { name: 'screen', pkg: '@dcs/e2e', script: 'bench:screen' },
];
const only = values.only ? values.only.split(',') : undefined;
const unknown = (only ?? []).filter((n) => !PARTS.some((p) => p.name === n));
if (unknown.length) {
  console.error(
    `--only: no part ${unknown.join(', ')} (parts: ${PARTS.map((p) => p.name).join(', ')})`,
  );
  process.exit(2);
}
const parts = PARTS.filter((p) => !only || only.includes(p.name));
// DCS_CHECK_ARGS=1: the command line is parsed and checked, nothing runs (README commands test).
if (process.env.DCS_CHECK_ARGS === '1') {
  console.log(
    `args ok: ${JSON.stringify({ scale: values.scale, out, parts: parts.map((p) => p.name) })}`,
  );
  process.exit(0);
}

// Run from a test (Vitest sets NODE_ENV=test), the web build would be React's development build
// and the BFF would take test settings: the benchmarks get the environment of a plain shell.
const env = Object.fromEntries(
  Object.entries(process.env).filter(([k]) => k !== 'NODE_ENV' && !k.startsWith('VITEST')),
);
Object.assign(env, { BENCH_SCALE: values.scale, BENCH_RESULTS_DIR: out });
const run = (args, extraEnv = {}) => {
  const started = Date.now();
  const r = spawnSync('pnpm', args, { cwd: root, stdio: 'inherit', env: { ...env, ...extraEnv } });
  return { status: r.status ?? 1, seconds: (Date.now() - started) / 1000 };
};

// A full run starts a fresh table, so no section of an earlier run stays in it unmarked.
if (!only) for (const f of ['results.json', 'results.md']) rmSync(join(out, f), { force: true });

const failures = [];
let staticDir;
// The served app's sizes and the browser's figures are the built SPA's.
if (parts.some((p) => ['transfer', 'web', 'screen'].includes(p.name))) {
  if (small) {
    // The bundle as `vite build` makes it (the typecheck of the full build is not a figure),
    // into a temporary directory, so a concurrent `pnpm start` or e2e run keeps its dist/.
    staticDir = mkdtempSync(join(tmpdir(), 'bench-web-'));
    const b = run([
      '--filter',
      '@dcs/web',
      'exec',
      'vite',
      'build',
      '--outDir',
      staticDir,
      '--emptyOutDir',
    ]);
    if (b.status !== 0) failures.push('web build');
  } else if (run(['--filter', '@dcs/web', 'build']).status !== 0) failures.push('web build');
}
/** The machine's speed now (bench/calibrate.mjs): each section names it beside its load average. */
const calibrate = () => {
  const c = spawnSync(process.execPath, [join(root, 'bench', 'calibrate.mjs')], {
    encoding: 'utf8',
  });
  const line = c.status === 0 ? c.stdout.trim() : '';
  if (!line) console.error(`bench: calibration failed: ${c.stderr}`);
  return line;
};
const times = [];
for (const p of parts) {
  console.log(`\n=== bench: ${p.name} (${p.pkg} ${p.script}, scale ${values.scale})`);
  const calibration = calibrate();
  console.log(`machine: ${calibration}`);
  const r = run(['--filter', p.pkg, p.script], {
    ...(staticDir ? { STATIC_DIR: staticDir } : {}),
    BENCH_CALIBRATION: calibration,
  });
  times.push(`${p.name} ${r.seconds.toFixed(0)} s`);
  if (r.status !== 0) failures.push(`${p.name} exited ${r.status}`);
}
if (staticDir) rmSync(staticDir, { recursive: true, force: true });

const md = join(out, 'results.md');
if (existsSync(md)) console.log(`\n${readFileSync(md, 'utf8')}`);
console.log(`bench: ${times.join(', ')}; results in ${out}`);
if (failures.length) {
  console.error(`bench: ${failures.join('; ')}`);
  process.exit(1);
}
