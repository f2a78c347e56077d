/**
 * Go's time.Duration text ("1m", "5m30s", "300ms", "1h"), as Cluster API writes nodeDrainTimeout
 * and nodeDeletionTimeout (metav1.Duration), and the simulated durations of each lifecycle step.
 */

const UNIT_MS: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

/** Milliseconds of a Go duration string; undefined when it is not one. "0s" is 0. */
export function parseGoDuration(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const s = text.trim();
  if (s === '0') return 0;
  const re = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|ms|s|m|h)/gy;
  let total = 0;
  let matched = 0;
  const sign = s.startsWith('-') ? -1 : 1;
  re.lastIndex = s.startsWith('-') || s.startsWith('+') ? 1 : 0;
  for (let m = re.exec(s); m; m = re.exec(s)) {
    total += Number(m[1]) * (UNIT_MS[m[2] ?? ''] ?? Number.NaN);
    matched = re.lastIndex;
  }
  if (matched === 0 || matched !== s.length || Number.isNaN(total)) return undefined;
  return sign * total;
}

/** A duration as Go prints it, for messages ("1m0s", "45s"). */
export function formatGoDuration(ms: number): string {
  if (ms === 0) return '0s';
  const totalSeconds = Math.round(ms / 1000);
  const h = Math.floor(totalSeconds / 3600);
  const m = Math.floor((totalSeconds % 3600) / 60);
  const sec = totalSeconds % 60;
  if (h > 0) return `${h}h${m}m${sec}s`;
  if (m > 0) return `${m}m${sec}s`;
  return `${sec}s`;
}
