import { jsonEqual, pointer, type JsonPointer } from './json-patch';

/**
 * Field-level differences between two JSON values, for the preview of a plan: which fields an
 * operation adds, removes or changes. Arrays are compared index by index (pool entries keep
 * their order: R-POOL-4 appends at the end and removes by index).
 */

export interface FieldChange {
  /** JSON Pointer of the field, such as `/spec/pool/3` or `/spec/replicas`. */
  path: JsonPointer;
  change: 'add' | 'remove' | 'replace';
  before?: unknown;
  after?: unknown;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Every changed field from `before` to `after`, deepest first-differing level, in document order. */
export function diffObjects(before: unknown, after: unknown): FieldChange[] {
  const out: FieldChange[] = [];
  const walk = (a: unknown, b: unknown, tokens: (string | number)[]): void => {
    if (jsonEqual(a, b)) return;
    const path = pointer(...tokens);
    if (Array.isArray(a) && Array.isArray(b)) {
      const n = Math.max(a.length, b.length);
      for (let i = 0; i < n; i++) {
        if (i >= b.length)
          out.push({ path: pointer(...tokens, i), change: 'remove', before: a[i] });
        else if (i >= a.length)
          out.push({ path: pointer(...tokens, i), change: 'add', after: b[i] });
        else walk(a[i], b[i], [...tokens, i]);
      }
      return;
    }
    if (isRecord(a) && isRecord(b)) {
      const keys = [...Object.keys(a), ...Object.keys(b).filter((k) => !Object.hasOwn(a, k))];
      for (const k of keys) {
        const inA = a[k] !== undefined;
        const inB = b[k] !== undefined;
        if (inA && !inB) out.push({ path: pointer(...tokens, k), change: 'remove', before: a[k] });
        else if (!inA && inB) out.push({ path: pointer(...tokens, k), change: 'add', after: b[k] });
        else if (inA && inB) walk(a[k], b[k], [...tokens, k]);
      }
      return;
    }
    if (a === undefined) out.push({ path, change: 'add', after: b });
    else if (b === undefined) out.push({ path, change: 'remove', before: a });
    else out.push({ path, change: 'replace', before: a, after: b });
  };
  walk(before, after, []);
  return out;
}
