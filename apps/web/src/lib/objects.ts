/** A copy of `obj` without `key`: what a form sends for an optional field left empty. */
export function without<T extends object>(obj: T, key: keyof T): T {
  return Object.fromEntries(Object.entries(obj).filter(([k]) => k !== key)) as T;
}

/** A copy of `obj` without its `undefined` and empty-string fields. */
export function compact<T extends object>(obj: T): T {
  return Object.fromEntries(
    Object.entries(obj).filter(([, v]) => v !== undefined && v !== ''),
  ) as T;
}
