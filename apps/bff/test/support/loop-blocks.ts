import { monitorEventLoopDelay } from 'node:perf_hooks';

/**
 * How long the event loop was held at a stretch while `run` ran (issue 25, item 6: "no single
 * request holds the process for more than 100 ms"), in two measures:
 * - `wallMs`: the longest event-loop delay (perf_hooks' monitorEventLoopDelay), what another
 *   request waiting behind the stretch sees; on a shared machine it also counts the time the
 *   process was not given a core;
 * - `cpuMs`: the most CPU the process spent between two turns of a timer that re-arms itself
 *   every turn (process.cpuUsage, every thread of the process: the garbage collector's helpers
 *   too), which a busy neighbour does not inflate. What the tests hold a bound to.
 */
export async function loopBlocks<T>(
  run: () => Promise<T>,
): Promise<{ result: T; wallMs: number; cpuMs: number }> {
  const cpu = () => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  };
  let last = cpu();
  let cpuMs = 0;
  let timer: NodeJS.Timeout | undefined;
  const tick = () => {
    const now = cpu();
    cpuMs = Math.max(cpuMs, now - last);
    last = now;
    timer = setTimeout(tick, 0);
  };
  timer = setTimeout(tick, 0);
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  try {
    const result = await run();
    // The stretch that ends the request is counted by the next turn.
    await new Promise((r) => setTimeout(r, 5));
    return { result, wallMs: delay.max / 1e6, cpuMs };
  } finally {
    delay.disable();
    clearTimeout(timer);
  }
}
