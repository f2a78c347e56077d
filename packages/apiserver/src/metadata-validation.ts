/**
 * `metadata` decoded as kube-apiserver decodes it into a Go `metav1.ObjectMeta`: the types of
 * its fields are checked (a number where a string belongs is refused, never stored), nulls become
 * what Go keeps of them, and unknown fields — at the top of metadata and inside its
 * `ownerReferences[]` and `managedFields[]` entries — are found and pruned (what
 * `fieldValidation=Strict` refuses and Warn reports).
 *
 * Upstream (read, not copied): a built-in kind decodes its body into a typed struct
 * (`encoding/json` as forked by sigs.k8s.io/json); a custom resource decodes into a map and
 * `apiextensions-apiserver/pkg/apiserver/schema/objectmeta.GetObjectMetaWithOptions` then
 * unmarshals `metadata` alone into an ObjectMeta (strictly, for unknown field paths). Either way a
 * type mismatch is the decoder's `UnmarshalTypeError`:
 *
 *   json: cannot unmarshal <number|string|bool|array|object> into Go struct field
 *   <Struct>.<field path> of type <Go type>
 *
 * where Struct is the innermost struct holding the field (ObjectMeta, OwnerReference,
 * ManagedFieldsEntry), the path joins struct field names from the decoded root (no array indices,
 * no map keys: Go 1.18's errorContext), and the root is the object for a built-in kind
 * (`metadata.name`) but metadata itself for a custom resource (`name`). Only the first such
 * error is reported, as the decoder keeps the first. Where it is answered:
 *
 * - create, update, apply: the body does not decode: 400 BadRequest
 *   `<Kind> in version "<v>" cannot be handled as a <Kind>: <error>` (handlers'
 *   `transformDecodeError`);
 * - JSON and merge patch: the patched object does not decode: 422 Invalid, one cause on the field
 *   `patch` (handlers/patch.go, `jsonPatcher.applyPatchToCurrentObject`).
 */
import { isObject, removeKey, type JsonObject } from './json';

/** A Go type as `reflect.Type.String()` names it in the error, and how to check a value of it. */
type GoType =
  | { kind: 'string'; name: string }
  | { kind: 'int64' }
  | { kind: 'bool' }
  | { kind: 'time' }
  | { kind: 'raw' }
  | { kind: 'map'; name: string; value: GoType }
  | { kind: 'slice'; name: string; item: GoType }
  | { kind: 'struct'; name: string; goName: string; fields: Readonly<Record<string, GoType>> };

const STRING: GoType = { kind: 'string', name: 'string' };
const UID: GoType = { kind: 'string', name: 'types.UID' };
const INT64: GoType = { kind: 'int64' };
const BOOL: GoType = { kind: 'bool' };
const TIME: GoType = { kind: 'time' };
const STRING_MAP: GoType = { kind: 'map', name: 'map[string]string', value: STRING };

const OWNER_REFERENCE: GoType = {
  kind: 'struct',
  name: 'OwnerReference',
  goName: 'v1.OwnerReference',
  fields: {
    apiVersion: STRING,
    kind: STRING,
    name: STRING,
    uid: UID,
    controller: BOOL,
    blockOwnerDeletion: BOOL,
  },
};

const MANAGED_FIELDS_ENTRY: GoType = {
  kind: 'struct',
  name: 'ManagedFieldsEntry',
  goName: 'v1.ManagedFieldsEntry',
  fields: {
    manager: STRING,
    operation: { kind: 'string', name: 'v1.ManagedFieldsOperationType' },
    apiVersion: STRING,
    time: TIME,
    fieldsType: STRING,
    // FieldsV1 keeps any JSON as raw bytes (its own UnmarshalJSON).
    fieldsV1: { kind: 'raw' },
    subresource: STRING,
  },
};

const OBJECT_META_STRUCT = {
  kind: 'struct',
  name: 'ObjectMeta',
  goName: 'v1.ObjectMeta',
  fields: {
    name: STRING,
    generateName: STRING,
    namespace: STRING,
    selfLink: STRING,
    uid: UID,
    resourceVersion: STRING,
    generation: INT64,
    creationTimestamp: TIME,
    deletionTimestamp: TIME,
    deletionGracePeriodSeconds: INT64,
    labels: STRING_MAP,
    annotations: STRING_MAP,
    ownerReferences: { kind: 'slice', name: '[]v1.OwnerReference', item: OWNER_REFERENCE },
    finalizers: { kind: 'slice', name: '[]string', item: STRING },
    managedFields: {
      kind: 'slice',
      name: '[]v1.ManagedFieldsEntry',
      item: MANAGED_FIELDS_ENTRY,
    },
  },
} as const satisfies GoType;
const OBJECT_META: GoType = OBJECT_META_STRUCT;

/** The names metav1.ObjectMeta knows; anything else in metadata is an unknown field. */
export const OBJECT_META_FIELDS: ReadonlySet<string> = new Set(
  Object.keys(OBJECT_META_STRUCT.fields),
);

/** How Go's decoder names a JSON value in an UnmarshalTypeError. */
function jsonKind(v: unknown): string {
  if (typeof v === 'string') return 'string';
  if (typeof v === 'number') return 'number';
  if (typeof v === 'boolean') return 'bool';
  return Array.isArray(v) ? 'array' : 'object';
}

// RFC 3339 as time.Parse(time.RFC3339, …) takes it: seconds required, fraction optional, a zone.
const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

interface Context {
  /** Struct field names from the decoded root (Go's errorContext.FieldStack). */
  stack: string[];
  /** The innermost struct type holding the current field. */
  struct: string;
}

/**
 * The decoder's error for `value` as a `type`, or undefined when it decodes. Nulls decode to the
 * zero value (a string stays "", a map or slice nil) and are left for `normalizeNulls` below.
 */
function check(value: unknown, type: GoType, ctx: Context): string | undefined {
  if (value === null || type.kind === 'raw') return undefined;
  const mismatch = (what: string, goType: string) =>
    `json: cannot unmarshal ${what} into Go struct field ${ctx.struct}.${ctx.stack.join('.')} of type ${goType}`;
  switch (type.kind) {
    case 'string':
      return typeof value === 'string' ? undefined : mismatch(jsonKind(value), type.name);
    case 'bool':
      return typeof value === 'boolean' ? undefined : mismatch(jsonKind(value), 'bool');
    case 'int64':
      if (typeof value !== 'number') return mismatch(jsonKind(value), 'int64');
      // strconv.ParseInt of the literal: a fraction or an exponent does not parse.
      return Number.isSafeInteger(value) ? undefined : mismatch(`number ${value}`, 'int64');
    case 'time':
      // metav1.Time's UnmarshalJSON: a JSON string in RFC 3339, or null.
      if (typeof value !== 'string') return mismatch(jsonKind(value), 'string');
      return RFC3339.test(value)
        ? undefined
        : `parsing time ${JSON.stringify(value)} as "2006-01-02T15:04:05Z07:00": cannot parse ${JSON.stringify(value)} as "2006"`;
    case 'map': {
      if (!isObject(value)) return mismatch(jsonKind(value), type.name);
      for (const k of Object.keys(value)) {
        const e = check(value[k], type.value, ctx);
        if (e) return e;
      }
      return undefined;
    }
    case 'slice': {
      if (!Array.isArray(value)) return mismatch(jsonKind(value), type.name);
      for (const item of value as unknown[]) {
        const e = check(item, type.item, ctx);
        if (e) return e;
      }
      return undefined;
    }
    case 'struct': {
      if (!isObject(value)) {
        // metadata itself: a custom resource's is unmarshalled alone (no struct around it).
        if (ctx.stack.length === 0)
          return `json: cannot unmarshal ${jsonKind(value)} into Go value of type ${type.goName}`;
        return mismatch(jsonKind(value), type.goName);
      }
      for (const k of Object.keys(value)) {
        const sub = Object.hasOwn(type.fields, k) ? type.fields[k] : undefined;
        if (!sub) continue; // unknown: found by unknownMetadataFields
        const e = check(value[k], sub, { stack: [...ctx.stack, k], struct: type.name });
        if (e) return e;
      }
      return undefined;
    }
  }
}

/**
 * The decode error of `metadata`, as kube-apiserver's text, or undefined when it decodes (absent,
 * null and `{}` all do). `builtinKind`: the kind's name when it is built in (the error's path
 * starts at the object: `ObjectMeta.metadata.name`, or `ConfigMap.metadata` for metadata itself);
 * undefined for a custom resource (`ObjectMeta.name`).
 * Cost: one walk of metadata, which the object bound (limits.ts) has already bounded.
 */
export function metadataDecodeError(
  metadata: unknown,
  builtinKind: string | undefined,
): string | undefined {
  if (metadata === undefined || metadata === null) return undefined;
  if (builtinKind !== undefined && !isObject(metadata))
    return `json: cannot unmarshal ${jsonKind(metadata)} into Go struct field ${builtinKind}.metadata of type v1.ObjectMeta`;
  return check(metadata, OBJECT_META, {
    stack: builtinKind !== undefined ? ['metadata'] : [],
    struct: 'ObjectMeta',
  });
}

/**
 * What Go keeps of nulls once metadata decoded (call after `metadataDecodeError` found nothing):
 * a null field is the zero value, which the object's JSON omits (`omitempty`); a null in
 * `finalizers` is "", a null label or annotation value is "", a null `ownerReferences[]` or
 * `managedFields[]` entry is an empty struct. So nothing later meets a null where a type says
 * a string, a map or an object.
 */
export function normalizeNulls(metadata: JsonObject): void {
  normalize(metadata, OBJECT_META);
}

function normalize(value: JsonObject, type: GoType): void {
  if (type.kind !== 'struct') return;
  for (const k of Object.keys(value)) {
    const sub = Object.hasOwn(type.fields, k) ? type.fields[k] : undefined;
    if (!sub) continue;
    const v = value[k];
    if (v === null) {
      removeKey(value, k);
    } else if (sub.kind === 'map' && isObject(v)) {
      for (const mk of Object.keys(v)) if (v[mk] === null) v[mk] = '';
    } else if (sub.kind === 'slice' && Array.isArray(v)) {
      const items = v as unknown[];
      for (let i = 0; i < items.length; i++) {
        const item = items[i];
        if (sub.item.kind === 'string' && item === null) items[i] = '';
        else if (sub.item.kind === 'struct') {
          if (item === null) items[i] = {};
          else if (isObject(item)) normalize(item, sub.item);
        }
      }
    }
  }
}

/**
 * Finds the fields of `metadata` that ObjectMeta does not have, at its top and inside each
 * `ownerReferences[i]` and `managedFields[i]`, removes them and returns their paths as the
 * strict decoder names them (`metadata.foo`, `metadata.ownerReferences[0].bar`). Values of a
 * wrong type are left to `metadataDecodeError`.
 */
export function pruneUnknownMetadataFields(metadata: JsonObject): string[] {
  const unknown: string[] = [];
  pruneStruct(metadata, OBJECT_META, 'metadata', unknown);
  return unknown;
}

function pruneStruct(value: JsonObject, type: GoType, path: string, unknown: string[]): void {
  if (type.kind !== 'struct') return;
  for (const k of Object.keys(value)) {
    const sub = Object.hasOwn(type.fields, k) ? type.fields[k] : undefined;
    if (!sub) {
      unknown.push(`${path}.${k}`);
      removeKey(value, k);
      continue;
    }
    const v = value[k];
    if (sub.kind === 'slice' && sub.item.kind === 'struct' && Array.isArray(v)) {
      (v as unknown[]).forEach((item, i) => {
        if (isObject(item)) pruneStruct(item, sub.item, `${path}.${k}[${i}]`, unknown);
      });
    }
  }
}
