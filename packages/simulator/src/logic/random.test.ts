import { describe, expect, it } from 'vitest';
import { fnv1a32, NAME_ALPHABET, seeded } from './random';
import { formatGoDuration, parseGoDuration } from './durations';
import { DEFAULT_TIMINGS, stepDuration } from './timings';

describe('seeded randomness (--random-seed)', () => {
  it('the same seed and key give the same stream; another key or seed another', () => {
    const a = seeded(42, 'ms', 'demo-md-0');
    const b = seeded(42, 'ms', 'demo-md-0');
    const xs = Array.from({ length: 5 }, () => a.next());
    expect(Array.from({ length: 5 }, () => b.next())).toEqual(xs);
    expect(seeded(42, 'ms', 'demo-md-1').next()).not.toBe(xs[0]);
    expect(seeded(43, 'ms', 'demo-md-0').next()).not.toBe(xs[0]);
  });

  it("names use apimachinery rand.String's alphabet", () => {
    const s = seeded(1).string(200);
    expect(s).toHaveLength(200);
    expect(new RegExp(`^[${NAME_ALPHABET}]+$`).test(s)).toBe(true);
  });

  it('int() covers both bounds', () => {
    const r = seeded(5);
    const seen = new Set(Array.from({ length: 500 }, () => r.int(1, 3)));
    expect([...seen].sort()).toEqual([1, 2, 3]);
  });

  it('FNV-1a 32 matches the reference values', () => {
    expect(fnv1a32('')).toBe(0x811c9dc5);
    expect(fnv1a32('a')).toBe(0xe40c292c);
    expect(fnv1a32('foobar')).toBe(0xbf9cf968);
  });

  it('step durations are reproducible and within the ranges', () => {
    const d = stepDuration(DEFAULT_TIMINGS, 7, 'm1', 'vmCreate');
    expect(stepDuration(DEFAULT_TIMINGS, 7, 'm1', 'vmCreate')).toBe(d);
    expect(d).toBeGreaterThanOrEqual(45_000);
    expect(d).toBeLessThanOrEqual(120_000);
  });
});

describe('Go durations (nodeDrainTimeout, nodeDeletionTimeout)', () => {
  it.each([
    ['1m', 60_000],
    ['5m', 300_000],
    ['1m30s', 90_000],
    ['1h2m3s', 3_723_000],
    ['300ms', 300],
    ['1.5s', 1500],
    ['0s', 0],
    ['0', 0],
  ])('%s is %i ms', (text, ms) => {
    expect(parseGoDuration(text)).toBe(ms);
  });

  it.each(['', '5', 'm', '1x', '1m junk'])('%j is not a duration', (text) => {
    expect(parseGoDuration(text)).toBeUndefined();
  });

  it('prints like Go', () => {
    expect(formatGoDuration(60_000)).toBe('1m0s');
    expect(formatGoDuration(45_000)).toBe('45s');
    expect(formatGoDuration(3_723_000)).toBe('1h2m3s');
  });
});
