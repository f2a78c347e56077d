/**
 * Go's `time.ParseDuration` and `time.Duration.String()`, exactly (int64 nanoseconds as a
 * bigint), and Cluster API's `ConvertToSeconds` / `ConvertFromSeconds` (api/core/v1beta2,
 * v1.14.0), which carry every v1beta1 duration string to a v1beta2 int32 of seconds and back.
 * `rules/duration.ts` judges a request's durations with a double, which is enough to accept or
 * refuse; a conversion must give the very number upstream gives, so it counts exactly.
 */

const MAX_INT64 = (1n << 63n) - 1n;
/** Go counts in a uint64 and allows 1<<63 until the sign is known (-1<<63 is a Duration). */
const LIMIT = 1n << 63n;
const MAX_INT32 = 2 ** 31 - 1;
const NS_PER_S = 1_000_000_000n;

const UNITS: ReadonlyMap<string, bigint> = new Map([
  ['ns', 1n],
  ['us', 1_000n],
  ['µs', 1_000n], // U+00B5 micro sign
  ['μs', 1_000n], // U+03BC Greek small letter mu
  ['ms', 1_000_000n],
  ['s', NS_PER_S],
  ['m', 60n * NS_PER_S],
  ['h', 3600n * NS_PER_S],
]);

/** Go's `strconv.Quote` for the error text, as far as duration strings need it. */
const quote = (s: string): string => JSON.stringify(s);

export class GoDurationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GoDurationError';
  }
}

const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';

/**
 * `time.ParseDuration(text)` in nanoseconds; throws {@link GoDurationError} with Go's own message
 * (`time: invalid duration "5 minutes"`, `time: missing unit in duration "5"`, `time: unknown unit
 * "d" in duration "1d"`) where Go returns an error.
 */
export function parseGoDurationExact(text: string): bigint {
  const orig = text;
  let s = text;
  let neg = false;
  if (s !== '') {
    if (s.startsWith('-') || s.startsWith('+')) {
      neg = s.startsWith('-');
      s = s.slice(1);
    }
  }
  if (s === '0') return 0n;
  if (s === '') throw new GoDurationError(`time: invalid duration ${quote(orig)}`);
  let d = 0n;
  while (s !== '') {
    if (!(s.startsWith('.') || isDigit(s[0]))) {
      throw new GoDurationError(`time: invalid duration ${quote(orig)}`);
    }
    // The integer part (Go's leadingInt).
    let i = 0;
    let v = 0n;
    while (isDigit(s[i])) {
      if (v > LIMIT / 10n) throw new GoDurationError(`time: invalid duration ${quote(orig)}`);
      v = v * 10n + BigInt(s.charCodeAt(i) - 48);
      if (v > LIMIT) throw new GoDurationError(`time: invalid duration ${quote(orig)}`);
      i++;
    }
    const pre = i > 0;
    s = s.slice(i);
    // The fraction (Go's leadingFraction): digits are kept while they fit, scaled by their count.
    let f = 0n;
    let scale = 1;
    let post = false;
    if (s.startsWith('.')) {
      s = s.slice(1);
      let j = 0;
      let overflow = false;
      while (isDigit(s[j])) {
        if (!overflow) {
          const y = f * 10n + BigInt(s.charCodeAt(j) - 48);
          if (f > MAX_INT64 / 10n || y > LIMIT) {
            overflow = true;
          } else {
            f = y;
            scale *= 10;
          }
        }
        j++;
      }
      post = j > 0;
      s = s.slice(j);
    }
    if (!pre && !post) throw new GoDurationError(`time: invalid duration ${quote(orig)}`);
    // The unit: everything up to the next digit or point.
    let k = 0;
    while (k < s.length && s[k] !== '.' && !isDigit(s[k])) k++;
    if (k === 0) throw new GoDurationError(`time: missing unit in duration ${quote(orig)}`);
    const u = s.slice(0, k);
    s = s.slice(k);
    const unit = UNITS.get(u);
    if (unit === undefined) {
      throw new GoDurationError(`time: unknown unit ${quote(u)} in duration ${quote(orig)}`);
    }
    if (v > LIMIT / unit) throw new GoDurationError(`time: invalid duration ${quote(orig)}`);
    v *= unit;
    if (f > 0n) {
      // Go: v += uint64(float64(f) * (float64(unit) / scale)), in doubles as Go computes it.
      v += BigInt(Math.trunc(Number(f) * (Number(unit) / scale)));
      if (v > LIMIT) throw new GoDurationError(`time: invalid duration ${quote(orig)}`);
    }
    d += v;
    if (d > LIMIT) throw new GoDurationError(`time: invalid duration ${quote(orig)}`);
  }
  if (neg) return -d;
  if (d > MAX_INT64) throw new GoDurationError(`time: invalid duration ${quote(orig)}`);
  return d;
}

/** Go's `time.Duration.String()`: `"1h30m0s"`, `"1.5s"`, `"500ms"`, `"0s"`. */
export function formatGoDuration(ns: bigint): string {
  if (ns === 0n) return '0s';
  const neg = ns < 0n;
  let u = neg ? -ns : ns;
  let out: string;
  if (u < NS_PER_S) {
    // Below a second: the largest of ns, µs, ms that keeps an integer part, with a fraction.
    const [unit, div] =
      u < 1_000n ? ['ns', 1n] : u < 1_000_000n ? ['µs', 1_000n] : ['ms', 1_000_000n];
    out = `${fraction(u, div)}${unit}`;
  } else {
    const h = u / (3600n * NS_PER_S);
    u -= h * 3600n * NS_PER_S;
    const m = u / (60n * NS_PER_S);
    u -= m * 60n * NS_PER_S;
    const secs = fraction(u, NS_PER_S);
    out = h > 0n ? `${h}h${m}m${secs}s` : m > 0n ? `${m}m${secs}s` : `${secs}s`;
  }
  return neg ? `-${out}` : out;
}

/** `n / div` with the fraction's trailing zeros (and a bare point) removed, as Go prints it. */
function fraction(n: bigint, div: bigint): string {
  const whole = n / div;
  const rest = n % div;
  if (rest === 0n) return whole.toString();
  const digits = div.toString().length - 1;
  const frac = rest.toString().padStart(digits, '0').replace(/0+$/u, '');
  return `${whole}.${frac}`;
}

/**
 * Cluster API's `ConvertToSeconds`: the whole seconds of a duration (`math.Trunc`, so `"1.5s"`
 * is 1 and `"-1.5s"` is -1), capped at MaxInt32.
 */
export function durationToSeconds(text: string): number {
  const ns = parseGoDurationExact(text);
  // Go: math.Trunc(d.Seconds()), d.Seconds() = float64(sec) + float64(nsec)/1e9.
  const sec = ns / NS_PER_S;
  const seconds = Math.trunc(Number(sec) + Number(ns % NS_PER_S) / 1e9);
  return seconds > MAX_INT32 ? MAX_INT32 : seconds;
}

/** Cluster API's `ConvertFromSeconds`: `time.Duration(s) * time.Second`, as Go prints it. */
export function secondsToDuration(seconds: number): string {
  return formatGoDuration(BigInt(Math.trunc(seconds)) * NS_PER_S);
}
