import { describe, expect, it, vi } from 'vitest';
import type { ErrorInfo } from '../src/options';
import { startInformer, startServer } from './support/harness';

describe('Informer: backoff', () => {
  it('retries every failure with exponentially growing delays, capped', async () => {
    const server = await startServer();
    const retries: number[] = [];
    const onError = vi.fn((_: Error, info: ErrorInfo) => {
      if (info.retryInMs !== undefined) retries.push(info.retryInMs);
    });
    const informer = startInformer(server, {
      onError,
      backoff: { initialMs: 20, maxMs: 100, jitter: 0 },
    });
    await informer.synced;
    await expect.poll(() => server.openWatches).toBe(1);
    server.scriptWatch(
      ...Array.from({ length: 7 }, () => ({ kind: 'status' as const, code: 500 })),
    );
    server.add('a'); // an event first, so the clean end below is not itself a failure
    server.endWatches();
    await expect.poll(() => retries.length, { timeout: 5_000 }).toBe(7);
    expect(retries).toEqual([20, 40, 80, 100, 100, 100, 100]);

    // The delays really are waited, and never much longer than the cap.
    await expect.poll(() => server.openWatches, { timeout: 5_000 }).toBe(1);
    const at = server.watchRequests().map((r) => r.at);
    const gaps = at.slice(2).map((t, i) => t - (at[i + 1] ?? t));
    expect(gaps).toHaveLength(7);
    gaps.forEach((gap, i) => {
      expect(gap).toBeGreaterThanOrEqual((retries[i] ?? 0) - 5);
      expect(gap).toBeLessThan(100 + 150);
    });
    expect(informer.metrics().consecutiveFailures).toBe(0); // connected again
  });

  it('starts again from the initial delay after a healthy period', async () => {
    const server = await startServer();
    const retries: number[] = [];
    const informer = startInformer(server, {
      onError: (_, info) => {
        if (info.retryInMs !== undefined) retries.push(info.retryInMs);
      },
      backoff: { initialMs: 20, maxMs: 1_000, jitter: 0, resetAfterMs: 200 },
    });
    await informer.synced;
    await expect.poll(() => server.openWatches).toBe(1);
    server.scriptWatch({ kind: 'status', code: 503 }, { kind: 'status', code: 503 });
    server.add('a');
    server.endWatches();
    await expect.poll(() => server.openWatches).toBe(1);
    expect(retries).toEqual([20, 40]);

    server.dropWatches(); // right away: the connection was healthy for too short a time
    await expect.poll(() => retries.length).toBe(3);
    expect(retries[2]).toBe(80);
    await expect.poll(() => server.openWatches).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 300)); // healthy for longer than resetAfterMs
    server.dropWatches();
    await expect.poll(() => retries.length).toBe(4);
    expect(retries[3]).toBe(20);
  });
});
