import { clone, isObject, own, put, removeKey } from '../json';

/** RFC 7386 JSON merge patch: objects merge key by key, `null` deletes, anything else replaces. */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return clone(patch);
  const out = isObject(target) ? { ...target } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) removeKey(out, k);
    else put(out, k, mergePatch(own(out, k), v));
  }
  return out;
}

/** The merge patch that turns `from` into `to` (used to report what a write changed). */
export function createMergePatch(from: unknown, to: unknown): unknown {
  if (!isObject(from) || !isObject(to)) return clone(to);
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(from)) if (!Object.hasOwn(to, k)) put(out, k, null);
  for (const [k, v] of Object.entries(to)) {
    const prev = own(from, k);
    if (JSON.stringify(prev) === JSON.stringify(v)) continue;
    put(out, k, isObject(prev) && isObject(v) ? createMergePatch(prev, v) : clone(v));
  }
  return out;
}
