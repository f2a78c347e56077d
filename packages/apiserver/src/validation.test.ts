import { describe, expect, it } from 'vitest';
import type { JSONSchemaProps, KubeObject } from './types';
import { pruneAndDefault, validateSchema } from './validation';

/** Decoding as kube-apiserver does for custom resources: nulls of non-nullable fields are pruned. */

const schema: JSONSchemaProps = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        selector: {
          type: 'object',
          properties: {
            matchLabels: { type: 'object', additionalProperties: { type: 'string' } },
          },
        },
        note: { type: 'string', nullable: true },
        mode: { type: 'string', default: 'Auto' },
        tags: { type: 'array', items: { type: 'string' } },
      },
    },
  },
};

const decode = (spec: unknown) => {
  const obj = { apiVersion: 'x/v1', kind: 'X', metadata: { name: 'a' }, spec } as KubeObject;
  pruneAndDefault(obj, schema);
  return { obj, errors: validateSchema(obj, schema) };
};

describe('null in a field that is not nullable', () => {
  it('is pruned (the reference YAML writes `selector: {matchLabels: null}`) and accepted', () => {
    const { obj, errors } = decode({ selector: { matchLabels: null } });
    expect(errors).toEqual([]);
    expect(obj.spec).toEqual({ selector: {}, mode: 'Auto' });
  });

  it('gets the default when the field has one; a nullable null stays', () => {
    const { obj, errors } = decode({ mode: null, note: null });
    expect(errors).toEqual([]);
    expect(obj.spec).toEqual({ mode: 'Auto', note: null });
  });

  it('as an item of a list stays, and is refused', () => {
    const { errors } = decode({ tags: ['a', null] });
    expect(errors.map((e) => e.field)).toEqual(['spec.tags[1]']);
  });
});

describe('string lengths', () => {
  const bounded: JSONSchemaProps = {
    type: 'object',
    properties: {
      spec: { type: 'object', properties: { s: { type: 'string', maxLength: 3, minLength: 2 } } },
    },
  };
  const errorsOf = (s: string) =>
    validateSchema({ apiVersion: 'x/v1', kind: 'X', metadata: {}, spec: { s } }, bounded);

  it('are counted in characters (runes, as Go does), not UTF-16 units', () => {
    expect(errorsOf('😀😀😀')).toEqual([]);
    expect(errorsOf('😀')).toHaveLength(1);
    expect(errorsOf('😀😀😀😀')).toHaveLength(1);
  });
});
