import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { CSRF_COOKIE, CSRF_HEADER, Sessions } from '../../auth/sessions';
import { forbidden, issue } from '../../http/errors';

declare module 'fastify' {
  interface FastifyInstance {
    /** 403 for a request from a foreign origin (mutations and streams). */
    checkOrigin(request: FastifyRequest): void;
    /** 403 unless the request echoes the CSRF token of its cookie (every mutation). */
    checkCsrf(request: FastifyRequest): void;
  }
}

export const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export default fp(
  (app, _opts, done) => {
    const allowed = new Set(app.config.allowedOrigins);

    app.decorate('checkOrigin', (request: FastifyRequest) => {
      // Browsers label cross-site requests; a same-origin request may omit Origin (GET streams).
      if (request.headers['sec-fetch-site'] === 'cross-site') {
        throw forbidden('cross-site request refused', [
          issue('R-AUTH', 'Sec-Fetch-Site', 'bff.auth.crossSite', 'cross-site request refused'),
        ]);
      }
      const origin = request.headers.origin;
      if (origin === undefined) return;
      const own = `${request.protocol}://${request.host}`;
      if (origin === own || allowed.has(origin)) return;
      throw forbidden(`origin ${origin} is not allowed`, [
        issue('R-AUTH', 'Origin', 'bff.auth.origin', `origin ${origin} is not allowed`, { origin }),
      ]);
    });

    app.decorate('checkCsrf', (request: FastifyRequest) => {
      const expected = app.sessions.readCsrf(request.cookies[CSRF_COOKIE]);
      const header = request.headers[CSRF_HEADER];
      const given = Array.isArray(header) ? header[0] : header;
      if (Sessions.csrfMatches(expected, given)) return;
      const message = `missing or wrong ${CSRF_HEADER} header: read csrfToken from GET /api/v1/session`;
      throw forbidden(message, [issue('R-AUTH', CSRF_HEADER, 'bff.auth.csrf', message)]);
    });
    done();
  },
  { name: 'guard', dependencies: ['config', 'auth'] },
);
