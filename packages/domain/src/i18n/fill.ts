/**
 * Fills a message text: `{param}` placeholders, and ICU-style plurals for count-bearing words,
 * `{count, plural, one {# entry} other {# entries}}`, the form chosen by `Intl.PluralRules` of
 * the locale (an exact `=0` form wins; `#` is the number; `other` is the fallback). Languages
 * without plural forms (zh-CN) simply write `{count}`. An unknown param stays as written.
 * `formatNumber`, when given, writes each number param (and `#`) — a page's counts in the
 * locale's digits grouping, say; without it numbers are written as they are (a rule's message
 * quotes the value the user typed).
 */
export function fillMessage(
  text: string,
  params: Record<string, string | number>,
  locale: string,
  formatNumber: (n: number) => string = String,
): string {
  const written = (v: string | number) => (typeof v === 'number' ? formatNumber(v) : v);
  let out = '';
  let i = 0;
  while (i < text.length) {
    const plural = /^\{(\w+),\s*plural,/.exec(text.slice(i));
    const end = plural ? closingBrace(text, i) : -1;
    if (!plural || end < 0) {
      const next = text.indexOf('{', i + 1);
      out += text.slice(i, next < 0 ? text.length : next);
      i = next < 0 ? text.length : next;
      continue;
    }
    const name = plural[1] ?? '';
    const forms = pluralForms(text.slice(i + plural[0].length, end));
    const value = params[name];
    const n = typeof value === 'number' ? value : Number(value);
    if (value === undefined || Number.isNaN(n)) out += text.slice(i, end + 1);
    else {
      const form =
        forms.get(`=${n}`) ?? forms.get(pluralRules(locale).select(n)) ?? forms.get('other');
      out += fillMessage(
        (form ?? '').replaceAll('#', written(value)),
        params,
        locale,
        formatNumber,
      );
    }
    i = end + 1;
  }
  return out.replace(/\{(\w+)\}/g, (whole, key: string) => {
    const v = params[key];
    return v === undefined ? whole : written(v);
  });
}

const rulesCache = new Map<string, Intl.PluralRules>();
function pluralRules(locale: string): Intl.PluralRules {
  let rules = rulesCache.get(locale);
  if (!rules) {
    rules = new Intl.PluralRules(locale);
    rulesCache.set(locale, rules);
  }
  return rules;
}

/** Index of the `}` that closes the `{` at `open`, or -1. */
function closingBrace(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === '{') depth++;
    else if (text[i] === '}' && --depth === 0) return i;
  }
  return -1;
}

/** `one {# entry} other {# entries}` → one → `# entry`, other → `# entries`. */
function pluralForms(body: string): Map<string, string> {
  const forms = new Map<string, string>();
  let i = 0;
  while (i < body.length) {
    const m = /^\s*(=?\w+)\s*\{/.exec(body.slice(i));
    if (!m) break;
    const open = i + m[0].length - 1;
    const close = closingBrace(body, open);
    if (close < 0) break;
    forms.set(m[1] ?? '', body.slice(open + 1, close));
    i = close + 1;
  }
  return forms;
}
