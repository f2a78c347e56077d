/* eslint-disable @typescript-eslint/no-unsafe-member-access -- responses are arbitrary JSON from the wire */
/**
 * Mutating hooks as webhooks behave: one that changes nothing writes nothing back (even where a
 * conversion round trip is not the identity), one may deny (a defaulting webhook that cannot
 * decode the object), and a hook's own Status is answered as kube-apiserver's
 * `webhookerrors.ToStatusErr` answers it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { AdmissionHook, KubeObject } from '../src/index';
import { fieldError, invalid } from '../src/index';
import { toyConversion, toyKind } from './support/multi-version';
import { startTestServer, type TestServer } from './support/server';

const V2 = '/apis/example.com/v2/namespaces/default/widgets';

let t: TestServer | undefined;
afterEach(async () => {
  await t?.server.close();
  t = undefined;
});

/** The toy conversion, but converting to v1 adds an empty status, as some versions' types do. */
function lossyConversion() {
  const conv = toyConversion();
  const inner = conv.convert;
  conv.convert = (objects, desired) =>
    inner(objects, desired).map((o: KubeObject) =>
      desired === 'example.com/v1' && o.status === undefined ? { ...o, status: {} } : o,
    );
  return conv;
}

const w2 = (name: string) => ({
  apiVersion: 'example.com/v2',
  kind: 'Widget',
  metadata: { name },
  spec: { color: 'red', replicas: 2 },
});

describe('mutating hooks', () => {
  it('a hook in another version that changes nothing writes nothing back', async () => {
    const conv = lossyConversion();
    const seen: unknown[] = [];
    const noop: AdmissionHook = {
      name: 'default.example.com',
      versions: ['v1'],
      match: { kinds: [{ group: 'example.com', kind: 'Widget' }] },
      mutate: (req) => {
        seen.push(req.object?.status);
      },
    };
    t = await startTestServer({ kinds: [toyKind(conv)], admission: [noop] });
    const created = await t.api('POST', V2, { body: w2('quiet') });
    expect(created.status).toBe(201);
    // The hook saw v1's empty status; the object stored has none.
    expect(seen).toEqual([{}]);
    expect(created.body.status).toBeUndefined();
  });

  it('a change is converted back', async () => {
    const conv = lossyConversion();
    const labeler: AdmissionHook = {
      name: 'default.example.com',
      versions: ['v1'],
      match: { kinds: [{ group: 'example.com', kind: 'Widget' }] },
      mutate: (req) => {
        if (req.object)
          req.object.metadata.labels = {
            size: String((req.object.spec as { size?: number }).size),
          };
      },
    };
    t = await startTestServer({ kinds: [toyKind(conv)], admission: [labeler] });
    const created = await t.api('POST', V2, { body: w2('labeled') });
    expect(created.body.metadata.labels).toEqual({ size: '2' });
  });

  it('what a hook puts in the status of a main-resource write is dropped, as PrepareForCreate/Update drop it', async () => {
    const conv = lossyConversion();
    const statusWriter: AdmissionHook = {
      name: 'default.example.com',
      versions: ['v1'],
      match: { kinds: [{ group: 'example.com', kind: 'Widget' }] },
      mutate: (req) => {
        if (req.object) req.object.metadata.labels = { touched: 'yes' };
      },
    };
    t = await startTestServer({ kinds: [toyKind(conv)], admission: [statusWriter] });
    // The change is converted back with v1's empty status: the stored object has none.
    const created = await t.api('POST', V2, { body: w2('no-status') });
    expect(created.body.metadata.labels).toEqual({ touched: 'yes' });
    expect(created.body.status).toBeUndefined();
    const updated = await t.api('PATCH', `${V2}/no-status`, {
      body: { spec: { color: 'blue' } },
      contentType: 'application/merge-patch+json',
    });
    expect(updated.body.status).toBeUndefined();
  });

  it('may deny with its own Status, answered as kube-apiserver answers a webhook denial', async () => {
    const decoder: AdmissionHook = {
      name: 'default.example.com',
      match: { kinds: [{ group: 'example.com', kind: 'Widget' }] },
      mutate: () => ({
        allowed: false,
        message: '',
        status: { code: 400, message: 'time: invalid duration "abc"' },
      }),
    };
    t = await startTestServer({ kinds: [toyKind(toyConversion())], admission: [decoder] });
    const r = await t.api('POST', V2, { body: w2('undecodable') });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message:
        'admission webhook "default.example.com" denied the request: time: invalid duration "abc"',
      code: 400,
    });
    expect((await t.api('GET', `${V2}/undecodable`)).status).toBe(404);
  });

  it("a validating hook's Invalid Status keeps its causes", async () => {
    const validator: AdmissionHook = {
      name: 'validation.example.com',
      match: { kinds: [{ group: 'example.com', kind: 'Widget' }] },
      validate: (req) => ({
        allowed: false,
        message: '',
        status: invalid({ group: 'example.com', kind: 'Widget' }, req.name, [
          fieldError.forbidden('spec.color', 'field is immutable'),
        ]).toStatus(),
      }),
    };
    t = await startTestServer({ kinds: [toyKind(toyConversion())], admission: [validator] });
    const r = await t.api('POST', V2, { body: w2('refused') });
    expect(r.status).toBe(422);
    expect(r.body.reason).toBe('Invalid');
    expect(r.body.message).toBe(
      'admission webhook "validation.example.com" denied the request: Widget.example.com "refused" is invalid: spec.color: Forbidden: field is immutable',
    );
    expect(r.body.details).toEqual({
      name: 'refused',
      group: 'example.com',
      kind: 'Widget',
      causes: [
        {
          reason: 'FieldValueForbidden',
          message: 'Forbidden: field is immutable',
          field: 'spec.color',
        },
      ],
    });
  });
});
