#!/usr/bin/env node
// Runs every test of the workspace (Vitest in each package, then Playwright in e2e/) and prints
// one total over all runners. `pnpm test` and `.ci/run` both use it.
//   node .ci/test.mjs [--unit] [--e2e] [--total-file FILE]
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const only = { unit: args.includes('--unit'), e2e: args.includes('--e2e') };
const runUnit = only.unit || !only.e2e;
const runE2e = only.e2e || !only.unit;
const totalFileIndex = args.indexOf('--total-file');
const totalFile = totalFileIndex >= 0 ? resolve(args[totalFileIndex + 1] ?? '') : undefined;
const known = args.filter(
  (a, i) =>
    a !== '--' &&
    !['--unit', '--e2e', '--total-file'].includes(a) &&
    args[i - 1] !== '--total-file',
);
if (known.length > 0 || (totalFileIndex >= 0 && args[totalFileIndex + 1] === undefined)) {
  console.error(`test.mjs: usage: [--unit] [--e2e] [--total-file FILE], got ${args.join(' ')}`);
  process.exit(2);
}

/** Workspace packages (apps/*, packages/*) whose `test` script runs Vitest. */
function vitestPackages() {
  return ['apps', 'packages']
    .flatMap((dir) => readdirSync(join(root, dir)).map((name) => join(root, dir, name)))
    .filter((dir) => existsSync(join(dir, 'package.json')))
    .filter((dir) =>
      /\bvitest\b/.test(
        JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).scripts?.test ?? '',
      ),
    );
}

function run(command, commandArgs, cwd, env = {}) {
  const started = Date.now();
  const result = spawnSync(command, commandArgs, {
    cwd,
    stdio: 'inherit',
    env: { ...process.env, ...env },
  });
  return { status: result.status ?? 1, seconds: (Date.now() - started) / 1000 };
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

// DCS_CHECK_ARGS=1: the command line is parsed and the runners listed, nothing runs (README
// commands test).
if (process.env.DCS_CHECK_ARGS === '1') {
  const runners = [
    ...(runUnit ? vitestPackages().map((dir) => dir.slice(root.length + 1)) : []),
    ...(runE2e ? ['e2e'] : []),
  ];
  writeSync(1, `args ok: ${JSON.stringify({ runners, totalFile })}\n`);
  process.exit(0);
}

const rows = [];
/** Tests that failed, and tests that passed only on a retry: named before the table, in CI's excerpt. */
const failures = [];
const flaky = [];
const firstLine = (text) =>
  String(text ?? '')
    .split('\n')
    .find((l) => l.trim()) ?? '';

/** Vitest's JSON report: each failed test with the first line of its error. */
function vitestFailures(json, name) {
  for (const file of json.testResults ?? []) {
    const where = `${name}/${relative(join(root, name), file.name)}`;
    const failed = (file.assertionResults ?? []).filter((a) => a.status === 'failed');
    for (const a of failed)
      failures.push(`${where} > ${a.fullName}: ${firstLine(a.failureMessages?.[0])}`);
    if (file.status === 'failed' && failed.length === 0)
      failures.push(`${where}: ${firstLine(file.message)}`);
  }
}

/** Playwright's JSON report: specs whose outcome was unexpected or flaky. */
function playwrightOutcomes(suite, file = suite.file) {
  for (const spec of suite.specs ?? []) {
    for (const t of spec.tests ?? []) {
      const title = `e2e/${file} > ${spec.title} [${t.projectName}]`;
      if (t.status === 'unexpected') {
        const error = t.results?.at(-1)?.error?.message;
        failures.push(`${title}: ${firstLine(error).replace(/\x1b\[[0-9;]*m/g, '')}`);
      } else if (t.status === 'flaky') flaky.push(`${title} (passed on retry)`);
    }
  }
  for (const child of suite.suites ?? []) playwrightOutcomes(child, child.file ?? file);
}

if (runUnit) {
  for (const dir of vitestPackages()) {
    const report = join(dir, '.reports', 'vitest.json');
    const retried = join(dir, '.reports', 'retried.txt');
    rmSync(report, { force: true });
    rmSync(retried, { force: true });
    mkdirSync(dirname(report), { recursive: true });
    const { status, seconds } = run(
      'pnpm',
      [
        'exec',
        'vitest',
        'run',
        '--passWithNoTests',
        '--reporter=default',
        '--reporter=json',
        `--outputFile.json=${report}`,
        `--reporter=${join(root, '.ci', 'vitest-retried.mjs')}`,
      ],
      dir,
      { VITEST_RETRIED_FILE: retried },
    );
    if (existsSync(retried))
      flaky.push(...readFileSync(retried, 'utf8').split('\n').filter(Boolean));
    const json = readJson(report);
    const name = dir.slice(root.length + 1);
    if (!json) {
      rows.push({
        name,
        passed: 0,
        failed: 1,
        skipped: 0,
        seconds,
        note: `vitest exited ${status} without a report`,
      });
      continue;
    }
    vitestFailures(json, name);
    const suitesFailed = status !== 0 && json.numFailedTests === 0 ? 1 : 0;
    rows.push({
      name,
      passed: json.numPassedTests,
      failed: json.numFailedTests + suitesFailed,
      skipped: json.numPendingTests + json.numTodoTests,
      seconds,
      note: suitesFailed ? `vitest exited ${status} (a suite failed to load)` : '',
    });
  }
}

if (runE2e) {
  const dir = join(root, 'e2e');
  const report = join(dir, '.reports', 'playwright.json');
  rmSync(report, { force: true });
  const { status, seconds } = run('pnpm', ['exec', 'playwright', 'test'], dir, {
    PLAYWRIGHT_JSON_REPORT: report,
  });
  const json = readJson(report);
  if (!json) {
    rows.push({
      name: 'e2e',
      passed: 0,
      failed: 1,
      skipped: 0,
      seconds,
      note: `playwright exited ${status} without a report`,
    });
  } else {
    for (const suite of json.suites ?? []) playwrightOutcomes(suite);
    for (const e of json.errors ?? []) failures.push(`e2e: ${firstLine(e.message)}`);
    const s = json.stats;
    const errors = json.errors?.length ?? 0;
    rows.push({
      name: 'e2e',
      passed: s.expected + s.flaky,
      failed: s.unexpected + (errors && !s.unexpected ? 1 : 0),
      skipped: s.skipped,
      seconds,
      note: s.flaky ? `${s.flaky} flaky` : errors ? `${errors} global error(s)` : '',
    });
  }
}

const total = rows.reduce(
  (t, r) => ({
    passed: t.passed + r.passed,
    failed: t.failed + r.failed,
    skipped: t.skipped + r.skipped,
  }),
  { passed: 0, failed: 0, skipped: 0 },
);
if (flaky.length)
  console.log(
    `\nPassed only on a retry (${flaky.length}):\n${flaky.map((f) => `  ${f}`).join('\n')}`,
  );
if (failures.length)
  console.log(`\nFailed (${failures.length}):\n${failures.map((f) => `  ${f}`).join('\n')}`);
console.log('\nTest runners:');
for (const r of rows) {
  console.log(
    `  ${r.name.padEnd(22)} ${String(r.passed).padStart(5)} passed ${String(r.failed).padStart(4)} failed ${String(r.skipped).padStart(4)} skipped  ${r.seconds.toFixed(1).padStart(6)} s  ${r.note}`,
  );
}
if (totalFile) writeFileSync(totalFile, JSON.stringify(total));
console.log(
  `${total.passed} passed, ${total.failed} failed${total.skipped ? `, ${total.skipped} skipped` : ''}`,
);
process.exit(total.failed > 0 ? 1 : 0);
