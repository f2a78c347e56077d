/**
 * Small pure helpers shared by the rules: dotted field paths, JSON-like equality and leaf diffs.
 */

/** Joins path segments with dots, skipping empty ones: `joinPath('ipPool.entries', 2, 'ip')`. */
export function joinPath(...parts: readonly (string | number | undefined)[]): string {
  return parts.filter((p) => p !== undefined && p !== '').join('.');
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Keys of an object whose value is not undefined (JSON drops the others). */
function definedKeys(o: Record<string, unknown>): string[] {
  return Object.keys(o).filter((k) => o[k] !== undefined);
}

/**
 * Equality as JSON sees it: key order does not matter and a key whose value is undefined is the
 * same as an absent key (neither goes on the wire).
 */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((x, i) => sameJson(x, b[i]));
  }
  if (isRecord(a) && isRecord(b)) {
    const ka = definedKeys(a);
    const kb = definedKeys(b);
    return ka.length === kb.length && ka.every((k) => sameJson(a[k], b[k]));
  }
  return false;
}

/**
 * The dotted paths (relative to `base`) of the leaves where `a` and `b` differ, in the order of
 * `a` then `b`. An array that changed length is reported at the array itself.
 */
export function diffLeafPaths(a: unknown, b: unknown, base = ''): string[] {
  if (sameJson(a, b)) return [];
  if (isRecord(a) && isRecord(b)) {
    const keys = [...new Set([...definedKeys(a), ...definedKeys(b)])];
    return keys.flatMap((k) => diffLeafPaths(a[k], b[k], joinPath(base, k)));
  }
  if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) {
    return a.flatMap((x, i) => diffLeafPaths(x, b[i], joinPath(base, i)));
  }
  return [base];
}

/** `/var/lib/kubelet/` and `/var/lib/kubelet` are the same mount point. */
export function normalizeMountPath(path: string): string {
  const trimmed = path.trim();
  return trimmed.length > 1 ? trimmed.replace(/\/+$/, '') : trimmed;
}

/** Indexes of the items whose key was already seen earlier in the list (the later duplicates). */
export function laterDuplicates<T>(
  items: readonly T[],
  keyOf: (item: T) => string | number | undefined,
): { index: number; key: string | number; first: number }[] {
  const seen = new Map<string | number, number>();
  const out: { index: number; key: string | number; first: number }[] = [];
  items.forEach((item, index) => {
    const key = keyOf(item);
    if (key === undefined) return;
    const first = seen.get(key);
    if (first === undefined) seen.set(key, index);
    else out.push({ index, key, first });
  });
  return out;
}
