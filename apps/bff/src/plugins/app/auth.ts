import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type {} from '@fastify/cookie';
import fp from 'fastify-plugin';
import { Authorizer, type Check } from '../../auth/authorizer';
import { isToken68 } from '../../auth/bearer';
import type { Principal } from '../../auth/principal';
import { OidcClient, SsoError, type SsoFailure } from '../../auth/oidc';
import {
  credentialKey,
  CSRF_COOKIE,
  SESSION_COOKIE,
  Sessions,
  type OidcSessionPart,
  type SessionPayload,
} from '../../auth/sessions';
import { forbidden, HttpError, issue, unauthorized } from '../../http/errors';
import { KubeApiError } from '../../kube/errors';
import { UNKNOWN_USER, whoAmI, type Identity } from '../../kube/reviews';
import { Sealer } from '../../session/seal';

declare module 'fastify' {
  interface FastifyInstance {
    sessions: Sessions;
    authorizer: Authorizer;
    /** The ID token claims a session keeps (bounded, for the cookie). */
    keptClaims(claims: Record<string, unknown>): Record<string, unknown>;
    /** The request's principal, or a 401: no request is ever served with the BFF's identity in token mode. */
    principalOf(request: FastifyRequest): Promise<Principal>;
    /** 403 unless the principal passes every check (access reviews, cached ≤ 60 s). */
    authorize(principal: Principal, checks: readonly Check[]): Promise<void>;
    /** Sets the session's cookies on a reply (httpOnly, SameSite=Strict; Secure over HTTPS). */
    setCookie(
      request: FastifyRequest,
      reply: FastifyReply,
      name: string,
      value: string,
      maxAgeSeconds?: number,
    ): void;
  }
  interface FastifyInstance {
    /** OIDC mode's relying party (undefined in the other modes). */
    oidc: OidcClient | undefined;
  }
  interface FastifyRequest {
    principalCache: Principal | null | undefined;
    /** The reply of this request: a refresh sets the renewed session's cookie on it. */
    replyRef: FastifyReply | undefined;
    /** Why an OIDC session gave no principal (the 401 says so). */
    ssoFailure: SsoFailure | 'session_ended' | undefined;
  }
}

/** A 401 that says why an OIDC session ended, for the sign-in page. */
function ssoUnauthorized(failure: SsoFailure | 'session_ended' | undefined) {
  const e = unauthorized();
  if (failure === undefined) return e;
  const message =
    failure === 'session_ended'
      ? 'your single sign-on session has ended; sign in again'
      : `your single sign-on session could not be renewed (${failure}); sign in again`;
  return new HttpError(401, 'Unauthorized', message, [
    issue('R-AUTH', '', `bff.auth.sso.${failure}`, message),
  ]);
}

const BEARER = /^Bearer\s+(\S+)$/i;
const IDENTITY_TTL_MS = 60_000;
/**
 * A refresh is remembered this long by the refresh token it spent: requests that were already on
 * their way with the old cookie get the same new tokens instead of spending the old refresh token
 * again (a provider that rotates refresh tokens would take a second use for a replay and revoke
 * the grant).
 */
const REFRESH_MEMORY_MS = 120_000;
/** The ID token's claims kept in the session cookie (its size is bounded: 4 KiB). */
const KEPT_CLAIMS = ['iss', 'sub', 'aud', 'email', 'name', 'preferred_username'];

export default fp(
  (app, _opts, done) => {
    const config = app.config;
    // Local mode without configured keys: a key for this process (cookies then die with it).
    const keys = config.sessionKeys.length ? config.sessionKeys : [randomBytes(32)];
    const sessions = new Sessions(new Sealer(keys), config.sessionTtlSeconds);
    const authorizer = new Authorizer(config.accessReviewTtlMs, {
      onReview: (allowed) => {
        app.metrics.accessReviews.inc({ result: allowed ? 'allowed' : 'denied' });
      },
    });
    app.decorate('sessions', sessions);
    app.decorate('authorizer', authorizer);
    app.decorateRequest('principalCache', undefined);
    app.decorateRequest('replyRef', undefined);
    app.decorateRequest('ssoFailure', undefined);
    const oidc = config.oidc ? new OidcClient(config.oidc) : undefined;
    app.decorate('oidc', oidc);
    app.addHook('onRequest', async (request, reply) => {
      request.replyRef = reply;
    });

    /** The claims a session keeps: the menu's, and the mapped username and groups claims. */
    const keptClaims = (claims: Record<string, unknown>): Record<string, unknown> => {
      const keys = new Set([...KEPT_CLAIMS, config.oidc?.usernameClaim ?? 'sub']);
      if (config.oidc?.groupsClaim) keys.add(config.oidc.groupsClaim);
      const out: Record<string, unknown> = {};
      for (const k of keys) if (Object.hasOwn(claims, k)) out[k] = claims[k];
      return out;
    };
    app.decorate('keptClaims', keptClaims);

    // Refreshes in flight or just done, by the refresh token they spend.
    const refreshes = new Map<string, { at: number; renewed: Promise<SessionPayload> }>();
    const refreshSession = (
      session: SessionPayload & { oidc: OidcSessionPart & { rt: string } },
    ) => {
      const key = credentialKey(session.oidc.rt);
      const now = Date.now();
      for (const [k, r] of refreshes) if (now - r.at > REFRESH_MEMORY_MS) refreshes.delete(k);
      const hit = refreshes.get(key);
      if (hit) return hit.renewed;
      const renewed = (async () => {
        if (!oidc) throw new Error('not in oidc mode');
        const tokens = await oidc.refresh(session.oidc.rt, session.oidc.c);
        // The API server says who the new token is (groups may have changed at the provider).
        const identity = await whoAmI(
          app.kube.clientFor({ kind: 'token', token: tokens.token }),
        ).catch((e: unknown) => {
          if (e instanceof KubeApiError && e.status === 401) {
            throw new SsoError('not_trusted', 'the API server did not accept the refreshed token');
          }
          throw e;
        });
        return sessions.renew(session, tokens.token, identity, {
          ...(tokens.refreshToken ? { rt: tokens.refreshToken } : {}),
          te: tokens.tokenExp,
          c: keptClaims(tokens.claims),
        }).payload;
      })();
      renewed.catch(() => undefined);
      refreshes.set(key, { at: now, renewed });
      return renewed;
    };

    /** The OIDC session as it stands after a refresh if one was due; null: it has ended. */
    const currentOidcSession = async (
      request: FastifyRequest,
      session: SessionPayload & { oidc: OidcSessionPart },
    ): Promise<SessionPayload | null> => {
      const settings = config.oidc;
      if (!settings) return null;
      const now = Date.now();
      const left = session.oidc.te - now;
      if (left > settings.refreshBeforeMs) return session;
      const rt = session.oidc.rt;
      // A stream does not refresh (it cannot set a cookie once it streams): the page's own
      // requests do, and an open stream lives on through them.
      const isStream = request.routeOptions.url === '/api/v1/stream';
      if (rt === undefined || isStream) {
        if (left > 0) return session;
        request.ssoFailure = 'session_ended';
        return null;
      }
      try {
        const renewed = await refreshSession({ ...session, oidc: { ...session.oidc, rt } });
        const reply = request.replyRef;
        if (reply) {
          app.setCookie(
            request,
            reply,
            SESSION_COOKIE,
            sessions.seal(renewed),
            Math.floor((renewed.exp - now) / 1000),
          );
        }
        return renewed;
      } catch (error) {
        const failure = error instanceof SsoError ? error.failure : 'provider_unavailable';
        request.log.warn({ err: error, failure }, 'oidc: refresh failed');
        // The provider said no (revoked, expired, another user): the session ends everywhere.
        if (failure === 'expired' || failure === 'provider_error' || failure === 'not_trusted') {
          await app.revocations.revoke(session.sid, session.exp).catch(() => undefined);
          request.ssoFailure = 'session_ended';
          return null;
        }
        // It cannot be asked now (down, a key it rotated, a clock off): the token serves until
        // it expires, and the next request tries again.
        if (left > 0) return session;
        request.ssoFailure = failure;
        return null;
      }
    };

    // Identities of proxy-passed tokens, so that each request does not ask the API server.
    const proxyIdentities = new Map<string, { at: number; identity: Promise<Identity> }>();
    const identityOf = (token: string): Promise<Identity> => {
      const key = credentialKey(token);
      const now = Date.now();
      const hit = proxyIdentities.get(key);
      if (hit && now - hit.at < IDENTITY_TTL_MS) return hit.identity;
      if (proxyIdentities.size > 10_000) proxyIdentities.clear();
      const identity = whoAmI(app.kube.clientFor({ kind: 'token', token }));
      identity.catch(() => proxyIdentities.delete(key));
      proxyIdentities.set(key, { at: now, identity });
      return identity;
    };

    const resolve = async (request: FastifyRequest): Promise<Principal | null> => {
      if (config.authMode === 'local') {
        // Only who the server said (issue 25): while it cannot say, nobody is named, and each
        // request asks again (kube.ts), so the name returns with the server.
        const id = app.kube.localIdentity ?? (await app.kube.confirmLocalIdentity());
        const who = id ?? { username: UNKNOWN_USER, groups: [], unconfirmed: true as const };
        return { mode: 'local', via: 'kubeconfig', ...who, client: app.kube.own, key: 'local' };
      }
      let session = sessions.read(request.cookies[SESSION_COOKIE]);
      // A signed-out session is no credential, on whichever replica it was signed out.
      if (session && (await app.revocations.revoked(session.sid))) return null;
      if (session && config.authMode === 'oidc') {
        if (!session.oidc) return null;
        const current = await currentOidcSession(request, { ...session, oidc: session.oidc });
        if (!current?.oidc) return null;
        session = current;
        return {
          mode: 'oidc',
          via: 'session',
          username: session.username,
          groups: session.groups,
          client: app.kube.clientFor({ kind: 'token', token: session.token }),
          key: credentialKey(session.token),
          expiresAt: session.exp,
          sessionId: session.sid,
          oidc: { claims: current.oidc.c, tokenExpiresAt: current.oidc.te },
        };
      }
      if (session) {
        return {
          mode: 'token',
          via: 'session',
          username: session.username,
          groups: session.groups,
          client: app.kube.clientFor({ kind: 'token', token: session.token }),
          key: credentialKey(session.token),
          expiresAt: session.exp,
          sessionId: session.sid,
        };
      }
      const header = request.headers.authorization;
      const token = config.trustProxyAuthorization && header ? BEARER.exec(header)?.[1] : undefined;
      // A proxy's header that is no token68 is no credential (401), never a 500.
      if (token === undefined || !isToken68(token)) return null;
      try {
        const id = await identityOf(token);
        return {
          mode: 'token',
          via: 'proxy',
          ...id,
          client: app.kube.clientFor({ kind: 'token', token }),
          key: credentialKey(token),
        };
      } catch (error) {
        if (error instanceof KubeApiError && error.status === 401) return null;
        throw error;
      }
    };

    app.decorate('principalOf', async (request: FastifyRequest) => {
      if (config.authMode === 'oidc' && request.principalCache === undefined) {
        // OIDC mode takes no proxy's header: the session is the only credential.
        request.principalCache = await resolve(request);
        if (!request.principalCache) throw ssoUnauthorized(request.ssoFailure);
        return request.principalCache;
      }
      if (request.principalCache === undefined) request.principalCache = await resolve(request);
      if (!request.principalCache) throw unauthorized();
      return request.principalCache;
    });

    app.decorate('authorize', async (principal: Principal, checks: readonly Check[]) => {
      const denied = await authorizer.denied(principal, checks);
      if (denied.length === 0) return;
      const details = denied.map((d) =>
        issue(
          'R-AUTH',
          '',
          'bff.auth.denied',
          `${principal.username} may not ${d.verb} ${d.kind}${d.name ? ` ${d.name}` : ''} in ${d.namespace}`,
          { verb: d.verb, kind: d.kind, namespace: d.namespace },
        ),
      );
      throw forbidden(details[0]?.message ?? 'forbidden', details);
    });

    app.decorate(
      'setCookie',
      (
        request: FastifyRequest,
        reply: FastifyReply,
        name: string,
        value: string,
        maxAgeSeconds?: number,
      ) => {
        reply.setCookie(name, value, {
          path: '/',
          httpOnly: true,
          sameSite: 'strict',
          secure: request.protocol === 'https',
          ...(maxAgeSeconds !== undefined ? { maxAge: maxAgeSeconds } : {}),
        });
      },
    );
    done();
  },
  { name: 'auth', dependencies: ['config', 'metrics', 'kube', 'revocations', '@fastify/cookie'] },
);

export { CSRF_COOKIE, SESSION_COOKIE };
