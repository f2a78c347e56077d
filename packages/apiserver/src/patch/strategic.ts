/**
 * Strategic merge patch (k8s.io/apimachinery/pkg/util/strategicpatch) for built-in kinds: like a
 * merge patch, except lists whose schema says `x-kubernetes-patch-strategy: merge` merge by their
 * `x-kubernetes-patch-merge-key` (or as sets of primitives), and the directives `$patch`
 * (replace/delete/merge), `$retainKeys`, `$deleteFromPrimitiveList/<field>` and
 * `$setElementOrder/<field>` are honoured.
 */
import { clone, deepEqual, isObject, own, put, removeKey, type JsonObject } from '../json';
import { badRequest } from '../status';
import type { JSONSchemaProps } from '../types';

const DELETE_PRIMITIVE = '$deleteFromPrimitiveList/';
const ORDER = '$setElementOrder/';

function sub(schema: JSONSchemaProps | undefined, key: string): JSONSchemaProps | undefined {
  if (!schema) return undefined;
  const p = own(schema.properties, key);
  if (p) return p;
  return isObject(schema.additionalProperties) ? schema.additionalProperties : undefined;
}

export function strategicMergePatch(
  original: unknown,
  patch: unknown,
  schema: JSONSchemaProps | undefined,
): unknown {
  if (!isObject(patch)) throw badRequest('strategic merge patch must be a JSON object');
  return mergeMap(isObject(original) ? clone(original) : {}, patch, schema);
}

function mergeMap(
  original: JsonObject,
  patch: JsonObject,
  schema: JSONSchemaProps | undefined,
): JsonObject {
  const directive = own(patch, '$patch');
  if (directive === 'replace') {
    const out = clone(patch);
    removeKey(out, '$patch');
    return out;
  }
  if (directive === 'delete') return {};
  const retain = own(patch, '$retainKeys');
  if (Array.isArray(retain)) {
    for (const k of Object.keys(original)) if (!retain.includes(k)) removeKey(original, k);
  }
  for (const [key, value] of Object.entries(patch)) {
    if (key === '$patch' || key === '$retainKeys') continue;
    if (key.startsWith(DELETE_PRIMITIVE)) {
      const field = key.slice(DELETE_PRIMITIVE.length);
      const cur = own(original, field);
      if (Array.isArray(cur) && Array.isArray(value)) {
        put(
          original,
          field,
          cur.filter((v) => !value.some((d) => deepEqual(d, v))),
        );
      }
      continue;
    }
    if (key.startsWith(ORDER)) continue;
    if (value === null) {
      removeKey(original, key);
      continue;
    }
    const s = sub(schema, key);
    const cur = own(original, key);
    if (isObject(value)) {
      if (own(value, '$patch') === 'delete') removeKey(original, key);
      else put(original, key, mergeMap(isObject(cur) ? cur : {}, value, s));
    } else if (Array.isArray(value)) {
      const order = own(patch, `${ORDER}${key}`);
      put(
        original,
        key,
        mergeList(
          Array.isArray(cur) ? cur : [],
          value,
          s,
          Array.isArray(order) ? order : undefined,
        ),
      );
    } else put(original, key, clone(value));
  }
  return original;
}

function mergeList(
  original: unknown[],
  patch: unknown[],
  schema: JSONSchemaProps | undefined,
  order: unknown[] | undefined,
): unknown[] {
  const strategy = schema?.['x-kubernetes-patch-strategy'] ?? '';
  if (!strategy.split(',').includes('merge')) {
    // Replace: directives inside the list items are meaningless, drop `$patch` markers.
    return patch.filter((p) => !(isObject(p) && p.$patch === 'delete')).map((p) => clone(p));
  }
  const mergeKey = schema?.['x-kubernetes-patch-merge-key'];
  const itemSchema = schema?.items;
  if (patch.some((p) => isObject(p) && p.$patch === 'replace')) {
    return patch.filter((p) => !(isObject(p) && p.$patch === 'replace')).map((p) => clone(p));
  }
  if (!mergeKey) {
    // A set of primitives: union, keeping the original order.
    const out = [...original];
    for (const v of patch) if (!out.some((o) => deepEqual(o, v))) out.push(clone(v));
    return sortByOrder(out, order, (v) => v);
  }
  const out = original.map((o) => clone(o));
  for (const item of patch) {
    if (!isObject(item)) continue;
    const keyValue = own(item, mergeKey);
    const idx = out.findIndex((o) => isObject(o) && deepEqual(own(o, mergeKey), keyValue));
    if (item.$patch === 'delete') {
      if (idx >= 0) out.splice(idx, 1);
      continue;
    }
    const existing = idx >= 0 ? out[idx] : undefined;
    if (isObject(existing)) out[idx] = mergeMap(existing, item, itemSchema);
    else out.push(mergeMap({}, item, itemSchema));
  }
  return sortByOrder(out, order, (v) => (isObject(v) ? own(v, mergeKey) : v));
}

/** `$setElementOrder`: listed elements in the given order, the rest after them as they were. */
function sortByOrder(
  list: unknown[],
  order: unknown[] | undefined,
  keyOf: (v: unknown) => unknown,
): unknown[] {
  if (!order) return list;
  const keys = order.map((o) => (isObject(o) ? Object.values(o)[0] : o));
  const rank = (v: unknown): number => {
    const i = keys.findIndex((k) => deepEqual(k, keyOf(v)));
    return i < 0 ? keys.length : i;
  };
  return list
    .map((v, i) => ({ v, i, r: rank(v) }))
    .sort((a, b) => a.r - b.r || a.i - b.i)
    .map((x) => x.v);
}
