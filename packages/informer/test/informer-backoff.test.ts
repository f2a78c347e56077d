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

describe('Informer: how long it has been failing, and why', () => {
  it('reports failingSince and lastError during a run of failures and clears both once healthy', async () => {
    const server = await startServer();
    const informer = startInformer(server, { backoff: { initialMs: 20, maxMs: 40, jitter: 0 } });
    await informer.synced;
    await expect.poll(() => server.openWatches).toBe(1);
    expect(informer.metrics()).toMatchObject({ failingSince: 0, lastError: '' });

    const before = Date.now();
    server.scriptWatch(
      ...Array.from({ length: 5 }, () => ({ kind: 'status' as const, code: 503 })),
    );
    server.add('a');
    server.endWatches();
    await expect.poll(() => informer.metrics().consecutiveFailures).toBeGreaterThanOrEqual(2);
    const failing = informer.metrics();
    expect(failing.failingSince).toBeGreaterThanOrEqual(before);
    expect(failing.lastError).not.toBe('');
    // The start of the run stays put while failures go on.
    await expect.poll(() => informer.metrics().consecutiveFailures).toBeGreaterThanOrEqual(3);
    expect(informer.metrics().failingSince).toBe(failing.failingSince);

    await expect.poll(() => server.openWatches).toBe(1);
    expect(informer.metrics()).toMatchObject({ failingSince: 0, lastError: '' });
  });

  it('retries at once on retryNow() instead of waiting out a long backoff', async () => {
    const server = await startServer();
    const informer = startInformer(server, {
      backoff: { initialMs: 60_000, maxMs: 60_000, jitter: 0 },
    });
    await informer.synced;
    await expect.poll(() => server.openWatches).toBe(1);
    server.scriptWatch({ kind: 'status', code: 503 });
    server.add('a');
    server.endWatches();
    await expect.poll(() => informer.metrics().state).toBe('backoff');
    const requests = server.watchRequests().length;
    informer.retryNow();
    await expect.poll(() => server.watchRequests().length, { timeout: 2_000 }).toBe(requests + 1);
    await expect.poll(() => server.openWatches).toBe(1);
    expect(informer.metrics().consecutiveFailures).toBe(0);
  });
});
