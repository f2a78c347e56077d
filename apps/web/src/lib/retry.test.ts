import { describe, expect, it } from 'vitest';
import { ApiError } from './api-client';
import { RETRY_AFTER_BUDGET_MS, retryReadDelay, shouldRetryRead } from './retry';

const fault = (status: number, retryAfterSeconds?: number) =>
  new ApiError(status, `HTTP_${String(status)}`, 'x', [], {}, retryAfterSeconds);

describe('retrying a failed read', () => {
  it('never retries a client fault; retries a server fault twice with back-off', () => {
    expect(shouldRetryRead(0, fault(404))).toBe(false);
    expect(shouldRetryRead(0, fault(500))).toBe(true);
    expect(shouldRetryRead(1, fault(502))).toBe(true);
    expect(shouldRetryRead(2, fault(502))).toBe(false);
    expect(retryReadDelay(0, fault(500))).toBe(1000);
    expect(retryReadDelay(1, fault(500))).toBe(2000);
    expect(shouldRetryRead(0, new TypeError('network'))).toBe(true);
  });

  it('a 503 with Retry-After (the BFF still on its first list) is asked again at that pace for a minute, not shown after two tries', () => {
    const starting = fault(503, 1);
    const tries = Array.from({ length: 100 }, (_, n) => n).filter((n) =>
      shouldRetryRead(n, starting),
    ).length;
    expect(tries).toBe(RETRY_AFTER_BUDGET_MS / 1000);
    expect(retryReadDelay(5, starting)).toBe(1000);
    expect(retryReadDelay(0, fault(503, 0))).toBe(1000);
  });
});
