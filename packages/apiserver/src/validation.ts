/**
 * Schema handling as kube-apiserver does it for custom resources, in the same three steps:
 * on decode, unknown fields are found (fieldValidation=Strict rejects them) and pruned, nulls of
 * non-nullable fields dropped and defaults applied; after mutating admission the object is
 * validated (types, enum, required, formats, bounds, list types) into field errors.
 */
import { clone, isObject, own, put, removeKey, type JsonObject } from './json';
import { OBJECT_META_FIELDS, pruneUnknownMetadataFields } from './metadata-validation';
import { fieldError, renderValue, type FieldError } from './status';
import type { JSONSchemaProps, KubeObject } from './types';

function joinPath(path: string, key: string): string {
  return path ? `${path}.${key}` : key;
}

/**
 * Prunes unknown fields and applies defaults in place. Returns the paths of unknown fields
 * (what fieldValidation=Strict rejects and Warn reports).
 */
export function pruneAndDefault(
  obj: KubeObject,
  schema: JSONSchemaProps | undefined,
  defaults = true,
): string[] {
  const meta: unknown = obj.metadata;
  // ObjectMeta's own unknown fields, ownerReferences[] and managedFields[] entries included.
  const unknown = isObject(meta) ? pruneUnknownMetadataFields(meta) : [];
  if (!schema) return unknown;
  const root = obj as JsonObject;
  const props = schema.properties ?? {};
  for (const key of Object.keys(root)) {
    if (key === 'apiVersion' || key === 'kind' || key === 'metadata') continue;
    const sub = own(props, key);
    if (sub)
      keep(
        root,
        key,
        walk(
          own(root, key),
          sub,
          key,
          unknown,
          () => {
            removeKey(root, key);
          },
          defaults,
        ),
      );
    else if (!schema['x-kubernetes-preserve-unknown-fields']) {
      unknown.push(key);
      removeKey(root, key);
    }
  }
  if (defaults) applyDefaults(root, schema, ['apiVersion', 'kind', 'metadata']);
  return unknown;
}

function applyDefaults(obj: JsonObject, schema: JSONSchemaProps, skip: string[] = []): void {
  for (const [key, sub] of Object.entries(schema.properties ?? {})) {
    if (skip.includes(key)) continue;
    if (own(obj, key) === undefined && sub.default !== undefined) {
      put(obj, key, clone(sub.default));
      // Defaults inside a defaulted object are applied too, as the real defaulter does.
      const v = own(obj, key);
      if (isObject(v)) applyDefaults(v, sub);
    }
  }
}

/**
 * What `walk` returns for a null in a field that is not nullable, after removing the field: as
 * kube-apiserver prunes such nulls on decode (a default, if any, is applied afterwards), the
 * caller must not write it back. A null item of a list stays, and is validated (and refused).
 */
const DROPPED = Symbol('dropped');

function keep(obj: JsonObject, key: string, value: unknown): void {
  if (value !== DROPPED) put(obj, key, value);
}

function walk(
  value: unknown,
  schema: JSONSchemaProps,
  path: string,
  unknown: string[],
  drop: () => void,
  defaults: boolean,
): unknown {
  if (value === null) {
    if (schema.nullable) return value;
    drop();
    return DROPPED;
  }
  if (schema['x-kubernetes-int-or-string']) return value;
  if (Array.isArray(value)) {
    if (schema.items) {
      const items = schema.items;
      const arr: unknown[] = value;
      for (let i = 0; i < arr.length; i++) {
        const v = walk(arr[i], items, `${path}[${i}]`, unknown, () => undefined, defaults);
        if (v !== DROPPED) arr[i] = v;
      }
    }
    return value;
  }
  if (!isObject(value)) return value;
  if (schema['x-kubernetes-embedded-resource']) {
    const meta = value.metadata;
    if (isObject(meta))
      for (const k of Object.keys(meta)) if (!OBJECT_META_FIELDS.has(k)) removeKey(meta, k);
  }
  const props = schema.properties;
  const additional = schema.additionalProperties;
  const preserve = schema['x-kubernetes-preserve-unknown-fields'] === true;
  if (!props && additional === undefined) {
    // No structure below: a preserved (or untyped) object keeps whatever it holds.
    return value;
  }
  for (const key of Object.keys(value)) {
    const sub = own(props, key);
    const keyPath = joinPath(path, key);
    if (sub)
      keep(
        value,
        key,
        walk(
          own(value, key),
          sub,
          keyPath,
          unknown,
          () => {
            removeKey(value, key);
          },
          defaults,
        ),
      );
    else if (isObject(additional)) {
      keep(
        value,
        key,
        walk(
          own(value, key),
          additional,
          keyPath,
          unknown,
          () => {
            removeKey(value, key);
          },
          defaults,
        ),
      );
    } else if (
      additional === true ||
      preserve ||
      (schema['x-kubernetes-embedded-resource'] && ['apiVersion', 'kind', 'metadata'].includes(key))
    ) {
      continue;
    } else {
      unknown.push(keyPath);
      removeKey(value, key);
    }
  }
  if (defaults) applyDefaults(value, schema);
  return value;
}

/** Validates the object (not metadata) against its schema. */
export function validateSchema(obj: KubeObject, schema: JSONSchemaProps | undefined): FieldError[] {
  if (!schema) return [];
  const errors: FieldError[] = [];
  const root = obj as JsonObject;
  for (const [key, sub] of Object.entries(schema.properties ?? {})) {
    if (key === 'apiVersion' || key === 'kind' || key === 'metadata') continue;
    const v = own(root, key);
    if (v !== undefined) check(v, sub, key, errors);
  }
  for (const r of schema.required ?? []) {
    if (r === 'apiVersion' || r === 'kind' || r === 'metadata') continue;
    if (own(root, r) === undefined) errors.push(fieldError.required(r));
  }
  return errors;
}

function typeName(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

function typeInvalid(path: string, value: unknown, type: string): FieldError {
  return {
    type: 'FieldValueTypeInvalid',
    field: path,
    body: `Invalid value: "${typeName(value)}": ${path} in body must be of type ${type}: "${typeName(value)}"`,
  };
}

const FORMATS: Record<string, (s: string) => boolean> = {
  'date-time': (s) =>
    /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/.test(s) &&
    !Number.isNaN(Date.parse(s)),
  date: (s) => /^\d{4}-\d{2}-\d{2}$/.test(s) && !Number.isNaN(Date.parse(s)),
  byte: (s) => /^[A-Za-z0-9+/]*={0,2}$/.test(s) && s.length % 4 === 0,
  ipv4: isIPv4,
  ipv6: (s) => /^[0-9a-fA-F:.]+$/.test(s) && s.includes(':'),
  cidr: (s) => {
    const [ip, len, ...rest] = s.split('/');
    if (rest.length || ip === undefined || len === undefined || !/^\d+$/.test(len)) return false;
    return isIPv4(ip) ? Number(len) <= 32 : ip.includes(':') && Number(len) <= 128;
  },
  uuid: (s) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(s),
  hostname: (s) =>
    s.length <= 253 &&
    /^[a-zA-Z0-9]([-a-zA-Z0-9]{0,61}[a-zA-Z0-9])?(\.[a-zA-Z0-9]([-a-zA-Z0-9]{0,61}[a-zA-Z0-9])?)*$/.test(
      s,
    ),
  email: (s) => /^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(s),
  uri: (s) => {
    try {
      new URL(s);
      return true;
    } catch {
      return false;
    }
  },
  mac: (s) => /^([0-9a-fA-F]{2}[:-]){5}[0-9a-fA-F]{2}$/.test(s),
  duration: (s) => /^(\d+(\.\d+)?(ns|us|µs|ms|s|m|h))+$/.test(s),
};

export function isIPv4(s: string): boolean {
  const parts = s.split('.');
  return (
    parts.length === 4 &&
    parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255 && (p === '0' || !p.startsWith('0')))
  );
}

function check(value: unknown, schema: JSONSchemaProps, path: string, errors: FieldError[]): void {
  if (value === null) {
    if (!schema.nullable && schema.type) errors.push(typeInvalid(path, value, schema.type));
    return;
  }
  if (schema['x-kubernetes-int-or-string']) {
    if (!(typeof value === 'string' || (typeof value === 'number' && Number.isInteger(value)))) {
      errors.push(typeInvalid(path, value, 'integer,string'));
      return;
    }
  } else if (schema.type) {
    const ok =
      (schema.type === 'object' && isObject(value)) ||
      (schema.type === 'array' && Array.isArray(value)) ||
      (schema.type === 'string' && typeof value === 'string') ||
      (schema.type === 'boolean' && typeof value === 'boolean') ||
      (schema.type === 'number' && typeof value === 'number') ||
      (schema.type === 'integer' && typeof value === 'number' && Number.isInteger(value));
    if (!ok) {
      errors.push(typeInvalid(path, value, schema.type));
      return;
    }
  }
  if (schema.enum && !schema.enum.some((e) => e === value)) {
    errors.push(fieldError.notSupported(path, value, schema.enum));
  }
  if (typeof value === 'string') checkString(value, schema, path, errors);
  if (typeof value === 'number') checkNumber(value, schema, path, errors);
  if (Array.isArray(value)) checkArray(value, schema, path, errors);
  if (isObject(value)) checkObject(value, schema, path, errors);
  for (const sub of schema.allOf ?? []) check(value, sub, path, errors);
  if (schema.anyOf && !schema.anyOf.some((s) => quiet(value, s, path))) {
    errors.push(
      fieldError.invalid(path, value, `${path} in body must validate at least one schema (anyOf)`),
    );
  }
  if (schema.oneOf && schema.oneOf.filter((s) => quiet(value, s, path)).length !== 1) {
    errors.push(
      fieldError.invalid(
        path,
        value,
        `${path} in body must validate one and only one schema (oneOf)`,
      ),
    );
  }
  if (schema.not && quiet(value, schema.not, path)) {
    errors.push(
      fieldError.invalid(path, value, `${path} in body must not validate the schema (not)`),
    );
  }
}

function quiet(value: unknown, schema: JSONSchemaProps, path: string): boolean {
  const errs: FieldError[] = [];
  check(value, schema, path, errs);
  if (isObject(value))
    for (const r of schema.required ?? []) if (own(value, r) === undefined) return false;
  return errs.length === 0;
}

/** Compiled once per pattern: kinds are registered once, objects are validated on every write. */
const patterns = new Map<string, RegExp>();

function patternOf(source: string): RegExp {
  let re = patterns.get(source);
  if (!re) {
    re = new RegExp(source, 'u');
    patterns.set(source, re);
  }
  return re;
}

function runeCount(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

function checkString(
  value: string,
  schema: JSONSchemaProps,
  path: string,
  errors: FieldError[],
): void {
  // Lengths are in characters (Go counts runes), not UTF-16 units: an emoji is one, not two.
  const length =
    schema.maxLength !== undefined || schema.minLength !== undefined ? runeCount(value) : 0;
  if (schema.maxLength !== undefined && length > schema.maxLength) {
    errors.push(fieldError.tooLong(path, schema.maxLength));
  }
  if (schema.minLength !== undefined && length < schema.minLength) {
    errors.push(
      fieldError.invalid(
        path,
        value,
        `${path} in body should be at least ${schema.minLength} chars long`,
      ),
    );
  }
  if (schema.pattern !== undefined && !patternOf(schema.pattern).test(value)) {
    errors.push(
      fieldError.invalid(path, value, `${path} in body should match '${schema.pattern}'`),
    );
  }
  const fmt = schema.format ? FORMATS[schema.format] : undefined;
  if (schema.format && fmt && !fmt(value)) {
    errors.push(
      fieldError.invalid(
        path,
        value,
        `${path} in body must be of type ${schema.format}: ${renderValue(value)}`,
      ),
    );
  }
}

function checkNumber(
  value: number,
  schema: JSONSchemaProps,
  path: string,
  errors: FieldError[],
): void {
  if (schema.minimum !== undefined) {
    if (schema.exclusiveMinimum ? value <= schema.minimum : value < schema.minimum) {
      errors.push(
        fieldError.invalid(
          path,
          value,
          `${path} in body should be greater than ${schema.exclusiveMinimum ? '' : 'or equal to '}${schema.minimum}`,
        ),
      );
    }
  }
  if (schema.maximum !== undefined) {
    if (schema.exclusiveMaximum ? value >= schema.maximum : value > schema.maximum) {
      errors.push(
        fieldError.invalid(
          path,
          value,
          `${path} in body should be less than ${schema.exclusiveMaximum ? '' : 'or equal to '}${schema.maximum}`,
        ),
      );
    }
  }
  if (schema.format === 'int32' && (value > 2147483647 || value < -2147483648)) {
    errors.push(fieldError.invalid(path, value, `${path} in body must be of type int32: ${value}`));
  }
}

function checkArray(
  value: unknown[],
  schema: JSONSchemaProps,
  path: string,
  errors: FieldError[],
): void {
  if (schema.maxItems !== undefined && value.length > schema.maxItems) {
    errors.push(fieldError.tooMany(path, value.length, schema.maxItems));
  }
  if (schema.minItems !== undefined && value.length < schema.minItems) {
    errors.push(
      fieldError.invalid(
        path,
        value.length,
        `${path} in body should have at least ${schema.minItems} items`,
      ),
    );
  }
  const items = schema.items;
  if (items)
    value.forEach((v, i) => {
      check(v, items, `${path}[${i}]`, errors);
    });
  const listType = schema['x-kubernetes-list-type'];
  if (listType === 'set' || schema.uniqueItems) {
    const seen = new Set<string>();
    value.forEach((v, i) => {
      const k = JSON.stringify(v);
      if (seen.has(k)) errors.push(fieldError.duplicate(`${path}[${i}]`, v));
      seen.add(k);
    });
  } else if (listType === 'map') {
    const keys = schema['x-kubernetes-list-map-keys'] ?? [];
    const seen = new Set<string>();
    value.forEach((v, i) => {
      if (!isObject(v)) return;
      const k = JSON.stringify(keys.map((key) => own(v, key) ?? null));
      if (seen.has(k)) {
        const shown: JsonObject = {};
        for (const key of keys) put(shown, key, own(v, key));
        errors.push(fieldError.duplicate(`${path}[${i}]`, shown));
      }
      seen.add(k);
    });
  }
}

function checkObject(
  value: JsonObject,
  schema: JSONSchemaProps,
  path: string,
  errors: FieldError[],
): void {
  for (const r of schema.required ?? []) {
    if (own(value, r) === undefined) errors.push(fieldError.required(joinPath(path, r)));
  }
  const props = schema.properties ?? {};
  const additional = schema.additionalProperties;
  for (const [k, v] of Object.entries(value)) {
    const sub = own(props, k);
    if (sub) check(v, sub, joinPath(path, k), errors);
    else if (isObject(additional)) check(v, additional, `${path}[${k}]`, errors);
  }
  const n = Object.keys(value).length;
  if (schema.maxProperties !== undefined && n > schema.maxProperties) {
    errors.push(fieldError.tooMany(path, n, schema.maxProperties));
  }
  if (schema.minProperties !== undefined && n < schema.minProperties) {
    errors.push(
      fieldError.invalid(
        path,
        n,
        `${path} in body should have at least ${schema.minProperties} properties`,
      ),
    );
  }
}

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

export type NameRule = 'subdomain' | 'label' | 'path';

export function validateName(name: string, rule: NameRule, field = 'metadata.name'): FieldError[] {
  if (rule === 'path') {
    if (name === '.' || name === '..') {
      return [fieldError.invalid(field, name, `may not be '${name}'`)];
    }
    const bad = ['/', '%'].find((c) => name.includes(c));
    return bad ? [fieldError.invalid(field, name, `may not contain '${bad}'`)] : [];
  }
  if (rule === 'label') {
    if (name.length > 63 || !DNS1123_LABEL.test(name)) {
      return [
        fieldError.invalid(
          field,
          name,
          "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
        ),
      ];
    }
    return [];
  }
  if (name.length > 253 || !DNS1123_SUBDOMAIN.test(name)) {
    return [
      fieldError.invalid(
        field,
        name,
        "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
      ),
    ];
  }
  return [];
}

const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;
const QUALIFIED_NAME =
  /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;

/** ObjectMeta rules that every kind shares: label syntax, annotation keys, finalizer names. */
export function validateMeta(obj: KubeObject): FieldError[] {
  const errors: FieldError[] = [];
  const m = obj.metadata;
  for (const [k, v] of Object.entries(m.labels ?? {})) {
    if (!QUALIFIED_NAME.test(k) || (k.split('/').pop() ?? '').length > 63) {
      errors.push(
        fieldError.invalid(
          'metadata.labels',
          k,
          "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
        ),
      );
    }
    if (typeof v !== 'string' || v.length > 63 || !LABEL_VALUE.test(v)) {
      errors.push(
        fieldError.invalid(
          'metadata.labels',
          v,
          "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
        ),
      );
    }
  }
  for (const [k, v] of Object.entries(m.annotations ?? {})) {
    if (!QUALIFIED_NAME.test(k)) {
      errors.push(
        fieldError.invalid(
          'metadata.annotations',
          k,
          'name part must consist of alphanumeric characters',
        ),
      );
    }
    if (typeof v !== 'string') {
      errors.push(
        fieldError.invalid(`metadata.annotations[${k}]`, v, 'annotation values must be strings'),
      );
    }
  }
  (m.finalizers ?? []).forEach((f, i) => {
    if (typeof f !== 'string' || !QUALIFIED_NAME.test(f)) {
      errors.push(
        fieldError.invalid(
          `metadata.finalizers[${i}]`,
          f,
          'name part must consist of alphanumeric characters',
        ),
      );
    }
  });
  (m.ownerReferences ?? []).forEach((r, i) => {
    if (!r.uid)
      errors.push(
        fieldError.invalid(`metadata.ownerReferences[${i}].uid`, r.uid, 'uid must not be empty'),
      );
    if (!r.apiVersion)
      errors.push(
        fieldError.invalid(
          `metadata.ownerReferences[${i}].apiVersion`,
          '',
          'version must not be empty',
        ),
      );
    if (!r.kind)
      errors.push(
        fieldError.invalid(`metadata.ownerReferences[${i}].kind`, '', 'kind must not be empty'),
      );
    if (!r.name)
      errors.push(
        fieldError.invalid(`metadata.ownerReferences[${i}].name`, '', 'name must not be empty'),
      );
  });
  if ((m.ownerReferences ?? []).filter((r) => r.controller === true).length > 1) {
    errors.push(
      fieldError.invalid(
        'metadata.ownerReferences',
        m.ownerReferences,
        'Only one reference can have Controller set to true',
      ),
    );
  }
  return errors;
}
