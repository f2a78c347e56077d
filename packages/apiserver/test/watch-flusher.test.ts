/**
 * Watch lines are flushed at most once per interval, counted from the end of the previous flush
 * (issue 14): a flush slower than the interval (100 socket writes on a loaded machine) must not
 * make the next one due at once, or every I/O turn writes its one or two events to every socket.
 */
import { describe, expect, it } from 'vitest';
import { WatchFlusher } from '../src/http/watch';

function busy(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // a flush's socket writes, standing still
  }
}

describe('WatchFlusher', () => {
  it('waits a whole interval after a flush that took longer than the interval', async () => {
    const interval = 40;
    const flusher = new WatchFlusher(interval);
    let firstEnded = 0;
    const second = new Promise<number>((resolve) => {
      flusher.schedule(() => {
        busy(interval + 20);
        firstEnded = performance.now();
        // An event arriving while the slow flush runs, as a request read in the same turn.
        setImmediate(() => {
          flusher.schedule(() => {
            resolve(performance.now());
          });
        });
      });
    });
    const secondRan = await second;
    // Timers never fire early by more than their millisecond rounding.
    expect(secondRan - firstEnded).toBeGreaterThanOrEqual(interval - 2);
  });

  it('flushes at the end of the I/O turn after a quiet spell', async () => {
    const flusher = new WatchFlusher(10_000);
    const started = performance.now();
    await new Promise<void>((resolve) => {
      flusher.schedule(resolve);
    });
    // The first flush is never held back by the interval.
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});
