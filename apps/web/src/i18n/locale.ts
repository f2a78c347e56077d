import { fillMessage } from '@dcs/domain';

export type Locale = 'en' | 'zh-CN';
export const LOCALES: readonly Locale[] = ['en', 'zh-CN'];

const STORAGE_KEY = 'dcs.locale';

/** The user's choice if made, else the browser's language (Chinese → zh-CN, else English). */
export function initialLocale(): Locale {
  try {
    const saved = localStorage.getItem(STORAGE_KEY);
    if (saved === 'en' || saved === 'zh-CN') return saved;
  } catch {
    // Storage may be disabled; fall through to the browser's language.
  }
  const langs = typeof navigator === 'undefined' ? [] : navigator.languages;
  for (const lang of langs) {
    if (lang.toLowerCase().startsWith('zh')) return 'zh-CN';
    if (lang.toLowerCase().startsWith('en')) return 'en';
  }
  return 'en';
}

export function saveLocale(locale: Locale): void {
  try {
    localStorage.setItem(STORAGE_KEY, locale);
  } catch {
    // Not saved: the choice lasts for this page only.
  }
}

const grouping = new Map<Locale, Intl.NumberFormat>();

/**
 * A whole number as the page writes counts: grouped by the locale (20,003 machines, not 20003);
 * other numbers as they are (their callers format them: sizes, durations).
 */
export function formatCount(n: number, locale: Locale): string {
  if (!Number.isInteger(n)) return String(n);
  let f = grouping.get(locale);
  if (!f) {
    f = new Intl.NumberFormat(locale, { maximumFractionDigits: 0 });
    grouping.set(locale, f);
  }
  return f.format(n);
}

/**
 * Fills `{name}` placeholders and plural forms (`{count, plural, one {# entry} other {# entries}}`,
 * chosen by the locale's Intl.PluralRules, as domain's catalogs do); an unknown one stays as written.
 * Number params are written as counts (`formatCount`).
 */
export function fill(
  text: string,
  params: Record<string, string | number> = {},
  locale: Locale = 'en',
): string {
  return fillMessage(text, params, locale, (n) => formatCount(n, locale));
}
