/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-argument -- tests assert on arbitrary JSON from the wire */
/**
 * Hostile input against the HTTP API (issue 10): prototype pollution through every patch type,
 * the built-in roles, malformed URLs. Each test is the exploit or fault as reported.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NOBODY, VIEWER, startTestServer, type TestServer } from './support/server';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
  // nobody may patch ConfigMaps in default: the least a user needs to try the exploit.
  await t.api('POST', '/apis/rbac.authorization.k8s.io/v1/namespaces/default/roles', {
    body: {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'Role',
      metadata: { name: 'cm-editor' },
      rules: [
        { apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'create', 'patch', 'update'] },
      ],
    },
  });
  await t.api('POST', '/apis/rbac.authorization.k8s.io/v1/namespaces/default/rolebindings', {
    body: {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name: 'cm-editor' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'cm-editor' },
      subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'nobody' }],
    },
  });
  await t.api('POST', '/api/v1/namespaces/default/secrets', {
    body: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'token' }, stringData: { k: 'v' } },
  });
  await t.api('POST', '/api/v1/namespaces/default/configmaps', {
    body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'target' }, data: { a: '1' } },
  });
});
afterAll(async () => {
  await t.server.close();
});

const CM = '/api/v1/namespaces/default/configmaps/target';
const SECRETS = '/api/v1/namespaces/default/secrets';
const POISON = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty'];

function prototypeIsClean(): void {
  expect(Object.getOwnPropertyNames(Object.prototype)).not.toEqual(
    expect.arrayContaining(['apiGroups']),
  );
  expect(({} as any).apiGroups).toBeUndefined();
  expect(({} as any).resources).toBeUndefined();
  expect(({} as any).x).toBeUndefined();
}

describe('prototype pollution (issue 10, item 1)', () => {
  it('the reported exploit: a JSON patch through /__proto__ does not let the viewer read Secrets', async () => {
    expect((await t.api('GET', SECRETS, { token: VIEWER })).status).toBe(403);
    for (const root of ['/__proto__', '/constructor/prototype', '/data/__proto__']) {
      const res = await t.api('PATCH', CM, {
        token: NOBODY,
        contentType: 'application/json-patch+json',
        body: [
          { op: 'add', path: `${root}/apiGroups`, value: ['*'] },
          { op: 'add', path: `${root}/resources`, value: ['*'] },
        ],
      });
      expect(res.status).toBeLessThan(500);
      prototypeIsClean();
      expect((await t.api('GET', SECRETS, { token: VIEWER })).status).toBe(403);
      expect((await t.api('GET', SECRETS, { token: NOBODY })).status).toBe(403);
    }
  });

  it('a JSON patch of a missing __proto__ parent is 422 like any missing path', async () => {
    const res = await t.api('PATCH', CM, {
      token: NOBODY,
      contentType: 'application/json-patch+json',
      body: [{ op: 'add', path: '/__proto__/x', value: 1 }],
    });
    expect(res.status).toBe(422);
    prototypeIsClean();
  });

  it('keys named like Object.prototype members are stored as data by every write path', async () => {
    // Bodies are text: JSON.parse makes `__proto__` an own key, as a Go decoder makes it a map key.
    const entries = POISON.map((k) => `"${k}":"v-${k}"`).join(',');
    const merge = await t.api('PATCH', CM, {
      token: NOBODY,
      contentType: 'application/merge-patch+json',
      body: `{"data":{${entries}}}`,
    });
    expect(merge.status).toBe(200);
    expect(JSON.parse(merge.text).data).toEqual(JSON.parse(`{"a":"1",${entries}}`));
    prototypeIsClean();

    for (const key of POISON) {
      const jp = await t.api('PATCH', CM, {
        token: NOBODY,
        contentType: 'application/json-patch+json',
        body: [{ op: 'replace', path: `/data/${key}`, value: `jp-${key}` }],
      });
      expect(jp.status).toBe(200);
      expect(Object.hasOwn(JSON.parse(jp.text).data, key)).toBe(true);
      expect(JSON.parse(jp.text).data[key]).toBe(`jp-${key}`);
    }

    const strategic = await t.api('PATCH', CM, {
      token: NOBODY,
      contentType: 'application/strategic-merge-patch+json',
      body: '{"data":{"__proto__":"smp","constructor":"smp"}}',
    });
    expect(strategic.status).toBe(200);
    const smp = JSON.parse(strategic.text).data;
    expect([smp.constructor, Object.hasOwn(smp, '__proto__')]).toEqual(['smp', true]);

    const apply = await t.api('PATCH', `${CM}?fieldManager=poison&force=true`, {
      token: NOBODY,
      contentType: 'application/apply-patch+yaml',
      body: JSON.stringify({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'target', labels: { constructor: 'x' } },
        data: { prototype: 'ssa' },
      }).replace('"data":{', '"data":{"__proto__":"ssa",'),
    });
    expect(apply.status).toBe(200);
    const applied = JSON.parse(apply.text);
    expect(applied.data.prototype).toBe('ssa');
    expect(Object.hasOwn(applied.data, '__proto__')).toBe(true);
    const fields = applied.metadata.managedFields.find((m: any) => m.manager === 'poison');
    expect(Object.keys(fields.fieldsV1['f:data'])).toEqual(
      expect.arrayContaining(['f:__proto__', 'f:prototype']),
    );

    const got = await t.api('GET', CM, { token: NOBODY });
    expect(Object.keys(JSON.parse(got.text).data)).toEqual(
      expect.arrayContaining(['a', ...POISON]),
    );
    prototypeIsClean();
  });

  it('a label selector on a key named constructor matches only objects with that label', async () => {
    const all = await t.api('GET', '/api/v1/namespaces/default/configmaps?labelSelector=toString');
    expect(all.status).toBe(200);
    expect(all.body.items).toEqual([]);
    const not = await t.api('GET', '/api/v1/namespaces/default/configmaps?labelSelector=!toString');
    expect(not.body.items.length).toBeGreaterThan(0);
  });
});

describe('built-in roles (issue 10, item 7)', () => {
  it('view does not grant Secrets or RBAC objects, as upstream view does not', async () => {
    expect((await t.api('GET', SECRETS, { token: VIEWER })).status).toBe(403);
    expect((await t.api('GET', `${SECRETS}/token`, { token: VIEWER })).status).toBe(403);
    expect(
      (await t.api('GET', '/apis/rbac.authorization.k8s.io/v1/clusterroles', { token: VIEWER }))
        .status,
    ).toBe(403);
    expect((await t.api('GET', CM, { token: VIEWER })).status).toBe(200);
    expect((await t.api('GET', '/api/v1/namespaces', { token: VIEWER })).status).toBe(200);
    const view = await t.api('GET', '/apis/rbac.authorization.k8s.io/v1/clusterroles/view');
    for (const rule of view.body.rules) {
      expect(rule.resources).not.toContain('secrets');
      if (rule.resources.includes('*')) expect(rule.apiGroups).not.toContain('');
    }
  });

  it('edit grants Secrets but no RBAC; admin adds Roles and RoleBindings only', async () => {
    const rules = async (name: string) =>
      (await t.api('GET', `/apis/rbac.authorization.k8s.io/v1/clusterroles/${name}`)).body
        .rules as { apiGroups: string[]; resources: string[] }[];
    const grants = (rs: { apiGroups: string[]; resources: string[] }[], g: string, r: string) =>
      rs.some(
        (x) =>
          (x.apiGroups.includes(g) || x.apiGroups.includes('*')) &&
          (x.resources.includes(r) || x.resources.includes('*')),
      );
    const edit = await rules('edit');
    const admin = await rules('admin');
    expect(grants(edit, '', 'secrets')).toBe(true);
    expect(grants(edit, 'rbac.authorization.k8s.io', 'roles')).toBe(false);
    expect(grants(admin, 'rbac.authorization.k8s.io', 'rolebindings')).toBe(true);
    expect(grants(admin, 'rbac.authorization.k8s.io', 'clusterrolebindings')).toBe(false);
    expect(grants(admin, 'rbac.authorization.k8s.io', 'clusterroles')).toBe(false);
  });
});

describe('malformed requests (issue 10, item 5)', () => {
  it('answers 400 with a Status for a malformed percent-escape in the path', async () => {
    for (const path of [
      '/api/v1/namespaces/%ZZ/configmaps',
      '/api/v1/namespaces/default/configmaps/%E0%A4%A',
      '/apis/example.com/v1/namespaces/default/widgets/%',
    ]) {
      const res = await t.api('GET', path);
      expect(res.status, path).toBe(400);
      expect(res.body).toMatchObject({ kind: 'Status', code: 400, reason: 'BadRequest' });
    }
  });
});
