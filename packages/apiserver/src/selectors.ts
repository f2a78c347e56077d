/**
 * Label and field selectors with the grammar and semantics of k8s.io/apimachinery's
 * labels.Parse and fields.ParseSelector: `=`, `==`, `!=`, `in`, `notin`, exists, `!` (not exists),
 * `>` and `<` for labels; `=`, `==`, `!=` for fields.
 */
import { badRequest } from './status';

export type LabelRequirement =
  | { key: string; op: 'exists' | '!exists' }
  | { key: string; op: '=' | '!='; value: string }
  | { key: string; op: 'in' | 'notin'; values: string[] }
  | { key: string; op: '>' | '<'; value: number };

export type LabelSelector = readonly LabelRequirement[];

const KEY_RE =
  /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$/;
const VALUE_RE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

function parseError(detail: string): never {
  throw badRequest(`unable to parse requirement: ${detail}`);
}

function checkKey(key: string): string {
  if (!KEY_RE.test(key)) {
    parseError(
      `key: Invalid value: ${JSON.stringify(key)}: name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character`,
    );
  }
  return key;
}

function checkValue(value: string): string {
  if (value.length > 63 || !VALUE_RE.test(value)) {
    parseError(
      `values[0][${value}]: Invalid value: ${JSON.stringify(value)}: a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character`,
    );
  }
  return value;
}

/** Splits on commas outside parentheses. */
function splitTop(input: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of input) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (ch === ',' && depth === 0) {
      parts.push(cur);
      cur = '';
    } else cur += ch;
  }
  parts.push(cur);
  return parts;
}

export function parseLabelSelector(input: string | undefined | null): LabelSelector {
  if (!input?.trim()) return [];
  const out: LabelRequirement[] = [];
  for (const raw of splitTop(input)) {
    const part = raw.trim();
    if (!part) parseError(`found '', expected: identifier`);
    let m: RegExpExecArray | null;
    if ((m = /^!\s*(\S+)$/.exec(part))) {
      out.push({ key: checkKey(m[1] ?? ''), op: '!exists' });
    } else if ((m = /^([^\s=!<>(),]+)\s+(in|notin)\s*\(([^()]*)\)$/.exec(part))) {
      const values = (m[3] ?? '')
        .split(',')
        .map((v) => v.trim())
        .map(checkValue);
      out.push({ key: checkKey(m[1] ?? ''), op: m[2] === 'in' ? 'in' : 'notin', values });
    } else if ((m = /^([^\s=!<>(),]+)\s*(==|=|!=|>|<)\s*(\S*)$/.exec(part))) {
      const key = checkKey(m[1] ?? '');
      const op = m[2];
      const value = m[3] ?? '';
      if (op === '>' || op === '<') {
        const n = Number(value);
        if (!/^-?\d+$/.test(value))
          parseError(`for 'Gt', 'Lt' operators, the value must be an integer`);
        out.push({ key, op, value: n });
      } else out.push({ key, op: op === '!=' ? '!=' : '=', value: checkValue(value) });
    } else if ((m = /^([^\s=!<>(),]+)$/.exec(part))) {
      out.push({ key: checkKey(m[1] ?? ''), op: 'exists' });
    } else {
      parseError(`found '${part}', expected: identifier, !, =, ==, !=, in, notin`);
    }
  }
  return out;
}

export function matchesLabels(
  selector: LabelSelector,
  labels: Readonly<Record<string, string>> | undefined,
): boolean {
  for (const r of selector) {
    const v = labels ? (Object.hasOwn(labels, r.key) ? labels[r.key] : undefined) : undefined;
    switch (r.op) {
      case 'exists':
        if (v === undefined) return false;
        break;
      case '!exists':
        if (v !== undefined) return false;
        break;
      case '=':
        if (v !== r.value) return false;
        break;
      case '!=':
        if (v === r.value) return false;
        break;
      case 'in':
        if (v === undefined || !r.values.includes(v)) return false;
        break;
      case 'notin':
        if (v !== undefined && r.values.includes(v)) return false;
        break;
      case '>':
      case '<': {
        if (v === undefined || !/^-?\d+$/.test(v)) return false;
        const n = Number(v);
        if (r.op === '>' ? !(n > r.value) : !(n < r.value)) return false;
        break;
      }
    }
  }
  return true;
}

/** A metav1.LabelSelector object as the string form that Scale.status.selector carries. */
export function formatLabelSelector(sel: unknown): string {
  if (typeof sel === 'string') return sel;
  if (typeof sel !== 'object' || sel === null) return '';
  const parts: string[] = [];
  const ml = (sel as { matchLabels?: unknown }).matchLabels;
  if (typeof ml === 'object' && ml !== null) {
    for (const [k, v] of Object.entries(ml)) if (typeof v === 'string') parts.push(`${k}=${v}`);
  }
  const me = (sel as { matchExpressions?: unknown }).matchExpressions;
  if (Array.isArray(me)) {
    for (const e of me as unknown[]) {
      if (typeof e !== 'object' || e === null) continue;
      const { key, operator, values } = e as {
        key?: unknown;
        operator?: unknown;
        values?: unknown;
      };
      if (typeof key !== 'string') continue;
      const vals = Array.isArray(values) ? values.filter((v) => typeof v === 'string') : [];
      if (operator === 'In') parts.push(`${key} in (${vals.join(',')})`);
      else if (operator === 'NotIn') parts.push(`${key} notin (${vals.join(',')})`);
      else if (operator === 'Exists') parts.push(key);
      else if (operator === 'DoesNotExist') parts.push(`!${key}`);
    }
  }
  return parts.join(',');
}

export interface FieldRequirement {
  field: string;
  op: '=' | '!=';
  value: string;
}

export type FieldSelector = readonly FieldRequirement[];

/** Splits on unescaped commas and unescapes `\,` `\=` `\\` as fields.ParseSelector does. */
function splitEscaped(input: string, sep: string): string[] {
  const out: string[] = [];
  let cur = '';
  for (let i = 0; i < input.length; i++) {
    const ch = input[i] ?? '';
    if (ch === '\\' && i + 1 < input.length) {
      cur += ch + (input[i + 1] ?? '');
      i++;
    } else if (ch === sep) {
      out.push(cur);
      cur = '';
    } else cur += ch;
  }
  out.push(cur);
  return out;
}

function unescape(s: string): string {
  return s.replace(/\\(.)/g, '$1');
}

export function parseFieldSelector(
  input: string | undefined | null,
  supported: readonly string[],
  custom: boolean,
): FieldSelector {
  if (!input?.trim()) return [];
  const out: FieldRequirement[] = [];
  for (const part of splitEscaped(input, ',')) {
    if (!part) continue;
    const m = /^([^=!\\]+)(==|=|!=)(.*)$/.exec(part);
    if (!m) throw badRequest(`invalid selector: '${input}'; can't understand '${part}'`);
    const field = (m[1] ?? '').trim();
    if (!supported.includes(field)) {
      throw badRequest(
        custom
          ? `"${field}" is not a known field selector: only ${supported.map((f) => `"${f}"`).join(', ')}`
          : `field label not supported: ${field}`,
      );
    }
    out.push({ field, op: m[2] === '!=' ? '!=' : '=', value: unescape(m[3] ?? '') });
  }
  return out;
}

export function matchesFields(
  selector: FieldSelector,
  valueOf: (field: string) => string | undefined,
): boolean {
  for (const r of selector) {
    const v = valueOf(r.field) ?? '';
    if (r.op === '=' ? v !== r.value : v === r.value) return false;
  }
  return true;
}

/** metadata.name=x — the one selector a watch can be narrowed to without a scan. */
export function exactName(selector: FieldSelector): string | undefined {
  return selector.find((r) => r.field === 'metadata.name' && r.op === '=')?.value;
}
