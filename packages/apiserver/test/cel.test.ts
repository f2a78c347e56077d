/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-return -- responses are arbitrary JSON from the wire */
/**
 * `x-kubernetes-validations` on a toy kind, over HTTP: where rules run (create, update, merge
 * and JSON patches, server-side apply, the status subresource), transition rules, `message`,
 * `messageExpression`, `reason`, `fieldPath`, the 422 as kube-apiserver words it, the schema
 * errors that keep CEL from running, ratcheting, and the cost bound. Texts from
 * apiextensions-apiserver's `pkg/apiserver/schema/cel/validation.go` and the custom resource
 * strategy's `hasBlockingErr`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JSONSchemaProps, KindRegistration } from '../src/index';
import { celCompileErrors, PER_CALL_LIMIT, validateCel } from '../src/index';
import { startTestServer, type TestServer } from './support/server';

const schema: JSONSchemaProps = {
  type: 'object',
  properties: {
    apiVersion: { type: 'string' },
    kind: { type: 'string' },
    metadata: { type: 'object' },
    spec: {
      type: 'object',
      'x-kubernetes-validations': [
        { rule: 'self.minSize <= self.maxSize', message: 'minSize must not exceed maxSize' },
        {
          rule: "!has(self.mode) || self.mode != 'off' || !has(self.level)",
          messageExpression: "'level ' + string(self.level) + ' is not allowed when mode is off'",
          fieldPath: '.level',
        },
        { rule: 'self.clusterName == oldSelf.clusterName', message: 'clusterName is immutable' },
        {
          rule: "!has(self.mode) || self.mode != 'forbidden'",
          reason: 'FieldValueForbidden',
          message: 'mode may not be forbidden',
        },
      ],
      properties: {
        clusterName: { type: 'string' },
        minSize: { type: 'integer' },
        maxSize: { type: 'integer' },
        mode: { type: 'string', maxLength: 20 },
        level: { type: 'integer' },
        tags: {
          type: 'array',
          items: { type: 'string' },
          'x-kubernetes-validations': [{ rule: 'self.all(x, self.exists_one(y, x == y))' }],
        },
        args: {
          type: 'object',
          additionalProperties: {
            type: 'string',
            'x-kubernetes-validations': [{ rule: "!self.contains(' ')", message: 'no spaces' }],
          },
        },
        ports: {
          type: 'array',
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['name'],
          items: {
            type: 'object',
            properties: { name: { type: 'string' }, port: { type: 'integer' } },
            'x-kubernetes-validations': [
              { rule: 'self.port >= oldSelf.port', message: 'a port may only grow' },
            ],
          },
        },
      },
    },
    status: {
      type: 'object',
      properties: {
        phase: {
          type: 'string',
          'x-kubernetes-validations': [
            { rule: "self in ['Pending', 'Running']", message: 'phase must be Pending or Running' },
            {
              rule: "oldSelf != 'Running' || self == 'Running'",
              message: 'a running gadget stays running',
            },
          ],
        },
      },
    },
  },
  'x-kubernetes-validations': [
    { rule: "self.metadata.name.startsWith('g-')", message: 'name must start with g-' },
  ],
};

const gadgets: KindRegistration = {
  group: 'example.com',
  version: 'v1',
  kind: 'Gadget',
  plural: 'gadgets',
  singular: 'gadget',
  scope: 'Namespaced',
  subresources: { status: true },
  openAPIV3Schema: schema,
};

const G = '/apis/example.com/v1/namespaces/default/gadgets';

function gadget(name: string, spec: Record<string, unknown> = {}) {
  return {
    apiVersion: 'example.com/v1',
    kind: 'Gadget',
    metadata: { name },
    spec: { clusterName: 'c1', minSize: 1, maxSize: 3, ...spec },
  };
}

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ kinds: [gadgets], admission: [] });
});
afterAll(async () => {
  await t.server.close();
});

async function create(body: unknown) {
  return t.api('POST', G, { body });
}

describe('CEL validation rules (x-kubernetes-validations)', () => {
  it('every rule of the toy schema compiles', () => {
    expect(celCompileErrors(schema)).toEqual([]);
  });

  it('a failing rule is a 422 Invalid naming the field, the schema type and the message', async () => {
    const r = await create(gadget('g-bounds', { minSize: 5, maxSize: 2 }));
    expect(r.status).toBe(422);
    expect(r.body.reason).toBe('Invalid');
    expect(r.body.message).toBe(
      'Gadget.example.com "g-bounds" is invalid: spec: Invalid value: "object": minSize must not exceed maxSize',
    );
    expect(r.body.details.causes).toEqual([
      {
        reason: 'FieldValueInvalid',
        message: 'Invalid value: "object": minSize must not exceed maxSize',
        field: 'spec',
      },
    ]);
    expect((await t.api('GET', `${G}/g-bounds`)).status).toBe(404);
  });

  it('accepts what the rules accept', async () => {
    const r = await create(gadget('g-ok', { tags: ['a', 'b'], args: { v: '2' } }));
    expect(r.status).toBe(201);
  });

  it('a rule at the root reads metadata.name and reports the nil path', async () => {
    const r = await create(gadget('bad-name'));
    expect(r.status).toBe(422);
    expect(r.body.message).toBe(
      'Gadget.example.com "bad-name" is invalid: <nil>: Invalid value: "object": name must start with g-',
    );
    expect(r.body.details.causes[0].field).toBe('<nil>');
  });

  it('messageExpression gives the message, fieldPath the field', async () => {
    const r = await create(gadget('g-mode', { mode: 'off', level: 3 }));
    expect(r.body.message).toBe(
      'Gadget.example.com "g-mode" is invalid: spec.level: Invalid value: "object": level 3 is not allowed when mode is off',
    );
  });

  it('reason chooses the error type', async () => {
    const r = await create(gadget('g-forbidden', { mode: 'forbidden' }));
    expect(r.body.details.causes).toEqual([
      {
        reason: 'FieldValueForbidden',
        message: 'Forbidden: mode may not be forbidden',
        field: 'spec',
      },
    ]);
  });

  it('a rule without message says "failed rule: <rule>"; items and map values at their paths', async () => {
    const r = await create(gadget('g-dup', { tags: ['a', 'a'], args: { x: 'a b' } }));
    expect(r.body.details.causes).toEqual([
      {
        reason: 'FieldValueInvalid',
        message: 'Invalid value: "array": failed rule: self.all(x, self.exists_one(y, x == y))',
        field: 'spec.tags',
      },
      {
        reason: 'FieldValueInvalid',
        message: 'Invalid value: "string": no spaces',
        field: 'spec.args[x]',
      },
    ]);
  });

  it('transition rules run on update (PUT, patches, apply) and not on create', async () => {
    expect((await create(gadget('g-move', { ports: [{ name: 'http', port: 80 }] }))).status).toBe(
      201,
    );
    const cur = (await t.api('GET', `${G}/g-move`)).body;
    const put = await t.api('PUT', `${G}/g-move`, {
      body: { ...cur, spec: { ...cur.spec, clusterName: 'c2' } },
    });
    expect(put.status).toBe(422);
    expect(put.body.message).toBe(
      'Gadget.example.com "g-move" is invalid: spec: Invalid value: "object": clusterName is immutable',
    );
    const merge = await t.api('PATCH', `${G}/g-move`, {
      body: { spec: { clusterName: 'c3' } },
      contentType: 'application/merge-patch+json',
    });
    expect(merge.status).toBe(422);
    const json = await t.api('PATCH', `${G}/g-move`, {
      body: [{ op: 'replace', path: '/spec/clusterName', value: 'c4' }],
      contentType: 'application/json-patch+json',
    });
    expect(json.status).toBe(422);
    const apply = await t.api('PATCH', `${G}/g-move?fieldManager=me&force=true`, {
      body: {
        ...gadget('g-move', { ports: [{ name: 'http', port: 80 }] }),
        spec: { clusterName: 'c5' },
      },
      contentType: 'application/apply-patch+yaml',
    });
    expect(apply.status).toBe(422);
    expect(apply.body.message).toContain('clusterName is immutable');
    // A list-type=map item is correlated with the old item of the same key.
    const shrink = await t.api('PATCH', `${G}/g-move`, {
      body: {
        spec: {
          ports: [
            { name: 'http', port: 79 },
            { name: 'new', port: 1 },
          ],
        },
      },
      contentType: 'application/merge-patch+json',
    });
    expect(shrink.body.details.causes).toEqual([
      {
        reason: 'FieldValueInvalid',
        message: 'Invalid value: "object": a port may only grow',
        field: 'spec.ports[0]',
      },
    ]);
    const grow = await t.api('PATCH', `${G}/g-move`, {
      body: {
        spec: {
          ports: [
            { name: 'new', port: 1 },
            { name: 'http', port: 81 },
          ],
        },
      },
      contentType: 'application/merge-patch+json',
    });
    expect(grow.status).toBe(200);
  });

  it('the status subresource is validated too, transition rules against the stored status', async () => {
    expect((await create(gadget('g-status'))).status).toBe(201);
    const status = (phase: string) =>
      t.api('PATCH', `${G}/g-status/status`, {
        body: { status: { phase } },
        contentType: 'application/merge-patch+json',
      });
    const bad = await status('Lost');
    expect(bad.status).toBe(422);
    expect(bad.body.message).toBe(
      'Gadget.example.com "g-status" is invalid: status.phase: Invalid value: "string": phase must be Pending or Running',
    );
    expect((await status('Running')).status).toBe(200);
    const back = await status('Pending');
    expect(back.body.details.causes[0].message).toBe(
      'Invalid value: "string": a running gadget stays running',
    );
  });

  it('a dry run is validated as the write it stands for', async () => {
    const r = await t.api('POST', `${G}?dryRun=All`, { body: gadget('g-dry', { minSize: 9 }) });
    expect(r.status).toBe(422);
  });

  it('schema errors that change the shape keep the rules from running', async () => {
    const r = await create(gadget('g-long', { mode: 'x'.repeat(21), minSize: 9 }));
    expect(r.status).toBe(422);
    expect(r.body.details.causes.map((c: any) => [c.field, c.message])).toEqual([
      ['spec.mode', 'Too long: may not be longer than 20'],
      [
        '<nil>',
        'Invalid value: "null": some validation rules were not checked because the object was invalid; correct the existing errors to complete validation',
      ],
    ]);
  });

  it('a field that is not set is an evaluation error ("no such key"), as in cel-go', async () => {
    const r = await create({ ...gadget('g-nokey'), spec: { clusterName: 'c1', maxSize: 1 } });
    expect(r.body.details.causes[0]).toEqual({
      reason: 'FieldValueInvalid',
      message:
        'Invalid value: "object": no such key: minSize evaluating rule: minSize must not exceed maxSize',
      field: 'spec',
    });
  });

  it('an unchanged invalid value is ratcheted on update: a warning, not a refusal', () => {
    const old = gadget('g-r', { tags: ['a', 'a'] });
    const changed = { ...old, spec: { ...old.spec, level: 1 } };
    const r = validateCel(schema, changed, old);
    expect(r.errors).toEqual([]);
    expect(r.warnings).toEqual([
      'spec.tags: Invalid value: "array": failed rule: self.all(x, self.exists_one(y, x == y))',
    ]);
    expect(validateCel(schema, changed).errors).toHaveLength(1);
  });
});

describe('CEL cost bound', () => {
  const quadratic: JSONSchemaProps = {
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        properties: {
          items: {
            type: 'array',
            items: { type: 'object', properties: { name: { type: 'string' } } },
            'x-kubernetes-validations': [
              {
                rule: 'self.all(x, self.exists_one(y, x.name == y.name))',
                message: 'names must be unique',
              },
            ],
          },
        },
      },
    },
  };
  const obj = (n: number) => ({
    spec: { items: Array.from({ length: n }, (_, i) => ({ name: `n${String(i)}` })) },
  });

  it('a rule whose work passes the per-call limit is stopped and refused, in bounded time', () => {
    const started = process.hrtime.bigint();
    const r = validateCel(quadratic, obj(3000));
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    expect(r.errors).toEqual([
      {
        type: 'FieldValueInvalid',
        field: 'spec.items',
        body: `Invalid value: "array": 'operation cancelled: actual cost limit exceeded': no further validation rules will be run due to call cost exceeds limit for rule: names must be unique`,
      },
    ]);
    // 3000² steps would be 9M comparisons; the evaluation stops at the limit.
    expect(ms).toBeLessThan(5000);
    expect(PER_CALL_LIMIT).toBe(1_000_000);
  });

  it('the same rule within the limit runs to its answer', () => {
    expect(validateCel(quadratic, obj(100)).errors).toEqual([]);
    const dup = obj(100);
    dup.spec.items.push({ name: 'n1' });
    expect(validateCel(quadratic, dup).errors.map((e) => e.body)).toEqual([
      'Invalid value: "array": names must be unique',
    ]);
  });

  it('the budget of one object is shared by its rules: past it the rest are not run', () => {
    const r = validateCel(quadratic, obj(100), undefined, 1000);
    expect(r.errors.map((e) => e.body)).toEqual([
      'Invalid value: "array": validation failed due to running out of cost budget, no further validation rules will be run',
    ]);
  });
});

describe('CEL environment', () => {
  const holder = (rule: string): JSONSchemaProps => ({
    type: 'object',
    properties: {
      v: {
        type: 'object',
        properties: {
          xs: { type: 'array', items: { type: 'integer' } },
          s: { type: 'string' },
          'a-b': { type: 'string' },
        },
        'x-kubernetes-validations': [{ rule }],
      },
    },
  });
  const v = { xs: [1, 2, 3], s: 'Hello-World', 'a-b': 'x' };
  it.each([
    'self.xs.isSorted()',
    'self.xs.sum() == 6',
    'self.xs.min() == 1 && self.xs.max() == 3',
    "self.s.lowerAscii() == 'hello-world'",
    "self.s.split('-') == ['Hello', 'World']",
    "self.s.indexOf('W') == 6",
    "['a', 'b'].join(',') == 'a,b'",
    "self['a-b'] == 'x'",
    "self.s.matches('^H[a-z]+-W')",
  ])('%s', (rule) => {
    expect(validateCel(holder(rule), { v }).errors).toEqual([]);
  });
  it('a false extension call fails the rule', () => {
    expect(validateCel(holder('self.xs.sum() == 7'), { v }).errors).toHaveLength(1);
  });
});
