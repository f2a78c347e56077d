/**
 * Whether two JSON values serialize alike, keys in the same order: true only when
 * JSON.stringify of both is sure to be one string (false may still be alike: anything but plain
 * JSON — undefined, non-finite numbers, toJSON — is left to the serializer). Keys in `skip` are
 * left out at the top level. A walk that stops at the first difference and builds no string
 * (issue 28: most of a watch's events, and most views after one, change little or nothing).
 */
export function sameJson(a: unknown, b: unknown, skip?: ReadonlySet<string>): boolean {
  if (a === b) return typeof a !== 'number' || Number.isFinite(a);
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    return a.every((x, i) => sameJson(x, b[i]));
  }
  if (Array.isArray(b) || Object.getPrototypeOf(a) !== Object.prototype) return false;
  if (Object.getPrototypeOf(b) !== Object.prototype) return false;
  const ka = Object.keys(a).filter((k) => !skip?.has(k));
  const kb = Object.keys(b).filter((k) => !skip?.has(k));
  if (ka.length !== kb.length) return false;
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  return ka.every((k, i) => k === kb[i] && sameJson(ra[k], rb[k]));
}
