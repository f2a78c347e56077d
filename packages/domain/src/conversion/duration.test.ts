import { describe, expect, it } from 'vitest';
import {
  durationToSeconds,
  formatGoDuration,
  parseGoDurationExact,
  secondsToDuration,
} from './duration';

/**
 * Cases from Go's own tests of the time package (`time_test.go`: parseDurationTests,
 * parseDurationErrorTests, durationTests), so that the v1beta1 duration strings are read, and
 * written back, exactly as Cluster API's Go code reads and writes them.
 */

const SECOND = 1_000_000_000n;
const MINUTE = 60n * SECOND;
const HOUR = 60n * MINUTE;

describe('parseGoDurationExact (Go parseDurationTests)', () => {
  const cases: [string, bigint][] = [
    ['0', 0n],
    ['5s', 5n * SECOND],
    ['30s', 30n * SECOND],
    ['1478s', 1478n * SECOND],
    ['-5s', -5n * SECOND],
    ['+5s', 5n * SECOND],
    ['-0', 0n],
    ['+0', 0n],
    ['5.0s', 5n * SECOND],
    ['5.6s', 5n * SECOND + 600_000_000n],
    ['5.s', 5n * SECOND],
    ['.5s', 500_000_000n],
    ['1.0s', SECOND],
    ['1.00s', SECOND],
    ['1.004s', SECOND + 4_000_000n],
    ['1.0040s', SECOND + 4_000_000n],
    ['100.00100s', 100n * SECOND + 1_000_000n],
    ['10ns', 10n],
    ['11us', 11_000n],
    ['12µs', 12_000n],
    ['12μs', 12_000n],
    ['13ms', 13_000_000n],
    ['14s', 14n * SECOND],
    ['15m', 15n * MINUTE],
    ['16h', 16n * HOUR],
    ['3h30m', 3n * HOUR + 30n * MINUTE],
    ['10.5s4m', 4n * MINUTE + 10n * SECOND + 500_000_000n],
    ['-2m3.4s', -(2n * MINUTE + 3n * SECOND + 400_000_000n)],
    ['1h2m3s4ms5us6ns', HOUR + 2n * MINUTE + 3n * SECOND + 4_000_000n + 5_000n + 6n],
    ['39h9m14.425s', 39n * HOUR + 9n * MINUTE + 14n * SECOND + 425_000_000n],
    ['52763797000ns', 52_763_797_000n],
    ['0.3333333333333333333h', 20n * MINUTE],
    ['9007199254740993ns', (1n << 53n) + 1n],
    ['9223372036854775807ns', (1n << 63n) - 1n],
    ['9223372036854775.807us', (1n << 63n) - 1n],
    ['9223372036s854ms775us807ns', (1n << 63n) - 1n],
    ['-9223372036854775808ns', -(1n << 63n)],
    ['-9223372036854775.808us', -(1n << 63n)],
    ['-9223372036s854ms775us808ns', -(1n << 63n)],
    ['0.100000000000000000000h', 6n * MINUTE],
    ['0.830103483285477580700h', 49n * MINUTE + 48n * SECOND + 372_539_827n],
  ];
  it.each(cases)('%s', (text, ns) => {
    expect(parseGoDurationExact(text)).toBe(ns);
  });

  const errors: [string, string][] = [
    ['', 'time: invalid duration ""'],
    ['3', 'time: missing unit in duration "3"'],
    ['-', 'time: invalid duration "-"'],
    ['s', 'time: invalid duration "s"'],
    ['.', 'time: invalid duration "."'],
    ['-.', 'time: invalid duration "-."'],
    ['.s', 'time: invalid duration ".s"'],
    ['+.s', 'time: invalid duration "+.s"'],
    ['1d', 'time: unknown unit "d" in duration "1d"'],
    ['5 minutes', 'time: unknown unit " minutes" in duration "5 minutes"'],
    ['9223372036854775808ns', 'time: invalid duration "9223372036854775808ns"'],
    ['9223372036854775.808us', 'time: invalid duration "9223372036854775.808us"'],
    ['9223372036s854ms775us808ns', 'time: invalid duration "9223372036s854ms775us808ns"'],
    ['-9223372036854775809ns', 'time: invalid duration "-9223372036854775809ns"'],
  ];
  it.each(errors)('refuses %j', (text, message) => {
    expect(() => parseGoDurationExact(text)).toThrow(message);
  });
});

describe('formatGoDuration (Go durationTests)', () => {
  const cases: [string, bigint][] = [
    ['0s', 0n],
    ['1ns', 1n],
    ['1.1µs', 1_100n],
    ['2.2ms', 2_200_000n],
    ['3.3s', 3_300_000_000n],
    ['4m5s', 4n * MINUTE + 5n * SECOND],
    ['4m5.001s', 4n * MINUTE + 5001n * 1_000_000n],
    ['5h6m7.001s', 5n * HOUR + 6n * MINUTE + 7001n * 1_000_000n],
    ['8m0.000000001s', 8n * MINUTE + 1n],
    ['2562047h47m16.854775807s', (1n << 63n) - 1n],
    ['-2562047h47m16.854775808s', -(1n << 63n)],
  ];
  it.each(cases)('%s', (text, ns) => {
    expect(formatGoDuration(ns)).toBe(text);
  });
});

describe("Cluster API's ConvertToSeconds / ConvertFromSeconds", () => {
  it('truncates the sub-second part, toward zero', () => {
    expect(durationToSeconds('1m30s')).toBe(90);
    expect(durationToSeconds('1.5s')).toBe(1);
    expect(durationToSeconds('999ms')).toBe(0);
    expect(durationToSeconds('-1.5s')).toBe(-1);
    expect(durationToSeconds('0s')).toBe(0);
    expect(durationToSeconds('2h')).toBe(7200);
  });
  it('caps at MaxInt32', () => {
    expect(durationToSeconds('1000000h')).toBe(2 ** 31 - 1);
  });
  it("writes seconds as Go's Duration.String()", () => {
    expect(secondsToDuration(90)).toBe('1m30s');
    expect(secondsToDuration(0)).toBe('0s');
    expect(secondsToDuration(7200)).toBe('2h0m0s');
    expect(secondsToDuration(10)).toBe('10s');
    expect(secondsToDuration(2 ** 31 - 1)).toBe('596523h14m7s');
  });
});
