/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-return, @typescript-eslint/no-unsafe-call -- tests assert on arbitrary JSON from the wire */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, W, readWatch, startTestServer, widget, type TestServer } from './support/server';

/**
 * Query parameters read as kube-apiserver reads them. The cases follow upstream's own tests:
 * apimachinery pkg/runtime/conversion_test.go (booleans: only absent, "0" and "false" in any
 * case are false; integers: strconv.ParseInt), pkg/apis/meta/internalversion/validation/
 * validation_test.go (TestValidateListOptions: resourceVersionMatch and sendInitialEvents for a
 * list and a watch), pkg/apis/meta/v1/validation/validation_test.go (TestValidPatchOptions,
 * TestValidateFieldManagerInvalid, TestValidateDeleteOptions... dryRun, fieldValidation),
 * apiserver pkg/endpoints/request/requestinfo_test.go (what a GET with `watch` is) and
 * pkg/endpoints/handlers/delete.go (a DeleteOptions body wins over the query).
 */

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
  await t.api('POST', W, { body: widget('q1') });
  await t.api('POST', W, { body: widget('q2') });
});
afterAll(async () => {
  await t.server.close();
});

/** The first line of a GET: a watch event, or the start of a list. */
async function firstEvent(query: string): Promise<any> {
  const { status, events } = await readWatch(
    `${t.server.url}${W}?${query}`,
    ADMIN,
    (e) => e.length > 0,
    3000,
  );
  expect(status).toBe(200);
  return events[0];
}

describe('booleans, as Convert_Slice_string_To_bool reads them', () => {
  it.each(['true', 'True', 'TRUE', '1', 't', 'T', 'yes', ''])(
    'watch=%s opens a watch (the Python client sends True)',
    async (v) => {
      const ev = await firstEvent(`watch=${v}`);
      expect(ev).toMatchObject({ type: 'ADDED', object: { kind: 'Widget' } });
    },
  );

  it.each(['false', 'False', 'FALSE', '0'])('watch=%s lists', async (v) => {
    const r = await t.api('GET', `${W}?watch=${v}`);
    expect(r.status).toBe(200);
    expect(r.body.kind).toBe('WidgetList');
  });

  it('allowWatchBookmarks=True asks for bookmarks', async () => {
    const rv = (await t.api('GET', W)).body.metadata.resourceVersion;
    const { events } = await readWatch(
      `${t.server.url}${W}?watch=True&allowWatchBookmarks=True&resourceVersion=${rv}`,
      ADMIN,
      (e) => e.some((x: any) => x.type === 'BOOKMARK'),
      3000,
    );
    expect(events.map((e: any) => e.type)).toContain('BOOKMARK');
  });

  it('a named GET with ?watch is a get (only the /watch/ prefix watches one object)', async () => {
    const r = await t.api('GET', `${W}/q1?watch=true`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ kind: 'Widget', metadata: { name: 'q1' } });
  });
});

describe('integers, as strconv.ParseInt reads them', () => {
  it.each([
    ['timeoutSeconds', 'abc', 'invalid syntax'],
    ['timeoutSeconds', '1.5', 'invalid syntax'],
    ['timeoutSeconds', '', 'invalid syntax'],
    ['timeoutSeconds', '0x10', 'invalid syntax'],
    ['timeoutSeconds', '9223372036854775808', 'value out of range'],
    ['limit', 'ten', 'invalid syntax'],
  ])('%s=%s is a 400 naming the parameter', async (name, v, why) => {
    const r = await t.api('GET', `${W}?watch=1&${name}=${encodeURIComponent(v)}`);
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ kind: 'Status', reason: 'BadRequest', code: 400 });
    expect(r.body.message).toBe(
      `${name}: Invalid value: ${JSON.stringify(v)}: strconv.ParseInt: parsing ${JSON.stringify(v)}: ${why}`,
    );
  });

  it('accepts a sign: limit=+1 pages, limit=-1 is no limit (as etcd storage reads it)', async () => {
    const one = await t.api('GET', `${W}?limit=%2B1`);
    expect(one.body.items).toHaveLength(1);
    expect(one.body.metadata.continue).toBeTruthy();
    const all = await t.api('GET', `${W}?limit=-1`);
    expect(all.status).toBe(200);
    expect(all.body.items.length).toBeGreaterThanOrEqual(2);
  });

  it('timeoutSeconds=1 ends the watch after a second; 0 is the default timeout', async () => {
    const started = Date.now();
    const res = await fetch(`${t.server.url}${W}?watch=1&timeoutSeconds=1`, {
      headers: { authorization: `Bearer ${ADMIN}` },
    });
    await res.text();
    const took = Date.now() - started;
    expect(took).toBeGreaterThanOrEqual(900);
    expect(took).toBeLessThan(5000);
    const open = await readWatch(
      `${t.server.url}${W}?watch=1&timeoutSeconds=0`,
      ADMIN,
      () => false,
      1500,
    );
    expect(open.events.length).toBeGreaterThanOrEqual(2);
  });
});

describe('ListOptions validation (TestValidateListOptions)', () => {
  it.each([
    [
      'resourceVersionMatch=Exact',
      'resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided',
    ],
    [
      'resourceVersionMatch=Exact&resourceVersion=0',
      'resourceVersionMatch: Forbidden: resourceVersionMatch "exact" is forbidden for resourceVersion "0"',
    ],
    [
      'resourceVersionMatch=Newest&resourceVersion=1',
      'resourceVersionMatch: Unsupported value: "Newest": supported values: "Exact", "NotOlderThan", ""',
    ],
    [
      'sendInitialEvents=true',
      'sendInitialEvents: Forbidden: sendInitialEvents is forbidden for list',
    ],
    [
      'watch=1&resourceVersionMatch=NotOlderThan',
      'resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided',
    ],
    [
      'watch=1&sendInitialEvents=true',
      'resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan',
    ],
    [
      'watch=1&sendInitialEvents=true&resourceVersionMatch=Exact',
      'resourceVersionMatch: Unsupported value: "Exact": supported values: "NotOlderThan"',
    ],
  ])('%s is a 422 on ListOptions', async (query, message) => {
    const r = await t.api('GET', `${W}?${query}`);
    expect(r.status).toBe(422);
    expect(r.body).toMatchObject({
      reason: 'Invalid',
      details: { group: 'meta.k8s.io', kind: 'ListOptions' },
    });
    expect(r.body.message).toContain(message);
    expect(r.body.message.startsWith('ListOptions.meta.k8s.io "" is invalid: ')).toBe(true);
  });

  it('resourceVersionMatch=NotOlderThan with a resourceVersion lists', async () => {
    const r = await t.api('GET', `${W}?resourceVersionMatch=NotOlderThan&resourceVersion=1`);
    expect(r.status).toBe(200);
  });
});

describe('write options (ValidateCreateOptions, ValidatePatchOptions, ValidateDeleteOptions)', () => {
  it('an apply patch without fieldManager is a 422 on PatchOptions', async () => {
    const r = await t.api('PATCH', `${W}/q1`, {
      body: widget('q1'),
      contentType: 'application/apply-patch+yaml',
    });
    expect(r.status).toBe(422);
    expect(r.body.message).toBe(
      'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch',
    );
  });

  it('force on a merge patch is a 422, even force=false', async () => {
    const r = await t.api('PATCH', `${W}/q1?force=false`, {
      body: { metadata: { labels: { a: 'b' } } },
      contentType: 'application/merge-patch+json',
    });
    expect(r.status).toBe(422);
    expect(r.body.message).toContain('force: Forbidden: may not be specified for non-apply patch');
  });

  it('force=True forces an apply', async () => {
    const body = { ...widget('q1', { color: 'blue' }) };
    await t.api('PATCH', `${W}/q1?fieldManager=one`, {
      body,
      contentType: 'application/apply-patch+yaml',
    });
    const conflict = await t.api('PATCH', `${W}/q1?fieldManager=two`, {
      body: widget('q1', { color: 'green' }),
      contentType: 'application/apply-patch+yaml',
    });
    expect(conflict.status).toBe(409);
    const forced = await t.api('PATCH', `${W}/q1?fieldManager=two&force=True`, {
      body: widget('q1', { color: 'green' }),
      contentType: 'application/apply-patch+yaml',
    });
    expect(forced.status).toBe(200);
    expect(forced.body.spec.color).toBe('green');
  });

  it.each([
    ['fieldManager=' + 'm'.repeat(129), 'fieldManager: Too long: may not be longer than 128'],
    [
      'fieldManager=a%01b',
      'fieldManager: Invalid value: "a\\u0001b": invalid character U+0001 (at position 1)',
    ],
    ['dryRun=Some', 'dryRun: Unsupported value: ["Some"]: supported values: "All"'],
    [
      'fieldValidation=strict',
      'fieldValidation: Unsupported value: "strict": supported values: "", "Ignore", "Strict", "Warn"',
    ],
  ])('create with %s is a 422 on CreateOptions', async (query, message) => {
    const r = await t.api('POST', `${W}?${query}`, { body: widget('never') });
    expect(r.status).toBe(422);
    expect(r.body.details).toMatchObject({ group: 'meta.k8s.io', kind: 'CreateOptions' });
    expect(r.body.message).toBe(`CreateOptions.meta.k8s.io "" is invalid: ${message}`);
    expect((await t.api('GET', `${W}/never`)).status).toBe(404);
  });

  it('a write that names no manager is recorded under its user agent, up to the first /', async () => {
    const res = await fetch(`${t.server.url}${W}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${ADMIN}`,
        'content-type': 'application/json',
        'user-agent': 'OpenAPI-Generator/22.6.0/python',
      },
      body: JSON.stringify(widget('ua')),
    });
    const body: any = await res.json();
    expect(body.metadata.managedFields[0]).toMatchObject({
      manager: 'OpenAPI-Generator',
      operation: 'Update',
    });
  });

  it.each([
    [
      'propagationPolicy=Sideways',
      'propagationPolicy: Unsupported value: "Sideways": supported values: "Foreground", "Background", "Orphan", "nil"',
    ],
    [
      'propagationPolicy=Orphan&orphanDependents=false',
      'propagationPolicy: Invalid value: "Orphan": orphanDependents and deletionPropagation cannot be both set',
    ],
  ])('delete with %s is a 422 on DeleteOptions', async (query, message) => {
    const r = await t.api('DELETE', `${W}/q2?${query}`);
    expect(r.status).toBe(422);
    expect(r.body.message).toBe(`DeleteOptions.meta.k8s.io "" is invalid: ${message}`);
  });

  it('gracePeriodSeconds=soon is a 400', async () => {
    const r = await t.api('DELETE', `${W}/q2?gracePeriodSeconds=soon`);
    expect(r.status).toBe(400);
    expect(r.body.message).toContain('gracePeriodSeconds');
  });

  it('a DeleteOptions body is read alone: the query beside it is ignored', async () => {
    await t.api('POST', W, { body: widget('dr') });
    const r = await t.api('DELETE', `${W}/dr?dryRun=Bogus`, {
      body: { kind: 'DeleteOptions', apiVersion: 'v1', dryRun: ['All'] },
    });
    expect(r.status).toBe(200);
    expect((await t.api('GET', `${W}/dr`)).status).toBe(200);
    const wrong = await t.api('DELETE', `${W}/dr`, { body: { propagationPolicy: 7 } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toContain('DeleteOptions.propagationPolicy');
  });

  it('includeObject=Everything is a 400', async () => {
    const r = await t.api('GET', `${W}?includeObject=Everything`, {
      accept: 'application/json;as=Table;v=v1;g=meta.k8s.io',
    });
    expect(r.status).toBe(400);
    expect(r.body.message).toContain("must be 'Metadata', 'Object', 'None', or empty");
  });
});
