import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbeddedCluster } from '@dcs/simulator';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_COOKIE_BYTES, MAX_SESSION_TOKEN_CHARS, SESSION_COOKIE } from '../src/auth/sessions';
import { ConfigError } from '../src/config/env';
import { loadKubeConfig, openConnection } from '../src/kube/connection';
import { buildTestApp, startTestCluster, type TestCluster } from './support/embedded';
import { put } from './support/seed';
import { TestSession } from './support/session';
import { dataOf, openSse } from './support/sse';

/**
 * The BFF's security model, one class of attack per block (issue 10): DNS rebinding (Host),
 * mutations without an Origin, credentials that cannot be a header, caching of API answers.
 */

const BASE = '/api/v1/clusters/cpaas-system/demo';

/** One request as bytes on a socket (what no HTTP client library lets a test send). */
function rawRequest(port: number, text: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.end(text));
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => {
      const all = Buffer.concat(chunks).toString('utf8');
      const [head = '', ...rest] = all.split('\r\n\r\n');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0);
      const body = rest.join('\r\n\r\n');
      // Chunked answers: the JSON is the first chunk's data.
      const chunked = /transfer-encoding: chunked/i.test(head);
      resolve({ status, body: chunked ? (body.split('\r\n')[1] ?? '') : body });
    });
  });
}
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

  it('refuses a Host with more than a name and port, repeated Host lines and absolute-form targets (400), on the wire (issue 25, item 12)', async () => {
    const listening = await buildTestApp(t, {});
    await listening.listen({ host: '127.0.0.1', port: 0 });
    const address = listening.server.address();
    const port = typeof address === 'object' && address !== null ? address.port : 0;
    const own = `127.0.0.1:${String(port)}`;
    try {
      // What each request asks for, whole, as a rebound page or a hostile client sends it.
      const refused: [string, string][] = [
        [`GET /api/v1/session HTTP/1.1\r\nHost: ${own}@evil.example\r\n`, 'bff.auth.hostInvalid'],
        [`GET /api/v1/session HTTP/1.1\r\nHost: ${own}/x\r\n`, 'bff.auth.hostInvalid'],
        [`GET /api/v1/session HTTP/1.1\r\nHost: ::1\r\n`, 'bff.auth.hostInvalid'],
        [
          `GET /api/v1/session HTTP/1.1\r\nHost: ${own}\r\nHost: evil.example\r\n`,
          'bff.auth.hostRepeated',
        ],
        [
          `GET /api/v1/session HTTP/1.1\r\nHost: evil.example\r\nHost: ${own}\r\n`,
          'bff.auth.hostRepeated',
        ],
        [
          `GET http://evil.example/api/v1/session HTTP/1.1\r\nHost: ${own}\r\n`,
          'bff.auth.hostAbsoluteForm',
        ],
        [
          `GET http://${own}/api/v1/session HTTP/1.1\r\nHost: ${own}\r\n`,
          'bff.auth.hostAbsoluteForm',
        ],
      ];
      for (const [head, key] of refused) {
        const res = await rawRequest(port, `${head}Connection: close\r\n\r\n`);
        expect(res.status, head).toBe(400);
        expect(JSON.parse(res.body)).toMatchObject({
          code: 'BadRequest',
          details: [{ rule: 'R-AUTH', path: 'Host', messageKey: key }],
        });
      }
      const ok = await rawRequest(
        port,
        `GET /api/v1/session HTTP/1.1\r\nHost: ${own}\r\nConnection: close\r\n\r\n`,
      );
      expect(ok.status).toBe(200);
    } finally {
      await listening.close();
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

  it('never returns a value of a Secret: not data, nor last-applied or any other annotation', async () => {
    const value = 'hunter2-s3cr3t-value';
    const encoded = Buffer.from(value).toString('base64');
    const manifest = {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'leaky', namespace: 'cpaas-system' },
      data: { password: encoded },
    };
    await put(t.cluster.server.client, {
      ...manifest,
      metadata: {
        ...manifest.metadata,
        annotations: {
          'kubectl.kubernetes.io/last-applied-configuration': JSON.stringify(manifest),
          'kapp.k14s.io/original': JSON.stringify({ ...manifest, stringData: { value } }),
        },
      },
    });
    const s = new TestSession(app);
    const res = await s.request('GET', '/api/v1/namespaces/cpaas-system/objects/Secret/leaky');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body).not.toContain(value);
    expect(res.body).not.toContain(encoded);
    expect(res.body).not.toContain('managedFields');
    const shown = res.json<{ dataKeys: string[]; metadata: { annotations: object } }>();
    expect(shown.dataKeys).toEqual(['password']);
    expect(Object.keys(shown.metadata.annotations)).toEqual([
      'kubectl.kubernetes.io/last-applied-configuration',
      'kapp.k14s.io/original',
    ]);
  });

  it('serves /metrics on METRICS_PORT only, never on the app port', async () => {
    const listening = await buildTestApp(t, { env: { METRICS_PORT: '0' } });
    try {
      await listening.listen({ host: '127.0.0.1', port: 0 });
      const url = listening.metricsUrl();
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
      const scraped = await fetch(url ?? '');
      expect(scraped.status).toBe(200);
      expect(await scraped.text()).toContain('dcs_bff_http_request_duration_seconds');
      expect((await fetch((url ?? '').replace('/metrics', '/api/v1/session'))).status).toBe(404);
      const onApp = await listening.inject({ url: '/metrics', headers: { host: 'localhost' } });
      expect(onApp.statusCode).toBe(404);
    } finally {
      await listening.close();
    }
    expect((await app.inject({ url: '/metrics', headers: { host: 'localhost' } })).statusCode).toBe(
      404,
    );
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
    app = await buildTestApp(t, {
      mode: 'token',
      env: { TRUST_PROXY_AUTHORIZATION: 'true', SIGNIN_RATE_PER_MINUTE: '100' },
    });
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

  it('refuses a sign-in token longer than a session cookie can carry, before asking the API server (issue 25, item 11)', async () => {
    // The reported token: 16,300 characters were accepted and became 502 UpstreamError HTTP 431.
    for (const length of [16_300, MAX_SESSION_TOKEN_CHARS + 1]) {
      const res = await new TestSession(app).signIn('a'.repeat(length));
      expect(res.statusCode, String(length)).toBe(400);
      expect(res.json()).toMatchObject({
        code: 'BadRequest',
        details: [{ path: 'token' }],
      });
      expect(res.json<{ message: string }>().message).toBe(
        `token is too long: at most ${String(MAX_SESSION_TOKEN_CHARS)} characters.`,
      );
    }
    // At the limit the server is asked (and does not know it): 401, not a refusal for length.
    const atLimit = await new TestSession(app).signIn('a'.repeat(MAX_SESSION_TOKEN_CHARS));
    expect(atLimit.statusCode).toBe(401);
  });

  it('a token at the limit signs in, and its session cookie fits in a browser (4096 bytes)', async () => {
    const token = 'b'.repeat(MAX_SESSION_TOKEN_CHARS);
    t.cluster.server.addToken({ token, user: '' });
    const res = await new TestSession(app).signIn(token);
    expect(res.statusCode, res.body).toBe(200);
    const cookie = res.cookies.find((c) => c.name === SESSION_COOKIE);
    expect(cookie).toBeDefined();
    expect(`${SESSION_COOKIE}=${cookie?.value ?? ''}`.length).toBeLessThanOrEqual(MAX_COOKIE_BYTES);
  });

  it('an identity too large for the cookie together with its token is a 400 naming the limit', async () => {
    const token = 'c'.repeat(2000);
    const groups = Array.from({ length: 60 }, (_, i) => `group-with-a-long-name-${String(i)}`);
    t.cluster.server.addToken({ token, user: 'many-groups', groups });
    const res = await new TestSession(app).signIn(token);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'SessionTooLarge',
      details: [{ rule: 'R-AUTH', path: 'token', params: { limit: MAX_COOKIE_BYTES } }],
    });
    expect(res.cookies.find((c) => c.name === SESSION_COOKIE)).toBeUndefined();
  });

  it("maps the API server's 431 (headers too large) to a 400, never a 5xx (issue 25, item 11)", async () => {
    // A proxy's Authorization is not bounded by a cookie: 16,300 characters pass the BFF and
    // the embedded API server (Node: 16 KiB of headers) answers 431.
    const s = new TestSession(app);
    s.authorization = `Bearer ${'d'.repeat(16_300)}`;
    const res = await s.request('GET', `${BASE}/nodepools`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'CredentialTooLarge',
      details: [{ rule: 'R-AUTH', path: 'token', messageKey: 'bff.auth.tokenTooLarge' }],
    });
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

describe('token mode: rate limits are per user', () => {
  let t: TestCluster;
  let app: FastifyInstance;
  beforeAll(async () => {
    t = await startTestCluster();
    app = await buildTestApp(t, { mode: 'token', env: { MUTATION_RATE_PER_MINUTE: '3' } });
  });
  afterAll(async () => {
    await app.close();
    await t.close();
  });

  it('does not let one user spend the mutation budget of another behind the same IP', async () => {
    const operator = new TestSession(app);
    await operator.signIn(t.cluster.operatorToken);
    const body = { replicas: 4, resourceVersion: '1' };
    const codes: number[] = [];
    for (let i = 0; i < 4; i++)
      codes.push((await operator.request('POST', SCALE, body)).statusCode);
    expect(codes.slice(0, 3)).not.toContain(429);
    expect(codes[3]).toBe(429);
    // Same IP (inject's 127.0.0.1), another user: their own budget, so RBAC answers.
    const viewer = new TestSession(app);
    await viewer.signIn(t.cluster.viewerToken);
    expect((await viewer.request('POST', SCALE, body)).statusCode).toBe(403);
    // A second session of the operator shares the operator's budget.
    const again = new TestSession(app);
    await again.signIn(t.cluster.operatorToken);
    expect((await again.request('POST', SCALE, body)).statusCode).toBe(429);
  });
});

describe('a kubeconfig with a plain-HTTP server', () => {
  it('is served on loopback (the embedded --http), and refused clearly anywhere else', async () => {
    const cluster = await startEmbeddedCluster({ host: '127.0.0.1', port: 0, tls: false });
    const dir = await mkdtemp(join(tmpdir(), 'bff-http-'));
    try {
      const kubeconfig = join(dir, 'kubeconfig');
      await writeFile(kubeconfig, cluster.kubeconfig, { mode: 0o600 });
      expect(cluster.kubeconfig).toContain('server: http://127.0.0.1:');
      const t: TestCluster = { cluster, kubeconfig, dir, close: () => Promise.resolve() };
      const app = await buildTestApp(t, { mode: 'token' });
      try {
        const s = new TestSession(app);
        expect((await s.signIn(cluster.operatorToken)).statusCode).toBe(200);
        expect((await s.request('GET', '/api/v1/clusters')).statusCode).toBe(200);
      } finally {
        await app.close();
      }
      const remote = join(dir, 'remote');
      await writeFile(
        remote,
        cluster.kubeconfig.replace(
          /server: http:\/\/127\.0\.0\.1:\d+/,
          'server: http://10.0.0.1:6443',
        ),
      );
      const kc = loadKubeConfig({ kind: 'kubeconfig', file: remote });
      const opening = openConnection(kc, { allowInsecureTls: false });
      await expect(opening).rejects.toThrow(ConfigError);
      await expect(opening).rejects.toThrow(/plain HTTP .*use https/);
    } finally {
      await cluster.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('token mode: sessions end on every replica, and CSRF tokens are bound to them', () => {
  let t: TestCluster;
  let a: FastifyInstance;
  let b: FastifyInstance;
  beforeAll(async () => {
    t = await startTestCluster();
    // Two replicas: same keys, same cluster, nothing else shared.
    // Short heartbeats: the stream test waits for one on a stream that must stay open.
    const env = { SSE_HEARTBEAT_MS: '1000' };
    a = await buildTestApp(t, { mode: 'token', env });
    b = await buildTestApp(t, { mode: 'token', env });
  });
  afterAll(async () => {
    await a.close();
    await b.close();
    await t.close();
  });

  const copy = (from: TestSession, app: FastifyInstance) => {
    const s = new TestSession(app);
    for (const [k, v] of from.cookies) s.cookies.set(k, v);
    s.csrf = from.csrf;
    return s;
  };

  it('refuses a signed-out cookie on the replica that signed it out and on another', async () => {
    const user = new TestSession(a);
    expect((await user.signIn(t.cluster.operatorToken)).statusCode).toBe(200);
    const thiefOnA = copy(user, a);
    const thiefOnB = copy(user, b);
    expect((await thiefOnB.request('GET', `${BASE}/nodepools`)).statusCode).toBe(200);
    expect((await user.request('DELETE', '/api/v1/session')).statusCode).toBe(204);
    expect((await thiefOnA.request('GET', `${BASE}/nodepools`)).statusCode).toBe(401);
    // Replica B learns it through its watch of the revocation list.
    let status = 0;
    for (const until = Date.now() + 5000; Date.now() < until;) {
      status = (await thiefOnB.request('GET', `${BASE}/nodepools`)).statusCode;
      if (status === 401) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(status).toBe(401);
    const mutation = await thiefOnB.request('POST', SCALE, { replicas: 4, resourceVersion: '1' });
    expect(mutation.statusCode).toBe(401);
    // A new sign-in is a new session, unaffected.
    const again = new TestSession(b);
    expect((await again.signIn(t.cluster.operatorToken)).statusCode).toBe(200);
    expect((await again.request('GET', `${BASE}/nodepools`)).statusCode).toBe(200);
  });

  it("closes a signed-out session's open streams at once, on every replica (issue 10)", async () => {
    const urlA = await a.listen({ host: '127.0.0.1', port: 0 });
    const urlB = await b.listen({ host: '127.0.0.1', port: 0 });
    const user = new TestSession(a);
    expect((await user.signIn(t.cluster.operatorToken)).statusCode).toBe(200);
    const other = new TestSession(b);
    expect((await other.signIn(t.cluster.operatorToken)).statusCode).toBe(200);
    const cookieOf = (s: TestSession) => ({
      cookie: [...s.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
    });
    const path = '/api/v1/stream?cluster=cpaas-system/demo';
    const onA = await openSse(`${urlA}${path}`, cookieOf(user));
    const onB = await openSse(`${urlB}${path}`, cookieOf(user));
    const othersOnB = await openSse(`${urlB}${path}`, cookieOf(other));
    for (const s of [onA, onB, othersOnB]) {
      expect(s.status).toBe(200);
      await s.waitFor((f) => dataOf(f).type === 'resync', 10_000, true);
    }
    const endA = onA.waitFor((f) => f.event === 'expired', 10_000);
    const endB = onB.waitFor((f) => f.event === 'expired', 10_000);
    expect((await user.request('DELETE', '/api/v1/session')).statusCode).toBe(204);
    // Conditions, not sleeps: each replica ends the stream when it learns of the sign-out (A at
    // once, B through its watch of the revocation list), and the socket closes.
    await Promise.all([endA, endB, onA.closed, onB.closed]);
    // Another session's stream on B is untouched: it still gets heartbeats.
    await othersOnB.waitFor((f) => f.event === 'heartbeat', 30_000);
    expect(othersOnB.frames.some((f) => f.event === 'expired')).toBe(false);
    othersOnB.close();
  }, 60_000);

  it("refuses another session's CSRF token, even with that session's CSRF cookie planted", async () => {
    const victim = new TestSession(a);
    await victim.signIn(t.cluster.operatorToken);
    const attacker = new TestSession(a);
    await attacker.signIn(t.cluster.operatorToken);
    const body = { replicas: 4, resourceVersion: '1' };
    const planted = copy(victim, a);
    planted.cookies.set('dcs_csrf', attacker.cookies.get('dcs_csrf') ?? '');
    planted.csrf = attacker.csrf;
    const res = await planted.request('POST', SCALE, body);
    expect(res.statusCode, res.body).toBe(403);
    expect(res.json()).toMatchObject({ details: [{ path: 'x-csrf-token' }] });
    // The victim's own pair still works (the refusal was the binding, not the request).
    expect((await victim.request('POST', SCALE, body)).statusCode).not.toBe(403);
  });
});
