import type { KubeObject } from './kube-object';

/**
 * Every decoded object gets its own copy of every string value: 5,000 cached KubeadmConfigs hold
 * 5,000 copies of the same bootstrap scripts, 15,000 copies of `cluster.x-k8s.io/v1beta1`, of
 * the namespace, of each condition type (V8 shares property names, never values). A cache of
 * objects made from a few templates spends a third of its strings on such copies.
 * `internStrings()` returns a `transform` that replaces each string value (longer than 10 and up
 * to `maxLength` characters) by the first equal one it has seen, so the cache keeps one copy.
 *
 * The table is bounded without an LRU's bookkeeping: two generations of `generationSize`
 * entries; a string seen in the older one moves to the current one, and when the current one is
 * full the older one is dropped. A string repeated at least once per generation (what is shared
 * by many objects) stays; one seen once (a uid, a resourceVersion) leaves the table after two
 * generations, so the table holds at most `2 × generationSize` strings whatever the stream.
 *
 * The object is changed in place (each object is decoded for one informer alone) and keeps its
 * value: only which copy of a string it points to changes. A `__proto__` key is walked like any
 * other but never assigned to (JSON.parse makes it an own property; assigning would go to the
 * prototype setter).
 */

/**
 * V8's JSON.parse already returns one shared copy of a string value of up to 10 characters (it
 * internalizes them, as it does property names): `True`, `Ready`, `Normal`, most condition
 * reasons, kinds and IP addresses. Looking them up again would cost a table lookup per value
 * and save nothing (test/intern.test.ts checks that V8 still does so).
 */
const SHARED_BY_JSON_PARSE = 10;

export interface InternOptions {
  /** Longer strings are left alone (default 4,096 characters). */
  readonly maxLength?: number;
  /** Strings per generation of the table (default 16,384). */
  readonly generationSize?: number;
  /**
   * Keys whose string values are never interned: values that differ in every version of every
   * object, so that no copy is ever shared and the table only keeps dead versions alive (Cluster
   * API's `cluster.x-k8s.io/conversion-data` annotation: the whole object again, a few KB).
   */
  readonly uniqueKeys?: readonly string[];
}

export interface StringInterner {
  /** `cached`: the version the cache holds of the same object, if any (read, never changed). */
  (object: KubeObject, cached?: KubeObject): KubeObject;
  /** Strings in the table now (at most twice the generation size). */
  readonly tableSize: () => number;
}

export function internStrings(options: InternOptions = {}): StringInterner {
  const maxLength = options.maxLength ?? 4096;
  const generationSize = Math.max(1, options.generationSize ?? 16_384);
  const unique = new Set(options.uniqueKeys ?? []);
  let current = new Map<string, string>();
  let previous = new Map<string, string>();

  const intern = (s: string): string => {
    if (s.length <= SHARED_BY_JSON_PARSE || s.length > maxLength) return s;
    const hit = current.get(s);
    if (hit !== undefined) return hit;
    const kept = previous.get(s) ?? s;
    if (current.size >= generationSize) {
      previous = current;
      current = new Map();
    }
    current.set(s, kept);
    return kept;
  };

  /**
   * Interns every string of `value`. `cached` is the same place in the cached version of the
   * object, on an update: a string equal to the one there (most of an update: only a few fields
   * change) takes that copy, already interned, with one comparison instead of a hash and a table
   * lookup (which were 4 % of the simulated controllers' CPU at 5,000 machines).
   */
  const walk = (value: object, cached: unknown): void => {
    if (Array.isArray(value)) {
      const list = value as unknown[];
      const was = Array.isArray(cached) ? (cached as unknown[]) : undefined;
      for (let i = 0; i < list.length; i++) {
        const v = list[i];
        const w = was?.[i];
        if (typeof v === 'string') list[i] = w === v ? w : intern(v);
        else if (typeof v === 'object' && v !== null) walk(v, w);
      }
      return;
    }
    const record = value as Record<string, unknown>;
    const was =
      typeof cached === 'object' && cached !== null && !Array.isArray(cached)
        ? (cached as Record<string, unknown>)
        : undefined;
    for (const key of Object.keys(record)) {
      const v = record[key];
      // An own `__proto__` (JSON.parse makes one) is walked, never assigned or paired.
      if (key === '__proto__') {
        if (typeof v === 'object' && v !== null) walk(v, undefined);
        continue;
      }
      const w = was && Object.hasOwn(was, key) ? was[key] : undefined;
      if (typeof v === 'string') {
        if (!unique.has(key)) record[key] = w === v ? w : intern(v);
      } else if (typeof v === 'object' && v !== null) walk(v, w);
    }
  };

  const transform = (object: KubeObject, cached?: KubeObject): KubeObject => {
    walk(object, cached);
    return object;
  };
  return Object.assign(transform, { tableSize: () => current.size + previous.size });
}
