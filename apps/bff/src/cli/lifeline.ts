/**
 * Preloaded (`node --import`) into the processes the launcher starts, so that they end with it
 * whatever the way it ends — even SIGKILL, when no handler of the launcher can run (issue 10
 * item 8). The launcher passes its pid in DCS_LIFELINE_PARENT and starts the child directly
 * (no pnpm or tsx in between), so the child's parent is the launcher until the launcher is gone;
 * then the child is re-parented, its ppid changes, and it shuts itself down as on SIGTERM.
 */

const POLL_MS = 250;
/** Time the child gets for its own graceful shutdown before it exits regardless. */
const GRACE_MS = 10_000;

const parent = Number(process.env.DCS_LIFELINE_PARENT);
if (Number.isInteger(parent) && parent > 1) {
  const check = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(check);
    process.stderr.write(`lifeline: the launcher (pid ${String(parent)}) is gone; stopping\n`);
    setTimeout(() => process.exit(1), GRACE_MS).unref();
    process.kill(process.pid, 'SIGTERM');
  }, POLL_MS);
  // The check must never be what keeps the process alive.
  check.unref();
  // The launcher reads the child's stdout: once it is gone, a write there fails with EPIPE, which
  // must not crash the child in the middle of its graceful shutdown (state still to be saved).
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
  });
}
