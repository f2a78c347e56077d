import { CAPI_FIELD_TREES_V1_14 } from '../generated/capi-fields-v1.14';
import type { FieldTree } from '../requests/known-fields';
import { isInertKey, isObject, type Json, type JsonObject } from './json';

/**
 * What upstream's decoding keeps. A conversion webhook decodes the object into Cluster API's Go
 * types and encodes the result, and the API server then prunes it by the target version's
 * structural schema, which controller-gen generates from those very types: a field either has no
 * Go field to land in (v1beta1's `progressDeadlineSeconds`, a ref's `uid` in v1beta2, a typo) and
 * is dropped, or it is kept. So every converted object is pruned by the field tree of its target
 * version, generated from the v1.14.0 CRDs (`../generated/capi-fields-v1.14.ts`). Kept as sent:
 * `metadata` (an ObjectMeta, which the CRD does not spell out; its unknown fields are the API
 * server's business) and whatever sits under `x-kubernetes-preserve-unknown-fields` (open).
 */
export function pruneTo(kind: string, version: string, value: JsonObject): JsonObject {
  const tree = Object.hasOwn(CAPI_FIELD_TREES_V1_14, `${kind}/${version}`)
    ? CAPI_FIELD_TREES_V1_14[`${kind}/${version}`]
    : undefined;
  if (!tree) return value;
  return prune(value, tree, version === 'v1beta2') as JsonObject;
}

/**
 * `omitzero`: v1beta2's structs are `omitempty,omitzero` (and `minProperties: 1` in its CRDs), so
 * a struct left with no field once decoded — `clusterConfiguration: {clusterName: x}` of v1beta1,
 * whose only field v1beta2 dropped — is not encoded at all. A struct sent empty stays as sent.
 */
function prune(value: Json, tree: FieldTree, omitZero: boolean): Json {
  if (tree.open) return value;
  if (tree.properties) {
    if (!isObject(value)) return value;
    const out: JsonObject = {};
    for (const [k, v] of Object.entries(value)) {
      const sub = Object.hasOwn(tree.properties, k) ? tree.properties[k] : undefined;
      if (!sub || v === undefined) continue;
      const kept = prune(v, sub, omitZero);
      if (omitZero && emptied(v, kept)) continue;
      out[k] = kept;
    }
    return out;
  }
  if (tree.values) {
    if (!isObject(value)) return value;
    const out: JsonObject = {};
    for (const [k, v] of Object.entries(value)) {
      if (v !== undefined && !isInertKey(k)) out[k] = prune(v, tree.values, omitZero);
    }
    return out;
  }
  if (tree.items) {
    if (!Array.isArray(value)) return value;
    const items = tree.items;
    return value.map((v) => prune(v, items, omitZero));
  }
  return value;
}

/** An object that had fields and has none once pruned. */
const emptied = (before: Json, after: Json): boolean =>
  isObject(before) &&
  isObject(after) &&
  Object.keys(before).length > 0 &&
  Object.keys(after).length === 0;
