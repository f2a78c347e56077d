import { execFileSync, spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readlinkSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml, parseAllDocuments, stringify } from 'yaml';
import { descendants, killGroup, startCommand, survivors, type Started } from './support/processes';
import { extractCommands, trackedReadmes, type ReadmeCommand } from './support/readme-commands';

// kubectl caches discovery per host and port for hours: a port an earlier cluster (another
// Cluster API release) used would answer with its versions. Each run gets its own cache.
process.env.KUBECACHEDIR = mkdtempSync(join(tmpdir(), 'readme-kube-cache-'));

/**
 * Issue 13 item 3: every shell command a README shows is checked, so that none rots unseen.
 *
 * Each command (fenced `sh`/`bash`/`console` blocks and inline spans that start with `pnpm`,
 * `kubectl`, `node`, … — `support/readme-commands.ts`) is, by the table below:
 * - **run**: the cheap ones, as a reader would type them from the repository root, against an
 *   embedded management cluster on a free port: `pnpm sim …` until it is ready, `kubectl` against
 *   the kubeconfig that sim wrote, `pnpm sim:crds` (its output must be CRDs), `pnpm sim:controllers`
 *   until it runs, `pnpm start -- --kubeconfig FILE` and the BFF's `serve` until `/readyz` answers;
 * - **parsed**: the heavy ones (benchmarks, the whole test suite, the schema generator) are run
 *   through pnpm with `DCS_CHECK_ARGS=1`, which makes the real CLI parse and check its command
 *   line, print `args ok: …` and stop before doing anything; `bash -n` for shell scripts;
 *   `kubectl SUBCOMMAND --help` for a subcommand named in prose;
 * - **static**: what would run a third-party tool for minutes (`tsc`, `vite build`, `vitest`,
 *   `playwright`, `eslint`, `docker build`): the script exists, its binary is installed and the
 *   files it names exist. The e2e suite's global setup runs the web build for real.
 * A command no rule knows fails the test; the test prints what it ran, parsed and checked.
 *
 * Placeholders are replaced before a command runs (`FILE`, `~/.kube/…`, `<registry>`, `[SCALE]`,
 * `…`); the printed list shows each command as run. Environment only moves what would collide
 * on a shared machine: `PORT=0`, and kubeconfigs written to a temporary folder.
 */

const BFF = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const ROOT = resolve(BFF, '../..');
const START_MS = 120_000;
const EXIT_MS = 90_000;

type Verdict = 'ran' | 'parsed' | 'static';
interface Outcome {
  verdict: Verdict;
  /** The command as it was run or checked (placeholders replaced). */
  as: string;
  note: string;
}

interface Ctx {
  dir: string;
  env: Record<string, string>;
  /** The kubeconfig of the README's running `pnpm sim` (written to `dir`). */
  simKubeconfig: string;
  /** The same cluster with a context `mgmt-admin`, standing in for `~/.kube/mgmt.yaml`. */
  mgmtKubeconfig: string;
}

// ---------------------------------------------------------------------------------------------
// pnpm scripts: what each one is, so that a command is run, parsed or checked by what it starts.

interface PackageInfo {
  name: string;
  dir: string;
  scripts: Record<string, string>;
}

function packages(): PackageInfo[] {
  const dirs = ['apps', 'packages']
    .flatMap((d) =>
      execFileSync('ls', [join(ROOT, d)], { encoding: 'utf8' })
        .split('\n')
        .filter(Boolean)
        .map((n) => join(ROOT, d, n)),
    )
    .concat([join(ROOT, 'e2e'), ROOT]);
  return dirs
    .filter((d) => existsSync(join(d, 'package.json')))
    .map((d) => {
      const pkg = JSON.parse(readFileSync(join(d, 'package.json'), 'utf8')) as {
        name: string;
        scripts?: Record<string, string>;
      };
      return { name: d === ROOT ? '(root)' : pkg.name, dir: d, scripts: pkg.scripts ?? {} };
    });
}

/**
 * Scripts whose CLI honours DCS_CHECK_ARGS=1 (parse, check, print `args ok:`, stop). They are
 * heavy (minutes, full-scale load) or write into the repository.
 */
const PARSE_ONLY = new Set([
  '(root):test',
  '(root):bench',
  '@dcs/bff:bench',
  '@dcs/bff:bench:transfer',
  '@dcs/bff:bench:fanout',
  '@dcs/bff:bench:clients',
  '@dcs/bff:bench:event-cost',
  '(root):soak',
  '@dcs/bff:soak',
  '@dcs/simulator:bench',
  '@dcs/apiserver:bench',
  '@dcs/apiserver:bench:requests',
  '@dcs/apiserver:bench:slow-watchers',
  '@dcs/e2e:bench',
  '@dcs/simulator:gen:capi-schemas',
  '@dcs/simulator:gen:capi-schemas-v1.14',
]);

/** Scripts run for real (each case of `checkPnpm`'s switch). */
const RUN = new Set([
  '(root):sim',
  '@dcs/simulator:sim',
  '(root):sim:crds',
  '(root):sim:controllers',
  '@dcs/bff:start',
  '@dcs/bff:serve',
  '@dcs/apiserver:dev',
]);

/** Third-party tools whose scripts are checked statically: they would run for minutes. */
const STATIC_TOOLS = new Set(['tsc', 'vite', 'vitest', 'playwright', 'eslint', 'prettier']);

interface PnpmTarget {
  pkg: PackageInfo;
  script: string;
}

/** `pnpm [--filter PKG | -r …] SCRIPT ARGS…` → the scripts it runs and the arguments passed on. */
function pnpmTargets(
  text: string,
  all: PackageInfo[],
): { targets: PnpmTarget[]; args: string[] } | undefined {
  const words = text.split(' ');
  if (words[0] !== 'pnpm') return undefined;
  let i = 1;
  let filter: string | undefined;
  let recursive = false;
  let ifPresent = false;
  for (; i < words.length; i++) {
    const w = words[i] ?? '';
    if (w === '--filter' || w === '-F') filter = words[++i];
    else if (w === '-r' || w === '--recursive') recursive = true;
    else if (w === '--if-present') ifPresent = true;
    // Options that change how scripts run, not which: pnpm's own, from the root scripts.
    else if (
      w === '--silent' ||
      w === '--no-bail' ||
      w === '--bail' ||
      w.startsWith('--workspace-concurrency')
    )
      continue;
    else break;
  }
  const script = words[i] === 'run' ? words[i + 1] : words[i];
  const args = words.slice(words[i] === 'run' ? i + 2 : i + 1);
  if (script === undefined) return undefined;
  const root = all.find((p) => p.name === '(root)');
  const scope = filter
    ? all.filter((p) => p.name === filter)
    : recursive
      ? all.filter((p) => p.name !== '(root)')
      : root
        ? [root]
        : [];
  if (filter && scope.length === 0) throw new Error(`no workspace package ${filter}`);
  const targets = scope.filter((p) => script in p.scripts).map((pkg) => ({ pkg, script }));
  if (targets.length === 0 && !(recursive && ifPresent)) {
    throw new Error(`no script "${script}" in ${scope.map((p) => p.name).join(', ') || '?'}`);
  }
  return { targets, args };
}

/** The `&&` parts of a script; a run of pnpm appends the arguments to the last one. */
function scriptParts(script: string): string[] {
  return script.split(' && ').map((p) => p.trim());
}

/** Static check of a third-party script: each part's binary is installed, named files exist. */
function checkStaticScript(pkg: PackageInfo, script: string): string {
  const notes: string[] = [];
  for (const part of scriptParts(pkg.scripts[script] ?? '')) {
    const words = part.split(' ');
    const bin = words[0] ?? '';
    if (!STATIC_TOOLS.has(bin)) {
      throw new Error(`${pkg.name} ${script}: "${part}" is not a tool this test checks statically`);
    }
    const binPath = join(pkg.dir, 'node_modules', '.bin', bin);
    if (!existsSync(binPath)) throw new Error(`${pkg.name} ${script}: ${bin} is not installed`);
    words.forEach((w, j) => {
      if (['-p', '--config', '-c'].includes(words[j - 1] ?? '') && !existsSync(join(pkg.dir, w))) {
        throw new Error(`${pkg.name} ${script}: ${w} does not exist`);
      }
    });
    notes.push(bin);
  }
  return `${pkg.name} ${script}: ${notes.join(', ')} installed`;
}

// ---------------------------------------------------------------------------------------------
// Running commands.

function env(ctx: Ctx, extra: Record<string, string> = {}) {
  return { ...ctx.env, ...extra };
}

/** Runs `text` with bash from the repository root; resolves with its exit code and output. */
async function runToExit(ctx: Ctx, text: string, extra: Record<string, string> = {}) {
  const started = startCommand('bash', ['-c', text], { cwd: ROOT, env: env(ctx, extra) });
  const timer = setTimeout(() => {
    killGroup(started.child.pid);
  }, EXIT_MS);
  const { code, signal } = await started.exited;
  clearTimeout(timer);
  return { code, signal, output: started.output() };
}

const running: Started[] = [];

/** Stops a started command's whole process group, as Ctrl-C would, and waits for it. */
async function stop(started: Started): Promise<void> {
  const pids = descendants(started.child.pid ?? -1);
  try {
    process.kill(-(started.child.pid ?? -1), 'SIGINT');
  } catch {
    // Gone already.
  }
  const left = await survivors([started.child.pid ?? -1, ...pids], 20_000);
  killGroup(started.child.pid, left);
}

/** Starts `text`, waits for `ready`, stops it. */
async function runUntil(
  ctx: Ctx,
  text: string,
  ready: (s: Started) => Promise<string>,
  extra: Record<string, string> = {},
): Promise<string> {
  const started = startCommand('bash', ['-c', text], { cwd: ROOT, env: env(ctx, extra) });
  running.push(started);
  try {
    return await ready(started);
  } finally {
    await stop(started);
  }
}

/** The BFF started by `text` answers /readyz with 200. */
async function bffReady(s: Started): Promise<string> {
  const line = await s.waitFor(/Server listening at http:\/\/127\.0\.0\.1:\d+/, START_MS);
  const url = /http:\/\/127\.0\.0\.1:\d+/.exec(line)?.[0] ?? '';
  const deadline = Date.now() + START_MS;
  for (;;) {
    const res = await fetch(`${url}/readyz`).catch(() => undefined);
    if (res?.status === 200) return `${url}/readyz answered 200`;
    if (Date.now() > deadline) throw new Error(`${url}/readyz not 200 in time:\n${s.output()}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

function expectExit0(r: { code: number | null; output: string }, what: string) {
  if (r.code !== 0) throw new Error(`${what} exited ${String(r.code)}:\n${r.output.slice(-3000)}`);
}

// ---------------------------------------------------------------------------------------------
// The table: what each README command is, and how it is checked.

/** Placeholders a reader fills in, and what this test fills in for them. */
function substitute(text: string, ctx: Ctx): string {
  return text
    .replaceAll('.sim/kubeconfig', ctx.simKubeconfig)
    .replaceAll('~/.kube/mgmt.yaml', ctx.mgmtKubeconfig)
    .replaceAll('~/.kube/config', ctx.mgmtKubeconfig)
    .replace(/--kubeconfig FILE\b/g, `--kubeconfig ${ctx.mgmtKubeconfig}`)
    .replace(/\bKUBECONFIG=FILE\b/g, `KUBECONFIG=${ctx.mgmtKubeconfig}`)
    .replace(/--state FILE\b/g, `--state ${join(ctx.dir, 'state', 'sim.jsonl')}`)
    .replace(' [--context NAME]', ' --context mgmt-admin')
    .replaceAll('<registry>', 'registry.example.invalid')
    .replaceAll('<tag>', 'readme-test')
    .replaceAll('/tmp/keys.yaml', join(ctx.dir, 'keys.yaml'))
    .replace(' [SCALE]', ' 0.1')
    .replace(' [DIR]', '');
}

type Check = (text: string, ctx: Ctx) => Outcome | Promise<Outcome>;

const pnpmVersion = () =>
  (
    JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { packageManager: string }
  ).packageManager.replace(/^pnpm@/, '');

/**
 * Commands that another README command runs for real with one flag more (the same script, the
 * same code path): each is parsed by its CLI, so that a run is not paid twice.
 */
const COVERED_BY: Record<string, string> = {
  'pnpm sim': 'pnpm sim --time-scale 20',
  'pnpm start -- --kubeconfig FILE':
    'pnpm start -- --kubeconfig ~/.kube/mgmt.yaml --context mgmt-admin',
  'pnpm start -- --kubeconfig ~/.kube/config':
    'pnpm start -- --kubeconfig ~/.kube/mgmt.yaml --context mgmt-admin',
  'KUBECONFIG=FILE pnpm start': 'pnpm start -- --kubeconfig ~/.kube/mgmt.yaml --context mgmt-admin',
  // `serve` is what `start --kubeconfig` runs (`launch.ts` calls `serve.ts`'s main).
  'pnpm --filter @dcs/bff serve -- --kubeconfig FILE [--context NAME]':
    'pnpm start -- --kubeconfig ~/.kube/mgmt.yaml --context mgmt-admin',
  'pnpm --filter @dcs/bff serve -- --kubeconfig FILE':
    'pnpm start -- --kubeconfig ~/.kube/mgmt.yaml --context mgmt-admin',
};

/** Prose that names a command rather than showing one to type, and how each is checked. */
const MENTIONS: Record<string, Check> = {
  'kubectl apply': (t) => kubectlHelp(t),
  'kubectl create deployment': (t) => kubectlHelp(t),
  // The machine page's answer to a cordoned Node (apps/web README).
  'kubectl uncordon': (t) => kubectlHelp(t),
  'node --import tsx': (t) => {
    const bff = packages().find((p) => p.name === '@dcs/bff');
    expect(bff?.scripts.start).toMatch(/^node --import tsx /);
    return { verdict: 'static', as: t, note: "@dcs/bff's start script runs it" };
  },
  'npx pnpm': (t) => {
    expect(readFileSync(join(ROOT, '.ci/run'), 'utf8')).toContain('npx -y pnpm@');
    return { verdict: 'static', as: t, note: '.ci/run puts such a pnpm on the PATH' };
  },
  'apt-get install -y chromium': (t) => {
    expect(readFileSync(join(ROOT, '.ci/run'), 'utf8')).toMatch(/apt-get install -y .*chromium/);
    return { verdict: 'static', as: t, note: '.ci/run installs Chromium this way' };
  },
  // What `pnpm bench` runs before each part (root README, "Benchmarks"): run here, as it is cheap.
  'node bench/calibrate.mjs': (t) => {
    const r = spawnSync(process.execPath, [join(ROOT, 'bench', 'calibrate.mjs')], {
      encoding: 'utf8',
    });
    expect(r.status, r.stderr).toBe(0);
    const c = JSON.parse(r.stdout) as { jsonMicros: number; tcpMicros: number };
    expect(c.jsonMicros).toBeGreaterThan(0);
    expect(c.tcpMicros).toBeGreaterThan(0);
    return { verdict: 'ran', as: t, note: firstLine(r.stdout).slice(0, 60) };
  },
  // The fan-out benchmark's peer (root README, "Benchmarks"): the package puts kubectl on PATH.
  'apt-get install kubernetes-client': (t) => {
    const r = spawnSync('kubectl', ['version', '--client'], { encoding: 'utf8' });
    expect(r.status, 'kubectl version --client').toBe(0);
    return { verdict: 'static', as: t, note: `kubectl on PATH: ${firstLine(r.stdout)}` };
  },
};

function kubectlHelp(text: string): Outcome {
  const as = `${text} --help`;
  const r = spawnSync('kubectl', [...text.split(' ').slice(1), '--help'], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${as} exited ${String(r.status)}: ${r.stderr}`);
  return { verdict: 'parsed', as, note: 'kubectl knows the subcommand' };
}

async function checkKubectl(text: string, ctx: Ctx): Promise<Outcome> {
  const as = substitute(text, ctx);
  if (/ -w\b| --watch\b/.test(as)) {
    // A watch never ends: it works when it prints the current list.
    const first = await runUntil(ctx, as, (s) => s.waitFor(/^NAME\b/, START_MS));
    return { verdict: 'ran', as, note: `printed "${first.slice(0, 40)}", then stopped` };
  }
  if (as.includes('sim.dcs.io/refuse-')) {
    // Shown as the way out of a refusal: refuse changes to an object first, then lift it.
    const target = 'md/prod-east-batch';
    const before = await runToExit(
      ctx,
      `kubectl annotate ${target} sim.dcs.io/refuse=readme-test --overwrite`,
    );
    expectExit0(before, 'setting sim.dcs.io/refuse');
    const lifted = as.replace('…', target);
    const r = await runToExit(ctx, lifted);
    expectExit0(r, lifted);
    const after = await runToExit(ctx, `kubectl label ${target} readme-test=1 --overwrite`);
    expectExit0(after, 'a change once the refusal is lifted');
    return { verdict: 'ran', as: lifted, note: 'the object accepts changes again' };
  }
  const r = await runToExit(ctx, as);
  expectExit0(r, as);
  return { verdict: 'ran', as, note: firstLine(r.output) };
}

const firstLine = (s: string) => s.trim().split('\n')[0]?.slice(0, 60) ?? '';

/** Checks a `pnpm …` command by what the scripts it starts are. */
async function checkPnpm(text: string, ctx: Ctx, parseOnly = false): Promise<Outcome> {
  const all = packages();
  const assignments = /^((?:[A-Z_][A-Z0-9_]*=\S+ )*)(.*)$/.exec(text);
  const prefix = assignments?.[1] ?? '';
  const command = assignments?.[2] ?? text;
  if (command === 'pnpm install') {
    const version = execFileSync('pnpm', ['--version'], { encoding: 'utf8', env: ctx.env }).trim();
    expect(version).toBe(pnpmVersion());
    return { verdict: 'static', as: text, note: `pnpm ${version}, as packageManager pins` };
  }
  const resolved = pnpmTargets(command, all);
  if (!resolved) throw new Error('not a pnpm command this test understands');
  const { targets, args } = resolved;
  const keys = targets.map((t) => `${t.pkg.name}:${t.script}`);

  const only = targets.length === 1 ? targets[0] : undefined;
  // A root script made of steps: each step is checked as its own command, as pnpm would run it.
  if (
    only?.pkg.name === '(root)' &&
    !RUN.has(`${only.pkg.name}:${only.script}`) &&
    scriptParts(only.pkg.scripts[only.script] ?? '').some((p) => p.startsWith('pnpm '))
  ) {
    const parts = scriptParts(only.pkg.scripts[only.script] ?? '');
    const notes: string[] = [];
    let verdict: Verdict = 'static';
    for (const [j, part] of parts.entries()) {
      const step = j === parts.length - 1 && args.length > 0 ? `${part} ${args.join(' ')}` : part;
      const o = await checkPnpm(`${prefix}${step}`, ctx, parseOnly);
      if (o.verdict === 'ran' || (o.verdict === 'parsed' && verdict === 'static'))
        verdict = o.verdict;
      notes.push(`${o.verdict}: ${o.as} (${o.note})`);
    }
    return { verdict, as: substitute(text, ctx), note: notes.join('; ') };
  }

  const as = substitute(text, ctx);
  if (keys.length > 0 && keys.every((k) => PARSE_ONLY.has(k) || (parseOnly && RUN.has(k)))) {
    const r = await runToExit(ctx, as, { DCS_CHECK_ARGS: '1' });
    expectExit0(r, `${as} (DCS_CHECK_ARGS=1)`);
    const oks = r.output.split('\n').filter((l) => l.startsWith('args ok: '));
    expect(oks, `each CLI of ${as} parsed its arguments`).toHaveLength(keys.length);
    return { verdict: 'parsed', as, note: oks.map((l) => l.slice(9)).join(' ') };
  }
  if (!only) {
    // `pnpm -r lint` and the like: every package's script, statically.
    const notes = targets.map((t) => checkStaticScript(t.pkg, t.script));
    return { verdict: 'static', as, note: notes.join('; ') };
  }
  const key = `${only.pkg.name}:${only.script}`;
  switch (key) {
    case '(root):sim':
    case '@dcs/simulator:sim': {
      const statePath = /--state (\S+)/.exec(as)?.[1];
      const out = join(ctx.dir, `sim-${String(running.length)}.kubeconfig`);
      const note = await runUntil(ctx, `${as} --kubeconfig-out ${out}`, (s) =>
        s.waitFor(/^sim: ready /, START_MS),
      );
      if (statePath) {
        for (const f of [statePath, `${statePath}.tls.json`, `${statePath}.cluster.json`]) {
          expect(existsSync(f), `${f} written`).toBe(true);
        }
      }
      return { verdict: 'ran', as, note: note.slice(0, 60) };
    }
    case '(root):sim:crds': {
      const r = await runToExit(ctx, as);
      expectExit0(r, as);
      const kinds = parseAllDocuments(r.output).map(
        (d) => (d.toJS() as { kind?: string; spec?: { names?: { kind?: string } } } | null) ?? {},
      );
      expect(kinds.length).toBeGreaterThan(0);
      for (const k of kinds) expect(k.kind).toBe('CustomResourceDefinition');
      return {
        verdict: 'ran',
        as,
        note: `${String(kinds.length)} CRDs: ${kinds.map((k) => k.spec?.names?.kind ?? '?').join(', ')}`,
      };
    }
    case '(root):sim:controllers': {
      const note = await runUntil(ctx, as, (s) =>
        s.waitFor(/sim:controllers: running against/, START_MS),
      );
      return { verdict: 'ran', as, note: note.slice(0, 60) };
    }
    case '@dcs/bff:start':
    case '@dcs/bff:serve': {
      const note = await runUntil(ctx, as, bffReady, {
        // Plain `pnpm start`: its own simulator, kept cheap and out of the developer's `.sim/`.
        SIM_ARGS: `--seed empty --no-controllers --kubeconfig-out ${join(ctx.dir, `start-${String(running.length)}.kubeconfig`)}`,
      });
      return { verdict: 'ran', as, note };
    }
    case '@dcs/apiserver:dev': {
      const note = await runUntil(ctx, as, (s) => s.waitFor(/^export KUBECONFIG=/, START_MS));
      return { verdict: 'ran', as, note: note.slice(0, 60) };
    }
    default:
      return { verdict: 'static', as, note: checkStaticScript(only.pkg, only.script) };
  }
}

async function check(text: string, ctx: Ctx): Promise<Outcome> {
  if (text === SIM_COMMAND) {
    return { verdict: 'ran', as: text, note: 'the cluster every kubectl line here talks to' };
  }
  const mention = MENTIONS[text];
  if (mention) return mention(text, ctx);
  const word = text.split(' ').find((w) => !/^[A-Z_][A-Z0-9_]*=/.test(w));
  if (/^npx pnpm@[\d.]+ install$/.test(text)) {
    expect(text).toBe(`npx pnpm@${pnpmVersion()} install`);
    return { verdict: 'static', as: text, note: 'the version packageManager pins' };
  }
  if (/^bash \S+$/.test(text)) {
    const file = text.split(' ')[1] ?? '';
    execFileSync('bash', ['-n', join(ROOT, file)]);
    return { verdict: 'parsed', as: `bash -n ${file}`, note: 'valid bash' };
  }
  if (word === 'kubectl') return checkKubectl(text, ctx);
  const coveredBy = COVERED_BY[text];
  if (word === 'pnpm' && coveredBy !== undefined) {
    if (!ALL_TEXTS.has(coveredBy)) throw new Error(`no README shows ${coveredBy} any more`);
    const o = await checkPnpm(text, ctx, true);
    return { ...o, note: `${o.note}; run for real as ${coveredBy}` };
  }
  if (word === 'pnpm') return checkPnpm(text, ctx);
  if (word === 'docker') {
    // Building needs a daemon and minutes: the files `docker build` is given exist.
    const file = /-f (\S+)/.exec(text)?.[1];
    if (!file || !existsSync(join(ROOT, file))) throw new Error(`no Dockerfile ${file ?? '?'}`);
    return { verdict: 'static', as: text, note: `${file} exists` };
  }
  throw new Error('no rule of readme-commands.test.ts knows how to check this command');
}

// ---------------------------------------------------------------------------------------------

/**
 * The pnpm that started this test, found among its ancestors: its native binary (what
 * `npx pnpm@12` installs) or its entry script. `npm_execpath` is npm's own when pnpm came through
 * npx, so it cannot say.
 */
function runningPnpm(): string | undefined {
  let pid = process.pid;
  for (let depth = 0; depth < 12 && pid > 1; depth++) {
    try {
      const exe = readlinkSync(`/proc/${String(pid)}/exe`);
      if (exe.endsWith('/pnpm')) return exe;
      const argv = readFileSync(`/proc/${String(pid)}/cmdline`, 'utf8').split('\0');
      if (/\/pnpm\/bin\/pnpm\.c?js$/.test(argv[1] ?? '')) return argv[1];
      const stat = readFileSync(`/proc/${String(pid)}/stat`, 'utf8');
      pid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** The root README's embedded cluster, the one its kubectl lines talk to. */
const SIM_COMMAND = extractCommands(
  readFileSync(join(ROOT, 'README.md'), 'utf8'),
  'README.md',
).find((c) => c.source === 'block' && /^pnpm sim( |$)/.test(c.text))?.text;

const ALL_TEXTS = new Set(
  trackedReadmes(ROOT).flatMap((f) =>
    extractCommands(readFileSync(join(ROOT, f), 'utf8'), f).map((c) => c.text),
  ),
);

let ctx: Ctx;
let sim: Started | undefined;

describe('README commands: extraction', () => {
  const md = [
    'Run `pnpm sim --port 0` or `kubectl` itself; `node:http` is a module.',
    '```sh',
    'pnpm start -- --kubeconfig "a # b" # serve it (or `KUBECONFIG=FILE pnpm start`)',
    'kubectl apply \\',
    '  -k deploy',
    '```',
    '```console',
    '$ kubectl get md',
    'NAME   CLUSTER',
    '```',
    '```yaml',
    'pnpm: not a command',
    '```',
  ].join('\n');

  it('finds block lines, continuations, console prompts and inline commands, nothing else', () => {
    expect(extractCommands(md, 'R.md').map((c) => [c.line, c.source, c.text])).toEqual([
      [1, 'inline', 'pnpm sim --port 0'],
      [3, 'inline', 'KUBECONFIG=FILE pnpm start'],
      [3, 'block', 'pnpm start -- --kubeconfig "a # b"'],
      [4, 'block', 'kubectl apply -k deploy'],
      [8, 'block', 'kubectl get md'],
    ]);
  });
});

describe('every command the READMEs show (issue 13 item 3)', () => {
  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'readme-commands-'));
    // `pnpm` on the PATH is the pnpm running this test (CI's is a shell wrapper around npx, slow
    // to start for every command).
    const bin = join(dir, 'bin');
    mkdirSync(bin);
    const pnpm = runningPnpm();
    if (pnpm) {
      const exec = /\.[cm]?js$/.test(pnpm)
        ? `exec "${process.execPath}" "${pnpm}" "$@"`
        : `exec "${pnpm}" "$@"`;
      writeFileSync(join(bin, 'pnpm'), `#!/bin/sh\n${exec}\n`);
      chmodSync(join(bin, 'pnpm'), 0o755);
    }
    const baseEnv: Record<string, string> = {
      ...(Object.fromEntries(
        Object.entries(process.env).filter(([, v]) => v !== undefined),
      ) as Record<string, string>),
      PATH: `${bin}:${process.env.PATH ?? ''}`,
      // As a reader at the repository root: pnpm resolves the user's relative paths from here.
      INIT_CWD: ROOT,
      PORT: '0',
      LOG_LEVEL: 'info',
    };
    delete baseEnv.KUBECONFIG;
    delete baseEnv.NODE_OPTIONS;
    const simKubeconfig = join(dir, 'sim.kubeconfig');
    ctx = {
      dir,
      env: { ...baseEnv, KUBECONFIG: simKubeconfig },
      simKubeconfig,
      mgmtKubeconfig: join(dir, 'mgmt.yaml'),
    };
    // Started as shown, with its kubeconfig written here instead of the developer's `.sim/`.
    if (!SIM_COMMAND) throw new Error('the root README shows no `pnpm sim` block');
    sim = startCommand('bash', ['-c', `${SIM_COMMAND} --kubeconfig-out ${simKubeconfig}`], {
      cwd: ROOT,
      env: ctx.env,
    });
    running.push(sim);
    await sim.waitFor(/^sim: ready /, START_MS);
    // `~/.kube/mgmt.yaml --context mgmt-admin`: the same cluster under the README's context name.
    const kc = parseYaml(readFileSync(simKubeconfig, 'utf8')) as {
      contexts: { name: string; context: unknown }[];
    };
    const operator = kc.contexts.find((c) => c.name === 'sim-operator');
    if (!operator) throw new Error('the sim kubeconfig has no sim-operator context');
    kc.contexts.push({ ...operator, name: 'mgmt-admin' });
    writeFileSync(ctx.mgmtKubeconfig, stringify(kc), { mode: 0o600 });
  }, START_MS);

  afterAll(async () => {
    for (const s of running) {
      if (s.child.exitCode === null && s.child.signalCode === null) await stop(s);
    }
    rmSync(ctx.dir, { recursive: true, force: true });
  }, 60_000);

  it('is run, parsed by its real CLI, or checked; none is unknown', async () => {
    const commands: ReadmeCommand[] = trackedReadmes(ROOT).flatMap((f) =>
      extractCommands(readFileSync(join(ROOT, f), 'utf8'), f),
    );
    // One check per command as run: `--kubeconfig FILE` and `~/.kube/config` are the same run.
    const byText = new Map<string, ReadmeCommand[]>();
    const key = (c: ReadmeCommand) =>
      c.text === SIM_COMMAND || c.text in COVERED_BY ? c.text : substitute(c.text, ctx);
    const firstText = new Map<string, string>();
    for (const c of commands) {
      const k = key(c);
      if (!firstText.has(k)) firstText.set(k, c.text);
      const text = firstText.get(k) ?? c.text;
      byText.set(text, [...(byText.get(text) ?? []), c]);
    }
    expect(byText.size).toBeGreaterThan(20);

    const results = new Map<string, Outcome | Error>();
    // Two at a time: most start a process or two, on a machine shared with other suites.
    const queue = [...byText.keys()];
    const worker = async () => {
      for (let text = queue.shift(); text !== undefined; text = queue.shift()) {
        const t0 = Date.now();
        try {
          const o = await check(text, ctx);
          results.set(text, { ...o, note: `${o.note} [${String(Date.now() - t0)} ms]` });
        } catch (error) {
          results.set(text, error instanceof Error ? error : new Error(String(error)));
        }
      }
    };
    await Promise.all([worker(), worker()]);

    const where = (text: string) =>
      (byText.get(text) ?? []).map((c) => `${c.file}:${String(c.line)}`).join(', ');
    const lines: string[] = [];
    for (const verdict of ['ran', 'parsed', 'static'] as const) {
      const rows = [...results].filter(
        (e): e is [string, Outcome] => !(e[1] instanceof Error) && e[1].verdict === verdict,
      );
      lines.push(`${verdict} (${String(rows.length)}):`);
      for (const [text, o] of rows) lines.push(`  ${o.as}\n      ${where(text)}; ${o.note}`);
    }
    const failures = [...results].filter((e): e is [string, Error] => e[1] instanceof Error);
    lines.push(`failed (${String(failures.length)}):`);
    for (const [text, e] of failures) lines.push(`  ${text}\n      ${where(text)}: ${e.message}`);
    console.log(`README commands:\n${lines.join('\n')}`);
    expect(failures.map(([text, e]) => `${where(text)}: ${text}: ${e.message}`)).toEqual([]);
  }, 300_000);
});
