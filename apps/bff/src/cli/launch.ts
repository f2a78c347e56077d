import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { launcherSettings } from '../config/env';
import { main as serveMain } from './serve';

/**
 * `pnpm start`: with `--kubeconfig FILE` (or KUBECONFIG) it serves that cluster and starts no
 * simulator. Otherwise it starts the embedded management cluster (`pnpm sim`) as a child
 * process, waits for its `sim: ready <url> kubeconfig=<path>` line (the kubeconfig is written
 * atomically before it), and serves that cluster in local mode. The BFF never imports the
 * simulator: it only runs its command.
 */

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');
const READY = /^sim: ready (\S+) kubeconfig=(.+)$/;

function startSimulator(
  args: readonly string[],
  timeoutMs: number,
): Promise<{ child: ChildProcess; kubeconfig: string }> {
  const kubeconfigOut = resolve(ROOT, '.sim/kubeconfig');
  const child = spawn(
    'pnpm',
    [
      '--silent',
      '--filter',
      '@dcs/simulator',
      'sim',
      '--port',
      '0',
      '--kubeconfig-out',
      kubeconfigOut,
      ...args,
    ],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'], detached: true },
  );
  return new Promise((resolveReady, reject) => {
    const timer = setTimeout(() => {
      reject(new Error(`the simulator was not ready within ${String(timeoutMs)} ms`));
    }, timeoutMs);
    const lines = createInterface({ input: child.stdout });
    lines.on('line', (line) => {
      process.stdout.write(`${line}\n`);
      const m = READY.exec(line.trim());
      if (m?.[2] !== undefined) {
        clearTimeout(timer);
        resolveReady({ child, kubeconfig: m[2] });
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the simulator exited (${String(code)}) before it was ready`));
    });
  });
}

async function launch(argv: readonly string[]): Promise<void> {
  const settings = launcherSettings(argv);
  if (settings.kubeconfig !== undefined) {
    await serveMain(argv);
    return;
  }
  process.stdout.write('launcher: starting the embedded management cluster…\n');
  const { child, kubeconfig } = await startSimulator(settings.simArgs, settings.simReadyTimeoutMs);
  const stopChild = () => {
    if (child.pid !== undefined && child.exitCode === null) {
      try {
        // The simulator runs in its own process group (pnpm → tsx → node): end all of it.
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        child.kill('SIGTERM');
      }
    }
  };
  let stopping = false;
  child.once('exit', (code) => {
    if (stopping) return;
    process.stderr.write(`launcher: the simulator exited (${String(code)}); stopping\n`);
    process.exit(1);
  });
  // The BFF shuts down first (streams drained), then the simulator goes with the process.
  process.once('exit', () => {
    stopping = true;
    stopChild();
  });
  // When whoever started us goes away without passing the signal on (pnpm under `timeout`),
  // shut down too rather than leave the console and the simulator running orphaned.
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) process.kill(process.pid, 'SIGTERM');
  }, 1000).unref();
  // The simulator stamps objects on the wall clock and `--time-scale X` shortens its durations:
  // a machine counts as stuck after 10 simulated minutes, 10m / X on the BFF's (wall) clock.
  const stuckAfter =
    settings.stuckAfter !== undefined ? ['--stuck-after', settings.stuckAfter] : [];
  await serveMain([...argv, '--kubeconfig', kubeconfig, '--embedded', ...stuckAfter]);
}

try {
  await launch(process.argv.slice(2));
} catch (error) {
  process.stderr.write(`launcher: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
