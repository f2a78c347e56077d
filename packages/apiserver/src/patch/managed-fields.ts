/**
 * Field ownership for server-side apply, in the FieldsV1 vocabulary (`f:name`, `k:{"name":"x"}`,
 * `v:"value"`, `.`). A field set is kept as a set of leaf paths; each path is a list of FieldsV1
 * keys, serialized with JSON.stringify so that sets compare by value.
 */
import { deepEqual, isObject, own, put, removeKey, type JsonObject } from '../json';
import type { JSONSchemaProps } from '../types';

export type FieldPath = string[];

export function itemSchema(
  schema: JSONSchemaProps | undefined,
  key: string,
): JSONSchemaProps | undefined {
  if (!schema) return undefined;
  const p = own(schema.properties, key);
  if (p) return p;
  return isObject(schema.additionalProperties) ? schema.additionalProperties : undefined;
}

/** The list's merge keys: `x-kubernetes-list-map-keys`, or a built-in kind's patch merge key. */
export function listKeys(schema: JSONSchemaProps | undefined): string[] | undefined {
  if (!schema) return undefined;
  if (schema['x-kubernetes-list-type'] === 'map') return schema['x-kubernetes-list-map-keys'] ?? [];
  const mk = schema['x-kubernetes-patch-merge-key'];
  if (mk && (schema['x-kubernetes-patch-strategy'] ?? '').includes('merge')) return [mk];
  return undefined;
}

function isSet(schema: JSONSchemaProps | undefined): boolean {
  return schema?.['x-kubernetes-list-type'] === 'set';
}

/**
 * `x-kubernetes-map-type: atomic` (a map, or an object with properties): structured-merge-diff
 * treats it as one value, like a scalar. Its path is a leaf of the field set (nothing below it
 * is owned apart), an apply replaces it whole, and an update that changes anything in it changes
 * it. `granular`, the default, is a map whose keys are owned one by one.
 */
export function isAtomicMap(schema: JSONSchemaProps | undefined): boolean {
  return schema?.['x-kubernetes-map-type'] === 'atomic';
}

function itemKey(item: JsonObject, keys: string[]): string {
  const k: JsonObject = {};
  for (const key of keys) if (own(item, key) !== undefined) put(k, key, own(item, key));
  return `k:${JSON.stringify(k)}`;
}

/** Every leaf path that `value` sets, as applied configuration. */
export function leafPaths(
  value: unknown,
  schema: JSONSchemaProps | undefined,
  prefix: FieldPath = [],
): FieldPath[] {
  const out: FieldPath[] = [];
  if (isObject(value)) {
    for (const [k, v] of Object.entries(value)) {
      if (prefix.length === 0 && (k === 'apiVersion' || k === 'kind')) continue;
      if (
        prefix.length === 1 &&
        prefix[0] === 'f:metadata' &&
        !['labels', 'annotations', 'finalizers', 'ownerReferences'].includes(k)
      ) {
        continue;
      }
      const s = itemSchema(schema, k);
      const p = [...prefix, `f:${k}`];
      if (isObject(v) && Object.keys(v).length > 0 && !isAtomicMap(s))
        out.push(...leafPaths(v, s, p));
      else if (Array.isArray(v)) out.push(...listPaths(v, s, p));
      else out.push(p);
    }
  }
  return out;
}

function listPaths(
  list: unknown[],
  schema: JSONSchemaProps | undefined,
  prefix: FieldPath,
): FieldPath[] {
  const keys = listKeys(schema);
  if (keys && list.every(isObject)) {
    const out: FieldPath[] = [];
    for (const item of list) {
      const p = [...prefix, itemKey(item, keys)];
      out.push([...p, '.']);
      out.push(...leafPaths(item, schema?.items, p));
    }
    return out;
  }
  if (isSet(schema)) return list.map((v) => [...prefix, `v:${JSON.stringify(v)}`]);
  return [prefix];
}

const OWNED_METADATA = new Set(['labels', 'annotations', 'finalizers', 'ownerReferences']);

/**
 * The FieldsV1 tree of every field `value` sets: `toFieldsV1(leafPaths(value, schema))` built in
 * one walk, without a path array per leaf. A create records this for its manager.
 */
export function fieldSet(value: unknown, schema: JSONSchemaProps | undefined): JsonObject {
  return objectFields(value, schema, 'root') ?? {};
}

function objectFields(
  value: unknown,
  schema: JSONSchemaProps | undefined,
  at: 'root' | 'metadata' | 'inner',
): JsonObject | undefined {
  if (!isObject(value)) return undefined;
  let node: JsonObject | undefined;
  for (const [k, v] of Object.entries(value)) {
    if (at === 'root' && (k === 'apiVersion' || k === 'kind')) continue;
    if (at === 'metadata' && !OWNED_METADATA.has(k)) continue;
    const s = itemSchema(schema, k);
    let child: JsonObject | undefined;
    if (isObject(v) && Object.keys(v).length > 0 && !isAtomicMap(s))
      child = objectFields(v, s, at === 'root' && k === 'metadata' ? 'metadata' : 'inner');
    else if (Array.isArray(v)) child = listFields(v, s);
    else child = {};
    if (!child) continue;
    node ??= {};
    put(node, `f:${k}`, child);
  }
  return node;
}

function listFields(list: unknown[], schema: JSONSchemaProps | undefined): JsonObject | undefined {
  const keys = listKeys(schema);
  if (keys && list.every(isObject)) {
    if (list.length === 0) return undefined;
    const node: JsonObject = {};
    for (const item of list) {
      const k = itemKey(item, keys);
      // Items with the same key (invalid, but not yet validated here) merge, as paths would.
      const prev = own(node, k);
      const itemNode = isObject(prev) ? prev : {};
      itemNode['.'] = {};
      mergeFields(itemNode, objectFields(item, schema?.items, 'inner'));
      put(node, k, itemNode);
    }
    return node;
  }
  if (isSet(schema)) {
    if (list.length === 0) return undefined;
    const node: JsonObject = {};
    for (const v of list) put(node, `v:${JSON.stringify(v)}`, {});
    return node;
  }
  return {};
}

function mergeFields(into: JsonObject, from: JsonObject | undefined): void {
  for (const [k, v] of Object.entries(from ?? {})) {
    const cur = own(into, k);
    if (isObject(cur) && isObject(v)) mergeFields(cur, v);
    else put(into, k, v);
  }
}

/** Whether `path` is one of the leaves of a FieldsV1 tree (what fromFieldsV1 would list). */
export function isLeafIn(fields: unknown, path: FieldPath): boolean {
  let node: unknown = fields;
  for (const seg of path) {
    if (!isObject(node) || Object.keys(node).length === 0) return false;
    node = own(node, seg);
    if (node === undefined) return false;
  }
  return !isObject(node) || Object.keys(node).length === 0;
}

/** The value at a path in a live object, or undefined. */
export function valueAt(obj: unknown, path: FieldPath): unknown {
  let cur: unknown = obj;
  for (const seg of path) {
    if (seg === '.') return cur;
    if (seg.startsWith('f:')) {
      if (!isObject(cur)) return undefined;
      cur = own(cur, seg.slice(2));
    } else if (seg.startsWith('k:')) {
      if (!Array.isArray(cur)) return undefined;
      const want = JSON.parse(seg.slice(2)) as JsonObject;
      cur = cur.find(
        (i) => isObject(i) && Object.entries(want).every(([k, v]) => deepEqual(own(i, k), v)),
      );
    } else if (seg.startsWith('v:')) {
      if (!Array.isArray(cur)) return undefined;
      const want = JSON.parse(seg.slice(2)) as unknown;
      cur = cur.find((i) => deepEqual(i, want));
    }
    if (cur === undefined) return undefined;
  }
  return cur;
}

/** Removes the field (or list element, for `.` and `v:` paths) at a path. */
export function removeAt(obj: unknown, path: FieldPath): void {
  if (path.length === 0) return;
  const last = path[path.length - 1] ?? '';
  if (last === '.') {
    removeElement(obj, path.slice(0, -1));
    return;
  }
  if (last.startsWith('v:')) {
    removeElement(obj, path);
    return;
  }
  const parent = valueAt(obj, path.slice(0, -1));
  if (isObject(parent) && last.startsWith('f:')) removeKey(parent, last.slice(2));
}

function removeElement(obj: unknown, path: FieldPath): void {
  const list = valueAt(obj, path.slice(0, -1));
  const el = valueAt(obj, path);
  if (Array.isArray(list) && el !== undefined) {
    const idx = list.indexOf(el);
    if (idx >= 0) list.splice(idx, 1);
  }
}

/** Merges applied configuration into the live object: maps by key, keyed lists by key, sets by value. */
export function applyMerge(
  live: unknown,
  applied: unknown,
  schema: JSONSchemaProps | undefined,
): unknown {
  if (isObject(applied)) {
    // An atomic map is the applier's whole: what the live one has besides goes.
    if (isAtomicMap(schema)) return applied;
    const out: JsonObject = isObject(live) ? live : {};
    for (const [k, v] of Object.entries(applied))
      put(out, k, applyMerge(own(out, k), v, itemSchema(schema, k)));
    return out;
  }
  if (Array.isArray(applied)) {
    const keys = listKeys(schema);
    if (keys && Array.isArray(live) && applied.every(isObject)) {
      const out = [...(live as unknown[])];
      for (const item of applied) {
        const idx = out.findIndex(
          (o) => isObject(o) && keys.every((k) => deepEqual(own(o, k), own(item, k))),
        );
        if (idx >= 0) out[idx] = applyMerge(out[idx], item, schema?.items);
        else out.push(item);
      }
      return out;
    }
    if (isSet(schema) && Array.isArray(live)) {
      const out = [...(live as unknown[])];
      for (const v of applied) if (!out.some((o) => deepEqual(o, v))) out.push(v);
      return out;
    }
    return applied;
  }
  return applied;
}

/** FieldsV1 JSON of a set of leaf paths. */
export function toFieldsV1(paths: Iterable<FieldPath>): JsonObject {
  return addPaths({}, paths);
}

/** Adds paths to a FieldsV1 tree in place (a leaf that gains children becomes their parent). */
export function addPaths(root: JsonObject, paths: Iterable<FieldPath>): JsonObject {
  for (const p of paths) {
    let node = root;
    for (const seg of p) {
      const next = own(node, seg);
      if (isObject(next)) node = next;
      else {
        const created: JsonObject = {};
        put(node, seg, created);
        node = created;
      }
    }
  }
  return root;
}

export function fromFieldsV1(fields: unknown, prefix: FieldPath = []): FieldPath[] {
  if (!isObject(fields)) return [];
  const out: FieldPath[] = [];
  for (const [k, v] of Object.entries(fields)) {
    const p = [...prefix, k];
    if (isObject(v) && Object.keys(v).length > 0) out.push(...fromFieldsV1(v, p));
    else out.push(p);
  }
  return out;
}

/** `.spec.containers[name="app"].image`: how conflicts name a field. */
export function renderPath(path: FieldPath): string {
  let s = '';
  for (const seg of path) {
    if (seg === '.') continue;
    if (seg.startsWith('f:')) s += `.${seg.slice(2)}`;
    else if (seg.startsWith('k:')) {
      const keys = JSON.parse(seg.slice(2)) as JsonObject;
      s += `[${Object.entries(keys)
        .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
        .join(',')}]`;
    } else if (seg.startsWith('v:')) s += `[=${seg.slice(2)}]`;
  }
  return s;
}

/** Leaf paths where two objects differ (what an update changed), by walking both. */
export function changedPaths(
  before: unknown,
  after: unknown,
  schema: JSONSchemaProps | undefined,
  prefix: FieldPath = [],
): FieldPath[] {
  // Two objects are walked key by key (equal ones yield nothing), without first comparing them
  // whole: that comparison at every level would read the object once per level of depth.
  if (!(isObject(before) && isObject(after)) && deepEqual(before, after)) return [];
  // A change anywhere in an atomic map changes the map (its one path).
  if (isAtomicMap(schema) && isObject(after)) return deepEqual(before, after) ? [] : [prefix];
  if (isObject(before) && isObject(after)) {
    const out: FieldPath[] = [];
    // The keys of `before` that `after` still has, then the keys only `after` has: the order of
    // the paths is the order fields are added to a manager's set, so it is kept as it is. A field
    // whose value is the same (the same primitive, or the same subtree) changed nothing.
    const visit = (k: string) => {
      if (prefix.length === 0 && (k === 'apiVersion' || k === 'kind')) return;
      if (prefix.length === 1 && prefix[0] === 'f:metadata' && !OWNED_METADATA.has(k)) return;
      const next = own(after, k);
      if (next === undefined) return;
      const prev = own(before, k);
      if (prev === next) return;
      for (const p of changedPaths(prev, next, itemSchema(schema, k), [...prefix, `f:${k}`]))
        out.push(p);
    };
    for (const k of Object.keys(before)) visit(k);
    for (const k of Object.keys(after)) if (!Object.hasOwn(before, k)) visit(k);
    return out;
  }
  if (isObject(after)) return leafPaths(after, schema, prefix);
  if (Array.isArray(after)) return listPaths(after, schema, prefix);
  return [prefix];
}
