import type { RefApiVersionOf } from './refs';
import { isObject, type Json, type JsonObject } from './json';

/** What one object's conversion knows besides the object itself. */
export interface ConversionContext {
  /** The converted object's namespace: v1beta1 references are rebuilt in it. */
  readonly namespace: string;
  /** (group, kind) → apiVersion, for v1beta2 → v1beta1 references. */
  readonly refApiVersionOf: RefApiVersionOf;
  /**
   * v1beta1 → v1beta2 only: the v1beta2 object the `cluster.x-k8s.io/conversion-data`
   * annotation held (`utilconversion.UnmarshalData`'s `ok` is `restored !== undefined`).
   */
  readonly restored?: JsonObject;
}

/** The value at a dotted path of the restored object (`a.b.c`), if any. */
export function restoredAt(ctx: ConversionContext, path: readonly string[]): Json | undefined {
  let cur: Json | undefined = ctx.restored;
  for (const key of path) {
    if (!isObject(cur)) return undefined;
    cur = cur[key];
  }
  return cur;
}

/**
 * `Convert_bool_To_Pointer_bool`: a v1beta1 `bool` (false and absent alike) to a v1beta2 `*bool`.
 * True stays true; false is kept as false only when the restored v1beta2 object said false (the
 * user meant it), else left out: v1beta1 cannot tell "false" from "not set".
 */
export function boolIntent(
  value: Json | undefined,
  hasRestored: boolean,
  restored: Json | undefined,
): boolean | undefined {
  if (value === true) return true;
  return hasRestored && restored === false ? false : undefined;
}

/** `Convert_int32_To_Pointer_int32`: 0 (or absent) is kept only when the restored object had 0. */
export function int32Intent(
  value: Json | undefined,
  hasRestored: boolean,
  restored: Json | undefined,
): number | undefined {
  if (typeof value === 'number' && value !== 0) return value;
  return hasRestored && restored === 0 ? 0 : undefined;
}

/** Sets or deletes `o[key]` as `value` says. */
export function setOrDelete(o: JsonObject, key: string, value: Json | undefined): void {
  if (value === undefined) Reflect.deleteProperty(o, key);
  else o[key] = value;
}
