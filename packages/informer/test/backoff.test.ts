import { describe, expect, it } from 'vitest';
import { Backoff, backoffBase } from '../src/backoff';

describe('backoff', () => {
  it('doubles from 200 ms and caps at 30 s by default', () => {
    const backoff = new Backoff({ jitter: 0 });
    const delays = Array.from({ length: 12 }, () => backoff.next(0));
    expect(delays).toEqual([
      200, 400, 800, 1_600, 3_200, 6_400, 12_800, 25_600, 30_000, 30_000, 30_000, 30_000,
    ]);
  });

  it('never exceeds the cap, whatever the attempt or the jitter', () => {
    expect(backoffBase(10_000, 200, 2, 30_000)).toBe(30_000);
    for (const r of [0, 0.3, 0.999, 1]) {
      const backoff = new Backoff({ initialMs: 100, maxMs: 1_000, jitter: 1 }, () => r);
      for (let i = 0; i < 50; i += 1) expect(backoff.next(0)).toBeLessThanOrEqual(1_000);
    }
  });

  it('jitters within [base × (1 − jitter), base]', () => {
    const low = new Backoff({ initialMs: 1_000, jitter: 0.5 }, () => 1).next(0);
    const high = new Backoff({ initialMs: 1_000, jitter: 0.5 }, () => 0).next(0);
    expect([low, high]).toEqual([500, 1_000]);
  });

  it('resets after a healthy period, not after a short one', () => {
    const backoff = new Backoff({ jitter: 0, resetAfterMs: 60_000 });
    backoff.next(0);
    backoff.next(1);
    expect(backoff.next(2)).toBe(800);
    backoff.healthy(10_000);
    expect(backoff.next(20_000)).toBe(1_600); // healthy for 10 s only: keep growing
    backoff.healthy(30_000);
    expect(backoff.next(90_000)).toBe(200); // healthy for 60 s: start over
    expect(backoff.attempt).toBe(1);
  });
});
