/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-argument, @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-return -- responses are arbitrary JSON from the wire */
/**
 * A kind served in two versions with a conversion callback, over real HTTP, as
 * apiextensions-apiserver serves a CRD with `spec.versions` and a conversion webhook
 * (`customresource_handler.go`, `pkg/apiserver/conversion`). The cases follow upstream's
 * integration tests of CR conversion (`test/integration/conversion/conversion_test.go`: create
 * in one version, read/list/watch/patch/status/scale in the other, a failing webhook) and of
 * versioning (`test/integration/versioning_test.go`: storage version moved, served flag off);
 * the expected texts are upstream's.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AdmissionHook, AdmissionRequest } from '../src/index';
import { ADMIN, NOBODY, startTestServer, type TestServer } from './support/server';
import {
  openWatch,
  toyConversion,
  toyKind,
  v1,
  v2,
  type ToyConversion,
} from './support/multi-version';

const V1 = '/apis/example.com/v1/namespaces/default/widgets';
const V2 = '/apis/example.com/v2/namespaces/default/widgets';
const DEPRECATED = '299 - "example.com/v1 Widget is deprecated; use example.com/v2 Widget"';

let t: TestServer | undefined;
afterEach(async () => {
  await t?.server.close();
  t = undefined;
});

async function start(
  conv: ToyConversion,
  opts: Parameters<typeof startTestServer>[0] = {},
): Promise<TestServer> {
  t = await startTestServer({ kinds: [toyKind(conv)], admission: [], ...opts });
  return t;
}

function w1(name: string, size = 3) {
  return {
    apiVersion: 'example.com/v1',
    kind: 'Widget',
    metadata: { name },
    spec: { color: 'red', size },
  };
}

describe('a kind served in two versions', () => {
  it('stores in the storage version and answers every read in the version asked for', async () => {
    const conv = toyConversion();
    const { api } = await start(conv);
    const created = await api('POST', V1, { body: w1('a') });
    expect(created.status).toBe(201);
    expect(created.body.apiVersion).toBe('example.com/v1');
    expect(created.body.spec).toEqual({ color: 'red', size: 3 });
    // The request was decoded and defaulted in v1, then stored in v2.
    expect(
      conv.calls.some((c) => c.to === 'example.com/v2' && c.from[0] === 'example.com/v1'),
    ).toBe(true);

    const got2 = await api('GET', `${V2}/a`);
    expect(got2.body.apiVersion).toBe('example.com/v2');
    expect(got2.body.spec).toEqual({ color: 'red', replicas: 3 });
    const got1 = await api('GET', `${V1}/a`);
    expect(got1.body.spec).toEqual({ color: 'red', size: 3 });
    for (const k of ['uid', 'resourceVersion', 'generation', 'creationTimestamp'])
      expect(got1.body.metadata[k]).toEqual(got2.body.metadata[k]);

    // A second read of the same stored version converts nothing more.
    const before = conv.calls.length;
    await api('GET', `${V1}/a`);
    expect(conv.calls.length).toBe(before);

    // Defaults and validation are the request version's.
    const bad = await api('POST', V1, {
      body: { ...w1('b'), spec: { color: 'red', replicas: 2 } },
      accept: 'application/json',
    });
    expect(bad.status).toBe(201);
    expect(bad.body.spec).toEqual({ color: 'red', size: 1 });
    const strict = await api('POST', `${V1}?fieldValidation=Strict`, {
      body: { ...w1('c'), spec: { color: 'red', replicas: 2 } },
    });
    expect(strict.status).toBe(400);
    expect(strict.body.message).toContain('unknown field "spec.replicas"');
    const invalid = await api('POST', V2, {
      body: {
        apiVersion: 'example.com/v2',
        kind: 'Widget',
        metadata: { name: 'd' },
        spec: { color: 'red', replicas: -1 },
      },
    });
    expect(invalid.status).toBe(422);
    expect(invalid.body.details.causes[0].field).toBe('spec.replicas');
    // A body of the other version is refused, as the real handler refuses it.
    const wrong = await api('POST', V2, { body: w1('e') });
    expect(wrong.status).toBe(400);
  });

  it('sends the deprecation warning on every request to the deprecated version, and only there', async () => {
    const { api } = await start(toyConversion());
    const post = await api('POST', V1, { body: w1('a') });
    expect(post.headers.get('warning')).toBe(DEPRECATED);
    expect((await api('GET', `${V1}/a`)).headers.get('warning')).toBe(DEPRECATED);
    expect((await api('GET', V1)).headers.get('warning')).toBe(DEPRECATED);
    expect((await api('GET', `${V1}/missing`)).headers.get('warning')).toBe(DEPRECATED);
    expect((await api('GET', `${V2}/a`)).headers.get('warning')).toBeNull();
    // Warnings of the write come after it.
    const warned = await api('POST', V1, {
      body: { ...w1('b'), spec: { color: 'red', size: 1, extra: true } },
    });
    expect(warned.headers.get('warning')).toBe(
      `${DEPRECATED}, 299 - "unknown field \\"spec.extra\\""`,
    );
    // A text of its own, when the version says one.
    await t?.server.close();
    const conv = toyConversion();
    t = await startTestServer({
      kinds: [toyKind(conv, [v1({ deprecationWarning: 'v1 goes away in 2027' }), v2()])],
      admission: [],
    });
    expect((await t.api('GET', V1)).headers.get('warning')).toBe('299 - "v1 goes away in 2027"');
  });

  it('lists in each version, with its own list kind, field selectors and items', async () => {
    const conv = toyConversion();
    const { api } = await start(conv);
    for (const [n, size] of [
      ['a', 1],
      ['b', 2],
      ['c', 2],
    ] as const)
      await api('POST', V1, { body: w1(n, size) });
    const l1 = await api('GET', V1);
    expect(l1.body.apiVersion).toBe('example.com/v1');
    expect(l1.body.kind).toBe('WidgetList');
    expect(l1.body.items.map((i: any) => [i.apiVersion, i.spec.size])).toEqual([
      ['example.com/v1', 1],
      ['example.com/v1', 2],
      ['example.com/v1', 2],
    ]);
    const l2 = await api('GET', `${V2}?fieldSelector=spec.replicas=2&limit=1`);
    expect(l2.body.items.map((i: any) => [i.metadata.name, i.spec.replicas])).toEqual([['b', 2]]);
    expect(l2.body.metadata.continue).toBeTruthy();
    const next = await api(
      'GET',
      `${V2}?fieldSelector=spec.replicas=2&continue=${String(l2.body.metadata.continue)}`,
    );
    expect(next.body.items.map((i: any) => i.metadata.name)).toEqual(['c']);
    expect((await api('GET', `${V1}?fieldSelector=spec.size=1`)).body.items).toHaveLength(1);
    // Objects not read in v1 yet are converted together, as upstream sends a list's items in
    // one ConversionReview.
    for (const n of ['x', 'y', 'z'])
      await api('POST', V2, {
        body: {
          apiVersion: 'example.com/v2',
          kind: 'Widget',
          metadata: { name: n },
          spec: { color: 'red' },
        },
      });
    const calls = conv.calls.length;
    expect((await api('GET', V1)).body.items).toHaveLength(6);
    expect(conv.calls.slice(calls).map((c) => [c.count, c.to])).toEqual([[3, 'example.com/v1']]);
    // Each version's selectable fields are its own.
    const refused = await api('GET', `${V1}?fieldSelector=spec.replicas=1`);
    expect(refused.status).toBe(400);
  });

  it('sends a watch in each version the same events, each in its own version', async () => {
    const { api } = await start(toyConversion());
    await api('POST', V1, { body: w1('a') });
    const wa = await openWatch(`${t?.server.url}${V1}?watch=true&allowWatchBookmarks=true`, ADMIN);
    const wb = await openWatch(`${t?.server.url}${V2}?watch=true`, ADMIN);
    const wc = await openWatch(
      `${t?.server.url}${V2}?watch=true&fieldSelector=spec.replicas=5`,
      ADMIN,
    );
    try {
      const got = (await api('GET', `${V2}/a`)).body;
      const put = await api('PUT', `${V2}/a`, {
        body: { ...got, spec: { color: 'green', replicas: 5 } },
      });
      expect(put.status).toBe(200);
      expect(put.body.apiVersion).toBe('example.com/v2');
      const patched = await api('PATCH', `${V1}/a`, {
        body: { spec: { color: 'blue' } },
        contentType: 'application/merge-patch+json',
      });
      expect(patched.body.apiVersion).toBe('example.com/v1');
      expect(patched.body.spec).toEqual({ color: 'blue', size: 5 });
      await api('DELETE', `${V1}/a`);
      const done = (evs: any[]) => evs.filter((e) => e.type !== 'BOOKMARK').length >= 4;
      await wa.until(done);
      await wb.until(done);
      await wc.until((evs) => evs.length >= 3);
      const plain = (evs: any[]) =>
        evs
          .filter((e) => e.type !== 'BOOKMARK')
          .map((e) => [e.type, e.object.apiVersion, e.object.metadata.resourceVersion]);
      const a = plain(wa.events);
      const b = plain(wb.events);
      expect(a.map((e) => e[0])).toEqual(['ADDED', 'MODIFIED', 'MODIFIED', 'DELETED']);
      expect(a.map((e) => e[1])).toEqual(Array(4).fill('example.com/v1'));
      expect(b.map((e) => e[1])).toEqual(Array(4).fill('example.com/v2'));
      expect(a.map((e) => e[2])).toEqual(b.map((e) => e[2]));
      expect(wa.events[1].object.spec).toEqual({ color: 'green', size: 5 });
      expect(wb.events[1].object.spec).toEqual({ color: 'green', replicas: 5 });
      // A filtered watch in v2 sees the object enter and leave its selector by v2's fields.
      expect(wc.events.map((e) => e.type)).toEqual(['ADDED', 'MODIFIED', 'DELETED']);
      // A resumed watch in v1 replays the history in v1.
      const rv = String(a[0]?.[2]);
      const resumed = await openWatch(
        `${t?.server.url}${V1}?watch=true&resourceVersion=${rv}`,
        ADMIN,
      );
      await resumed.until((evs) => evs.length >= 3);
      expect(resumed.events.map((e) => e.object.apiVersion)).toEqual(
        Array(3).fill('example.com/v1'),
      );
      resumed.close();
    } finally {
      wa.close();
      wb.close();
      wc.close();
    }
  });

  it('patches (merge, JSON, apply) in each version, with managed fields in each manager’s version', async () => {
    const { api } = await start(toyConversion());
    await api('POST', `${V1}?fieldManager=creator`, { body: w1('a') });
    const json = await api('PATCH', `${V2}/a?fieldManager=jsonpatcher`, {
      body: [{ op: 'replace', path: '/spec/replicas', value: 7 }],
      contentType: 'application/json-patch+json',
    });
    expect(json.status).toBe(200);
    expect(json.body.spec.replicas).toBe(7);
    const badPath = await api('PATCH', `${V1}/a`, {
      body: [{ op: 'replace', path: '/spec/replicas', value: 7 }],
      contentType: 'application/json-patch+json',
    });
    expect(badPath.status).toBe(422);
    const apply1 = await api('PATCH', `${V1}/a?fieldManager=applier1`, {
      body: {
        apiVersion: 'example.com/v1',
        kind: 'Widget',
        metadata: { name: 'a', labels: { x: '1' } },
      },
      contentType: 'application/apply-patch+yaml',
    });
    expect(apply1.status).toBe(200);
    const apply2 = await api('PATCH', `${V2}/a?fieldManager=applier2`, {
      body: {
        apiVersion: 'example.com/v2',
        kind: 'Widget',
        metadata: { name: 'a' },
        spec: { color: 'red', tags: ['t'] },
      },
      contentType: 'application/apply-patch+yaml',
    });
    expect(apply2.status).toBe(200);
    expect(apply2.body.spec).toEqual({ color: 'red', replicas: 7, tags: ['t'] });
    const managers = Object.fromEntries(
      apply2.body.metadata.managedFields.map((e: any) => [e.manager, e.apiVersion]),
    );
    expect(managers).toEqual({
      creator: 'example.com/v1',
      jsonpatcher: 'example.com/v2',
      applier1: 'example.com/v1',
      applier2: 'example.com/v2',
    });
    // The same entries through either version: managed fields are not converted.
    const mf1 = (await api('GET', `${V1}/a`)).body.metadata.managedFields;
    expect(mf1).toEqual(apply2.body.metadata.managedFields);
    // Apply creates in a non-storage version too.
    const created = await api('PATCH', `${V1}/n?fieldManager=applier1`, {
      body: w1('n', 4),
      contentType: 'application/apply-patch+yaml',
    });
    expect(created.status).toBe(201);
    expect((await api('GET', `${V2}/n`)).body.spec.replicas).toBe(4);
  });

  it('sends each version’s bookmarks, Table watch rows and 410 from the shared history', async () => {
    const { api, server } = await start(toyConversion(), { watchHistorySize: 2 });
    const first = await api('POST', V1, { body: w1('a', 1) });
    for (const size of [2, 3, 4])
      await api('PATCH', `${V1}/a`, {
        body: { spec: { size } },
        contentType: 'application/merge-patch+json',
      });
    const rv = String(first.body.metadata.resourceVersion);
    const gone = await openWatch(`${server.url}${V1}?watch=true&resourceVersion=${rv}`, ADMIN);
    await gone.ended;
    expect(gone.events.map((e) => [e.type, e.object.code])).toEqual([['ERROR', 410]]);
    const bm = await openWatch(
      `${server.url}${V1}?watch=true&allowWatchBookmarks=true&resourceVersion=${String(server.resourceVersion)}`,
      ADMIN,
    );
    await bm.until((evs) => evs.some((e) => e.type === 'BOOKMARK'));
    expect(bm.events[0].object.apiVersion).toBe('example.com/v1');
    bm.close();
    const res = await fetch(`${server.url}${V1}?watch=true`, {
      headers: {
        authorization: `Bearer ${ADMIN}`,
        accept: 'application/json;as=Table;v=v1;g=meta.k8s.io',
      },
    });
    const reader = res.body?.getReader();
    const chunk = await reader?.read();
    await reader?.cancel();
    const line = JSON.parse(new TextDecoder().decode(chunk?.value).split('\n')[0] ?? '');
    expect(line.object.columnDefinitions.map((c: any) => c.name)).toEqual([
      'Name',
      'Color',
      'Size',
    ]);
    expect(line.object.rows[0].cells).toEqual(['a', 'red', 4]);
  });

  // After structured-merge-diff's multiple-appliers tests with a renaming converter
  // (merge/multiple_appliers_test.go, TestMultipleAppliersFieldRenameConversions'
  // "updater_claims_field": an update in one version takes a renamed field from an applier of
  // another): field sets stay in their manager's version and a change is compared in each
  // manager's own version.
  it('server-side apply in one version conflicts with fields another version’s manager owns', async () => {
    const { api } = await start(toyConversion());
    const APPLY = 'application/apply-patch+yaml';
    const mine = await api('PATCH', `${V1}/a?fieldManager=sizer`, {
      body: w1('a', 3),
      contentType: APPLY,
    });
    expect(mine.status).toBe(201);
    const scale = (replicas: number, force = false) =>
      api('PATCH', `${V2}/a?fieldManager=scaler${force ? '&force=true' : ''}`, {
        body: {
          apiVersion: 'example.com/v2',
          kind: 'Widget',
          metadata: { name: 'a' },
          spec: { color: 'red', replicas },
        },
        contentType: APPLY,
      });
    // The same values: no conflict, both own them.
    expect((await scale(3)).status).toBe(200);
    const conflict = await scale(5);
    expect(conflict.status).toBe(409);
    // An applier is named alone; only an updater gets "using <version> at <time>"
    // (fieldmanager's printManager).
    expect(conflict.body.message).toBe(
      'Apply failed with 1 conflict: conflict with "sizer": .spec.size',
    );
    expect(conflict.body.details.causes[0]).toMatchObject({
      reason: 'FieldManagerConflict',
      field: '.spec.size',
    });
    const forced = await scale(5, true);
    expect(forced.status).toBe(200);
    const fields = (body: any) =>
      Object.fromEntries(
        body.metadata.managedFields.map((e: any) => [
          e.manager,
          Object.keys(e.fieldsV1['f:spec'] ?? {}).sort(),
        ]),
      );
    expect(fields(forced.body)).toEqual({ sizer: ['f:color'], scaler: ['f:color', 'f:replicas'] });
    // An update in v1 takes the field from the v2 manager, compared in v2.
    const upd = await api('PATCH', `${V1}/a?fieldManager=patcher`, {
      body: { spec: { size: 6 } },
      contentType: 'application/merge-patch+json',
    });
    expect(fields(upd.body)).toEqual({
      sizer: ['f:color'],
      scaler: ['f:color'],
      patcher: ['f:size'],
    });
    expect((await api('GET', `${V2}/a`)).body.spec.replicas).toBe(6);
  });

  // After structured-merge-diff's "applier_updater_shared_ownership_real_conversion" (merge/
  // multiple_appliers_test.go): what an applier stops applying stays when a manager of another
  // version owns it too.
  it('keeps a field an applier stops applying when another version’s manager owns it', async () => {
    const { api } = await start(toyConversion());
    const APPLY = 'application/apply-patch+yaml';
    const byV2 = (spec: Record<string, unknown>) =>
      api('PATCH', `${V2}/a?fieldManager=v2-applier`, {
        body: { apiVersion: 'example.com/v2', kind: 'Widget', metadata: { name: 'a' }, spec },
        contentType: APPLY,
      });
    expect((await byV2({ color: 'red', replicas: 3, tags: ['t'] })).status).toBe(201);
    // The v1 applier applies the same size: both own it.
    const v1 = await api('PATCH', `${V1}/a?fieldManager=v1-applier`, {
      body: w1('a', 3),
      contentType: APPLY,
    });
    expect(v1.status).toBe(200);
    const dropped = await byV2({ color: 'red' });
    expect(dropped.status).toBe(200);
    // replicas stays (the v1 applier owns it as spec.size); tags, owned by nobody else, go.
    expect(dropped.body.spec).toEqual({ color: 'red', replicas: 3 });
    const owners = Object.fromEntries(
      dropped.body.metadata.managedFields.map((e: any) => [
        e.manager,
        Object.keys(e.fieldsV1['f:spec'] ?? {}).sort(),
      ]),
    );
    expect(owners).toEqual({ 'v2-applier': ['f:color'], 'v1-applier': ['f:color', 'f:size'] });
    // When the v1 applier stops applying it too, it goes.
    const gone = await api('PATCH', `${V1}/a?fieldManager=v1-applier`, {
      body: {
        apiVersion: 'example.com/v1',
        kind: 'Widget',
        metadata: { name: 'a' },
        spec: { color: 'red' },
      },
      contentType: APPLY,
    });
    expect(gone.body.spec).toEqual({ color: 'red', size: 1 });
  });

  it('serves status and scale in each version, at each version’s paths', async () => {
    const { api } = await start(toyConversion());
    await api('POST', V1, { body: w1('a') });
    const cur = (await api('GET', `${V1}/a`)).body;
    const st = await api('PUT', `${V1}/a/status`, {
      body: { ...cur, status: { phase: 'Running', readyCount: 2 } },
    });
    expect(st.status).toBe(200);
    expect(st.body.status).toEqual({ phase: 'Running', readyCount: 2 });
    expect((await api('GET', `${V2}/a`)).body.status).toEqual({ phase: 'Running', ready: 2 });
    const sp = await api('PATCH', `${V2}/a/status`, {
      body: { status: { ready: 3 } },
      contentType: 'application/merge-patch+json',
    });
    expect(sp.body.status).toEqual({ phase: 'Running', ready: 3 });

    const s1 = await api('GET', `${V1}/a/scale`);
    const s2 = await api('GET', `${V2}/a/scale`);
    expect([s1.body.spec.replicas, s1.body.status.replicas]).toEqual([3, 3]);
    expect([s2.body.spec.replicas, s2.body.status.replicas]).toEqual([3, 3]);
    expect(s1.headers.get('warning')).toBe(DEPRECATED);
    const scaled = await api('PATCH', `${V1}/a/scale`, {
      body: { spec: { replicas: 6 } },
      contentType: 'application/merge-patch+json',
    });
    expect(scaled.body.spec.replicas).toBe(6);
    expect((await api('GET', `${V2}/a`)).body.spec.replicas).toBe(6);
    const put = await api('PUT', `${V2}/a/scale`, {
      body: {
        apiVersion: 'autoscaling/v1',
        kind: 'Scale',
        metadata: { name: 'a', namespace: 'default' },
        spec: { replicas: 2 },
      },
    });
    expect(put.status).toBe(200);
    expect((await api('GET', `${V1}/a`)).body.spec.size).toBe(2);
  });

  it('answers Tables with each version’s printer columns, and dry runs in the version asked', async () => {
    const { api, server } = await start(toyConversion());
    await api('POST', V1, { body: w1('a', 4) });
    const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io';
    const t1 = await api('GET', V1, { accept: TABLE });
    const t2 = await api('GET', `${V2}/a`, { accept: TABLE });
    expect(t1.body.columnDefinitions.map((c: any) => c.name)).toEqual(['Name', 'Color', 'Size']);
    expect(t2.body.columnDefinitions.map((c: any) => c.name)).toEqual([
      'Name',
      'Color',
      'Replicas',
    ]);
    expect(t1.body.rows[0].cells).toEqual(['a', 'red', 4]);
    expect(t2.body.rows[0].cells).toEqual(['a', 'red', 4]);
    expect(t1.body.rows[0].object.apiVersion).toBe('meta.k8s.io/v1');

    const rv = server.resourceVersion;
    const dry = await api('POST', `${V1}?dryRun=All`, { body: w1('dry', 2) });
    expect(dry.status).toBe(201);
    expect(dry.body.apiVersion).toBe('example.com/v1');
    expect(dry.body.spec.size).toBe(2);
    const dryPatch = await api('PATCH', `${V2}/a?dryRun=All`, {
      body: { spec: { replicas: 9 } },
      contentType: 'application/merge-patch+json',
    });
    expect(dryPatch.body.spec.replicas).toBe(9);
    expect((await api('GET', `${V2}/dry`)).status).toBe(404);
    expect((await api('GET', `${V1}/a`)).body.spec.size).toBe(4);
    expect(server.resourceVersion).toBe(rv);
  });

  it('lists every served version in discovery and OpenAPI, the preferred (v2) first', async () => {
    const { api } = await start(toyConversion());
    const group = (await api('GET', '/apis/example.com')).body;
    expect(group.versions.map((v: any) => v.version)).toEqual(['v2', 'v1']);
    expect(group.preferredVersion.version).toBe('v2');
    const all = (await api('GET', '/apis')).body.groups.find((g: any) => g.name === 'example.com');
    expect(all.versions.map((v: any) => v.groupVersion)).toEqual([
      'example.com/v2',
      'example.com/v1',
    ]);
    const agg = await api('GET', '/apis', {
      accept: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList',
    });
    const aggGroup = agg.body.items.find((g: any) => g.metadata.name === 'example.com');
    expect(aggGroup.versions.map((v: any) => v.version)).toEqual(['v2', 'v1']);
    expect(aggGroup.versions[1].resources[0].responseKind).toEqual({
      group: 'example.com',
      version: 'v1',
      kind: 'Widget',
    });
    for (const v of ['v1', 'v2']) {
      const list = (await api('GET', `/apis/example.com/${v}`)).body;
      expect(list.resources.map((r: any) => r.name)).toEqual([
        'widgets',
        'widgets/scale',
        'widgets/status',
      ]);
    }
    const index = (await api('GET', '/openapi/v3')).body;
    expect(Object.keys(index.paths)).toEqual(
      expect.arrayContaining(['apis/example.com/v1', 'apis/example.com/v2']),
    );
    const doc1 = (await api('GET', '/openapi/v3/apis/example.com/v1')).body;
    expect(Object.keys(doc1.components.schemas.v1 ?? {})).toEqual([]);
    expect(
      doc1.components.schemas['com.example.v1.Widget'].properties.spec.properties.size,
    ).toBeDefined();
    const doc2 = (await api('GET', '/openapi/v3/apis/example.com/v2')).body;
    expect(
      doc2.components.schemas['com.example.v2.Widget'].properties.spec.properties.replicas,
    ).toBeDefined();
    const v2doc = (await api('GET', '/openapi/v2')).body;
    expect(Object.keys(v2doc.definitions)).toEqual(
      expect.arrayContaining(['com.example.v1.Widget', 'com.example.v2.Widget']),
    );
  });

  it('answers as for a failing conversion webhook, and stores nothing it could not convert', async () => {
    const conv = toyConversion();
    const { api } = await start(conv);
    await api('POST', V2, {
      body: {
        apiVersion: 'example.com/v2',
        kind: 'Widget',
        metadata: { name: 'a' },
        spec: { color: 'red' },
      },
    });
    const watch = await openWatch(`${t?.server.url}${V1}?watch=true`, ADMIN);
    await watch.until((evs) => evs.length === 1);
    conv.failWith = 'connection refused';
    // The storage version needs no conversion: writes and reads in it go on.
    const b = await api('POST', V2, {
      body: {
        apiVersion: 'example.com/v2',
        kind: 'Widget',
        metadata: { name: 'b' },
        spec: { color: 'red' },
      },
    });
    expect(b.status).toBe(201);
    expect((await api('GET', `${V2}/a`)).status).toBe(200);
    // The v1 watch cannot be sent that event: its stream ends, as an encoding failure ends it.
    await watch.ended;
    expect(watch.endedByServer()).toBe(true);
    expect(watch.events).toHaveLength(1);
    const get = await api('GET', `${V1}/b`);
    expect(get.status).toBe(500);
    expect(get.body.reason).toBe('InternalError');
    expect(get.body.message).toBe(
      'Internal error occurred: conversion webhook for example.com/v2, Kind=Widget failed: connection refused',
    );
    expect((await api('GET', V1)).status).toBe(500);
    const rv = t?.server.resourceVersion;
    const post = await api('POST', V1, { body: w1('c') });
    expect(post.status).toBe(500);
    expect(post.body.message).toContain(
      'conversion webhook for example.com/v1, Kind=Widget failed',
    );
    expect(t?.server.resourceVersion).toBe(rv);
    expect((await api('GET', `${V2}/c`)).status).toBe(404);
    // A new watch in v1 cannot start.
    expect((await api('GET', `${V1}?watch=true`)).status).toBe(500);

    conv.failWith = undefined;
    for (const [corrupt, text] of [
      [
        'apiVersion',
        'returned invalid converted object at index 0: expected apiVersion "example.com/v1", got "example.com/v9"',
      ],
      ['count', 'returned 2 objects, expected 1'],
    ] as const) {
      conv.corrupt = corrupt;
      const bad = await api('GET', `${V1}/b`);
      expect(bad.status).toBe(500);
      expect(bad.body.message).toContain(text);
    }
    // Metadata other than labels and annotations is the original's, whatever the webhook says.
    conv.corrupt = 'uid';
    const forged = await api('GET', `${V1}/b`);
    expect(forged.status).toBe(200);
    expect(forged.body.metadata.uid).not.toBe('forged');
  });

  it('admits in the storage version unless a hook names the versions it takes', async () => {
    const seen: Record<string, string[]> = { storage: [], v1: [] };
    const hooks: AdmissionHook[] = [
      {
        name: 'defaulter.example.com',
        match: { kinds: [{ group: 'example.com', kind: 'Widget' }], operations: ['CREATE'] },
        mutate: (req: AdmissionRequest) => {
          seen.storage?.push(`${req.kind.version}:${String(req.object?.apiVersion)}`);
          const spec = req.object?.spec as Record<string, unknown>;
          spec.replicas = 8;
          req.object?.metadata.finalizers?.push('example.com/hold');
          if (req.object) req.object.metadata.finalizers ??= ['example.com/hold'];
        },
      },
      {
        name: 'v1-validator.example.com',
        versions: ['v1beta9', 'v1'],
        match: { kinds: [{ group: 'example.com', kind: 'Widget' }] },
        validate: (req: AdmissionRequest) => {
          seen.v1?.push(`${req.kind.version}:${String((req.object?.spec as any)?.size)}`);
          return { allowed: true };
        },
      },
    ];
    const { api } = await start(toyConversion(), { admission: hooks });
    const created = await api('POST', V1, { body: w1('a', 1) });
    expect(created.status).toBe(201);
    expect(created.body.spec.size).toBe(8);
    expect(created.body.metadata.finalizers).toEqual(['example.com/hold']);
    expect(seen.storage).toEqual(['v2:example.com/v2']);
    expect(seen.v1).toEqual(['v1:8']);
  });
});

describe('user keys through conversion', () => {
  it('keeps `__proto__` a key through a conversion for a hook and back', async () => {
    const conv = toyConversion();
    const hook: AdmissionHook = {
      name: 'labeler.example.com',
      match: { kinds: [{ group: 'example.com', kind: 'Widget' }] },
      mutate: (req) => {
        if (req.object) req.object.metadata.labels = { touched: 'yes' };
      },
    };
    const schemaless = [v1({ openAPIV3Schema: undefined }), v2({ openAPIV3Schema: undefined })];
    const { api } = await start(conv, { kinds: [toyKind(conv, schemaless)], admission: [hook] });
    const created = await api('POST', V1, {
      body: '{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"p"},"spec":{"color":"red","size":1},"__proto__":{"polluted":true}}',
    });
    expect(created.status).toBe(201);
    expect(created.body.metadata.labels).toEqual({ touched: 'yes' });
    expect(created.text).toContain('"__proto__":{"polluted":true}');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const got = await api('GET', `${V2}/p`);
    expect(Object.hasOwn(JSON.parse(got.text) as object, '__proto__')).toBe(true);
  });
});

describe('owner references, garbage collection and RBAC across versions', () => {
  it('collects dependents of an owner deleted through the other version; a Role on the resource grants every version', async () => {
    const { api, server } = await start(toyConversion());
    const owner = (await api('POST', V1, { body: w1('owner') })).body;
    const cm = await api('POST', '/api/v1/namespaces/default/configmaps', {
      body: {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: {
          name: 'dep',
          ownerReferences: [
            {
              apiVersion: 'example.com/v1',
              kind: 'Widget',
              name: 'owner',
              uid: owner.metadata.uid,
            },
          ],
        },
      },
    });
    expect(cm.status).toBe(201);
    const del = await api('DELETE', `${V2}/owner`, { body: { propagationPolicy: 'Foreground' } });
    expect(del.status).toBe(200);
    expect(del.body.apiVersion).toBe('example.com/v2');
    await server.settled();
    for (let i = 0; i < 50 && (await api('GET', `${V2}/owner`)).status !== 404; i++)
      await new Promise((r) => setTimeout(r, 20));
    expect((await api('GET', '/api/v1/namespaces/default/configmaps/dep')).status).toBe(404);
    expect((await api('GET', `${V1}/owner`)).status).toBe(404);

    await server.client.create({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'Role',
      metadata: { name: 'widget-reader', namespace: 'default' },
      rules: [{ apiGroups: ['example.com'], resources: ['widgets'], verbs: ['get', 'list'] }],
    });
    await server.client.create({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name: 'nobody-reads', namespace: 'default' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'widget-reader' },
      subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'nobody' }],
    });
    await api('POST', V2, {
      body: {
        apiVersion: 'example.com/v2',
        kind: 'Widget',
        metadata: { name: 'r' },
        spec: { color: 'red' },
      },
    });
    expect((await api('GET', `${V1}/r`, { token: NOBODY })).status).toBe(200);
    expect((await api('GET', `${V2}/r`, { token: NOBODY })).status).toBe(200);
    const refused = await api('DELETE', `${V1}/r`, { token: NOBODY });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe(
      'widgets.example.com "r" is forbidden: User "nobody" cannot delete resource "widgets" in API group "example.com" in the namespace "default"',
    );
  });
});

describe('a kind redefined at run time (a CRD update)', () => {
  it('moves the storage version: old objects stay as stored until written, and are read in both', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'apiserver-multiver-'));
    const statePath = join(dir, 'state.jsonl');
    const conv = toyConversion();
    t = await startTestServer({
      kinds: [toyKind(conv, [v1({ storage: true, deprecated: false }), v2({ storage: false })])],
      admission: [],
      statePath,
    });
    const { api, server } = t;
    await api('POST', V1, { body: w1('old', 2) });
    server.updateKind(toyKind(conv, [v1(), v2()]));
    await api('POST', V1, { body: w1('new', 3) });
    expect((await api('GET', `${V2}/old`)).body.spec.replicas).toBe(2);
    expect((await api('GET', `${V1}/old`)).body.spec.size).toBe(2);
    const stored = () =>
      Object.fromEntries(
        readFileSync(statePath, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l))
          .filter((r) => r.t === 'P' && r.r === 'example.com/widgets')
          .map((r) => [r.o.metadata.name, r.o.apiVersion]),
      );
    expect(stored()).toEqual({ old: 'example.com/v1', new: 'example.com/v2' });
    // A no-op update rewrites an object in the new storage version (storage migration).
    const cur = (await api('GET', `${V2}/old`)).body;
    const put = await api('PUT', `${V2}/old`, { body: cur });
    expect(Number(put.body.metadata.resourceVersion)).toBeGreaterThan(
      Number(cur.metadata.resourceVersion),
    );
    expect(stored()).toEqual({ old: 'example.com/v2', new: 'example.com/v2' });
    // ...and once it is, a no-op stores nothing.
    const again = await api('PUT', `${V2}/old`, { body: put.body });
    expect(again.body.metadata.resourceVersion).toBe(put.body.metadata.resourceVersion);

    // A version that still holds objects cannot be dropped.
    await api('POST', V1, { body: w1('x') });
    server.updateKind(toyKind(conv, [v1({ storage: true }), v2({ storage: false })]));
    await api('POST', V1, { body: w1('in-v1') });
    expect(() => {
      server.updateKind(toyKind(conv, [v2()]));
    }).toThrow('objects are stored in example.com/v1, which must appear in spec.versions');
    expect(() => {
      server.updateKind(toyKind(conv, [v1({ storage: true }), v2({ storage: true })]));
    }).toThrow('exactly one version marked as storage version');
    expect(() => {
      server.updateKind({ ...toyKind(conv), scope: 'Cluster' });
    }).toThrow('spec.scope: Invalid value: field is immutable');
    expect(() => {
      server.updateKind({ ...toyKind(conv), kind: 'Gadget' });
    }).toThrow('spec.names.kind cannot change here');
    expect(() => {
      server.updateKind({ ...toyKind(conv), plural: 'gadgets' });
    }).toThrow('no kind example.com/gadgets is registered');
    expect((await api('GET', `${V1}/in-v1`)).status).toBe(200);
  });

  it('stops serving a version: 404, discovery without it, and every watch of the kind ends', async () => {
    const conv = toyConversion();
    const { api, server } = await start(conv);
    await api('POST', V1, { body: w1('a') });
    const w1watch = await openWatch(`${server.url}${V1}?watch=true`, ADMIN);
    const w2watch = await openWatch(`${server.url}${V2}?watch=true&labelSelector=x!=y`, ADMIN);
    await w1watch.until((evs) => evs.length === 1);
    await w2watch.until((evs) => evs.length === 1);
    server.updateKind(toyKind(conv, [v1({ served: false }), v2()]));
    await w1watch.ended;
    await w2watch.ended;
    expect(w1watch.endedByServer()).toBe(true);
    expect(w2watch.endedByServer()).toBe(true);
    const gone = await api('GET', `${V1}/a`);
    expect(gone.status).toBe(404);
    expect(gone.body.message).toBe('the server could not find the requested resource');
    expect(
      (await api('GET', '/apis/example.com')).body.versions.map((v: any) => v.version),
    ).toEqual(['v2']);
    expect((await api('GET', '/apis/example.com/v1')).status).toBe(404);
    expect(Object.keys((await api('GET', '/openapi/v3')).body.paths)).not.toContain(
      'apis/example.com/v1',
    );
    // A re-watch in the served version resumes from where it was, and misses nothing.
    const rv = String(w2watch.events[0]?.object.metadata.resourceVersion);
    await api('PATCH', `${V2}/a`, {
      body: { spec: { replicas: 4 } },
      contentType: 'application/merge-patch+json',
    });
    const resumed = await openWatch(`${server.url}${V2}?watch=true&resourceVersion=${rv}`, ADMIN);
    await resumed.until((evs) => evs.length === 1);
    expect(resumed.events[0].object.spec.replicas).toBe(4);
    resumed.close();
    // Serving it again brings it back, with the objects.
    server.updateKind(toyKind(conv, [v1(), v2()]));
    expect((await api('GET', `${V1}/a`)).body.spec.size).toBe(4);
  });

  it('gives a kind registered with one version more versions', async () => {
    const conv = toyConversion();
    const single = {
      group: 'example.com',
      version: 'v1',
      kind: 'Widget',
      plural: 'widgets',
      scope: 'Namespaced' as const,
      ...(({ name: _n, served: _s, storage: _st, deprecated: _d, ...rest }) => rest)(v1()),
    };
    t = await startTestServer({ kinds: [single], admission: [] });
    await t.api('POST', V1, { body: w1('a', 5) });
    expect((await t.api('GET', V2)).status).toBe(404);
    t.server.updateKind(toyKind(conv));
    expect((await t.api('GET', `${V2}/a`)).body.spec.replicas).toBe(5);
    expect((await t.api('GET', `${V1}/a`)).headers.get('warning')).toBe(DEPRECATED);
  });
});

describe('an upgrade of the kind’s versions under an open watch (Cluster API v1.10 → v1.14 → v1.16)', () => {
  it('serves v1, then v2 stored with v1 deprecated, then v2 alone: the watcher re-watches and misses no event', async () => {
    const conv = toyConversion();
    const { name: _n, served: _s, storage: _st, deprecated: _d, ...v1Only } = v1();
    t = await startTestServer({
      kinds: [
        {
          group: 'example.com',
          version: 'v1',
          kind: 'Widget',
          plural: 'widgets',
          scope: 'Namespaced',
          ...v1Only,
        },
      ],
      admission: [],
    });
    const { api, server } = t;
    await api('POST', V1, { body: w1('a', 1) });
    await api('POST', V1, { body: w1('b', 1) });
    const listed = await api('GET', V1);
    expect(listed.headers.get('warning')).toBeNull();
    /** What the watcher saw: [name, resourceVersion, replicas], across its watches. */
    const seen: [string, string, number][] = [];
    let lastRv = String(listed.body.metadata.resourceVersion);
    const watchFrom = async (path: string) => {
      const w = await openWatch(`${server.url}${path}?watch=true&resourceVersion=${lastRv}`, ADMIN);
      return w;
    };
    const drain = (w: Awaited<ReturnType<typeof openWatch>>, from: number) => {
      for (const e of w.events.slice(from)) {
        const o = e.object;
        seen.push([o.metadata.name, o.metadata.resourceVersion, o.spec.size ?? o.spec.replicas]);
        lastRv = o.metadata.resourceVersion;
      }
      return w.events.length;
    };
    const writes: string[] = [];
    const write = async (path: string, name: string, spec: Record<string, number>) => {
      const r = await api('PATCH', `${path}/${name}`, {
        body: { spec },
        contentType: 'application/merge-patch+json',
      });
      expect(r.status).toBe(200);
      writes.push(String(r.body.metadata.resourceVersion));
    };

    // v1.10: v1 only.
    let w = await watchFrom(V1);
    await write(V1, 'a', { size: 2 });
    await w.until((evs) => evs.length === 1);
    drain(w, 0);
    // v1.14: v2 stored, v1 served and deprecated; the watch ends as the kind is redefined.
    server.updateKind(toyKind(conv));
    await w.ended;
    await write(V2, 'b', { replicas: 3 });
    w = await watchFrom(V1);
    // The re-watch is in the deprecated version now: it says so.
    expect(w.headers.get('warning')).toBe(DEPRECATED);
    await w.until((evs) => evs.length === 1);
    let n = drain(w, 0);
    expect(server.storedVersions('example.com', 'widgets')).toEqual([
      'example.com/v1',
      'example.com/v2',
    ]);
    // The upgrade's storage migration rewrites `a`, still stored in v1, in v2: a MODIFIED event
    // with the same content.
    expect(await server.migrateStorageVersion('example.com', 'widgets')).toBe(1);
    writes.push(String(server.resourceVersion));
    expect(server.storedVersions('example.com', 'widgets')).toEqual(['example.com/v2']);
    await write(V1, 'a', { size: 4 });
    await w.until((evs) => evs.length === n + 2);
    n = drain(w, n);
    // v1.16: v2 alone; the v1 watch ends, a v1 re-watch is 404, the watcher moves to v2.
    server.updateKind(toyKind(conv, [v2()]));
    await w.ended;
    n = drain(w, n);
    await write(V2, 'b', { replicas: 5 });
    expect((await api('GET', `${V1}?watch=true&resourceVersion=${lastRv}`)).status).toBe(404);
    w = await watchFrom(V2);
    await w.until((evs) => evs.length === 1);
    drain(w, 0);
    w.close();
    expect(seen.map((e) => e[1])).toEqual(writes);
    expect(seen.map((e) => [e[0], e[2]])).toEqual([
      ['a', 2],
      ['b', 3],
      ['a', 2],
      ['a', 4],
      ['b', 5],
    ]);
  });

  it('migrates objects stored in an older version so that the version can be dropped', async () => {
    const conv = toyConversion();
    const { api, server } = await start(conv, {
      kinds: [toyKind(conv, [v1({ storage: true }), v2({ storage: false })])],
    });
    for (const n of ['a', 'b', 'c']) await api('POST', V1, { body: w1(n) });
    server.updateKind(toyKind(conv));
    const rv = server.resourceVersion;
    const watch = await openWatch(
      `${server.url}${V2}?watch=true&resourceVersion=${String(rv)}`,
      ADMIN,
    );
    expect(await server.migrateStorageVersion('example.com', 'widgets')).toBe(3);
    await watch.until((evs) => evs.length === 3);
    expect(watch.events.map((e) => e.type)).toEqual(['MODIFIED', 'MODIFIED', 'MODIFIED']);
    watch.close();
    expect(server.storedVersions('example.com', 'widgets')).toEqual(['example.com/v2']);
    expect(await server.migrateStorageVersion('example.com', 'widgets')).toBe(0);
    server.updateKind(toyKind(conv, [v2()]));
    expect((await api('GET', `${V2}/a`)).body.spec.replicas).toBe(3);
  });
});

describe('persistence of a kind with several versions', () => {
  it('keeps each object in the version it was stored in across a restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'apiserver-multiver-'));
    const statePath = join(dir, 'state.jsonl');
    const conv = toyConversion();
    const storedInV1 = [v1({ storage: true }), v2({ storage: false })];
    t = await startTestServer({ kinds: [toyKind(conv, storedInV1)], admission: [], statePath });
    await t.api('POST', V1, { body: w1('one', 1) });
    t.server.updateKind(toyKind(conv));
    await t.api('POST', V1, { body: w1('two', 2) });
    await t.server.close();
    t = await startTestServer({ kinds: [toyKind(conv)], admission: [], statePath });
    const before = conv.calls.length;
    const one = await t.api('GET', `${V1}/one`);
    expect(one.body.spec.size).toBe(1);
    // Stored in v1 since before the restart: read in v1 without a conversion.
    expect(conv.calls.length).toBe(before);
    expect((await t.api('GET', `${V2}/one`)).body.spec.replicas).toBe(1);
    expect((await t.api('GET', `${V2}/two`)).body.spec.replicas).toBe(2);
    const lines = readFileSync(statePath, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l))
      .filter((r) => r.t === 'P' && r.r === 'example.com/widgets');
    expect(lines.map((r) => [r.o.metadata.name, r.o.apiVersion])).toEqual([
      ['one', 'example.com/v1'],
      ['two', 'example.com/v2'],
    ]);
  });
});
