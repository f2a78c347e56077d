import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { AUDIT_DATA_KEY, parseAuditRecords } from '@dcs/domain';
import {
  CONSOLE_CLIENT_ID,
  oidcTrust,
  signInAtProvider,
  startEmbeddedOidcProvider,
  type EmbeddedOidcProvider,
} from '@dcs/simulator';
import type { FastifyInstance } from 'fastify';
import { parse as parseYaml } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, startTestCluster, type TestCluster } from './support/embedded';
import { TestSession } from './support/session';
import { openSse } from './support/sse';

/**
 * Issue 27, single sign-on, against the embedded OpenID provider (oidc-provider, its own login
 * and consent pages driven over HTTP as a browser would) and the embedded cluster trusting it as
 * kube-apiserver's --oidc-* flags: sign-in as the operator and the viewer, the claims on the
 * session, refresh, sign-out here and at the provider, and each failure's page.
 */

const REDIRECT = 'http://localhost/api/v1/session/oidc/callback';
const AFTER_LOGOUT = 'http://localhost/sign-in';
const NS = 'cpaas-system';
const POOL = `/api/v1/clusters/${NS}/demo/nodepools/demo-md-0`;
const MD = { apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'MachineDeployment' };
const TTL = 6;

const trust = oidcTrust;

const ssoEnv = (issuer: string, extra: Record<string, string> = {}) => ({
  OIDC_ISSUER_URL: issuer,
  OIDC_CLIENT_ID: CONSOLE_CLIENT_ID,
  OIDC_REDIRECT_URI: REDIRECT,
  OIDC_POST_LOGOUT_REDIRECT_URI: AFTER_LOGOUT,
  OIDC_SCOPES: 'openid email profile groups offline_access',
  OIDC_USERNAME_CLAIM: 'email',
  OIDC_GROUPS_CLAIM: 'groups',
  OIDC_GROUPS_PREFIX: 'oidc:',
  SIGNIN_RATE_PER_MINUTE: '100000',
  ...extra,
});

interface SessionBody {
  authenticated: boolean;
  mode: string;
  expiresAt?: string;
  csrfToken: string;
  user?: { username: string; groups: string[]; sso?: Record<string, unknown> };
}

const ssoError = (res: { statusCode: number; headers: Record<string, unknown> }) => {
  expect(res.statusCode).toBe(303);
  const to = String(res.headers.location);
  return to.startsWith('/sign-in?sso_error=')
    ? to.slice('/sign-in?sso_error='.length)
    : `landed ${to}`;
};

let op: EmbeddedOidcProvider;
let t: TestCluster;
let app: FastifyInstance;

beforeAll(async () => {
  op = await startEmbeddedOidcProvider({
    redirectUris: [REDIRECT],
    postLogoutRedirectUris: [AFTER_LOGOUT],
    tokenTtlSeconds: TTL,
  });
  t = await startTestCluster({ entries: 8 }, { oidc: trust(op.issuer) });
  app = await buildTestApp(t, {
    mode: 'oidc',
    env: ssoEnv(op.issuer, { OIDC_REFRESH_BEFORE: '4s' }),
  });
}, 60_000);
afterAll(async () => {
  await app.close();
  await t.close();
  await op.close();
});

describe('single sign-on (OIDC mode)', () => {
  it('signs the operator in through the provider: the API server’s identity and the claims on the session, no token in sight', async () => {
    const s = new TestSession(app);
    const back = await s.signInSso({ login: 'operator' }, REDIRECT, '/clusters/cpaas-system/demo');
    expect(back.statusCode).toBe(303);
    expect(back.headers.location).toBe('/clusters/cpaas-system/demo');
    const res = await s.request('GET', '/api/v1/session');
    const body = res.json<SessionBody>();
    expect(body).toMatchObject({
      authenticated: true,
      mode: 'oidc',
      user: {
        username: 'operator@dcs.example',
        groups: ['oidc:dcs-operators', 'system:authenticated'],
        sso: {
          issuer: op.issuer,
          subject: 'operator',
          email: 'operator@dcs.example',
          name: 'Olga Operator',
          usernameClaim: 'email',
          usernameClaimValue: 'operator@dcs.example',
          usernamePrefix: '',
          groupsClaim: 'groups',
          groupsClaimValues: ['dcs-operators'],
          groupsPrefix: 'oidc:',
        },
      },
    });
    // The session outlives the token: it is refreshed, not ended, when the token expires.
    const tokenEnd = Date.parse(String(body.user?.sso?.tokenExpiresAt));
    expect(tokenEnd - Date.now()).toBeLessThanOrEqual(TTL * 1000);
    expect(Date.parse(body.expiresAt ?? '') - Date.now()).toBeGreaterThan(3600_000);
    // No JWT reaches the page: not in the answer, not readable in a cookie (sealed, httpOnly).
    expect(res.body).not.toMatch(/eyJ[\w-]+\.eyJ/);
    const set = back.cookies.filter((c) => c.value !== '');
    expect(set.map((c) => c.name).sort()).toEqual(['dcs_csrf', 'dcs_session']);
    for (const c of set) {
      expect(c.value).not.toMatch(/eyJ[\w-]+\.eyJ/);
      expect(c.httpOnly).toBe(true);
      expect(c.sameSite).toBe('Strict');
    }
  });

  it('the operator’s write goes to the API server as them (audit record, managedFields); the viewer’s is refused', async () => {
    const operator = new TestSession(app);
    await operator.signInSso({ login: 'operator' }, REDIRECT);
    const rv = () =>
      (
        t.cluster.server.client.get({ ...MD, name: 'demo-md-0', namespace: NS }) as {
          metadata: { resourceVersion: string };
        }
      ).metadata.resourceVersion;
    const deadline = Date.now() + 20_000;
    while (
      app.cache.stores.MachineDeployment.get(NS, 'demo-md-0')?.metadata.resourceVersion !== rv()
    ) {
      if (Date.now() > deadline) throw new Error('cache never synced');
      await new Promise((r) => setTimeout(r, 20));
    }
    const wrote = await operator.request('POST', `${POOL}/scale`, {
      replicas: 4,
      resourceVersion: rv(),
    });
    expect(wrote.statusCode, wrote.body).toBe(200);
    const cm = t.cluster.server.client.get({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      name: 'dcs-console-audit.demo',
      namespace: NS,
    }) as { data?: Record<string, string> } | undefined;
    const last = parseAuditRecords(cm?.data?.[AUDIT_DATA_KEY]).at(-1);
    expect(last).toMatchObject({
      user: 'operator@dcs.example',
      operation: 'O-SCALE-UP',
      result: 'applied',
    });
    const md = t.cluster.server.client.get({
      ...MD,
      name: 'demo-md-0',
      namespace: NS,
    }) as unknown as {
      spec: { replicas: number };
      metadata: { managedFields?: { manager: string; time?: string }[] };
    };
    expect(md.spec.replicas).toBe(4);
    expect(md.metadata.managedFields?.length).toBeGreaterThan(0);

    const viewer = new TestSession(app);
    await viewer.signInSso({ login: 'viewer' }, REDIRECT);
    const me = (await viewer.request('GET', '/api/v1/session')).json<SessionBody>();
    expect(me.user?.username).toBe('viewer@dcs.example');
    expect((await viewer.request('GET', '/api/v1/clusters')).statusCode).toBe(200);
    const refused = await viewer.request('POST', `${POOL}/scale`, {
      replicas: 5,
      resourceVersion: rv(),
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.body).toContain('viewer@dcs.example may not');
  });

  it('refreshes the token before it expires, keeping the session (its id, CSRF token and end); a late request with the old cookie spends no second refresh', async () => {
    const s = new TestSession(app);
    await s.signInSso({ login: 'operator' }, REDIRECT);
    const first = (await s.request('GET', '/api/v1/session')).json<SessionBody>();
    const oldCookie = s.cookies.get('dcs_session') ?? '';
    // Within OIDC_REFRESH_BEFORE (4 s) of the token's end (6 s): the next request refreshes.
    await new Promise((r) => setTimeout(r, 2200));
    const res = await s.request('GET', '/api/v1/session');
    expect(res.cookies.map((c) => c.name)).toContain('dcs_session');
    const second = res.json<SessionBody>();
    expect(Date.parse(String(second.user?.sso?.tokenExpiresAt))).toBeGreaterThan(
      Date.parse(String(first.user?.sso?.tokenExpiresAt)),
    );
    expect(second.expiresAt).toBe(first.expiresAt);
    expect(second.csrfToken).toBe(first.csrfToken);
    // An old cookie (a request already on its way) gets the same renewed session.
    const late = new TestSession(app);
    late.cookies.set('dcs_session', oldCookie);
    expect((await late.request('GET', '/api/v1/clusters')).statusCode).toBe(200);
    // The provider rotates a public client's refresh token: had the old one been spent twice,
    // it would have revoked the grant and this next refresh would fail.
    await new Promise((r) => setTimeout(r, 2200));
    const third = await s.request('GET', '/api/v1/session');
    expect(third.json<SessionBody>().authenticated).toBe(true);
    expect(third.cookies.map((c) => c.name)).toContain('dcs_session');
  });

  it('an open stream lives on through refreshes and past the first token’s expiry', async () => {
    const live = await buildTestApp(t, {
      mode: 'oidc',
      env: ssoEnv(op.issuer, { OIDC_REFRESH_BEFORE: '4s', SSE_HEARTBEAT_MS: '500' }),
    });
    try {
      const address = await live.listen({ host: '127.0.0.1', port: 0 });
      const s = new TestSession(live);
      await s.signInSso({ login: 'viewer' }, REDIRECT);
      const cookie = [...s.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
      const stream = await openSse(`${address}/api/v1/stream?cluster=${NS}/demo`, { cookie });
      expect(stream.status).toBe(200);
      await stream.waitFor(() => true, 5000, true);
      let ended = false;
      void stream.closed.then(() => {
        ended = true;
      });
      // The page refreshes (its session request), the first token expires (TTL 6 s).
      await new Promise((r) => setTimeout(r, 2500));
      expect((await s.request('GET', '/api/v1/session')).cookies.map((c) => c.name)).toContain(
        'dcs_session',
      );
      await new Promise((r) => setTimeout(r, TTL * 1000 - 1500));
      const change = stream.waitFor((f) => {
        const d = f.data as { kind?: string; id?: string } | undefined;
        return d?.kind === 'machine';
      }, 5000);
      await t.cluster.server.client.patch(
        {
          apiVersion: 'cluster.x-k8s.io/v1beta1',
          kind: 'Machine',
          name: 'demo-md-0-abc12-m0',
          namespace: NS,
        },
        'merge',
        { metadata: { labels: { touched: String(Date.now()) } } },
      );
      await change;
      expect(ended).toBe(false);
      stream.close();
    } finally {
      await live.close();
    }
  }, 30_000);

  it('ends the session on every replica when the provider refuses the refresh (a revoked grant)', async () => {
    const other = await buildTestApp(t, {
      mode: 'oidc',
      env: ssoEnv(op.issuer, { OIDC_REFRESH_BEFORE: '4s' }),
    });
    try {
      const s = new TestSession(app);
      await s.signInSso({ login: 'viewer' }, REDIRECT);
      const cookie = s.cookies.get('dcs_session') ?? '';
      await op.revokeAll();
      await new Promise((r) => setTimeout(r, 2200));
      const res = await s.request('GET', '/api/v1/clusters');
      expect(res.statusCode).toBe(401);
      expect(res.json<{ details: { messageKey: string }[] }>().details[0]?.messageKey).toBe(
        'bff.auth.sso.session_ended',
      );
      const elsewhere = new TestSession(other);
      elsewhere.cookies.set('dcs_session', cookie);
      const deadline = Date.now() + 5000;
      let status = 0;
      while (Date.now() < deadline) {
        status = (await elsewhere.request('GET', '/api/v1/clusters')).statusCode;
        if (status === 401) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(status).toBe(401);
    } finally {
      await other.close();
    }
  });

  it('signs out here and at the provider (RP-initiated logout, no token in the URL)', async () => {
    const s = new TestSession(app);
    await s.signInSso({ login: 'operator' }, REDIRECT);
    const cookie = s.cookies.get('dcs_session') ?? '';
    const out = await s.request('DELETE', '/api/v1/session');
    expect(out.statusCode).toBe(200);
    const logoutUrl = new URL(out.json<{ logoutUrl: string }>().logoutUrl);
    expect(`${logoutUrl.origin}${logoutUrl.pathname}`).toBe(`${op.issuer}/session/end`);
    expect(logoutUrl.searchParams.get('client_id')).toBe(CONSOLE_CLIENT_ID);
    expect(logoutUrl.searchParams.get('post_logout_redirect_uri')).toBe(AFTER_LOGOUT);
    expect(logoutUrl.search).not.toMatch(/eyJ/);
    const copied = new TestSession(app);
    copied.cookies.set('dcs_session', cookie);
    expect((await copied.request('GET', '/api/v1/clusters')).statusCode).toBe(401);
    // The provider's sign-out page, then back to the console's sign-in page.
    const page = await fetch(logoutUrl, { headers: { cookie: s.provider.header() } });
    const html = await page.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1] ?? '';
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(html)?.[1] ?? '';
    s.provider.add(page);
    const done = await fetch(new URL(action, op.issuer), {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: s.provider.header(), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ xsrf, logout: 'yes' }).toString(),
    });
    expect(done.status).toBe(303);
    expect(done.headers.get('location')).toBe(AFTER_LOGOUT);
    s.provider.add(done);
    // Signed out at the provider too: the next sign-in asks for the password again.
    const again = await s.signInSso({ login: 'viewer' }, REDIRECT);
    expect(again.statusCode).toBe(303);
    const me = (await s.request('GET', '/api/v1/session')).json<SessionBody>();
    expect(me.user?.username).toBe('viewer@dcs.example');
  });

  it('a refused consent, a replayed or foreign callback: each lands on the sign-in page with its reason', async () => {
    const s = new TestSession(app);
    expect(ssoError(await s.signInSso({ login: 'operator', consent: 'deny' }, REDIRECT))).toBe(
      'access_denied',
    );
    // A callback without the sign-in that started it (another browser, or replayed).
    const stranger = new TestSession(app);
    expect(
      ssoError(await stranger.request('GET', '/api/v1/session/oidc/callback?code=x&state=y')),
    ).toBe('expired');
    expect(ssoError(await stranger.request('GET', '/api/v1/session/oidc/callback'))).toBe(
      'expired',
    );
    // An open redirect is no target: `next` must be a path of the console.
    const login = await stranger.request('GET', '/api/v1/session/oidc/login?next=//evil.example');
    expect(login.statusCode).toBe(303);
    expect(
      (await stranger.request('GET', '/api/v1/session')).json<SessionBody>().authenticated,
    ).toBe(false);
    // Token sign-in is not offered in OIDC mode.
    await stranger.start();
    expect((await stranger.request('POST', '/api/v1/session', { token: 'abc' })).statusCode).toBe(
      404,
    );
  });

  it('the provider’s outage: sign-in lands on the page that says so, and works again once it is back', async () => {
    const fresh = await buildTestApp(t, { mode: 'oidc', env: ssoEnv(op.issuer) });
    try {
      await op.stop();
      const s = new TestSession(fresh);
      expect(ssoError(await s.request('GET', '/api/v1/session/oidc/login'))).toBe(
        'provider_unavailable',
      );
      await op.start();
      const first = await s.signInSso({ login: 'operator' }, REDIRECT);
      expect(first.headers.location).toBe('/');
      // Down between the sign-in at its page and the callback: the code cannot be exchanged.
      const login = await s.request('GET', '/api/v1/session/oidc/login');
      expect(login.statusCode).toBe(303);
      const back = new URL(
        await signInAtProvider(
          String(login.headers.location),
          REDIRECT,
          { login: 'operator' },
          s.provider,
        ),
      );
      await op.stop();
      const res = await s.request('GET', `${back.pathname}${back.search}`);
      expect(ssoError(res)).toBe('provider_unavailable');
    } finally {
      await op.start();
      await fresh.close();
    }
  });

  it('a rotated signing key (the old one withdrawn): the BFF and the API server take the new one', async () => {
    const s = new TestSession(app);
    expect((await s.signInSso({ login: 'operator' }, REDIRECT)).headers.location).toBe('/');
    await op.rotateKeys({ dropOld: true });
    // The API server fetches the JWKS again at most once a second (JWKS_COOLDOWN_MS).
    await new Promise((r) => setTimeout(r, 1100));
    const again = await s.signInSso({ login: 'operator' }, REDIRECT);
    expect(again.headers.location).toBe('/');
    expect((await s.request('GET', '/api/v1/clusters')).statusCode).toBe(200);
  });

  it('downloads a kubeconfig that signs in through the same provider (kubectl oidc-login), with no secret or token in it', async () => {
    expect(
      (await new TestSession(app).request('GET', '/api/v1/session/kubeconfig')).statusCode,
    ).toBe(401);
    const s = new TestSession(app);
    await s.signInSso({ login: 'viewer' }, REDIRECT);
    const res = await s.request('GET', '/api/v1/session/kubeconfig');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toContain('attachment');
    const doc = parseYaml(res.body) as {
      clusters: { cluster: { server: string; 'certificate-authority-data'?: string } }[];
      users: {
        name: string;
        user: { exec: { command: string; args: string[]; apiVersion: string } };
      }[];
      'current-context': string;
    };
    expect(doc.clusters[0]?.cluster.server).toBe(t.cluster.url);
    expect(doc.clusters[0]?.cluster['certificate-authority-data']).toBeTruthy();
    expect(doc.users[0]?.user.exec).toEqual({
      apiVersion: 'client.authentication.k8s.io/v1',
      command: 'kubectl',
      args: [
        'oidc-login',
        'get-token',
        `--oidc-issuer-url=${op.issuer}`,
        `--oidc-client-id=${CONSOLE_CLIENT_ID}`,
        '--oidc-extra-scope=email',
        '--oidc-extra-scope=profile',
        '--oidc-extra-scope=groups',
        '--oidc-extra-scope=offline_access',
      ],
      interactiveMode: 'IfAvailable',
      provideClusterInfo: false,
    });
    expect(res.body).not.toMatch(/eyJ|token:|client-secret|password/);
  });

  it('the access token, by setting: an API server that does not take it says not_trusted', async () => {
    const access = await buildTestApp(t, {
      mode: 'oidc',
      env: ssoEnv(op.issuer, { OIDC_PRESENT: 'access_token' }),
    });
    try {
      const s = new TestSession(access);
      // The embedded provider's access tokens are opaque: the API server refuses them.
      expect(ssoError(await s.signInSso({ login: 'operator' }, REDIRECT))).toBe('not_trusted');
    } finally {
      await access.close();
    }
  });
});

describe('single sign-on with a confidential client', () => {
  let op2: EmbeddedOidcProvider;
  let t2: TestCluster;
  let a2: FastifyInstance;
  beforeAll(async () => {
    op2 = await startEmbeddedOidcProvider({
      clients: [
        {
          client_id: 'dcs-console-confidential',
          client_secret: 'a-long-enough-client-secret-for-tests',
          token_endpoint_auth_method: 'client_secret_basic',
          grant_types: ['authorization_code', 'refresh_token'],
          response_types: ['code'],
          redirect_uris: [REDIRECT],
        },
      ],
    });
    t2 = await startTestCluster({}, { oidc: trust(op2.issuer, 'dcs-console-confidential') });
    a2 = await buildTestApp(t2, {
      mode: 'oidc',
      env: ssoEnv(op2.issuer, {
        OIDC_CLIENT_ID: 'dcs-console-confidential',
        OIDC_CLIENT_SECRET: 'a-long-enough-client-secret-for-tests',
      }),
    });
  }, 60_000);
  afterAll(async () => {
    await a2.close();
    await t2.close();
    await op2.close();
  });

  it('signs in with the secret (client_secret_basic) and PKCE', async () => {
    const s = new TestSession(a2);
    expect((await s.signInSso({ login: 'viewer' }, REDIRECT)).headers.location).toBe('/');
    expect((await s.request('GET', '/api/v1/session')).json<SessionBody>().user?.username).toBe(
      'viewer@dcs.example',
    );
  });

  it('its kubeconfig names the client but never the secret', async () => {
    const s = new TestSession(a2);
    await s.signInSso({ login: 'operator' }, REDIRECT);
    const res = await s.request('GET', '/api/v1/session/kubeconfig');
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('--oidc-client-id=dcs-console-confidential');
    expect(res.body).not.toContain('a-long-enough-client-secret-for-tests');
  });

  it('a wrong secret is the provider refusing the client: a page, not a 5xx', async () => {
    const wrong = await buildTestApp(t2, {
      mode: 'oidc',
      env: ssoEnv(op2.issuer, {
        OIDC_CLIENT_ID: 'dcs-console-confidential',
        OIDC_CLIENT_SECRET: 'not-the-secret-the-provider-has-for-it',
      }),
    });
    try {
      expect(ssoError(await new TestSession(wrong).signInSso({ login: 'viewer' }, REDIRECT))).toBe(
        'provider_error',
      );
    } finally {
      await wrong.close();
    }
  });
});

describe('a provider whose clock is an hour behind', () => {
  let child: ChildProcess;
  let issuer: string;
  beforeAll(async () => {
    const script = fileURLToPath(new URL('./support/skewed-provider.ts', import.meta.url));
    child = spawn(process.execPath, ['--import', 'tsx', script], {
      env: { ...process.env, SKEW_SECONDS: '-3600', REDIRECT_URI: REDIRECT },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    issuer = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout?.on('data', (d: Buffer) => {
        out += d.toString();
        const m = /issuer (\S+)/.exec(out);
        if (m?.[1]) resolve(m[1]);
      });
      child.on('exit', (code) => {
        reject(new Error(`the skewed provider exited ${String(code)}`));
      });
    });
  }, 30_000);
  afterAll(() => {
    child.kill();
  });

  it('its expired-looking tokens land on the clock-skew page', async () => {
    const skewed = await buildTestApp(t, { mode: 'oidc', env: ssoEnv(issuer) });
    try {
      expect(
        ssoError(await new TestSession(skewed).signInSso({ login: 'operator' }, REDIRECT)),
      ).toBe('clock_skew');
    } finally {
      await skewed.close();
    }
  });
});
