/* eslint-disable @typescript-eslint/no-unsafe-member-access -- tests assert on arbitrary JSON from the wire */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAccept } from '../src/http/respond';
import { ADMIN, W, startTestServer, widget, type TestServer } from './support/server';

/**
 * Accept and Content-Type headers read as kube-apiserver reads them. The cases follow
 * munnellg/goautoneg's ParseAccept (q-values, wildcards, order) and apimachinery's
 * pkg/runtime/serializer negotiation tests (negotiate_test.go: several types, a transformation
 * asked for with `as`, `g`, `v`, a wildcard, an unacceptable header).
 */

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
  await t.api('POST', W, { body: widget('n1') });
});
afterAll(async () => {
  await t.server.close();
});

describe('parseAccept (goautoneg)', () => {
  it('orders by q, then concrete before wildcard, then as written', () => {
    const order = parseAccept(
      'text/*;q=0.3, text/html;q=0.7, text/html;level=1, */*;q=0.5, application/json',
    ).map(
      (c) => `${c.type}/${c.subtype}${c.params.size ? `;${[...c.params].join()}` : ''};q=${c.q}`,
    );
    expect(order).toEqual([
      'text/html;level,1;q=1',
      'application/json;q=1',
      'text/html;q=0.7',
      '*/*;q=0.5',
      'text/*;q=0.3',
    ]);
  });

  it('drops a clause without a subtype, and reads a q that is no number as 0', () => {
    const c = parseAccept('json, application/yaml;q=high, *');
    expect(c.map((x) => [`${x.type}/${x.subtype}`, x.q])).toEqual([
      ['*/*', 1],
      ['application/yaml', 0],
    ]);
  });
});

describe('content negotiation over HTTP', () => {
  const get = (accept: string) => t.api('GET', `${W}/n1`, { accept });

  it.each([
    ['application/yaml;q=0.5, application/json', 'application/json'],
    ['application/json;q=0.2, application/yaml;q=0.9', 'application/yaml'],
    ['*/*', 'application/json'],
    ['application/*', 'application/json'],
    ['text/html, application/yaml;q=0.1', 'application/yaml'],
    ['application/json;charset=utf-8', 'application/json'],
    ['application/vnd.kubernetes.protobuf, application/json', 'application/json'],
  ])('Accept: %s answers %s', async (accept, type) => {
    const r = await get(accept);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe(type);
  });

  it('serves a Table only for g=meta.k8s.io and v=v1, falling through to the next clause', async () => {
    const table = await get('application/json;as=Table;v=v1;g=meta.k8s.io');
    expect(table.body.kind).toBe('Table');
    const noVersion = await get('application/json;as=Table;g=meta.k8s.io, application/json');
    expect(noVersion.body.kind).toBe('Widget');
    const otherGroup = await get('application/json;as=Table;v=v1;g=example.com, application/json');
    expect(otherGroup.body.kind).toBe('Widget');
    const prefer = await get(
      'application/json;q=0.5, application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1',
    );
    expect(prefer.body.kind).toBe('PartialObjectMetadata');
  });

  it.each([
    'text/html',
    'application/json;as=Table;g=meta.k8s.io',
    'application/json;as=__proto__;g=meta.k8s.io;v=v1',
  ])('Accept: %s is a 406', async (accept) => {
    const r = await get(accept);
    expect(r.status).toBe(406);
    expect(r.body.reason).toBe('NotAcceptable');
  });

  it.each([
    'application/json; charset=utf-8',
    'Application/JSON',
    'application/json;charset=UTF-8',
  ])('Content-Type: %s is JSON', async (contentType) => {
    const r = await t.api('POST', W, {
      body: widget(`ct-${String(Math.random()).slice(2, 8)}`),
      contentType,
    });
    expect(r.status).toBe(201);
  });

  it('a create without Content-Type is read as JSON (NegotiateInputSerializer), a patch without one is a 415', async () => {
    const res = await fetch(`${t.server.url}${W}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN}` },
      // Bytes: fetch adds no Content-Type for them (a string would be text/plain).
      body: new TextEncoder().encode(JSON.stringify(widget('no-type'))),
    });
    expect(res.status).toBe(201);
    const patch = await fetch(`${t.server.url}${W}/no-type`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${ADMIN}` },
      body: new TextEncoder().encode('{}'),
    });
    expect(patch.status).toBe(415);
  });
});
