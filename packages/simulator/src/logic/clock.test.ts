import { describe, expect, it } from 'vitest';
import { createClock, toISO } from './clock';

describe('simulated clock', () => {
  it('a manual clock moves only through advance(), firing timers in order, including those set on the way', async () => {
    const clock = createClock({ start: Date.UTC(2026, 0, 1), timeScale: 0 });
    const fired: string[] = [];
    clock.setTimer(20_000, () => fired.push(`b@${clock.now() - Date.UTC(2026, 0, 1)}`));
    clock.setTimer(10_000, () => {
      fired.push(`a@${clock.now() - Date.UTC(2026, 0, 1)}`);
      clock.setTimer(5_000, () => fired.push(`c@${clock.now() - Date.UTC(2026, 0, 1)}`));
    });
    const cancelled = clock.setTimer(12_000, () => fired.push('never'));
    cancelled();
    expect(clock.now()).toBe(Date.UTC(2026, 0, 1));
    await clock.advance(60_000);
    expect(fired).toEqual(['a@10000', 'c@15000', 'b@20000']);
    expect(clock.now()).toBe(Date.UTC(2026, 0, 1) + 60_000);
  });

  it('stamps are wall-clock time whatever the simulated clock says; simAt maps wall instants back', async () => {
    let real = Date.UTC(2026, 5, 1, 12, 0, 0);
    const clock = createClock({ timeScale: 60, realNow: () => real });
    const start = clock.now();
    real += 10_000;
    expect(clock.now() - start).toBe(600_000);
    expect(clock.stamp()).toBe('2026-06-01T12:00:10Z');
    expect(clock.simAt(real) - start).toBe(600_000);
    // An advance moves the simulated clock only from the real instant it happened.
    await clock.advance(3_600_000);
    expect(clock.simAt(real - 1) - start).toBe(600_000 - 60);
    expect(clock.simAt(real) - start).toBe(4_200_000);
    real += 1000;
    expect(clock.simAt(real) - start).toBe(4_260_000);
    expect(clock.stamp()).toBe('2026-06-01T12:00:11Z');
    clock.stop();
  });

  it('timers due at the same instant fire in the order they were set', async () => {
    const clock = createClock({ timeScale: 0 });
    const fired: number[] = [];
    for (let i = 0; i < 10; i++) clock.setTimer(1000, () => fired.push(i));
    await clock.advance(1000);
    expect(fired).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('a scaled clock runs timeScale simulated seconds per real second', () => {
    let real = 1_000_000;
    const clock = createClock({ start: 0, timeScale: 60, realNow: () => real });
    real += 1000;
    expect(clock.now()).toBe(60_000);
  });

  it('--time-scale fires simulated timers after delay / scale real milliseconds', async () => {
    const clock = createClock({ timeScale: 1000 });
    const started = Date.now();
    await clock.sleep(50_000);
    const real = Date.now() - started;
    expect(real).toBeGreaterThanOrEqual(40);
    expect(real).toBeLessThan(1000);
    clock.stop();
  });

  it('a scaled clock can also be advanced (tests skip waits)', async () => {
    const clock = createClock({ timeScale: 1 });
    let fired = false;
    clock.setTimer(3_600_000, () => (fired = true));
    await clock.advance(3_600_000);
    expect(fired).toBe(true);
    clock.stop();
  });

  it('rejects a negative time scale', () => {
    expect(() => createClock({ timeScale: -1 })).toThrow(/time scale/);
  });

  it('writes timestamps as Kubernetes does', () => {
    expect(toISO(Date.UTC(2026, 4, 3, 2, 1, 0, 999))).toBe('2026-05-03T02:01:00Z');
  });
});
