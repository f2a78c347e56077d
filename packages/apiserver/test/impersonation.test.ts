/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-explicit-any -- responses are JSON from the wire */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, NOBODY, VIEWER, startTestServer, type TestServer } from './support/server';

/**
 * Impersonation, case by case as k8s.io/apiserver's filters/impersonation_test.go
 * (TestImpersonationFilter) has them: who may impersonate what, the groups the impersonated user
 * gets, service accounts, extras and uids, and the texts of the refusals.
 */

const IMP = 'impersonator-token';
let t: TestServer;

/** A request with each header line as given (repeated names are separate lines, as kubectl sends them). */
async function as(
  token: string,
  headers: [string, string][],
  path = '/apis/authentication.k8s.io/v1/selfsubjectreviews',
): Promise<{ status: number; body: any; text: string; type: string | undefined }> {
  const h: Record<string, string | string[]> = { authorization: `Bearer ${token}` };
  for (const [k, v] of headers) {
    const prev = h[k];
    h[k] = prev === undefined ? [v] : [...(Array.isArray(prev) ? prev : [prev]), v];
  }
  const post = path.endsWith('selfsubjectreviews');
  const payload = post
    ? JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' })
    : undefined;
  if (post) h['content-type'] = 'application/json';
  const { status, type, text } = await new Promise<{
    status: number;
    type: string | undefined;
    text: string;
  }>((resolve, reject) => {
    const req = request(
      `${t.server.url}${path}`,
      { method: post ? 'POST' : 'GET', headers: h },
      (res) => {
        let data = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (data += c));
        res.on('end', () => {
          resolve({ status: res.statusCode ?? 0, type: res.headers['content-type'], text: data });
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {
    // plain text
  }
  return { status, body, text, type };
}

beforeAll(async () => {
  t = await startTestServer();
  t.server.addToken({ token: IMP, user: 'impersonator' });
  const rbac = 'rbac.authorization.k8s.io/v1';
  // May impersonate the user "viewer" and the service account default/robot, any group, the
  // "scopes" extra and any uid; not other users.
  await t.server.client.create({
    apiVersion: rbac,
    kind: 'ClusterRole',
    metadata: { name: 'impersonate-some' },
    rules: [
      { apiGroups: [''], resources: ['users'], verbs: ['impersonate'], resourceNames: ['viewer'] },
      { apiGroups: [''], resources: ['groups'], verbs: ['impersonate'] },
      {
        apiGroups: [''],
        resources: ['serviceaccounts'],
        verbs: ['impersonate'],
        resourceNames: ['robot'],
      },
      {
        apiGroups: ['authentication.k8s.io'],
        resources: ['userextras/scopes', 'uids'],
        verbs: ['impersonate'],
      },
    ],
  });
  await t.server.client.create({
    apiVersion: rbac,
    kind: 'ClusterRoleBinding',
    metadata: { name: 'impersonator' },
    roleRef: {
      apiGroup: 'rbac.authorization.k8s.io',
      kind: 'ClusterRole',
      name: 'impersonate-some',
    },
    subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'impersonator' }],
  });
});

afterAll(async () => {
  await t.server.close();
});

describe('impersonation (apiserver filters/impersonation.go)', () => {
  it('without impersonation headers a request runs as its requester', async () => {
    const r = await as(IMP, []);
    expect(r.body.status.userInfo).toEqual({
      username: 'impersonator',
      groups: ['system:authenticated'],
    });
  });

  it('an allowed user: the request runs as that user, with system:authenticated added', async () => {
    const r = await as(IMP, [['Impersonate-User', 'viewer']]);
    expect(r.status).toBe(201);
    expect(r.body.status.userInfo).toEqual({
      username: 'viewer',
      groups: ['system:authenticated'],
    });
    // …and is authorized as that user: the viewer may list widgets, the impersonator may not.
    expect((await as(IMP, [], '/apis/example.com/v1/namespaces/default/widgets')).status).toBe(403);
    const listed = await as(
      IMP,
      [['Impersonate-User', 'viewer']],
      '/apis/example.com/v1/namespaces/default/widgets',
    );
    expect(listed.status).toBe(200);
  });

  it('a user the requester may not impersonate is a 403 in upstream words', async () => {
    const r = await as(IMP, [['Impersonate-User', 'admin']]);
    expect(r.status).toBe(403);
    expect(r.body).toMatchObject({
      kind: 'Status',
      reason: 'Forbidden',
      code: 403,
      message:
        'users "admin" is forbidden: User "impersonator" cannot impersonate resource "users" in API group "" at the cluster scope',
      details: { name: 'admin', kind: 'users' },
    });
    // A user with no impersonation rights at all, for a group.
    const g = await as(NOBODY, [
      ['Impersonate-User', 'viewer'],
      ['Impersonate-Group', 'system:masters'],
    ]);
    expect(g.body.message).toBe(
      'users "viewer" is forbidden: User "nobody" cannot impersonate resource "users" in API group "" at the cluster scope',
    );
  });

  it('groups are repeatable and are the groups (system:authenticated added once)', async () => {
    const r = await as(IMP, [
      ['Impersonate-User', 'viewer'],
      ['Impersonate-Group', 'team-a'],
      ['Impersonate-Group', 'team, b'],
    ]);
    expect(r.body.status.userInfo).toEqual({
      username: 'viewer',
      groups: ['team-a', 'team, b', 'system:authenticated'],
    });
    const unauth = await as(IMP, [
      ['Impersonate-User', 'viewer'],
      ['Impersonate-Group', 'system:unauthenticated'],
    ]);
    // Without system:authenticated it lacks even the basic-user role's self review.
    expect(unauth.status).toBe(403);
    expect(unauth.body.message).toBe(
      'selfsubjectreviews.authentication.k8s.io is forbidden: User "viewer" cannot create resource "selfsubjectreviews" in API group "authentication.k8s.io" at the cluster scope',
    );
  });

  it('a service account user gets its groups, and is authorized as serviceaccounts in its namespace', async () => {
    const r = await as(IMP, [['Impersonate-User', 'system:serviceaccount:default:robot']]);
    expect(r.body.status.userInfo).toEqual({
      username: 'system:serviceaccount:default:robot',
      groups: ['system:serviceaccounts', 'system:serviceaccounts:default', 'system:authenticated'],
    });
    const denied = await as(IMP, [['Impersonate-User', 'system:serviceaccount:default:other']]);
    expect(denied.body.message).toBe(
      'serviceaccounts "other" is forbidden: User "impersonator" cannot impersonate resource "serviceaccounts" in API group "" in the namespace "default"',
    );
  });

  it('extras (key %-unescaped) and the uid are authorized in authentication.k8s.io', async () => {
    const r = await as(IMP, [
      ['Impersonate-User', 'viewer'],
      ['Impersonate-Extra-Scopes', 'view'],
      ['Impersonate-Extra-Scopes', 'edit'],
      ['Impersonate-Uid', 'u-1'],
    ]);
    expect(r.body.status.userInfo).toEqual({
      username: 'viewer',
      uid: 'u-1',
      groups: ['system:authenticated'],
      extra: { scopes: ['view', 'edit'] },
    });
    const other = await as(IMP, [
      ['Impersonate-User', 'viewer'],
      ['Impersonate-Extra-Acme.com%2fproject', 'x'],
    ]);
    expect(other.body.message).toBe(
      'userextras.authentication.k8s.io "x" is forbidden: User "impersonator" cannot impersonate resource "userextras/acme.com/project" in API group "authentication.k8s.io" at the cluster scope',
    );
  });

  it('groups without a user are a plain-text 500, as upstream answers them', async () => {
    const r = await as(IMP, [['Impersonate-Group', 'g']], '/api/v1/namespaces');
    expect(r.status).toBe(500);
    expect(r.type).toBe('text/plain; charset=utf-8');
    expect(r.text).toBe(
      'Internal Server Error: "/api/v1/namespaces": requested [{Group  g    }] without impersonating a user\n',
    );
  });

  it('system:masters may impersonate anyone; the viewer may impersonate no one', async () => {
    const r = await as(ADMIN, [['Impersonate-User', 'someone']]);
    expect(r.body.status.userInfo.username).toBe('someone');
    expect((await as(VIEWER, [['Impersonate-User', 'someone']])).status).toBe(403);
  });
});
