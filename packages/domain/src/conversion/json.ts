import { durationToSeconds, GoDurationError, secondsToDuration } from './duration';

/**
 * The plain-JSON toolkit the conversions are written with: objects are records, never mutated
 * once handed in (every conversion works on a {@link cloneJson} of its input), and the three keys
 * that mean something to JavaScript's objects (`__proto__`, `constructor`, `prototype`) are data
 * no Cluster API type has: a clone leaves them out, so that no write through them reaches a
 * prototype (Go's decoding drops them as unknown fields too).
 */

export type Json = null | boolean | number | string | Json[] | JsonObject;
export interface JsonObject {
  [key: string]: Json | undefined;
}

const INERT = new Set(['__proto__', 'constructor', 'prototype']);

/** `__proto__`, `constructor`, `prototype`: keys no Cluster API field has, never written. */
export const isInertKey = (key: string): boolean => INERT.has(key);

export const isObject = (v: unknown): v is JsonObject =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** A deep copy of plain JSON without the inert keys (and without `undefined` values). */
export function cloneJson(value: unknown): Json | undefined {
  if (Array.isArray(value)) return value.map((v) => cloneJson(v) ?? null);
  if (isObject(value)) {
    const out: JsonObject = {};
    for (const key of Object.keys(value)) {
      if (INERT.has(key)) continue;
      const v = cloneJson(value[key]);
      if (v !== undefined) out[key] = v;
    }
    return out;
  }
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  return undefined;
}

/** Refused input: names the field (dotted path) and the rule upstream's decoding applies. */
export class CapiConversionError extends Error {
  readonly field: string;
  readonly rule: string;
  constructor(field: string, rule: string) {
    super(`${field}: ${rule}`);
    this.name = 'CapiConversionError';
    this.field = field;
    this.rule = rule;
  }
}

/** The object at `key` of `o`, or undefined when absent or not an object. */
export const obj = (o: JsonObject | undefined, key: string): JsonObject | undefined => {
  const v = o?.[key];
  return isObject(v) ? v : undefined;
};

/** The object at `key`, created (empty) when absent. */
export function ensure(o: JsonObject, key: string): JsonObject {
  const v = o[key];
  if (isObject(v)) return v;
  const made: JsonObject = {};
  o[key] = made;
  return made;
}

/** Removes `key` from `o` and returns what it held. */
export function take(o: JsonObject | undefined, key: string): Json | undefined {
  if (!o || !Object.hasOwn(o, key)) return undefined;
  const v = o[key];
  Reflect.deleteProperty(o, key);
  return v;
}

/** Sets `o[key]` unless `value` is undefined. */
export function put(o: JsonObject, key: string, value: Json | undefined): void {
  if (value !== undefined) o[key] = value;
}

/** An object with no field at all (Go's `reflect.DeepEqual(x, T{})` on JSON that omits zeros). */
export const isEmptyObject = (v: unknown): boolean => isObject(v) && Object.keys(v).length === 0;

/**
 * Deletes `o[key]` when it holds an object whose every field is, recursively, an empty object:
 * Go's `if !reflect.DeepEqual(in.X, T{})` guards before it allocates the v1beta1 pointer.
 */
export function dropIfEmpty(o: JsonObject | undefined, key: string): void {
  if (o && isObject(o[key]) && deepEmpty(o[key])) Reflect.deleteProperty(o, key);
}

function deepEmpty(v: unknown): boolean {
  if (!isObject(v)) return false;
  return Object.values(v).every((x) => x === undefined || deepEmpty(x));
}

/** `ConvertToSeconds` of the duration string at `path` (a refused string names the path). */
export function toSeconds(value: Json | undefined, path: string): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') {
    throw new CapiConversionError(path, 'a duration is a string such as "30s" or "1h30m"');
  }
  try {
    return durationToSeconds(value);
  } catch (e) {
    if (e instanceof GoDurationError) throw new CapiConversionError(path, e.message);
    throw e;
  }
}

/** `ConvertFromSeconds` of the number at `path`. */
export function fromSeconds(value: Json | undefined, path: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    throw new CapiConversionError(path, 'seconds are an int32');
  }
  return secondsToDuration(value);
}

/**
 * Go's `json.Marshal` of an unstructured map: keys sorted at every level, `<`, `>`, `&` and
 * U+2028/U+2029 escaped as `\u003c`…, as `utilconversion.MarshalData` writes the annotation.
 */
export function goJsonMarshal(value: Json): string {
  return stringifySorted(value).replace(
    /[<>&\u2028\u2029]/gu,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

function stringifySorted(value: Json): string {
  if (Array.isArray(value)) return `[${value.map(stringifySorted).join(',')}]`;
  if (isObject(value)) {
    const keys = Object.keys(value)
      .filter((k) => value[k] !== undefined)
      .sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${stringifySorted(value[k] as Json)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
