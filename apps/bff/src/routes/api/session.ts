import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Principal } from '../../auth/principal';
import {
  CSRF_COOKIE,
  MAX_COOKIE_BYTES,
  SESSION_COOKIE,
  sessionCookieBytes,
} from '../../auth/sessions';
import { HttpError, issue } from '../../http/errors';
import { errorResponses, SessionSchema, SignInBody, SignOutSchema } from '../../http/schemas';
import { mapClaims, usernamePrefixFor } from '@dcs/domain';
import { KubeApiError } from '../../kube/errors';
import { whoAmI } from '../../kube/reviews';

/**
 * `GET|POST|DELETE /api/v1/session`: who am I, the auth mode and the CSRF token; sign in with a
 * bearer token (token mode); sign out. The token is checked against the API server (a
 * SelfSubjectReview with it) before it is sealed into the session cookie.
 */
const session: FastifyPluginAsync = (base) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const mode = app.config.authMode;
  const settings = app.config.oidc;

  /** The user menu's view of an OIDC identity: claims and the API server's mapping of them. */
  const ssoOf = (o: NonNullable<Principal['oidc']>) => {
    const c = o.claims;
    const str = (k: string) => {
      const v = Object.hasOwn(c, k) ? c[k] : undefined;
      return typeof v === 'string' ? v : undefined;
    };
    const mapping = {
      issuer: settings?.issuerUrl ?? '',
      usernameClaim: settings?.usernameClaim ?? 'sub',
      usernamePrefix: settings?.usernamePrefix,
      groupsClaim: settings?.groupsClaim,
      groupsPrefix: settings?.groupsPrefix,
    };
    const mapped = mapClaims(c, mapping);
    const name = str('name');
    const email = str('email');
    return {
      issuer: str('iss') ?? mapping.issuer,
      subject: str('sub') ?? '',
      ...(name !== undefined ? { name } : {}),
      ...(email !== undefined ? { email } : {}),
      usernameClaim: mapping.usernameClaim,
      ...(mapped.usernameClaimValue !== undefined
        ? { usernameClaimValue: mapped.usernameClaimValue }
        : {}),
      usernamePrefix: usernamePrefixFor(mapping),
      ...(mapping.groupsClaim !== undefined ? { groupsClaim: mapping.groupsClaim } : {}),
      groupsClaimValues: mapped.groupsClaimValues,
      groupsPrefix: mapping.groupsPrefix ?? '',
      tokenExpiresAt: new Date(o.tokenExpiresAt).toISOString(),
    };
  };

  /**
   * The CSRF token of the request's cookie when it is bound to the session `sid` ('' = none), or
   * a new one bound to it (set on the reply).
   */
  const csrfFor = (request: FastifyRequest, reply: FastifyReply, sid: string, rotate = false) => {
    const existing = rotate ? undefined : app.sessions.readCsrf(request.cookies[CSRF_COOKIE]);
    if (existing?.sid === sid) return existing.token;
    const { cookie, token } = app.sessions.issueCsrf(sid);
    app.setCookie(request, reply, CSRF_COOKIE, cookie);
    return token;
  };

  app.get(
    '/session',
    {
      config: { public: true },
      // Its answer holds the CSRF token: never compressed beside what a page reflects (BREACH).
      compress: false,
      schema: {
        tags: ['session'],
        summary: 'Who am I, auth mode, CSRF token',
        response: { 200: SessionSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const sid = app.sessions.read(request.cookies[SESSION_COOKIE])?.sid ?? '';
      const csrfToken = csrfFor(request, reply, sid);
      let principal: Principal | undefined;
      try {
        principal = await app.principalOf(request);
      } catch (error) {
        if (!(error instanceof HttpError && error.statusCode === 401)) throw error;
      }
      return {
        authenticated: principal !== undefined,
        mode,
        ...(principal
          ? {
              user: {
                username: principal.username,
                groups: principal.groups,
                confirmed: principal.unconfirmed !== true,
                ...(principal.oidc ? { sso: ssoOf(principal.oidc) } : {}),
              },
            }
          : {}),
        csrfToken,
        ...(principal?.expiresAt !== undefined
          ? { expiresAt: new Date(principal.expiresAt).toISOString() }
          : {}),
        epoch: app.epoch,
      };
    },
  );

  // OIDC mode signs in through the provider (routes/api/session-oidc.ts), never with a token.
  if (mode !== 'oidc')
    app.post(
      '/session',
      {
        compress: false,
        config: {
          public: true,
          rateLimit: { max: app.config.signInRatePerMinute, timeWindow: 60_000 },
        },
        schema: {
          tags: ['session'],
          summary: 'Sign in with a bearer token (token mode)',
          body: SignInBody,
          response: { 200: SessionSchema, ...errorResponses },
        },
      },
      async (request, reply) => {
        if (mode !== 'token') {
          throw new HttpError(
            400,
            'LocalMode',
            'local mode acts as the kubeconfig user; there is nothing to sign in to',
            [issue('R-AUTH', 'token', 'bff.auth.localMode', 'sign-in is for token mode only')],
          );
        }
        const token = request.body.token;
        let identity;
        try {
          identity = await whoAmI(app.kube.clientFor({ kind: 'token', token }));
        } catch (error) {
          // A 403 is a genuine token the server forbids to review itself: said as such (a 403).
          if (error instanceof KubeApiError && error.status === 401) {
            throw new HttpError(401, 'Unauthorized', 'the API server did not accept this token', [
              issue(
                'R-AUTH',
                'token',
                'bff.auth.badToken',
                'the API server did not accept this token',
              ),
            ]);
          }
          throw error;
        }
        const { cookie, payload } = app.sessions.issue(token, identity);
        // The token fitted (SignInBody), but the identity the server confirmed (its groups) may
        // not: a cookie browsers would drop is a sign-in that silently does not happen.
        const bytes = sessionCookieBytes(cookie);
        if (bytes > MAX_COOKIE_BYTES) {
          const message = `this session would need a cookie of ${String(bytes)} bytes, and browsers keep cookies of at most ${String(MAX_COOKIE_BYTES)} bytes: the token (${String(token.length)} characters) and the identity the API server confirmed (${String(identity.groups.length)} groups) are too long together`;
          throw new HttpError(400, 'SessionTooLarge', message, [
            issue('R-AUTH', 'token', 'bff.auth.sessionTooLarge', message, {
              bytes,
              limit: MAX_COOKIE_BYTES,
            }),
          ]);
        }
        app.setCookie(
          request,
          reply,
          SESSION_COOKIE,
          cookie,
          Math.floor((payload.exp - Date.now()) / 1000),
        );
        // A new session gets a new CSRF token, bound to it (no fixation across sign-ins).
        const csrfToken = csrfFor(request, reply, payload.sid, true);
        request.log.info(
          { audit: { user: identity.username, action: 'session.signIn', result: 'ok' } },
          'audit',
        );
        return {
          authenticated: true,
          mode,
          user: { ...identity, confirmed: true },
          csrfToken,
          expiresAt: new Date(payload.exp).toISOString(),
          epoch: app.epoch,
        };
      },
    );

  app.delete(
    '/session',
    {
      config: { public: true },
      schema: {
        tags: ['session'],
        summary:
          'Sign out: the session ends on every replica (OIDC: and the provider’s sign-out page to visit)',
        response: { 200: SignOutSchema, 204: z.null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      const current =
        mode !== 'local' ? app.sessions.read(request.cookies[SESSION_COOKIE]) : undefined;
      reply.clearCookie(SESSION_COOKIE, { path: '/' });
      reply.clearCookie(CSRF_COOKIE, { path: '/' });
      if (current) {
        // The cookie may have been copied: end the session on every replica, not only here.
        await app.revocations.revoke(current.sid, current.exp);
        request.log.info(
          { audit: { user: current.username, action: 'session.signOut', result: 'ok' } },
          'audit',
        );
      }
      // RP-initiated logout, where the provider offers it: the page sends the browser there.
      const logoutUrl = app.oidc ? await app.oidc.logoutUrl() : undefined;
      if (logoutUrl !== undefined) return reply.code(200).send({ logoutUrl });
      return reply.code(204).send(null);
    },
  );
  return Promise.resolve();
};

export default session;
