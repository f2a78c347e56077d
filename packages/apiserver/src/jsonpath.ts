/**
 * The subset of Kubernetes JSONPath that printer columns and selectable fields use:
 * `.a.b`, `.a['x.y/z']` (and `\.` escapes), `[0]`, `[*]`, `.*`, and filters
 * `[?(@.type=="Ready")]` with `==` / `!=` or bare existence.
 */
import { isObject } from './json';

type Segment =
  | { t: 'key'; key: string }
  | { t: 'index'; index: number }
  | { t: 'all' }
  | { t: 'filter'; path: Segment[]; op?: '==' | '!='; value?: unknown };

const cache = new Map<string, Segment[]>();

function parse(expr: string): Segment[] {
  let s = expr.trim();
  if (s.startsWith('{') && s.endsWith('}')) s = s.slice(1, -1);
  if (s.startsWith('$')) s = s.slice(1);
  const segs: Segment[] = [];
  let i = 0;
  while (i < s.length) {
    const ch = s[i];
    if (ch === '.') {
      i++;
      if (s[i] === '*') {
        segs.push({ t: 'all' });
        i++;
        continue;
      }
      let key = '';
      while (i < s.length && s[i] !== '.' && s[i] !== '[') {
        if (s[i] === '\\' && i + 1 < s.length) {
          key += s[i + 1] ?? '';
          i += 2;
        } else key += s[i++] ?? '';
      }
      if (key) segs.push({ t: 'key', key });
    } else if (ch === '[') {
      const end = findClose(s, i);
      const inner = s.slice(i + 1, end).trim();
      i = end + 1;
      if (inner === '*') segs.push({ t: 'all' });
      else if (/^-?\d+$/.test(inner)) segs.push({ t: 'index', index: Number(inner) });
      else if (/^'.*'$/.test(inner) || /^".*"$/.test(inner)) {
        segs.push({ t: 'key', key: inner.slice(1, -1).replace(/\\(.)/g, '$1') });
      } else if (inner.startsWith('?(') && inner.endsWith(')')) {
        segs.push(parseFilter(inner.slice(2, -1).trim()));
      } else segs.push({ t: 'key', key: inner });
    } else {
      // A path without a leading dot (`status.phase`) reads the same as `.status.phase`.
      s = `.${s.slice(i)}`;
      i = 0;
    }
  }
  return segs;
}

function findClose(s: string, open: number): number {
  let quote: string | undefined;
  let depth = 0;
  for (let i = open; i < s.length; i++) {
    const ch = s[i];
    if (quote) {
      if (ch === '\\') i++;
      else if (ch === quote) quote = undefined;
    } else if (ch === "'" || ch === '"') quote = ch;
    else if (ch === '[') depth++;
    else if (ch === ']') {
      depth--;
      if (depth === 0) return i;
    }
  }
  return s.length;
}

function parseFilter(body: string): Segment {
  const m = /^@((?:\.[^=!\s]+)*)\s*(==|!=)\s*(.+)$/.exec(body);
  if (!m) return { t: 'filter', path: parse(body.replace(/^@/, '')) };
  const raw = (m[3] ?? '').trim();
  let value: unknown = raw;
  if (/^'.*'$/.test(raw) || /^".*"$/.test(raw)) value = raw.slice(1, -1);
  else if (raw === 'true' || raw === 'false') value = raw === 'true';
  else if (/^-?\d+(\.\d+)?$/.test(raw)) value = Number(raw);
  return { t: 'filter', path: parse(m[1] ?? ''), op: m[2] === '!=' ? '!=' : '==', value };
}

function step(values: unknown[], seg: Segment): unknown[] {
  const out: unknown[] = [];
  for (const v of values) {
    switch (seg.t) {
      case 'key':
        if (isObject(v) && Object.hasOwn(v, seg.key)) out.push(v[seg.key]);
        break;
      case 'index':
        if (Array.isArray(v)) {
          const idx = seg.index < 0 ? v.length + seg.index : seg.index;
          if (idx >= 0 && idx < v.length) out.push(v[idx]);
        }
        break;
      case 'all':
        if (Array.isArray(v)) out.push(...(v as unknown[]));
        else if (isObject(v)) out.push(...Object.values(v));
        break;
      case 'filter': {
        const items: unknown[] = Array.isArray(v) ? v : [v];
        for (const item of items) {
          const found = seg.path.reduce<unknown[]>((acc, p) => step(acc, p), [item]);
          if (seg.op === undefined) {
            if (found.length > 0) out.push(item);
          } else {
            const eq = found.some((f) => f === seg.value || String(f) === String(seg.value));
            if (seg.op === '==' ? eq : !eq) out.push(item);
          }
        }
        break;
      }
    }
  }
  return out;
}

/** Every value the path selects (an empty array when it selects nothing). */
export function getJsonPath(root: unknown, expr: string): unknown[] {
  let segs = cache.get(expr);
  if (!segs) {
    segs = parse(expr);
    cache.set(expr, segs);
  }
  return segs.reduce<unknown[]>((acc, seg) => step(acc, seg), [root]);
}
