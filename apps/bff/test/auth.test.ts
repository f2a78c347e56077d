import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, startTestCluster, type TestCluster } from './support/embedded';
import { TestSession } from './support/session';

const BASE = '/api/v1/clusters/cpaas-system/demo';

/** Every mutating route, with a body that passes its schema. */
const MUTATIONS: { method: 'POST' | 'PATCH' | 'DELETE'; url: string; body: unknown }[] = [
  {
    method: 'POST',
    url: `${BASE}/nodepools/demo-md-0/scale`,
    body: { replicas: 4, resourceVersion: '1' },
  },
  {
    method: 'POST',
    url: `${BASE}/nodepools/demo-md-0/upgrade`,
    body: {
      operation: 'bootstrap',
      resourceVersion: '1',
      bootstrap: { name: 'x-kct', spec: { format: 'ignition' } },
    },
  },
  {
    method: 'POST',
    url: `${BASE}/nodepools/demo-md-0/autoscale`,
    body: { resourceVersion: '1', minSize: 1, maxSize: 3 },
  },
  { method: 'DELETE', url: `${BASE}/nodepools/demo-md-0`, body: { resourceVersion: '1' } },
  {
    method: 'POST',
    url: `${BASE}/nodepools`,
    body: {
      name: 'demo-md-9',
      replicas: 1,
      version: 'v1.33.4',
      machineTemplate: { mode: 'existing', name: 'demo-md-0-template' },
      bootstrap: { mode: 'existing', name: 'demo-md-0-kct' },
      ipPool: { mode: 'existing', name: 'demo-worker-pool', resourceVersion: '1' },
      strategy: { maxSurge: 0, maxUnavailable: 1 },
    },
  },
  {
    method: 'POST',
    url: '/api/v1/namespaces/cpaas-system/ippools',
    body: { name: 'p9', entries: [{ ip: '10.0.9.1', mask: '24', gateway: '10.0.9.254' }] },
  },
  {
    method: 'PATCH',
    url: '/api/v1/namespaces/cpaas-system/ippools/demo-worker-pool',
    body: { resourceVersion: '1', append: [{ ip: '10.0.9.2', mask: '24', gateway: '10.0.9.254' }] },
  },
];

const READS = [
  '/api/v1/clusters',
  `${BASE}/context`,
  `${BASE}/nodepools`,
  `${BASE}/nodepools/demo-md-0`,
  `${BASE}/machines`,
  `${BASE}/nodepools/demo-md-0/machines`,
  `${BASE}/nodepools/demo-md-0/events`,
  `${BASE}/nodepools/demo-md-0/diagnostics`,
  `${BASE}/diagnostics`,
  '/api/v1/namespaces/cpaas-system/ippools',
  '/api/v1/namespaces/cpaas-system/ippools/demo-worker-pool',
  '/api/v1/namespaces/cpaas-system/objects/MachineDeployment/demo-md-0',
  '/api/v1/stream?cluster=cpaas-system/demo',
];

describe('auth in token mode', () => {
  let t: TestCluster;
  let app: FastifyInstance;
  beforeAll(async () => {
    t = await startTestCluster();
    app = await buildTestApp(t, { mode: 'token' });
  });
  afterAll(async () => {
    await app.close();
    await t.close();
  });

  it('answers 401 to every read and mutation without credentials, never serving its own identity', async () => {
    const s = new TestSession(app);
    await s.start();
    for (const url of READS) {
      const res = await s.request('GET', url);
      expect(res.statusCode, url).toBe(401);
      expect(res.json()).toMatchObject({ code: 'Unauthorized', details: [{ rule: 'R-AUTH' }] });
    }
    for (const m of MUTATIONS) {
      expect((await s.request(m.method, m.url, m.body)).statusCode, m.url).toBe(401);
    }
  });

  it('says who is signed in (nobody) with the mode and a CSRF token', async () => {
    const res = await new TestSession(app).start();
    expect(res.json()).toMatchObject({ authenticated: false, mode: 'token' });
    expect(res.headers['set-cookie']).toEqual(expect.stringContaining('HttpOnly'));
    expect(String(res.headers['set-cookie'])).toContain('SameSite=Strict');
  });

  it('refuses a token the API server does not accept', async () => {
    const res = await new TestSession(app).signIn('not-a-token');
    expect(res.statusCode).toBe(401);
  });

  it('signs in with a bearer token into an encrypted cookie, and out again', async () => {
    const s = new TestSession(app);
    const res = await s.signIn(t.cluster.operatorToken);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ authenticated: true, user: { username: 'sim-operator' } });
    const cookie = s.cookies.get('dcs_session') ?? '';
    expect(cookie).not.toContain(t.cluster.operatorToken);
    expect((await s.request('GET', `${BASE}/nodepools`)).statusCode).toBe(200);
    expect((await s.request('DELETE', '/api/v1/session')).statusCode).toBe(204);
    expect((await s.request('GET', `${BASE}/nodepools`)).statusCode).toBe(401);
  });

  it('lets a viewer read, and answers 403 to every mutation (dry run included)', async () => {
    const s = new TestSession(app);
    expect((await s.signIn(t.cluster.viewerToken)).statusCode).toBe(200);
    expect((await s.request('GET', `${BASE}/nodepools`)).statusCode).toBe(200);
    for (const m of MUTATIONS) {
      for (const q of ['', '?dryRun=true']) {
        const res = await s.request(m.method, `${m.url}${q}`, m.body);
        expect(res.statusCode, `${m.method} ${m.url}${q}: ${res.body}`).toBe(403);
        const body = res.json<{ code: string; details: { rule: string }[] }>();
        expect(body.code).toBe('Forbidden');
        expect(body.details.every((d) => d.rule === 'R-AUTH')).toBe(true);
      }
    }
  });

  it('tells a viewer which access review refused each right, and why', async () => {
    const s = new TestSession(app);
    await s.signIn(t.cluster.viewerToken);
    const res = await s.request('GET', `${BASE}/context`);
    expect(res.statusCode, res.body).toBe(200);
    const { permissions } = res.json<{
      permissions: Record<string, { allowed: boolean; denied?: unknown[] }>;
    }>();
    expect(permissions.scale).toEqual({
      allowed: false,
      denied: [
        {
          verb: 'patch',
          kind: 'MachineDeployment',
          group: 'cluster.x-k8s.io',
          resource: 'machinedeployments',
          namespace: 'cpaas-system',
        },
      ],
    });
    expect(permissions.createPool?.denied).toHaveLength(3);
    expect(Object.values(permissions).some((p) => p.allowed)).toBe(false);
  });

  it('answers 403 to a mutation without the CSRF token, or with a wrong one', async () => {
    const s = new TestSession(app);
    await s.signIn(t.cluster.operatorToken);
    for (const m of MUTATIONS) {
      const res = await s.request(m.method, `${m.url}?dryRun=true`, m.body, { csrf: false });
      expect(res.statusCode, m.url).toBe(403);
      expect(res.json()).toMatchObject({ details: [{ rule: 'R-AUTH', path: 'x-csrf-token' }] });
      const wrong = await s.request(m.method, `${m.url}?dryRun=true`, m.body, {
        csrf: false,
        headers: { 'x-csrf-token': 'forged' },
      });
      expect(wrong.statusCode).toBe(403);
    }
  });

  it('answers 403 to a foreign Origin on mutations and streams', async () => {
    const s = new TestSession(app);
    await s.signIn(t.cluster.operatorToken);
    s.origin = 'https://evil.example';
    for (const m of MUTATIONS) {
      const res = await s.request(m.method, `${m.url}?dryRun=true`, m.body);
      expect(res.statusCode, m.url).toBe(403);
      expect(res.json()).toMatchObject({ details: [{ path: 'Origin' }] });
    }
    const stream = await s.request('GET', '/api/v1/stream?cluster=cpaas-system/demo', undefined, {
      headers: { origin: 'https://evil.example' },
    });
    expect(stream.statusCode).toBe(403);
  });

  it('refuses bodies over the size limit', async () => {
    const s = new TestSession(app);
    await s.signIn(t.cluster.operatorToken);
    const huge = {
      name: 'p',
      entries: Array.from({ length: 20_000 }, (_, i) => ({
        ip: `10.1.${String(i % 250)}.1`,
        mask: '24',
        gateway: '10.1.0.254',
      })),
    };
    const res = await s.request(
      'POST',
      '/api/v1/namespaces/cpaas-system/ippools?dryRun=true',
      huge,
    );
    expect(res.statusCode).toBe(413);
  });
  it('rate-limits sign-in attempts', async () => {
    const s = new TestSession(app);
    await s.start();
    let limited = false;
    for (let i = 0; i < 15 && !limited; i++) {
      limited = (await s.request('POST', '/api/v1/session', { token: 'bad' })).statusCode === 429;
    }
    expect(limited).toBe(true);
  });
});

describe('auth behind a trusted proxy', () => {
  let t: TestCluster;
  let app: FastifyInstance;
  beforeAll(async () => {
    t = await startTestCluster();
    app = await buildTestApp(t, { mode: 'token', env: { TRUST_PROXY_AUTHORIZATION: 'true' } });
  });
  afterAll(async () => {
    await app.close();
    await t.close();
  });

  it('acts as the user whose token the proxy passes', async () => {
    const s = new TestSession(app);
    s.authorization = `Bearer ${t.cluster.viewerToken}`;
    const who = await s.start();
    expect(who.json()).toMatchObject({ authenticated: true, user: { username: 'sim-viewer' } });
    expect((await s.request('GET', `${BASE}/nodepools`)).statusCode).toBe(200);
    s.authorization = 'Bearer wrong';
    expect((await s.request('GET', `${BASE}/nodepools`)).statusCode).toBe(401);
  });
});

describe('local mode', () => {
  let t: TestCluster;
  beforeAll(async () => {
    t = await startTestCluster();
  });
  afterAll(async () => {
    await t.close();
  });

  it('acts as the kubeconfig user; a read-only context gets 403 on mutations', async () => {
    const app = await buildTestApp(t, { context: 'sim-viewer' });
    const s = new TestSession(app);
    const who = await s.start();
    expect(who.json()).toMatchObject({
      authenticated: true,
      mode: 'local',
      user: { username: 'sim-viewer' },
    });
    const res = await s.request('POST', `${BASE}/nodepools/demo-md-0/scale?dryRun=true`, {
      replicas: 4,
      resourceVersion: '1',
    });
    expect(res.statusCode).toBe(403);
    await app.close();
  });
});
