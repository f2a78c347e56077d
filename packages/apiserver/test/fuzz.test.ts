/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-argument -- fuzzed JSON and wire answers */
/**
 * The standing hostile-input suite (issue 10): property-based fuzzing with fast-check, fixed seed
 * (FUZZ_SEED to replay another), printed with the figures.
 *
 * 1. Every walker over user keys (patches, apply's merge and field sets, field paths, JSONPath)
 *    treats `__proto__`, `constructor`, `prototype` and the other Object.prototype names as keys
 *    like any other: renaming them to plain names before or after the walk gives the same result
 *    (no key is special), and no prototype changes.
 * 2. The HTTP API under random create/patch/list/watch requests by three users: no 5xx, no hang,
 *    nothing stored when a write is refused, and what the viewer and `nobody` may read unchanged.
 *    Bodies include metadata of any shape (issue 25, item 9).
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clone, deepEqual, getPath, setPath } from '../src/json';
import { getJsonPath } from '../src/jsonpath';
import { measure } from '../src/limits';
import { applyJsonPatch, parseJsonPatch } from '../src/patch/json-patch';
import { applyMerge, fieldSet } from '../src/patch/managed-fields';
import { createMergePatch, mergePatch } from '../src/patch/merge-patch';
import { strategicMergePatch } from '../src/patch/strategic';
import { ApiError } from '../src/status';
import { ADMIN, NOBODY, VIEWER, W, startTestServer, type TestServer } from './support/server';

const SEED = Number(process.env.FUZZ_SEED ?? 20_261_201);
const POISON = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf'];
const PLAIN = ['a', 'b', 'spec', 'data'];
const KEYS = [...PLAIN, ...POISON];
/** Each poison name and a plain stand-in that no generated key can be. */
const RENAME = new Map(POISON.map((k) => [k, `plain-${k}`]));

const protoSnapshot = () => [
  Object.getOwnPropertyNames(Object.prototype).sort().join(','),
  Object.getOwnPropertyNames(Array.prototype).sort().join(','),
];
const cleanProto = protoSnapshot();

/** A JSON object from entries, every key an own data property (`__proto__` included). */
function objectOf(entries: readonly [string, unknown][]): Record<string, unknown> {
  const o: Record<string, unknown> = {};
  for (const [k, v] of entries)
    Object.defineProperty(o, k, { value: v, writable: true, enumerable: true, configurable: true });
  return o;
}

const scalar = fc.oneof(
  fc.constantFrom(null, true, false, 0, 1, -1),
  fc.string({ maxLength: 6 }),
  fc.constantFrom(...KEYS),
);
const key = fc.constantFrom(...KEYS);
const { tree } = fc.letrec<{ tree: unknown }>((tie) => ({
  tree: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    scalar,
    fc.array(tie('tree'), { maxLength: 3 }),
    fc
      .uniqueArray(fc.tuple(key, tie('tree')), { maxLength: 4, selector: (e) => e[0] })
      .map(objectOf),
  ),
}));
const objectTree = fc
  .uniqueArray(fc.tuple(key, tree), { maxLength: 4, selector: (e) => e[0] })
  .map(objectOf);
const pointer = fc
  .array(fc.oneof(key, fc.constantFrom('0', '1', '-')), { minLength: 0, maxLength: 4 })
  .map((parts) => parts.map((p) => `/${p}`).join(''));
const jsonPatchOp = fc.record({
  op: fc.constantFrom('add', 'remove', 'replace', 'copy', 'move', 'test'),
  path: pointer,
  from: pointer,
  value: tree,
});

/** The same JSON with every poison key (and pointer segment, field-set key) renamed. */
function rename(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(rename);
  if (typeof v === 'object' && v !== null) {
    return objectOf(Object.entries(v).map(([k, x]) => [renameKey(k), rename(x)]));
  }
  return typeof v === 'string' ? renameKey(v) : v;
}
function renameKey(k: string): string {
  if (k.startsWith('f:')) return `f:${renameKey(k.slice(2))}`;
  return RENAME.get(k) ?? k;
}
function renamePointer(p: string): string {
  return p
    .split('/')
    .map((s) => renameKey(s))
    .join('/');
}

/** What a walk produced: its value or its refusal (status code), comparable across renames. */
function outcome(f: () => unknown): { ok: unknown } | { code: number } {
  try {
    return { ok: f() };
  } catch (e) {
    if (e instanceof ApiError) return { code: e.code };
    throw e;
  }
}

function sameOutcome(plain: () => unknown, renamedFirst: () => unknown): boolean {
  const a = outcome(plain);
  const b = outcome(renamedFirst);
  // No walk may have changed a prototype (checked after every case).
  expect(protoSnapshot()).toEqual(cleanProto);
  expect(({} as Record<string, unknown>).a).toBeUndefined();
  if ('code' in a || 'code' in b) return deepEqual(a, b);
  return deepEqual(rename(a.ok), b.ok);
}

/** Every object in a result is a plain one: no walk gave one a different prototype. */
function plainObjects(v: unknown): boolean {
  const stack = [v];
  while (stack.length) {
    const x = stack.pop();
    if (typeof x !== 'object' || x === null) continue;
    if (!Array.isArray(x) && Object.getPrototypeOf(x) !== Object.prototype) return false;
    stack.push(...Object.values(x));
  }
  return true;
}

const RUNS = 400;
const params = (numRuns = RUNS) => ({ seed: SEED, numRuns });

describe(`user keys are inert in every walker (fast-check seed ${SEED})`, () => {
  const checks: [string, fc.IProperty<any>][] = [
    [
      'deep copy (clone)',
      fc.property(tree, (t) =>
        sameOutcome(
          () => clone(t),
          () => clone(rename(t)),
        ),
      ),
    ],
    [
      'merge patch',
      fc.property(tree, tree, (t, p) =>
        sameOutcome(
          () => mergePatch(t, p),
          () => mergePatch(rename(t), rename(p)),
        ),
      ),
    ],
    [
      'merge patch diff',
      fc.property(tree, tree, (a, b) =>
        sameOutcome(
          () => createMergePatch(a, b),
          () => createMergePatch(rename(a), rename(b)),
        ),
      ),
    ],
    [
      'JSON patch',
      fc.property(tree, fc.array(jsonPatchOp, { maxLength: 5 }), (doc, ops) => {
        const renamedOps = ops.map((o) => ({
          ...o,
          path: renamePointer(o.path),
          from: renamePointer(o.from),
          value: rename(o.value),
        }));
        return sameOutcome(
          () => applyJsonPatch(doc, parseJsonPatch(ops)),
          () => applyJsonPatch(rename(doc), parseJsonPatch(renamedOps)),
        );
      }),
    ],
    [
      'strategic merge patch',
      fc.property(objectTree, objectTree, (o, p) =>
        sameOutcome(
          () => strategicMergePatch(o, p, undefined),
          () => strategicMergePatch(rename(o), rename(p), undefined),
        ),
      ),
    ],
    [
      'server-side apply merge',
      fc.property(tree, tree, (live, applied) =>
        sameOutcome(
          () => applyMerge(structuredClone(live), applied, undefined),
          () => applyMerge(rename(live), rename(applied), undefined),
        ),
      ),
    ],
    [
      'managed field sets',
      fc.property(objectTree, (o) =>
        sameOutcome(
          () => fieldSet(o, undefined),
          () => fieldSet(rename(o), undefined),
        ),
      ),
    ],
    [
      'field paths and JSONPath',
      fc.property(objectTree, fc.array(key, { minLength: 1, maxLength: 3 }), tree, (o, ks, v) => {
        const path = ks.join('.');
        const renamedPath = ks.map(renameKey).join('.');
        const set = sameOutcome(
          () => {
            const c = structuredClone(o);
            setPath(c, path, v);
            return c;
          },
          () => {
            const c = rename(o) as Record<string, unknown>;
            setPath(c, renamedPath, rename(v));
            return c;
          },
        );
        const get = sameOutcome(
          () => [getPath(o, path), getJsonPath(o, `.${path}`)],
          () => [getPath(rename(o), renamedPath), getJsonPath(rename(o), `.${renamedPath}`)],
        );
        return set && get;
      }),
    ],
  ];
  for (const [name, property] of checks) {
    it(`${name}: poison keys behave as plain keys, no prototype changes`, () => {
      const started = performance.now();
      fc.assert(property, params());
      console.log(
        `fuzz ${name}: ${RUNS} cases in ${(performance.now() - started).toFixed(0)} ms (seed ${SEED})`,
      );
    });
  }

  it('walk results hold plain objects only, and measure never recurses', () => {
    fc.assert(
      fc.property(tree, tree, (t, p) => plainObjects(mergePatch(t, p))),
      params(),
    );
    // A copy is equal, plain, and shares no object or array with what it copied.
    const shared = (a: unknown, b: unknown): boolean =>
      typeof a === 'object' &&
      a !== null &&
      (a === b ||
        Object.keys(a).some((k) =>
          shared((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]),
        ));
    fc.assert(
      fc.property(tree, (t) => {
        const c = clone(t);
        return deepEqual(c, t) && plainObjects(c) && !shared(c, t);
      }),
      params(),
    );
    const deep = JSON.parse(`${'['.repeat(100_000)}${']'.repeat(100_000)}`) as unknown;
    expect(measure(deep).depth).toBe(100_000);
  });
});

// ---------------------------------------------------------------------------------------------
// The HTTP API

let t: TestServer;
const NS = '/api/v1/namespaces/default';
const CMS = `${NS}/configmaps`;
const HTTP_RUNS = Number(process.env.FUZZ_HTTP_RUNS ?? 1000);

beforeAll(async () => {
  t = await startTestServer();
  // nobody may write ConfigMaps in default (so that writes get past authorization).
  await t.server.client.create({
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'Role',
    metadata: { name: 'fuzz-cm', namespace: 'default' },
    rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['*'] }],
  });
  await t.server.client.create({
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'RoleBinding',
    metadata: { name: 'fuzz-cm', namespace: 'default' },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'fuzz-cm' },
    subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'nobody' }],
  });
  await t.server.client.create({
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: 'fuzz-secret', namespace: 'default' },
    data: {},
  });
});
afterAll(async () => {
  await t.server.close();
});

/** What each user may read: checked before and after the run, and every 100 cases. */
async function readMatrix(): Promise<number[]> {
  const probes: [string, string][] = [
    [VIEWER, `${NS}/secrets`],
    [VIEWER, `${NS}/secrets/fuzz-secret`],
    [NOBODY, `${NS}/secrets`],
    [NOBODY, '/apis/rbac.authorization.k8s.io/v1/clusterroles'],
    [VIEWER, CMS],
    [NOBODY, W],
  ];
  return Promise.all(
    probes.map(async ([token, path]) => (await t.api('GET', path, { token })).status),
  );
}

const NAMES = ['f0', 'f1', 'f2'];
const user = fc.constantFrom(ADMIN, NOBODY, VIEWER);
const bodyText = fc.oneof(
  { weight: 6, arbitrary: objectTree.map((o) => JSON.stringify(o)) },
  {
    weight: 4,
    arbitrary: fc
      .record({ name: fc.constantFrom(...NAMES), data: objectTree, labels: objectTree })
      .map(({ name, data, labels }) =>
        JSON.stringify({
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name, labels },
          data,
        }),
      ),
  },
  {
    // Valid ConfigMaps whose data keys include the poison names (legal ConfigMap keys).
    weight: 4,
    arbitrary: fc
      .record({
        name: fc.constantFrom(...NAMES),
        data: fc
          .uniqueArray(fc.tuple(key, fc.string({ maxLength: 8 })), {
            maxLength: 4,
            selector: (e) => e[0],
          })
          .map(objectOf),
      })
      .map(({ name, data }) =>
        JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data }),
      ),
  },
  {
    // metadata of any shape (issue 25, item 9): every ObjectMeta field, ownerReferences[] and
    // their fields given random values; wrongly typed ones were 500s or were stored.
    weight: 4,
    arbitrary: fc
      .record({
        name: fc.oneof(fc.constantFrom(...NAMES), tree),
        field: fc.constantFrom(
          'generateName',
          'namespace',
          'uid',
          'resourceVersion',
          'generation',
          'creationTimestamp',
          'deletionTimestamp',
          'deletionGracePeriodSeconds',
          'labels',
          'annotations',
          'finalizers',
          'managedFields',
          'ownerReferences',
        ),
        value: tree,
        owner: fc.record(
          {
            apiVersion: tree,
            kind: tree,
            name: tree,
            uid: tree,
            controller: tree,
            blockOwnerDeletion: tree,
            extra: tree,
          },
          { requiredKeys: [] },
        ),
        asOwner: fc.boolean(),
      })
      .map(({ name, field, value, owner, asOwner }) =>
        JSON.stringify({
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name, [field]: asOwner && field === 'ownerReferences' ? [owner] : value },
        }),
      ),
  },
  {
    weight: 2,
    arbitrary: fc.array(jsonPatchOp, { maxLength: 6 }).map((ops) => JSON.stringify(ops)),
  },
  {
    weight: 1,
    arbitrary: fc
      .integer({ min: 1, max: 2000 })
      .map((n) => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 20 }) },
);
const selector = fc.oneof(
  fc.constant(''),
  fc
    .array(
      fc.oneof(
        key,
        fc.string({ maxLength: 5 }),
        fc.constantFrom('=', '!=', ',', ' in (', ')', '!'),
      ),
      { maxLength: 5 },
    )
    .map((p) => p.join('')),
);
const request = fc.oneof(
  fc.record({
    kind: fc.constant('create' as const),
    user,
    contentType: fc.constantFrom('application/json', 'application/yaml'),
    body: bodyText,
  }),
  fc.record({
    kind: fc.constant('patch' as const),
    user,
    name: fc.constantFrom(...NAMES),
    contentType: fc.constantFrom(
      'application/merge-patch+json',
      'application/json-patch+json',
      'application/strategic-merge-patch+json',
      'application/apply-patch+yaml',
    ),
    body: bodyText,
    force: fc.boolean(),
  }),
  fc.record({
    kind: fc.constantFrom('list' as const, 'watch' as const),
    user,
    labelSelector: selector,
    fieldSelector: selector,
  }),
);

/** Every ConfigMap of the namespace by name, with its resourceVersion (what a write changes). */
async function stored(): Promise<Record<string, string>> {
  const res = await t.api('GET', CMS);
  return Object.fromEntries(
    (res.body.items as { metadata: { name: string; resourceVersion: string } }[]).map((i) => [
      i.metadata.name,
      i.metadata.resourceVersion,
    ]),
  );
}

describe(`the HTTP API under fuzzed create/patch/list/watch (fast-check seed ${SEED})`, () => {
  it(
    'no 5xx, no hang, nothing stored when refused, no change in what other users may read',
    { timeout: 120_000 },
    async () => {
      const before = await readMatrix();
      expect(before).toEqual([403, 403, 403, 403, 200, 403]);
      const statuses = new Map<number, number>();
      let cases = 0;
      const started = performance.now();
      await fc.assert(
        fc.asyncProperty(request, async (r) => {
          cases++;
          const headers: Record<string, string> = { authorization: `Bearer ${r.user}` };
          let status: number;
          if (r.kind === 'create' || r.kind === 'patch') {
            const rvs = await stored();
            const url =
              r.kind === 'patch'
                ? `${CMS}/${r.name}?fieldManager=fuzz${r.force ? '&force=true' : ''}`
                : CMS;
            const res = await fetch(`${t.server.url}${url}`, {
              method: r.kind === 'create' ? 'POST' : 'PATCH',
              headers: { ...headers, 'content-type': r.contentType },
              body: r.body,
              signal: AbortSignal.timeout(10_000),
            });
            status = res.status;
            const text = await res.text();
            if (status >= 400) {
              // Refused: nothing was stored, and the answer is a Status naming the problem.
              expect(await stored()).toEqual(rvs);
              expect(JSON.parse(text)).toMatchObject({ kind: 'Status', code: status });
            }
          } else {
            const q = new URLSearchParams({
              labelSelector: r.labelSelector,
              fieldSelector: r.fieldSelector,
              ...(r.kind === 'watch' ? { watch: '1', timeoutSeconds: '1' } : {}),
            });
            const ac = new AbortController();
            const res = await fetch(`${t.server.url}${CMS}?${q.toString()}`, {
              headers,
              signal: AbortSignal.any([ac.signal, AbortSignal.timeout(10_000)]),
            });
            status = res.status;
            ac.abort(); // a watch's headers are its answer here; the stream is not awaited
          }
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
          expect(status, JSON.stringify(r).slice(0, 500)).toBeLessThan(500);
          expect(protoSnapshot()).toEqual(cleanProto);
          if (cases % 100 === 0) expect(await readMatrix()).toEqual(before);
        }),
        params(HTTP_RUNS),
      );
      expect(await readMatrix()).toEqual(before);
      const ms = performance.now() - started;
      console.log(
        `fuzz HTTP: ${cases} requests in ${(ms / 1000).toFixed(1)} s (seed ${SEED}); statuses ${JSON.stringify(Object.fromEntries([...statuses].sort((a, b) => a[0] - b[0])))}`,
      );
    },
  );
});

/**
 * RBAC writes by a user who may write Roles and RoleBindings in `default` (as the built-in `admin`
 * may), fuzzed: random rules (stars included), random bindings to every role there is, patches
 * of roles already bound (the writer's own included). Whatever is accepted, what `nobody` (the
 * writer) may do never grows, and what `viewer` may do grows only by what the writer held: probed
 * with SubjectAccessReviews (the authorizer's decision, not the escalation check's own coverage
 * test), before, every 50 cases and after.
 */
describe(`RBAC writes by a non-admin, fuzzed (fast-check seed ${SEED}): no escalation`, () => {
  const RBAC = '/apis/rbac.authorization.k8s.io/v1/namespaces/default';
  const RBAC_RUNS = Number(process.env.FUZZ_RBAC_RUNS ?? 200);
  const resources: [string, string][] = [
    ['', 'configmaps'],
    ['', 'secrets'],
    ['rbac.authorization.k8s.io', 'roles'],
    ['rbac.authorization.k8s.io', 'rolebindings'],
    ['rbac.authorization.k8s.io', 'clusterroles'],
    ['example.com', 'widgets'],
  ];
  const verbs = ['get', 'list', 'create', 'patch', 'delete', 'escalate', 'bind'];
  const probes = resources.flatMap(([group, resource]) =>
    verbs.flatMap((verb) => ['', 'fz-0'].map((name) => ({ group, resource, verb, name }))),
  );

  /** The probes a user is allowed, as the authorizer decides them. */
  async function allowed(user: string): Promise<Set<string>> {
    const out = new Set<string>();
    await Promise.all(
      probes.map(async (p) => {
        const res = await t.api('POST', '/apis/authorization.k8s.io/v1/subjectaccessreviews', {
          body: {
            apiVersion: 'authorization.k8s.io/v1',
            kind: 'SubjectAccessReview',
            spec: {
              user,
              groups: ['system:authenticated'],
              resourceAttributes: { namespace: 'default', ...p },
            },
          },
        });
        if (res.body.status?.allowed === true)
          out.add(`${p.verb} ${p.group}/${p.resource}/${p.name}`);
      }),
    );
    return out;
  }

  const rule = fc.record(
    {
      verbs: fc.subarray([...verbs, '*'], { minLength: 1 }),
      apiGroups: fc.subarray(['', 'rbac.authorization.k8s.io', 'example.com', '*'], {
        minLength: 1,
      }),
      resources: fc.subarray(
        ['configmaps', 'secrets', 'roles', 'rolebindings', 'widgets', 'configmaps/status', '*'],
        { minLength: 1 },
      ),
      resourceNames: fc.subarray(['fz-0', 'x']),
    },
    { requiredKeys: ['verbs', 'apiGroups', 'resources'] },
  );
  const roleName = fc.constantFrom('fz-0', 'fz-1', 'fuzz-cm', 'fuzz-rbac');
  const action = fc.oneof(
    fc.record({
      kind: fc.constant('role' as const),
      name: roleName,
      rules: fc.array(rule, { maxLength: 3 }),
    }),
    fc.record({
      kind: fc.constant('binding' as const),
      name: fc.constantFrom('fzb-0', 'fzb-1'),
      roleKind: fc.constantFrom('Role', 'ClusterRole'),
      role: fc.constantFrom('fz-0', 'fz-1', 'fuzz-cm', 'view', 'edit', 'admin', 'cluster-admin'),
      subject: fc.constantFrom('nobody', 'viewer'),
    }),
  );

  it(
    'accepted or refused, no user gains what the writer did not hold',
    { timeout: 120_000 },
    async () => {
      await t.server.client.create({
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'Role',
        metadata: { name: 'fuzz-rbac', namespace: 'default' },
        rules: [
          {
            apiGroups: ['rbac.authorization.k8s.io'],
            resources: ['roles', 'rolebindings'],
            verbs: ['get', 'create', 'update', 'patch'],
          },
        ],
      });
      await t.server.client.create({
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'RoleBinding',
        metadata: { name: 'fuzz-rbac', namespace: 'default' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'fuzz-rbac' },
        subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'nobody' }],
      });
      const nobodyBefore = await allowed('nobody');
      const viewerBefore = await allowed('viewer');
      const check = async () => {
        const gained = [...(await allowed('nobody'))].filter((p) => !nobodyBefore.has(p));
        expect(gained, 'nobody gained').toEqual([]);
        const viewerGained = [...(await allowed('viewer'))].filter(
          (p) => !viewerBefore.has(p) && !nobodyBefore.has(p),
        );
        expect(viewerGained, 'viewer gained what nobody did not hold').toEqual([]);
      };
      const statuses = new Map<number, number>();
      let cases = 0;
      const started = performance.now();
      await fc.assert(
        fc.asyncProperty(action, async (a) => {
          cases++;
          const body =
            a.kind === 'role'
              ? {
                  apiVersion: 'rbac.authorization.k8s.io/v1',
                  kind: 'Role',
                  metadata: { name: a.name },
                  rules: a.rules,
                }
              : {
                  apiVersion: 'rbac.authorization.k8s.io/v1',
                  kind: 'RoleBinding',
                  metadata: { name: a.name },
                  roleRef: {
                    apiGroup: 'rbac.authorization.k8s.io',
                    kind: a.roleKind,
                    name: a.role,
                  },
                  subjects: [
                    { apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: a.subject },
                  ],
                };
          const plural = a.kind === 'role' ? 'roles' : 'rolebindings';
          // Server-side apply: a create or an update of the object, whichever it is now.
          const res = await t.api(
            'PATCH',
            `${RBAC}/${plural}/${a.name}?fieldManager=fuzz&force=true`,
            {
              token: NOBODY,
              contentType: 'application/apply-patch+yaml',
              body,
            },
          );
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
          expect(res.status, res.text.slice(0, 300)).toBeLessThan(500);
          if (res.status >= 400) expect([403, 409, 422]).toContain(res.status);
          expect((await t.api('GET', `${NS}/secrets`, { token: NOBODY })).status).toBe(403);
          if (cases % 50 === 0) await check();
        }),
        params(RBAC_RUNS),
      );
      await check();
      console.log(
        `fuzz RBAC: ${String(cases)} writes by a non-admin in ${((performance.now() - started) / 1000).toFixed(1)} s (seed ${String(SEED)}); statuses ${JSON.stringify(Object.fromEntries([...statuses].sort((x, y) => x[0] - y[0])))}`,
      );
    },
  );
});
