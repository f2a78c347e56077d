/**
 * Builders for the abridged OpenAPI schemas of the built-in kinds, and the schema parts that more
 * than one of them uses. Shared by the kinds' module and the Event APIs' module.
 */
import type { JSONSchemaProps } from '../types';

export const s = (description: string, extra: JSONSchemaProps = {}): JSONSchemaProps => ({
  type: 'string',
  description,
  ...extra,
});
export const int = (description: string): JSONSchemaProps => ({
  type: 'integer',
  format: 'int32',
  description,
});
export const bool = (description: string): JSONSchemaProps => ({ type: 'boolean', description });
export const obj = (
  description: string,
  properties: Record<string, JSONSchemaProps>,
  required?: string[],
): JSONSchemaProps => {
  const out: JSONSchemaProps = { type: 'object', description, properties };
  if (required) out.required = required;
  return out;
};
export const arr = (
  description: string,
  items: JSONSchemaProps,
  extra: JSONSchemaProps = {},
): JSONSchemaProps => ({
  type: 'array',
  description,
  items,
  ...extra,
});
export const strMap = (description: string, format?: string): JSONSchemaProps => ({
  type: 'object',
  description,
  additionalProperties: format ? { type: 'string', format } : { type: 'string' },
});
export const preserved = (description: string): JSONSchemaProps => ({
  type: 'object',
  description,
  'x-kubernetes-preserve-unknown-fields': true,
});
export const mergeBy = (key: string): JSONSchemaProps => ({
  'x-kubernetes-patch-strategy': 'merge',
  'x-kubernetes-patch-merge-key': key,
  'x-kubernetes-list-type': 'map',
  'x-kubernetes-list-map-keys': [key],
});

export const objectReference = obj(
  'ObjectReference contains enough information to let you inspect or modify the referred object.',
  {
    apiVersion: s('API version of the referent.'),
    kind: s('Kind of the referent.'),
    name: s('Name of the referent.'),
    namespace: s('Namespace of the referent.'),
    uid: s('UID of the referent.'),
    resourceVersion: s('Specific resourceVersion to which this reference is made, if any.'),
    fieldPath: s('If referring to a piece of an object instead of an entire object.'),
  },
);
