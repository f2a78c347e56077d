/**
 * Durations as operators write them for kubectl and Go programs (`10m`, `90s`, `1m30s`, `250ms`),
 * for settings that are lengths of time rather than tuning knobs in milliseconds.
 */

const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 } as const;
const PART = /(\d+(?:\.\d+)?)(ms|s|m|h)/gy;

/** Milliseconds of a duration such as `10m`, `90s` or `1m30s`; undefined when it is not one. */
export function parseDuration(text: string): number | undefined {
  const s = text.trim();
  if (s === '') return undefined;
  PART.lastIndex = 0;
  let total = 0;
  let end = 0;
  for (let m = PART.exec(s); m !== null; m = PART.exec(s)) {
    total += Number(m[1]) * UNIT_MS[m[2] as keyof typeof UNIT_MS];
    end = PART.lastIndex;
  }
  return end === s.length ? total : undefined;
}

/** The shortest exact spelling of whole milliseconds: `10m`, `90s`, `37500ms`. */
export function formatDuration(ms: number): string {
  const whole = Math.max(0, Math.round(ms));
  for (const unit of ['h', 'm', 's'] as const) {
    if (whole > 0 && whole % UNIT_MS[unit] === 0) return `${String(whole / UNIT_MS[unit])}${unit}`;
  }
  return `${String(whole)}ms`;
}
