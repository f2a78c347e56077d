import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type {} from '@fastify/cookie';
import fp from 'fastify-plugin';
import { Authorizer, type Check } from '../../auth/authorizer';
import { isToken68 } from '../../auth/bearer';
import type { Principal } from '../../auth/principal';
import { credentialKey, CSRF_COOKIE, SESSION_COOKIE, Sessions } from '../../auth/sessions';
import { forbidden, issue, unauthorized } from '../../http/errors';
import { KubeApiError } from '../../kube/errors';
import { UNKNOWN_USER, whoAmI, type Identity } from '../../kube/reviews';
import { Sealer } from '../../session/seal';

declare module 'fastify' {
  interface FastifyInstance {
    sessions: Sessions;
    authorizer: Authorizer;
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
  interface FastifyRequest {
    principalCache: Principal | null | undefined;
  }
}

const BEARER = /^Bearer\s+(\S+)$/i;
const IDENTITY_TTL_MS = 60_000;

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
      const session = sessions.read(request.cookies[SESSION_COOKIE]);
      // A signed-out session is no credential, on whichever replica it was signed out.
      if (session && (await app.revocations.revoked(session.sid))) return null;
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
