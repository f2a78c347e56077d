import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import { ConfigError, embeddedSsoEnv, launcherSettings, optionArgs } from '../config/env';
import { watchAncestors } from './ancestry';
import { main as serveMain, serve } from './serve';

/**
 * `pnpm start`: with `--kubeconfig FILE` (or KUBECONFIG) it serves that cluster and starts no
 * simulator. Otherwise it starts the embedded management cluster as a child process, waits for
 * its `sim: ready <url> kubeconfig=<path>` line (the kubeconfig is written atomically before it),
 * and serves that cluster in local mode. The BFF never imports the simulator: it only runs its
 * command.
 *
 * Stopping it stops everything it started, always (issue 10 item 8):
 * - the package script runs `node --import tsx`, not the `tsx` CLI: tsx's wrapper process relays
 *   a signal and SIGKILLs its child when the child does not acknowledge it within 30 ms (a busy
 *   machine), and a SIGKILLed launcher runs no handler;
 * - the simulator is started directly with node (no pnpm or tsx process in between, whose
 *   signal handling we do not control), in the launcher's process group, so Ctrl-C reaches it too;
 * - on SIGINT, SIGTERM or SIGHUP the simulator is told to stop at once, in parallel with the
 *   BFF's graceful shutdown, and the launcher exits only when both are done (bounded);
 * - `exit` SIGKILLs a simulator still running, and the lifeline preloaded into the simulator
 *   (`lifeline.ts`) ends it when the launcher dies by a signal that runs no handler at all.
 */

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, '../../../..');
const SIMULATOR = resolve(ROOT, 'packages/simulator');
const LIFELINE = resolve(HERE, 'lifeline.ts');
const READY = /^sim: ready (\S+) kubeconfig=(.+)$/;
/** `pnpm start --sso`: the embedded provider's line, printed before the ready line's block ends. */
const OIDC = /^sim: oidc issuer (\S+) client (\S+)$/;

/** How a child is started with TypeScript support and the lifeline, without wrapper processes. */
export function childNodeArgs(script: string, args: readonly string[]): string[] {
  return ['--import', 'tsx', '--import', LIFELINE, script, ...args];
}

function startSimulator(
  args: readonly string[],
  timeoutMs: number,
): {
  child: ChildProcess;
  ready: Promise<string>;
  oidc: Promise<{ issuer: string; clientId: string }>;
} {
  const kubeconfigOut = resolve(ROOT, '.sim/kubeconfig');
  const child = spawn(
    process.execPath,
    childNodeArgs('src/cli/sim.ts', ['--port', '0', '--kubeconfig-out', kubeconfigOut, ...args]),
    {
      // The package's folder, as `pnpm sim` runs it (tsx resolves from there); the user's own
      // relative paths (`--state FILE`) are resolved from INIT_CWD, which is passed on.
      cwd: SIMULATOR,
      stdio: ['ignore', 'pipe', 'inherit'],
      env: {
        ...process.env,
        INIT_CWD: process.env.INIT_CWD ?? process.cwd(),
        DCS_LIFELINE_PARENT: String(process.pid),
      },
    },
  );
  let gotOidc: (o: { issuer: string; clientId: string }) => void = () => undefined;
  const oidc = new Promise<{ issuer: string; clientId: string }>((r) => {
    gotOidc = r;
  });
  const ready = new Promise<string>((resolveReady, reject) => {
    const timer = setTimeout(() => {
      reject(new Error(`the simulator was not ready within ${String(timeoutMs)} ms`));
    }, timeoutMs);
    const lines = createInterface({ input: child.stdout });
    lines.on('line', (line) => {
      process.stdout.write(`${line}\n`);
      const o = OIDC.exec(line.trim());
      if (o?.[1] !== undefined && o[2] !== undefined) gotOidc({ issuer: o[1], clientId: o[2] });
      const m = READY.exec(line.trim());
      if (m?.[2] !== undefined) {
        clearTimeout(timer);
        resolveReady(m[2]);
      }
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`the simulator exited (${String(code ?? signal)}) before it was ready`));
    });
  });
  return { child, ready, oidc };
}

const isRunning = (child: ChildProcess) => child.exitCode === null && child.signalCode === null;

async function launch(argv: readonly string[]): Promise<void> {
  const settings = launcherSettings(optionArgs(argv));
  const args = settings.bffArgs;
  // When whoever started us goes away without passing the signal on — SIGTERM to the `pnpm
  // start` at the top of a chain of shells and pnpms (ancestry.ts), or pnpm under `timeout` —
  // stop as on SIGTERM rather than leave the console and the simulator running orphaned. In
  // both modes: serve's SIGTERM handler, or this launcher's below.
  watchAncestors((why) => {
    process.stderr.write(`launcher: ${why}; stopping\n`);
    process.kill(process.pid, 'SIGTERM');
  });
  if (settings.kubeconfig !== undefined) {
    await serveMain(args);
    return;
  }
  process.stdout.write('launcher: starting the embedded management cluster…\n');
  const { child, ready, oidc } = startSimulator(settings.simArgs, settings.simReadyTimeoutMs);
  const childExited = new Promise<void>((done) => {
    child.once('exit', () => {
      done();
    });
  });
  // Shared with the signal handlers, hence an object rather than narrowed locals.
  const run: { stopping: boolean; stopBff?: () => Promise<void> } = { stopping: false };

  // Whatever way this process ends, a simulator still running goes with it.
  process.once('exit', () => {
    if (isRunning(child)) child.kill('SIGKILL');
  });
  const shutdown = (signal: NodeJS.Signals) => {
    if (run.stopping) {
      // A second signal: the user does not want to wait.
      process.exit(130);
    }
    run.stopping = true;
    process.stderr.write(`launcher: ${signal}; stopping the console and the simulator\n`);
    if (isRunning(child)) child.kill('SIGTERM');
    const grace = setTimeout(() => process.exit(1), 15_000);
    grace.unref();
    void Promise.allSettled([run.stopBff?.(), childExited]).then(() => process.exit(0));
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, shutdown);
  child.once('exit', (code, signal) => {
    if (run.stopping) return;
    process.stderr.write(`launcher: the simulator exited (${String(code ?? signal)}); stopping\n`);
    process.exit(1);
  });
  const kubeconfig = await ready;
  if (run.stopping) return;
  if (settings.sso) {
    // The provider's line comes in the same block as the ready line.
    const { issuer, clientId } = await oidc;
    const env = embeddedSsoEnv(
      issuer,
      clientId,
      settings.sso.consoleUrl,
      process.env.SESSION_KEYS ?? randomBytes(32).toString('base64'),
    );
    for (const [k, v] of Object.entries(env)) process.env[k] ??= v;
    process.stdout.write(
      `launcher: single sign-on through ${issuer}: sign in at ${settings.sso.consoleUrl} as operator or viewer (the password is the name)\n`,
    );
  }
  // The simulator stamps objects on the wall clock and `--time-scale X` shortens its durations:
  // a machine counts as stuck after 10 simulated minutes, 10m / X on the BFF's (wall) clock.
  const stuckAfter =
    settings.stuckAfter !== undefined ? ['--stuck-after', settings.stuckAfter] : [];
  run.stopBff = await serve([...args, '--kubeconfig', kubeconfig, '--embedded', ...stuckAfter]);
}

try {
  await launch(process.argv.slice(2));
} catch (error) {
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`launcher: ${message}\n`);
  process.exit(error instanceof ConfigError ? 2 : 1);
}
