import cookie from '@fastify/cookie';
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

/**
 * The external tier: third-party plugins with the project's settings. Helmet's CSP is strict
 * (same-origin scripts, styles and connections only; no inline script, no framing). Rate limits
 * are opt-in per route (sign-in, mutations) so that reads and streams are not counted, and keyed
 * by the authenticated user where there is one.
 */
export async function registerExternal(app: FastifyInstance): Promise<void> {
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // MUI (emotion) injects style elements at run time.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'none'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    crossOriginEmbedderPolicy: false,
    strictTransportSecurity: { maxAge: 31_536_000, includeSubDomains: true },
  });
  await app.register(cookie);
  await app.register(rateLimit, {
    global: false,
    // After the API scope's onRequest hook has resolved the principal: a budget per user, so that
    // users behind one proxy (one IP) do not share one, and one user's many IPs or sessions do.
    // Requests without a principal (sign-in) are counted by IP.
    hook: 'preParsing',
    keyGenerator: (request) => {
      const principal = request.principalCache;
      return principal ? `user:${principal.mode}:${principal.username}` : `ip:${request.ip}`;
    },
  });
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'DCS node pool console BFF',
        description:
          'The HTTP API of the console (ARCHITECTURE.md). Errors are {code, message, details: RuleIssue[]}.',
        version: '1.0.0',
      },
    },
    transform: jsonSchemaTransform,
  });
}
