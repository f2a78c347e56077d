/**
 * Go's `time.ParseDuration`, which Kubernetes' `metav1.Duration` uses to decode every duration
 * field Cluster API has (nodeDrainTimeout, nodeDeletionTimeout, nodeVolumeDetachTimeout …). The
 * CRDs declare them as plain strings, so the API server stores `"soon"`; the controllers then
 * fail to decode the object. The console accepts only what Go would parse.
 */

const UNIT_NANOS: Readonly<Record<string, number>> = {
  ns: 1,
  us: 1e3,
  µs: 1e3, // U+00B5 micro sign, as Go accepts
  μs: 1e3, // U+03BC Greek mu, as Go accepts
  ms: 1e6,
  s: 1e9,
  m: 60e9,
  h: 3600e9,
};

/** Go's time.Duration is an int64 of nanoseconds: 2^63 - 1, as near as a double comes. */
const MAX_NANOS = 2 ** 63 - 1;

const COMPONENT = /^(\d*)(?:\.(\d*))?([^\d.]*)/u;

/**
 * The duration in nanoseconds, or undefined when Go's `time.ParseDuration` would refuse it:
 * an optional sign, then one or more `<number><unit>` (units ns, us, µs, ms, s, m, h), or `0`.
 * Precision beyond a double's does not matter to a timeout.
 */
export function parseGoDuration(text: string): number | undefined {
  let s = text;
  let sign = 1;
  if (s.startsWith('-') || s.startsWith('+')) {
    if (s.startsWith('-')) sign = -1;
    s = s.slice(1);
  }
  if (s === '0') return 0;
  if (s === '') return undefined;
  let total = 0;
  while (s !== '') {
    const m = COMPONENT.exec(s);
    if (!m) return undefined;
    const [whole, int = '', frac, unit = ''] = m;
    // A number needs a digit on one side of the point at least; a unit is required.
    if (int === '' && (frac === undefined || frac === '')) return undefined;
    const nanos = UNIT_NANOS[unit];
    if (nanos === undefined || !Object.hasOwn(UNIT_NANOS, unit)) return undefined;
    total += Number(`${int || '0'}.${frac ?? '0'}`) * nanos;
    if (total > MAX_NANOS) return undefined;
    s = s.slice(whole.length);
  }
  return sign * total;
}

export const isGoDuration = (text: string): boolean => parseGoDuration(text) !== undefined;
