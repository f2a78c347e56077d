import type { Locale } from './locale';

/** Relative and absolute times in the user's language, and sizes. Pure: `now` is a parameter. */

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
  ['second', 1000],
];

const rtfCache = new Map<Locale, Intl.RelativeTimeFormat>();
const dtfCache = new Map<Locale, Intl.DateTimeFormat>();

export function formatRelative(iso: string | undefined, now: number, locale: Locale): string {
  if (!iso) return '—';
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return iso;
  let rtf = rtfCache.get(locale);
  if (!rtf) {
    rtf = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
    rtfCache.set(locale, rtf);
  }
  const diff = t - now;
  for (const [unit, ms] of UNITS) {
    if (Math.abs(diff) >= ms || unit === 'second') return rtf.format(Math.round(diff / ms), unit);
  }
  return rtf.format(0, 'second');
}

export function formatAbsolute(iso: string | undefined, locale: Locale): string {
  if (!iso) return '—';
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return iso;
  let dtf = dtfCache.get(locale);
  if (!dtf) {
    dtf = new Intl.DateTimeFormat(locale, {
      dateStyle: 'medium',
      timeStyle: 'medium',
    });
    dtfCache.set(locale, dtf);
  }
  return dtf.format(t);
}

const ageFormats = new Map<string, Intl.NumberFormat>();

/**
 * A compact age like kubectl prints it (45s, 12m, 3h, 5d), in the user's language: the narrow
 * unit of Intl, which is kubectl's own in English and 45秒, 12分钟 in Chinese.
 */
export function formatAge(iso: string | undefined, now: number, locale: Locale): string {
  if (!iso) return '—';
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return '—';
  return formatSpan(now - t, locale);
}

/** A span of time (ms) in formatAge's compact units: how long a drain has run, its timeout. */
export function formatSpan(ms: number, locale: Locale): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  const m = Math.floor(s / 60);
  const h = Math.floor(m / 60);
  const [value, unit] =
    s < 120
      ? [s, 'second']
      : m < 120
        ? [m, 'minute']
        : h < 48
          ? [h, 'hour']
          : [Math.floor(h / 24), 'day'];
  const key = `${locale}/${unit}`;
  let f = ageFormats.get(key);
  if (!f) {
    f = new Intl.NumberFormat(locale, { style: 'unit', unit, unitDisplay: 'narrow' });
    ageFormats.set(key, f);
  }
  return f.format(value);
}

/**
 * The hint under a memory field (MB, as the template stores it; DCS's MB are binary, 1024 to a
 * GiB): the field's own value in GiB, `=` when exact and `≈` otherwise; undefined for no value.
 */
export function memoryInGiB(
  mb: number | undefined,
  locale: Locale,
): { gib: string; exact: boolean } | undefined {
  if (mb === undefined || !Number.isFinite(mb) || mb <= 0) return undefined;
  const gib = mb / 1024;
  return {
    gib: new Intl.NumberFormat(locale, { maximumFractionDigits: 2 }).format(gib),
    exact: Math.round(gib * 100) / 100 === gib,
  };
}

/** Memory in MB as the template stores it, shown in GiB when round. */
export function formatMemoryMB(mb: number | undefined): string {
  if (mb === undefined) return '—';
  return mb % 1024 === 0 ? `${mb / 1024} GiB` : `${mb} MiB`;
}
