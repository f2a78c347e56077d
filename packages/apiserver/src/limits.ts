/**
 * The bounds on what a client may make the server hold or compute, checked before the work they
 * bound is done. Sizes are in bytes of JSON text.
 *
 * - A request body: 3 MiB, as kube-apiserver (`MaxRequestBodyBytes`).
 * - A stored object: 1.5 MiB, etcd's default request limit (kube-apiserver answers 413 when etcd
 *   refuses an object of that size).
 * - Nesting depth of any object or array: 256. kube-apiserver's JSON decoder stops at 10,000;
 *   this server walks objects recursively (validation, managed fields, merges, `structuredClone`,
 *   `JSON.stringify`) and Node's stack ends at about 1,500 levels for some of them, so the limit
 *   is well below that and far above any real object (a Deployment is about 12 deep).
 * - A JSON patch: 10,000 operations, and 3 MiB copied by `copy` operations in total (what
 *   github.com/evanphx/json-patch's AccumulatedCopySizeLimit does for CVE-2019-1002100).
 * - A YAML body: 100 aliases.
 */
import { isObject } from './json';
import { ApiError } from './status';

export const MAX_BODY_BYTES = 3 * 1024 * 1024;
export const MAX_OBJECT_BYTES = 1.5 * 1024 * 1024;
export const MAX_DEPTH = 256;
export const MAX_PATCH_OPERATIONS = 10_000;
export const MAX_PATCH_COPY_BYTES = MAX_BODY_BYTES;
/**
 * Aliases in one YAML body. A real object uses a handful, if any; what they expand to is bounded
 * apart (http/body.ts, as go-yaml v2 bounds it).
 */
export const MAX_YAML_ALIASES = 100;

export interface Measure {
  /** Nesting depth: 0 for a scalar, 1 for `{}` or `[1]`, 2 for `{"a":{}}`. */
  depth: number;
  /** Size as JSON text (string escapes not counted); stops growing past the budget. */
  bytes: number;
}

function scalarBytes(v: unknown): number {
  if (typeof v === 'string') return v.length + 2;
  if (typeof v === 'number') return String(v).length;
  if (typeof v === 'boolean') return v ? 4 : 5;
  return 4; // null
}

/**
 * Depth and size of a JSON value without recursion (any depth is safe to measure). Stops as soon
 * as the size passes `budget` or the depth passes `maxDepth`, so measuring a huge value costs no
 * more than the budget.
 */
export function measure(
  value: unknown,
  budget = Number.POSITIVE_INFINITY,
  maxDepth = Number.POSITIVE_INFINITY,
): Measure {
  let bytes = 0;
  let depth = 0;
  const stack: { v: unknown; d: number }[] = [{ v: value, d: 0 }];
  while (stack.length > 0) {
    const top = stack.pop();
    if (!top) break;
    const { v, d } = top;
    if (typeof v !== 'object' || v === null) {
      bytes += scalarBytes(v);
    } else {
      const level = d + 1;
      if (level > depth) depth = level;
      bytes += 2;
      if (Array.isArray(v)) {
        bytes += Math.max(0, v.length - 1);
        for (const item of v as unknown[]) stack.push({ v: item, d: level });
      } else {
        const keys = Object.keys(v);
        bytes += Math.max(0, keys.length - 1);
        for (const k of keys) {
          bytes += k.length + 3;
          stack.push({ v: (v as Record<string, unknown>)[k], d: level });
        }
      }
    }
    if (bytes > budget || depth > maxDepth) break;
  }
  return { depth, bytes };
}

export function tooDeep(what: string, limit = MAX_DEPTH): ApiError {
  return new ApiError(
    422,
    'Invalid',
    `${what} is nested too deeply: the limit is ${limit} levels of objects and arrays`,
    {},
  );
}

export function tooDeepBody(): ApiError {
  return new ApiError(
    400,
    'BadRequest',
    `the request body is nested too deeply: the limit is ${MAX_DEPTH} levels of objects and arrays`,
  );
}

/** A request body as decoded: at most MAX_DEPTH deep (400, as a decode error of the body). */
export function checkBodyDepth(body: unknown): void {
  if (measure(body, Number.POSITIVE_INFINITY, MAX_DEPTH).depth > MAX_DEPTH) throw tooDeepBody();
}

/**
 * An object about to be validated and stored (a create or update body, a patch's result): at
 * most MAX_DEPTH deep (422) and MAX_OBJECT_BYTES large (413).
 */
export function checkObjectBounds(obj: unknown): void {
  // managedFields mirror the object's fields a few levels further down: they count towards the
  // size, not the depth (the depth of the fields they describe is what is bounded).
  const meta = isObject(obj) ? obj.metadata : undefined;
  const managed = isObject(meta) ? meta.managedFields : undefined;
  const fields =
    managed !== undefined && isObject(obj) && isObject(meta)
      ? { ...obj, metadata: { ...meta, managedFields: undefined } }
      : obj;
  const m = measure(fields, MAX_OBJECT_BYTES, MAX_DEPTH);
  if (m.depth > MAX_DEPTH) throw tooDeep('the object');
  if (managed !== undefined && m.bytes <= MAX_OBJECT_BYTES)
    m.bytes += measure(managed, MAX_OBJECT_BYTES - m.bytes).bytes;
  if (m.bytes > MAX_OBJECT_BYTES) {
    throw new ApiError(
      413,
      'RequestEntityTooLarge',
      `Request entity too large: the object is larger than the limit of ${MAX_OBJECT_BYTES} bytes`,
    );
  }
}
