import http from 'node:http';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oidcTrust, startEmbeddedOidcProvider, type EmbeddedOidcProvider } from '@dcs/simulator';
import { buildTestApp, startTestCluster, type TestCluster } from './support/embedded';
import { TestSession } from './support/session';
import { settledStored, storedExceptAudit } from './support/stored';

/**
 * The auth matrix, generated from the BFF's own OpenAPI document: every route × {no session,
 * viewer, operator} × {CSRF ok, missing, another session's} × {Origin ok, missing, foreign,
 * rebinding Host}, with the expected status of each cell, and nothing stored by any refused
 * request (the API server's resourceVersion does not move). A route added to the API without a
 * fixture here fails the test, so the matrix cannot silently miss it.
 */

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
type Who = 'none' | 'viewer' | 'operator';
type Csrf = 'ok' | 'missing' | 'foreign';
type Origin = 'ok' | 'missing' | 'foreign' | 'rebinding';

const WHO: Who[] = ['none', 'viewer', 'operator'];
const CSRF: Csrf[] = ['ok', 'missing', 'foreign'];
const ORIGIN: Origin[] = ['ok', 'missing', 'foreign', 'rebinding'];

interface Route {
  method: Method;
  path: string;
}

/** Path parameters of the demo data; the objects route names an object of its kind. */
const PARAMS: Record<string, string> = {
  namespace: 'cpaas-system',
  cluster: 'demo',
  pool: 'demo-md-0',
  name: 'demo-worker-pool',
  kind: 'MachineDeployment',
};
const OVERRIDES: Record<string, Record<string, string>> = {
  '/api/v1/namespaces/{namespace}/objects/{kind}/{name}': { name: 'demo-md-0' },
};
const QUERY: Record<string, string> = {
  '/api/v1/stream': 'cluster=cpaas-system/demo',
  '/api/v1/namespaces/{namespace}/events': 'object=MachineDeployment/demo-md-0',
};

type Rv = (
  kind: 'MachineDeployment' | 'DCSIpHostnamePool' | 'KubeadmControlPlane' | 'Cluster',
  name: string,
) => string;

/** A body each mutating route accepts (current resourceVersions), sent as a dry run when allowed. */
const BODIES: Record<string, (rv: Rv, tokens: { operator: string }) => unknown> = {
  'POST /api/v1/session': (_rv, tokens) => ({ token: tokens.operator }),
  'DELETE /api/v1/session': () => undefined,
  'POST /api/v1/clusters/{namespace}/{cluster}/nodepools/{pool}/scale': (rv) => ({
    replicas: 3,
    resourceVersion: rv('MachineDeployment', 'demo-md-0'),
  }),
  'POST /api/v1/clusters/{namespace}/{cluster}/nodepools/{pool}/upgrade': (rv) => ({
    operation: 'bootstrap',
    resourceVersion: rv('MachineDeployment', 'demo-md-0'),
    bootstrap: { name: 'demo-md-0-kct-2', spec: { format: 'ignition' } },
  }),
  'POST /api/v1/clusters/{namespace}/{cluster}/nodepools/{pool}/strategy': (rv) => ({
    resourceVersion: rv('MachineDeployment', 'demo-md-0'),
    nodeDrainTimeout: '2m',
  }),
  'POST /api/v1/clusters/{namespace}/{cluster}/control-plane/kubeadm-config': (rv) => ({
    resourceVersion: rv('KubeadmControlPlane', 'demo-control-plane'),
    kubeadmConfigSpec: { format: 'ignition', preKubeadmCommands: ['echo matrix'] },
  }),
  // O-PAUSE as a dry run (issue 26): a viewer's is refused before any plan.
  'POST /api/v1/clusters/{namespace}/{cluster}/pause': (rv) => ({
    resourceVersion: rv('Cluster', 'demo'),
    paused: true,
  }),
  'POST /api/v1/clusters/{namespace}/{cluster}/nodepools/{pool}/pause': (rv) => ({
    resourceVersion: rv('MachineDeployment', 'demo-md-0'),
    paused: true,
  }),
  // O-AUTOSCALE as a dry run (issue 26 item 2): the cluster autoscaler's bounds of demo-md-0.
  'POST /api/v1/clusters/{namespace}/{cluster}/nodepools/{pool}/autoscale': (rv) => ({
    resourceVersion: rv('MachineDeployment', 'demo-md-0'),
    minSize: 1,
    maxSize: 3,
  }),
  // O-RESTART as a dry run (issue 26 item 4), scheduled for later: nothing would roll.
  'POST /api/v1/clusters/{namespace}/{cluster}/nodepools/{pool}/restart': (rv) => ({
    resourceVersion: rv('MachineDeployment', 'demo-md-0'),
    at: new Date(Date.now() + 86_400_000).toISOString(),
  }),
  // O-MHC-CREATE as a dry run (issue 26 item 1): a health check of demo-md-0.
  'POST /api/v1/clusters/{namespace}/{cluster}/nodepools/{pool}/healthcheck': () => ({
    operation: 'create',
    unhealthyNodeConditions: [{ type: 'Ready', status: 'False', timeoutSeconds: 300 }],
  }),
  'DELETE /api/v1/clusters/{namespace}/{cluster}/nodepools/{pool}': (rv) => ({
    resourceVersion: rv('MachineDeployment', 'demo-md-0'),
  }),
  'POST /api/v1/clusters/{namespace}/{cluster}/nodepools': (rv) => ({
    name: 'demo-md-9',
    replicas: 0,
    version: 'v1.33.4',
    machineTemplate: { mode: 'existing', name: 'demo-md-0-template' },
    bootstrap: { mode: 'existing', name: 'demo-md-0-kct' },
    ipPool: {
      mode: 'existing',
      name: 'demo-worker-pool',
      resourceVersion: rv('DCSIpHostnamePool', 'demo-worker-pool'),
    },
    strategy: { maxSurge: 0, maxUnavailable: 1 },
  }),
  'POST /api/v1/namespaces/{namespace}/ippools': () => ({
    name: 'p9',
    entries: [{ ip: '10.0.9.1', mask: '24', gateway: '10.0.9.254' }],
  }),
  'PATCH /api/v1/namespaces/{namespace}/ippools/{name}': (rv) => ({
    resourceVersion: rv('DCSIpHostnamePool', 'demo-worker-pool'),
    append: [{ ip: '10.0.9.2', mask: '24', gateway: '10.0.9.254' }],
  }),
};

/** The status line of a stream, then the connection is dropped. */
function streamStatus(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers, agent: false }, (res) => {
      resolve(res.statusCode ?? 0);
      req.destroy();
    });
    req.on('error', reject);
  });
}

const isPublic = (r: Route) =>
  r.path === '/api/v1/session' || r.path.startsWith('/api/v1/session/oidc/');
/** OIDC mode's sign-in routes answer with a redirect (to the provider, or the sign-in page). */
const redirects = (r: Route) => r.path.startsWith('/api/v1/session/oidc/');
const isStream = (r: Route) => r.path === '/api/v1/stream';

/**
 * The status a cell must get; `allowed` means served: 2xx (a dry run for mutations), or a 422
 * that is the domain's verdict on the body, not an auth decision.
 */
function expected(r: Route, who: Who, csrf: Csrf, origin: Origin): number | 'allowed' {
  if (origin === 'rebinding') return 421;
  const mutating = r.method !== 'GET';
  if (!isPublic(r) && who === 'none') return 401;
  if ((mutating || isStream(r)) && origin === 'foreign') return 403;
  if (mutating && origin === 'missing') return 403;
  if (mutating && csrf !== 'ok') return 403;
  if (mutating && !isPublic(r) && who === 'viewer') return 403;
  return 'allowed';
}

const REDIRECT = 'http://localhost/api/v1/session/oidc/callback';

describe.each(['token', 'oidc'] as const)(
  'auth matrix (%s mode, from /api/openapi.json)',
  (mode) => {
    let t: TestCluster;
    let app: FastifyInstance;
    let routes: Route[];
    let base: string;
    let op: EmbeddedOidcProvider | undefined;
    /** A signed-in browser of the viewer or the operator, by token or through the provider. */
    const signIn = async (s: TestSession, who: 'viewer' | 'operator') => {
      if (mode === 'token') {
        await s.signIn(who === 'viewer' ? t.cluster.viewerToken : t.cluster.operatorToken);
        return;
      }
      const res = await s.signInSso({ login: who }, REDIRECT);
      expect(res.headers.location).toBe('/');
    };
    beforeAll(async () => {
      op =
        mode === 'oidc' ? await startEmbeddedOidcProvider({ redirectUris: [REDIRECT] }) : undefined;
      t = await startTestCluster({}, op ? { oidc: oidcTrust(op.issuer) } : {});
      app = await buildTestApp(t, {
        mode,
        env: {
          SIGNIN_RATE_PER_MINUTE: '100000',
          MUTATION_RATE_PER_MINUTE: '100000',
          ...(op
            ? {
                OIDC_ISSUER_URL: op.issuer,
                OIDC_CLIENT_ID: op.clientId,
                OIDC_REDIRECT_URI: REDIRECT,
                OIDC_SCOPES: 'openid email profile groups offline_access',
              }
            : {}),
        },
      });
      const doc = (
        await app.inject({ url: '/api/openapi.json', headers: { host: 'localhost' } })
      ).json<{
        paths: Record<string, Record<string, unknown>>;
      }>();
      base = (await app.listen({ host: '127.0.0.1', port: 0 })).replace('127.0.0.1', 'localhost');
      routes = Object.entries(doc.paths).flatMap(([path, ops]) =>
        Object.keys(ops)
          .map((m) => m.toUpperCase())
          .filter((m): m is Method => ['GET', 'POST', 'PATCH', 'DELETE', 'PUT'].includes(m))
          .map((method) => ({ method, path })),
      );
    });
    afterAll(async () => {
      await app.close();
      await t.close();
      await op?.close();
    });

    it('covers every route of the OpenAPI document, each cell as expected, nothing stored when refused', async () => {
      expect(routes.length).toBeGreaterThanOrEqual(18);
      for (const r of routes) {
        if (r.method !== 'GET')
          expect(BODIES[`${r.method} ${r.path}`], `a body for ${r.method} ${r.path}`).toBeDefined();
      }
      const rv: Rv = (kind, name) => {
        const store = app.cache.store(kind);
        return store.get('cpaas-system', name)?.metadata.resourceVersion ?? '0';
      };
      const tokens = { operator: t.cluster.operatorToken };

      /** A browser of `who`: one sign-in each, copied per cell (sign-out cells get their own). */
      const signedIn = new Map<Who, TestSession>();
      const fresh = async (who: Who): Promise<TestSession> => {
        const s = new TestSession(app);
        if (who === 'none') await s.start();
        else await signIn(s, who);
        return s;
      };
      for (const who of WHO) signedIn.set(who, await fresh(who));
      const browser = async (who: Who, own: boolean): Promise<TestSession> => {
        const from = own ? await fresh(who) : signedIn.get(who);
        const s = new TestSession(app);
        for (const [k, v] of from?.cookies ?? []) s.cookies.set(k, v);
        s.csrf = from?.csrf ?? '';
        return s;
      };
      const stranger = await fresh('operator');

      const send = async (
        r: Route,
        who: Who,
        csrf: Csrf,
        origin: Origin,
        dryRun: boolean,
      ): Promise<LightMyRequestResponse> => {
        // Sign-out ends the session it is sent with: each such cell gets its own.
        const s = await browser(who, r.method === 'DELETE' && isPublic(r));
        const params = { ...PARAMS, ...OVERRIDES[r.path] };
        let url = r.path.replace(/\{(\w+)\}/g, (_m, p: string) => params[p] ?? p);
        const query = [QUERY[r.path], dryRun && r.method !== 'GET' ? 'dryRun=true' : undefined]
          .filter((q) => q !== undefined)
          .join('&');
        if (query) url += `?${query}`;
        if (csrf === 'foreign') {
          s.cookies.set('dcs_csrf', stranger.cookies.get('dcs_csrf') ?? '');
          s.csrf = stranger.csrf;
        }
        s.origin =
          origin === 'ok'
            ? 'http://localhost:80'
            : origin === 'missing'
              ? undefined
              : origin === 'foreign'
                ? 'https://evil.example'
                : 'http://evil.example';
        const headers: Record<string, string> = {};
        if (origin === 'rebinding') headers.host = 'evil.example';
        // A stream's Origin is checked too (EventSource sends it cross-origin).
        if (isStream(r) && s.origin !== undefined)
          headers.origin = origin === 'ok' ? new URL(base).origin : s.origin;
        const body = r.method === 'GET' ? undefined : BODIES[`${r.method} ${r.path}`]?.(rv, tokens);
        if (isStream(r) && expected(r, who, csrf, origin) === 'allowed') {
          // A stream that is served never ends: its head is enough, read over a real socket.
          const cookie = [...s.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
          const statusCode = await streamStatus(`${base}${url}`, { ...headers, cookie });
          return { statusCode, body: '' } as LightMyRequestResponse;
        }
        return s.request(r.method === 'PATCH' ? 'PATCH' : r.method, url, body, {
          csrf: csrf !== 'missing',
          headers,
        });
      };

      let cells = 0;
      const failures: string[] = [];
      // 1. Every refused cell first, sent for real (no dry run): the store must not move.
      const before = await storedExceptAudit(t, app);
      for (const r of routes)
        for (const who of WHO)
          for (const csrf of CSRF)
            for (const origin of ORIGIN) {
              const want = expected(r, who, csrf, origin);
              if (want === 'allowed') continue;
              const res = await send(r, who, csrf, origin, false);
              cells++;
              if (res.statusCode !== want)
                failures.push(
                  `${r.method} ${r.path} ${who}/${csrf}/${origin}: ${String(res.statusCode)} (want ${String(want)}) ${res.body.slice(0, 200)}`,
                );
            }
      const moved = (await settledStored(t, app, before)) - before;
      // 2. Every allowed cell, as a dry run: served.
      for (const r of routes)
        for (const who of WHO)
          for (const csrf of CSRF)
            for (const origin of ORIGIN) {
              if (expected(r, who, csrf, origin) !== 'allowed') continue;
              const res = await send(r, who, csrf, origin, true);
              cells++;
              // Served: a dry run's answer, or the domain's verdict on the body (422 citing a rule
              // other than R-AUTH); never an auth refusal, a rate limit or a 5xx.
              const judged =
                res.statusCode === 422 &&
                res
                  .json<{ details: { rule: string }[] }>()
                  .details.every((d) => d.rule !== 'R-AUTH');
              const redirected = redirects(r) && res.statusCode === 303;
              if (!judged && !redirected && (res.statusCode < 200 || res.statusCode >= 300))
                failures.push(
                  `${r.method} ${r.path} ${who}/${csrf}/${origin}: ${String(res.statusCode)} (want 2xx) ${res.body.slice(0, 200)}`,
                );
            }
      if (mode === 'oidc') {
        expect(routes).toContainEqual({ method: 'GET', path: '/api/v1/session/oidc/login' });
        expect(routes).toContainEqual({ method: 'GET', path: '/api/v1/session/oidc/callback' });
      }
      console.log(`auth matrix (${mode}): ${String(routes.length)} routes, ${String(cells)} cells`);
      expect(failures).toEqual([]);
      expect(moved, 'refused requests stored something').toBe(0);
    }, 120_000);

    it('a viewer is refused before the body is looked at: a body breaking the schema is a 403 too', async () => {
      // Issue 25, item 6: the viewer's 403 came after 21 s of validating and planning the body.
      const viewer = new TestSession(app);
      await signIn(viewer, 'viewer');
      viewer.origin = 'http://localhost:80';
      const mutating = routes.filter((r) => r.method !== 'GET' && !isPublic(r));
      expect(mutating.length).toBeGreaterThanOrEqual(7);
      const wrong: string[] = [];
      for (const r of mutating) {
        const url = r.path.replace(/\{(\w+)\}/g, (_m, p: string) => PARAMS[p] ?? p);
        const res = await viewer.request(r.method, url, { resourceVersion: 7, replicas: 'many' });
        if (res.statusCode !== 403) wrong.push(`${r.method} ${r.path}: ${String(res.statusCode)}`);
      }
      expect(wrong).toEqual([]);
    });
  },
);
