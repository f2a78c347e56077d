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
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b) || Object.getPrototypeOf(a) !== Object.prototype) return false;
  if (Object.getPrototypeOf(b) !== Object.prototype) return false;
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  const ka = Object.keys(ra);
  const kb = Object.keys(rb);
  // Both key lists in order, the skipped keys left out of either.
  let i = 0;
  let j = 0;
  for (;;) {
    while (i < ka.length && skip?.has(ka[i] ?? '')) i++;
    while (j < kb.length && skip?.has(kb[j] ?? '')) j++;
    const k = ka[i];
    if (k === undefined || j >= kb.length) return k === undefined && j >= kb.length;
    if (k !== kb[j] || !sameJson(ra[k], rb[k])) return false;
    i++;
    j++;
  }
}
