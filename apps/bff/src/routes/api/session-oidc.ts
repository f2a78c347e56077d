import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { stringify } from 'yaml';
import { z } from 'zod';
import { SsoError, failureOf, type SsoFailure } from '../../auth/oidc';
import {
  CSRF_COOKIE,
  MAX_COOKIE_BYTES,
  OIDC_PENDING_COOKIE,
  SESSION_COOKIE,
  sessionCookieBytes,
} from '../../auth/sessions';
import { OIDC_CALLBACK_PATH } from '../../config/env';
import { notFound } from '../../http/errors';
import { errorResponses } from '../../http/schemas';
import { KubeApiError } from '../../kube/errors';
import { whoAmI } from '../../kube/reviews';

/**
 * OIDC mode's sign-in (issue 27): `GET /api/v1/session/oidc/login` sends the browser to the
 * provider (authorization code flow, PKCE S256, state, nonce; what it must remember sealed in a
 * short-lived cookie), `GET /api/v1/session/oidc/callback` takes it back, exchanges the code,
 * has the API server confirm who the token names (a SelfSubjectReview with it), and seals the
 * tokens into the session cookie: the browser's JavaScript never sees one. Every failure lands
 * on the sign-in page with its reason (`/sign-in?sso_error=…`), never a 5xx.
 */

const PENDING_PATH = '/api/v1/session/oidc';
const PENDING_SECONDS = 600;

/** Only a path of this app, never another origin (an open redirect). */
const safeNext = (next: string | undefined): string =>
  next?.startsWith('/') && !next.startsWith('//') && !next.startsWith('/\\') ? next : '/';

export type SignInFailure = SsoFailure | 'session_too_large';

export const LoginQuery = z.object({
  next: z.string().max(2048).optional(),
});

export const CallbackQuery = z
  .object({
    code: z.string().max(4096).optional(),
    state: z.string().max(1024).optional(),
    iss: z.string().max(2048).optional(),
    error: z.string().max(256).optional(),
    error_description: z.string().max(2048).optional(),
    session_state: z.string().max(1024).optional(),
  })
  .loose();

const sessionOidc: FastifyPluginAsync = (base) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const oidc = app.oidc;

  const failed = (
    request: FastifyRequest,
    reply: FastifyReply,
    failure: SignInFailure,
    error?: unknown,
  ) => {
    request.log.warn(
      { err: error, failure, audit: { action: 'session.signIn', result: failure } },
      'oidc: sign-in failed',
    );
    return reply.redirect(`/sign-in?sso_error=${failure}`, 303);
  };

  app.get(
    '/session/oidc/login',
    {
      config: {
        public: true,
        rateLimit: { max: app.config.signInRatePerMinute, timeWindow: 60_000 },
      },
      schema: {
        tags: ['session'],
        summary: 'OIDC mode: sign in through the identity provider (a redirect to it)',
        querystring: LoginQuery,
        response: { ...errorResponses },
      },
    },
    async (request, reply) => {
      if (!oidc) throw notFound('single sign-on is not configured (AUTH_MODE=oidc)', 'mode');
      let started;
      try {
        started = await oidc.start(safeNext(request.query.next));
      } catch (error) {
        return failed(request, reply, failureOf(error), error);
      }
      reply.setCookie(OIDC_PENDING_COOKIE, app.sessions.sealPending(started.pending), {
        path: PENDING_PATH,
        httpOnly: true,
        // The provider's redirect back is a cross-site navigation: Lax lets this cookie come.
        sameSite: 'lax',
        secure: request.protocol === 'https',
        maxAge: PENDING_SECONDS,
      });
      return reply.redirect(started.url, 303);
    },
  );

  app.get(
    '/session/oidc/callback',
    {
      config: { public: true },
      schema: {
        tags: ['session'],
        summary: 'OIDC mode: the provider’s redirect back (the registered redirect URI)',
        querystring: CallbackQuery,
        response: { ...errorResponses },
      },
    },
    async (request, reply) => {
      if (!oidc) throw notFound('single sign-on is not configured (AUTH_MODE=oidc)', 'mode');
      const pending = app.sessions.openPending(request.cookies[OIDC_PENDING_COOKIE]);
      // One use: a replayed callback finds no sign-in in progress.
      reply.clearCookie(OIDC_PENDING_COOKIE, { path: PENDING_PATH });
      // The URL the provider redirected to is the registered one, exactly: not rebuilt from Host.
      const current = new URL(oidc.settings.redirectUri);
      const raw = request.raw.url ?? '';
      current.search = raw.includes('?') ? raw.slice(raw.indexOf('?')) : '';
      let tokens;
      try {
        tokens = await oidc.finish(current, pending);
      } catch (error) {
        return failed(request, reply, failureOf(error), error);
      }
      let identity;
      try {
        identity = await whoAmI(app.kube.clientFor({ kind: 'token', token: tokens.token }));
      } catch (error) {
        if (error instanceof KubeApiError && error.status === 401) {
          return failed(request, reply, 'not_trusted', error);
        }
        return failed(
          request,
          reply,
          'provider_error',
          new SsoError('provider_error', 'the API server could not be asked', { cause: error }),
        );
      }
      const { cookie, payload } = app.sessions.issue(tokens.token, identity, {
        ...(tokens.refreshToken ? { rt: tokens.refreshToken } : {}),
        te: tokens.tokenExp,
        c: app.keptClaims(tokens.claims),
      });
      if (sessionCookieBytes(cookie) > MAX_COOKIE_BYTES) {
        return failed(request, reply, 'session_too_large');
      }
      app.setCookie(
        request,
        reply,
        SESSION_COOKIE,
        cookie,
        Math.floor((payload.exp - Date.now()) / 1000),
      );
      // A new session gets a new CSRF token, bound to it (no fixation across sign-ins).
      const csrf = app.sessions.issueCsrf(payload.sid);
      app.setCookie(request, reply, CSRF_COOKIE, csrf.cookie);
      request.log.info(
        { audit: { user: identity.username, action: 'session.signIn', result: 'ok', via: 'oidc' } },
        'audit',
      );
      return reply.redirect(pending?.next ?? '/', 303);
    },
  );
  app.get(
    '/session/kubeconfig',
    {
      schema: {
        tags: ['session'],
        summary:
          'OIDC mode: a kubeconfig for the management cluster that signs in through the same provider (kubectl oidc-login)',
        response: { 200: z.string(), ...errorResponses },
      },
    },
    async (request, reply) => {
      if (!oidc) throw notFound('single sign-on is not configured (AUTH_MODE=oidc)', 'mode');
      const principal = await app.principalOf(request);
      const yaml = oidcKubeconfig({
        cluster: app.kube.cluster,
        issuerUrl: oidc.settings.issuerUrl,
        clientId: oidc.settings.kubectlClientId,
        scopes: oidc.settings.scopes,
        user: principal.username,
      });
      request.log.info(
        { audit: { user: principal.username, action: 'session.kubeconfig', result: 'ok' } },
        'audit',
      );
      return reply
        .header('content-type', 'application/yaml; charset=utf-8')
        .header('content-disposition', 'attachment; filename="kubeconfig-oidc.yaml"')
        .send(yaml);
    },
  );
  return Promise.resolve();
};

/**
 * A kubeconfig whose user signs in through the provider with the kubectl oidc-login exec plugin
 * (int128/kubelogin): the issuer and a public client id, never a secret of the console's nor a
 * token. Pure: the route gives it what the BFF's own kubeconfig and settings say.
 */
export function oidcKubeconfig(o: {
  cluster: { name: string; server: string; caPem: string | undefined };
  issuerUrl: string;
  clientId: string;
  scopes: readonly string[];
  user: string;
}): string {
  const name = o.cluster.name.replace(/[^A-Za-z0-9._-]/g, '-') || 'management';
  const doc = {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [
      {
        name,
        cluster: {
          server: o.cluster.server,
          ...(o.cluster.caPem
            ? { 'certificate-authority-data': Buffer.from(o.cluster.caPem).toString('base64') }
            : {}),
        },
      },
    ],
    users: [
      {
        name: 'oidc',
        user: {
          exec: {
            apiVersion: 'client.authentication.k8s.io/v1',
            command: 'kubectl',
            args: [
              'oidc-login',
              'get-token',
              `--oidc-issuer-url=${o.issuerUrl}`,
              `--oidc-client-id=${o.clientId}`,
              ...o.scopes.filter((s) => s !== 'openid').map((s) => `--oidc-extra-scope=${s}`),
            ],
            interactiveMode: 'IfAvailable',
            provideClusterInfo: false,
          },
        },
      },
    ],
    contexts: [{ name: `oidc@${name}`, context: { cluster: name, user: 'oidc' } }],
    'current-context': `oidc@${name}`,
    preferences: {},
  };
  return `# Signs in as ${o.user.replace(/[\r\n]/g, ' ')} (or whoever signs in) through ${o.issuerUrl}; needs kubectl oidc-login.\n${stringify(doc)}`;
}

export { OIDC_CALLBACK_PATH };
export default sessionOidc;
