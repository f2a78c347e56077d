import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, startTestCluster, type TestCluster } from './support/embedded';
import { TestSession } from './support/session';

/**
 * The BFF's security model, one class of attack per block (issue 10): DNS rebinding (Host),
 * mutations without an Origin, credentials that cannot be a header, caching of API answers.
 */

const BASE = '/api/v1/clusters/cpaas-system/demo';
const SCALE = `${BASE}/nodepools/demo-md-0/scale?dryRun=true`;

describe('local mode: DNS rebinding and origins', () => {
  let t: TestCluster;
  let app: FastifyInstance;
  beforeAll(async () => {
    t = await startTestCluster();
    app = await buildTestApp(t, { env: { ALLOWED_HOSTS: 'console.test' } });
  });
  afterAll(async () => {
    await app.close();
    await t.close();
  });

  it('refuses a request naming a host that is not the console (421), reads and mutations alike', async () => {
    const s = new TestSession(app);
    await s.start();
    const headers = { host: 'evil.example:80' };
    for (const [method, url] of [
      ['GET', '/api/v1/session'],
      ['GET', `${BASE}/nodepools`],
      ['GET', '/api/v1/namespaces/cpaas-system/objects/MachineDeployment/demo-md-0'],
      ['GET', '/api/v1/stream?cluster=cpaas-system/demo'],
      ['GET', '/api/openapi.json'],
      ['GET', '/'],
      ['POST', SCALE],
    ] as const) {
      const res = await s.request(method, url, method === 'POST' ? { replicas: 4 } : undefined, {
        headers: { ...headers, origin: 'http://evil.example:80' },
      });
      expect(res.statusCode, `${method} ${url}`).toBe(421);
      expect(res.json()).toMatchObject({
        code: 'MisdirectedRequest',
        details: [{ rule: 'R-AUTH', path: 'Host', params: { host: 'evil.example' } }],
      });
    }
  });

  it('serves loopback names, the listen address and ALLOWED_HOSTS; probes from anywhere', async () => {
    for (const host of [
      'localhost:8080',
      '127.0.0.1:1',
      '[::1]:8080',
      'console.test',
      'LOCALHOST',
    ]) {
      const res = await app.inject({ method: 'GET', url: '/api/v1/session', headers: { host } });
      expect(res.statusCode, host).toBe(200);
    }
    for (const url of ['/healthz', '/readyz']) {
      const res = await app.inject({ method: 'GET', url, headers: { host: '10.1.2.3:8080' } });
      expect(res.statusCode, url).toBe(200);
    }
  });

  it('refuses a mutation without Origin, unless the browser says it is same-origin', async () => {
    const s = new TestSession(app);
    await s.start();
    s.origin = undefined;
    const body = { replicas: 4, resourceVersion: '1' };
    const missing = await s.request('POST', SCALE, body);
    expect(missing.statusCode).toBe(403);
    expect(missing.json()).toMatchObject({
      details: [{ rule: 'R-AUTH', path: 'Origin', messageKey: 'bff.auth.originMissing' }],
    });
    const labelled = await s.request('POST', SCALE, body, {
      headers: { 'sec-fetch-site': 'same-origin' },
    });
    expect(labelled.statusCode, labelled.body).not.toBe(403);
    const crossSite = await s.request('POST', SCALE, body, {
      headers: { 'sec-fetch-site': 'cross-site' },
    });
    expect(crossSite.statusCode).toBe(403);
  });

  it('answers every API response, errors included, with Cache-Control: no-store', async () => {
    const s = new TestSession(app);
    for (const [method, url] of [
      ['GET', '/api/v1/session'],
      ['GET', `${BASE}/nodepools`],
      ['GET', `${BASE}/nodepools/nope`],
      ['GET', '/api/v1/nothing-here'],
      ['GET', '/api/openapi.json'],
      ['POST', SCALE],
    ] as const) {
      const res = await s.request(method, url, method === 'POST' ? {} : undefined);
      expect(res.headers['cache-control'], `${method} ${url} (${String(res.statusCode)})`).toBe(
        'no-store',
      );
    }
  });
});

describe('token mode: hostile credentials and origins', () => {
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

  it('answers 400 naming the token to a sign-in token no header could carry (RFC 6750 token68)', async () => {
    const bad = [
      'abc\r\nX-Injected: 1',
      'abc\ndef',
      'abc\u0000def',
      'tökén',
      '令牌',
      'abc def',
      'a=b',
      '\u202e',
    ];
    for (const token of bad) {
      const s = new TestSession(app);
      const res = await s.signIn(token);
      expect(res.statusCode, JSON.stringify(token)).toBe(400);
      expect(res.json()).toMatchObject({
        code: 'BadRequest',
        details: [{ rule: 'R-REQUEST', path: 'token' }],
      });
    }
    const ok = await new TestSession(app).signIn(t.cluster.viewerToken);
    expect(ok.statusCode).toBe(200);
  });

  it('treats a proxy Authorization that is no token68 as no credential (401), never a 500', async () => {
    for (const token of ['tökén', '令牌', 'a\u0001b']) {
      const s = new TestSession(app);
      s.authorization = `Bearer ${token}`;
      const res = await s.request('GET', `${BASE}/nodepools`);
      expect(res.statusCode, JSON.stringify(token)).toBe(401);
    }
  });

  it('refuses a signed-in mutation without Origin (403) and a rebinding Host (421)', async () => {
    const s = new TestSession(app);
    await s.signIn(t.cluster.operatorToken);
    const body = { replicas: 4, resourceVersion: '1' };
    s.origin = undefined;
    expect((await s.request('POST', SCALE, body)).statusCode).toBe(403);
    expect((await s.request('DELETE', '/api/v1/session')).statusCode).toBe(403);
    s.origin = 'http://evil.example';
    const rebound = await s.request('POST', SCALE, body, { headers: { host: 'evil.example' } });
    expect(rebound.statusCode).toBe(421);
  });
});
