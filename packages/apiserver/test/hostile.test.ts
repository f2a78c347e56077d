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

describe('RBAC escalation prevention (issue 10): writing RBAC grants nothing the writer lacks', () => {
  const RBAC = '/apis/rbac.authorization.k8s.io/v1';
  const role = (name: string, rules: unknown[]) => ({
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'Role',
    metadata: { name },
    rules,
  });
  const binding = (name: string, kind: 'Role' | 'ClusterRole', roleName: string) => ({
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'RoleBinding',
    metadata: { name },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind, name: roleName },
    subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'nobody' }],
  });
  const secretsStayClosed = async () => {
    expect((await t.api('GET', SECRETS, { token: NOBODY })).status).toBe(403);
    expect((await t.api('GET', SECRETS, { token: VIEWER })).status).toBe(403);
  };

  beforeAll(async () => {
    // nobody may write Roles and RoleBindings in default (as the built-in `admin` may), nothing more.
    await t.api('POST', `${RBAC}/namespaces/default/roles`, {
      body: role('rbac-writer', [
        {
          apiGroups: ['rbac.authorization.k8s.io'],
          resources: ['roles', 'rolebindings'],
          verbs: ['get', 'create', 'update', 'patch'],
        },
      ]),
    });
    await t.api('POST', `${RBAC}/namespaces/default/rolebindings`, {
      body: binding('rbac-writer', 'Role', 'rbac-writer'),
    });
  });

  it('a Role with rules the writer does not hold is 403 (Forbidden, naming them); with held rules it is created', async () => {
    const res = await t.api('POST', `${RBAC}/namespaces/default/roles`, {
      token: NOBODY,
      body: role('grab', [{ apiGroups: [''], resources: ['secrets'], verbs: ['get', 'list'] }]),
    });
    expect(res.status, res.text).toBe(403);
    expect(res.body).toMatchObject({ kind: 'Status', reason: 'Forbidden' });
    expect(res.body.message).toContain('attempting to grant RBAC permissions not currently held');
    expect(res.body.message).toContain('Resources:["secrets"]');
    const held = await t.api('POST', `${RBAC}/namespaces/default/roles`, {
      token: NOBODY,
      body: role('cm-reader', [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }]),
    });
    expect(held.status, held.text).toBe(201);
    await secretsStayClosed();
  });

  it('patching a Role (one the writer is bound to, or any) beyond what the writer holds is 403, by every patch type', async () => {
    const path = `${RBAC}/namespaces/default/roles/cm-editor`;
    for (const [contentType, body] of [
      [
        'application/json-patch+json',
        [
          {
            op: 'add',
            path: '/rules/-',
            value: { apiGroups: ['*'], resources: ['*'], verbs: ['*'] },
          },
        ],
      ],
      [
        'application/merge-patch+json',
        { rules: [{ apiGroups: [''], resources: ['secrets'], verbs: ['get'] }] },
      ],
    ] as const) {
      const res = await t.api('PATCH', path, { token: NOBODY, contentType, body });
      expect(res.status, `${contentType}: ${res.text}`).toBe(403);
    }
    await secretsStayClosed();
    // A change that grants nothing new is not an escalation.
    const label = await t.api('PATCH', path, {
      token: NOBODY,
      contentType: 'application/merge-patch+json',
      body: { metadata: { labels: { team: 'blue' } } },
    });
    expect(label.status, label.text).toBe(200);
  });

  it('binding a role whose rules the writer does not hold is 403 (cluster-admin, admin, view); a held one is bound', async () => {
    for (const target of ['cluster-admin', 'admin', 'view']) {
      const res = await t.api('POST', `${RBAC}/namespaces/default/rolebindings`, {
        token: NOBODY,
        body: binding(`grab-${target}`, 'ClusterRole', target),
      });
      expect(res.status, `${target}: ${res.text}`).toBe(403);
      expect(res.body.message).toContain('not currently held');
    }
    await secretsStayClosed();
    const held = await t.api('POST', `${RBAC}/namespaces/default/rolebindings`, {
      token: NOBODY,
      body: binding('cm-reader', 'Role', 'cm-reader'),
    });
    expect(held.status, held.text).toBe(201);
    // New subjects are checked as a new binding is: a role the writer holds may be granted on.
    const repoint = await t.api('PATCH', `${RBAC}/namespaces/default/rolebindings/cm-reader`, {
      token: NOBODY,
      contentType: 'application/merge-patch+json',
      body: {
        subjects: [
          { apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'system:authenticated' },
        ],
      },
    });
    expect(repoint.status, repoint.text).toBe(200);
  });

  it('the `bind` and `escalate` verbs allow what holding the rules would (upstream semantics)', async () => {
    await t.api('POST', `${RBAC}/namespaces/default/roles`, {
      body: role('delegate', [
        {
          apiGroups: ['rbac.authorization.k8s.io'],
          resources: ['clusterroles'],
          resourceNames: ['view'],
          verbs: ['bind'],
        },
        {
          apiGroups: ['rbac.authorization.k8s.io'],
          resources: ['roles'],
          resourceNames: ['escalated'],
          verbs: ['escalate'],
        },
      ]),
    });
    await t.api('POST', `${RBAC}/namespaces/default/rolebindings`, {
      body: binding('delegate', 'Role', 'delegate'),
    });
    const bound = await t.api('POST', `${RBAC}/namespaces/default/rolebindings`, {
      token: NOBODY,
      body: {
        ...binding('nobody-view', 'ClusterRole', 'view'),
        subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'someone' }],
      },
    });
    expect(bound.status, bound.text).toBe(201);
    const escalated = await t.api('POST', `${RBAC}/namespaces/default/roles`, {
      token: NOBODY,
      body: role('escalated', [{ apiGroups: [''], resources: ['pods'], verbs: ['delete'] }]),
    });
    expect(escalated.status, escalated.text).toBe(201);
    // `escalate` on one name does not reach another.
    const other = await t.api('POST', `${RBAC}/namespaces/default/roles`, {
      token: NOBODY,
      body: role('other', [{ apiGroups: [''], resources: ['pods'], verbs: ['delete'] }]),
    });
    expect(other.status, other.text).toBe(403);
    await secretsStayClosed();
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

/**
 * metadata of the wrong type (issue 25, item 9). Each case was a 500 (finalizers,
 * ownerReferences) or was stored (name, labels, generateName). The texts are those of Go's
 * `encoding/json` UnmarshalTypeError as kube-apiserver reports them: a built-in kind decodes the
 * whole object (`ObjectMeta.metadata.name`), a custom resource its metadata alone
 * (`ObjectMeta.name`, apiextensions' GetObjectMetaWithOptions); create/update answer 400 (the
 * handlers' transformDecodeError), a patch whose result does not decode 422 on `patch`.
 */
describe('metadata types (issue 25, item 9)', () => {
  // [metadata fields, the Go struct field path under the root, the Go type, the JSON kind]
  const CASES: [Record<string, unknown>, string, string, string][] = [
    [{ name: 123 }, 'ObjectMeta.name', 'string', 'number'],
    [{ name: true }, 'ObjectMeta.name', 'string', 'bool'],
    [{ name: ['a'] }, 'ObjectMeta.name', 'string', 'array'],
    [{ name: 'ok', generateName: 5 }, 'ObjectMeta.generateName', 'string', 'number'],
    [{ name: 'ok', labels: 'app=x' }, 'ObjectMeta.labels', 'map[string]string', 'string'],
    [{ name: 'ok', labels: { app: 1 } }, 'ObjectMeta.labels', 'string', 'number'],
    [{ name: 'ok', annotations: ['a'] }, 'ObjectMeta.annotations', 'map[string]string', 'array'],
    [{ name: 'ok', finalizers: 'a/b' }, 'ObjectMeta.finalizers', '[]string', 'string'],
    [{ name: 'ok', finalizers: [1] }, 'ObjectMeta.finalizers', 'string', 'number'],
    [{ name: 'ok', finalizers: [{}] }, 'ObjectMeta.finalizers', 'string', 'object'],
    [{ name: 'ok', generation: 1.5 }, 'ObjectMeta.generation', 'int64', 'number 1.5'],
    [
      { name: 'ok', ownerReferences: { uid: 'u' } },
      'ObjectMeta.ownerReferences',
      '[]v1.OwnerReference',
      'object',
    ],
    [
      { name: 'ok', ownerReferences: 'x' },
      'ObjectMeta.ownerReferences',
      '[]v1.OwnerReference',
      'string',
    ],
    [
      { name: 'ok', ownerReferences: [1] },
      'ObjectMeta.ownerReferences',
      'v1.OwnerReference',
      'number',
    ],
    [
      { name: 'ok', ownerReferences: [{ apiVersion: 'v1', kind: 'K', name: 'n', uid: 7 }] },
      'OwnerReference.ownerReferences.uid',
      'types.UID',
      'number',
    ],
    [
      {
        name: 'ok',
        ownerReferences: [{ apiVersion: 'v1', kind: 'K', name: 'n', uid: 'u', controller: 'yes' }],
      },
      'OwnerReference.ownerReferences.controller',
      'bool',
      'string',
    ],
  ];
  const WIDGETS = '/apis/example.com/v1/namespaces/default/widgets';
  const CMS = '/api/v1/namespaces/default/configmaps';

  it('a create with a wrongly typed metadata field is 400 with the decoder text, and nothing is stored', async () => {
    for (const [meta, field, goType, jsonKind] of CASES) {
      const cr = await t.api('POST', WIDGETS, {
        body: {
          apiVersion: 'example.com/v1',
          kind: 'Widget',
          metadata: meta,
          spec: { color: 'red' },
        },
      });
      expect(cr.status, JSON.stringify(meta)).toBe(400);
      expect(cr.body).toMatchObject({ kind: 'Status', reason: 'BadRequest', code: 400 });
      expect(cr.body.message).toBe(
        `Widget in version "v1" cannot be handled as a Widget: json: cannot unmarshal ${jsonKind} into Go struct field ${field} of type ${goType}`,
      );
      // A built-in kind decodes the whole object: the path starts at the object.
      const builtin = await t.api('POST', CMS, {
        body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: meta },
      });
      expect(builtin.status, JSON.stringify(meta)).toBe(400);
      const [struct, ...path] = field.split('.');
      expect(builtin.body.message).toBe(
        `ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal ${jsonKind} into Go struct field ${struct}.metadata.${path.join('.')} of type ${goType}`,
      );
    }
    const list = await t.api('GET', WIDGETS);
    expect(
      list.body.items.map((w: { metadata: { name: string } }) => w.metadata.name),
    ).not.toContain('ok');
    expect((await t.api('GET', `${CMS}/ok`)).status).toBe(404);
  });

  it('metadata that is not an object is refused at decode', async () => {
    const cr = await t.api('POST', WIDGETS, {
      body: { apiVersion: 'example.com/v1', kind: 'Widget', metadata: 'x', spec: { color: 'red' } },
    });
    expect(cr.status).toBe(400);
    expect(cr.body.message).toBe(
      'Widget in version "v1" cannot be handled as a Widget: json: cannot unmarshal string into Go value of type v1.ObjectMeta',
    );
    const cm = await t.api('POST', CMS, {
      body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: [] },
    });
    expect(cm.body.message).toBe(
      'ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal array into Go struct field ConfigMap.metadata of type v1.ObjectMeta',
    );
  });

  it('an update (PUT) and a server-side apply are refused the same way', async () => {
    await t.api('POST', CMS, {
      body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'typed' } },
    });
    const put = await t.api('PUT', `${CMS}/typed`, {
      body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'typed', finalizers: [1] } },
    });
    expect(put.status).toBe(400);
    expect(put.body.message).toContain('into Go struct field ObjectMeta.metadata.finalizers');
    const apply = await t.api('PATCH', `${CMS}/typed?fieldManager=t`, {
      contentType: 'application/apply-patch+yaml',
      body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'typed', labels: 'x' } },
    });
    expect(apply.status).toBe(400);
    expect(apply.body.message).toContain('of type map[string]string');
  });

  it('a patch whose result has a wrongly typed metadata field is 422 on the field patch', async () => {
    await t.api('POST', CMS, {
      body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'patched' } },
    });
    const patches: [string, unknown][] = [
      ['application/merge-patch+json', { metadata: { finalizers: 'x' } }],
      [
        'application/json-patch+json',
        [{ op: 'add', path: '/metadata/ownerReferences', value: [1] }],
      ],
      ['application/strategic-merge-patch+json', { metadata: { labels: { a: 1 } } }],
      ['application/merge-patch+json', { metadata: 'x' }],
    ];
    for (const [contentType, body] of patches) {
      const res = await t.api('PATCH', `${CMS}/patched`, { contentType, body });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.reason).toBe('Invalid');
      expect(res.body.message).toMatch(
        /^ "" is invalid: patch: Invalid value: ".*": json: cannot unmarshal /,
      );
      expect(res.body.details.causes).toEqual([
        expect.objectContaining({ reason: 'FieldValueInvalid', field: 'patch' }),
      ]);
    }
    const got = await t.api('GET', `${CMS}/patched`);
    expect(got.body.metadata.finalizers).toBeUndefined();
    expect(got.body.metadata.ownerReferences).toBeUndefined();
  });

  it('nulls decode to what Go keeps of them; nothing later meets a null', async () => {
    const res = await t.api('POST', CMS, {
      body: {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: {
          name: 'nulls',
          labels: null,
          ownerReferences: null,
          finalizers: null,
          uid: null,
        },
      },
    });
    expect(res.status).toBe(201);
    expect(res.body.metadata).not.toHaveProperty('labels');
    const owners = await t.api('POST', CMS, {
      body: {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'null-owner', ownerReferences: [null] },
      },
    });
    // An empty OwnerReference: ValidateObjectMeta's 422s, not a 500.
    expect(owners.status).toBe(422);
    expect(owners.body.message).toContain('metadata.ownerReferences[0].uid');
  });

  it('unknown fields in ownerReferences[] are refused under Strict and reported under Warn', async () => {
    const owner = { apiVersion: 'v1', kind: 'ConfigMap', name: 'target', uid: 'u-1', bogus: 1 };
    const body = (name: string) => ({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name, ownerReferences: [owner], extra: true },
    });
    const strict = await t.api('POST', `${CMS}?fieldValidation=Strict`, { body: body('strict') });
    expect(strict.status).toBe(400);
    expect(strict.body.message).toBe(
      'ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: unknown field "metadata.ownerReferences[0].bogus", unknown field "metadata.extra"',
    );
    const warn = await t.api('POST', CMS, { body: body('warned') });
    expect(warn.status).toBe(201);
    expect(warn.headers.get('warning')).toContain(
      'unknown field \\"metadata.ownerReferences[0].bogus\\"',
    );
    expect(warn.body.metadata.ownerReferences[0]).not.toHaveProperty('bogus');
  });

  it('a JSON patch of /metadata/namespace is refused (400), not ignored (issue 25, item 12)', async () => {
    await t.api('POST', CMS, {
      body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'stay' } },
    });
    const res = await t.api('PATCH', `${CMS}/stay`, {
      contentType: 'application/json-patch+json',
      body: [{ op: 'replace', path: '/metadata/namespace', value: 'kube-system' }],
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(
      'the namespace of the object (kube-system) does not match the namespace on the URL (default)',
    );
    const merge = await t.api('PATCH', `${CMS}/stay`, {
      contentType: 'application/merge-patch+json',
      body: { metadata: { namespace: 'cpaas-system' } },
    });
    expect(merge.status).toBe(400);
    expect((await t.api('GET', '/api/v1/namespaces/kube-system/configmaps/stay')).status).toBe(404);
  });
});

describe('a no-op write of an object nobody manages a field of (found with issue 25, item 10)', () => {
  it('is a 200, not a 500', async () => {
    const CMS = '/api/v1/namespaces/default/configmaps';
    const created = await t.api('POST', CMS, {
      body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'unmanaged' } },
    });
    expect(created.body.metadata.managedFields).toBeUndefined();
    for (const dryRun of ['?dryRun=All', '']) {
      const res = await t.api('PATCH', `${CMS}/unmanaged${dryRun}`, {
        contentType: 'application/merge-patch+json',
        body: { pruned: true },
      });
      expect(res.status).toBe(200);
    }
  });
});
