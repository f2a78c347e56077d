/**
 * Strategic merge patch (k8s.io/apimachinery/pkg/util/strategicpatch) for built-in kinds: like a
 * merge patch, except lists whose schema says `x-kubernetes-patch-strategy: merge` merge by their
 * `x-kubernetes-patch-merge-key` (or as sets of primitives), and the directives `$patch`
 * (replace/delete/merge), `$retainKeys`, `$deleteFromPrimitiveList/<field>` and
 * `$setElementOrder/<field>` are honoured.
 */
import { clone, isObject, own, put, removeKey, type JsonObject } from '../json';
import { badRequest } from '../status';
import type { JSONSchemaProps } from '../types';

const DELETE_PRIMITIVE = '$deleteFromPrimitiveList/';

/**
 * A string equal for two JSON values exactly when `deepEqual` holds: lists are matched through
 * maps of these, so that merging, deleting from and ordering a list are linear in its length
 * (issue 25: every list walk inside a walk of the other list was quadratic, seconds for a body
 * of 100,000 finalizers). Object keys are sorted; the cost is the value's size.
 */
function identity(v: unknown): string {
  if (typeof v !== 'object' || v === null) return typeof v === 'string' ? `s${v}` : `p${String(v)}`;
  return `j${canonical(v)}`;
}

function canonical(v: unknown): string {
  if (typeof v !== 'object' || v === null) return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  const o = v as JsonObject;
  const keys = Object.keys(o)
    .filter((k) => o[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`).join(',')}}`;
}
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
    const kept = new Set(retain);
    for (const k of Object.keys(original)) if (!kept.has(k)) removeKey(original, k);
  }
  for (const [key, value] of Object.entries(patch)) {
    if (key === '$patch' || key === '$retainKeys') continue;
    if (key.startsWith(DELETE_PRIMITIVE)) {
      const field = key.slice(DELETE_PRIMITIVE.length);
      const cur = own(original, field);
      if (Array.isArray(cur) && Array.isArray(value)) {
        const deleted = new Set(value.map(identity));
        put(
          original,
          field,
          cur.filter((v) => !deleted.has(identity(v))),
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
    const present = new Set(out.map(identity));
    for (const v of patch) {
      const id = identity(v);
      if (present.has(id)) continue;
      present.add(id);
      out.push(clone(v));
    }
    return sortByOrder(out, order, (v) => v);
  }
  const out: unknown[] = original.map((o) => clone(o));
  // Where the elements with each merge key are in `out`, in order; `next` is the first one not
  // deleted (findIndex on the list as it then is found that one).
  const at = new Map<string, { list: number[]; next: number }>();
  out.forEach((o, i) => {
    if (!isObject(o)) return;
    const id = identity(own(o, mergeKey));
    const slot = at.get(id);
    if (slot) slot.list.push(i);
    else at.set(id, { list: [i], next: 0 });
  });
  let removed = false;
  for (const item of patch) {
    if (!isObject(item)) continue;
    const id = identity(own(item, mergeKey));
    const slot = at.get(id);
    const idx = slot?.list[slot.next];
    if (item.$patch === 'delete') {
      if (slot && idx !== undefined) {
        // Marked, removed once at the end: a splice per deletion is quadratic too.
        out[idx] = DELETED;
        removed = true;
        slot.next++;
      }
      continue;
    }
    const existing = idx !== undefined ? out[idx] : undefined;
    if (idx !== undefined && isObject(existing)) out[idx] = mergeMap(existing, item, itemSchema);
    else {
      if (slot) slot.list.push(out.length);
      else at.set(id, { list: [out.length], next: 0 });
      out.push(mergeMap({}, item, itemSchema));
    }
  }
  const kept = removed ? out.filter((o) => o !== DELETED) : out;
  return sortByOrder(kept, order, (v) => (isObject(v) ? own(v, mergeKey) : v));
}

/** A list element deleted by `$patch: delete`, dropped when the list is done. */
const DELETED: unique symbol = Symbol('deleted');

/** `$setElementOrder`: listed elements in the given order, the rest after them as they were. */
function sortByOrder(
  list: unknown[],
  order: unknown[] | undefined,
  keyOf: (v: unknown) => unknown,
): unknown[] {
  if (!order) return list;
  const rankOf = new Map<string, number>();
  order.forEach((o, i) => {
    const id = identity(isObject(o) ? Object.values(o)[0] : o);
    if (!rankOf.has(id)) rankOf.set(id, i);
  });
  const rank = (v: unknown): number => rankOf.get(identity(keyOf(v))) ?? order.length;
  return list
    .map((v, i) => ({ v, i, r: rank(v) }))
    .sort((a, b) => a.r - b.r || a.i - b.i)
    .map((x) => x.v);
}
