import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { CSRF_COOKIE, CSRF_HEADER, SESSION_COOKIE, Sessions } from '../../auth/sessions';
import { hostNameOf } from '../../config/env';
import { forbidden, HttpError, issue } from '../../http/errors';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * 403 unless a mutation comes from the console's own origin (or an allowed one): `Origin`
     * must be present and same-origin, or, without it, `Sec-Fetch-Site: same-origin`. A stream
     * (GET) may omit both, but a foreign one is refused too.
     */
    checkOrigin(request: FastifyRequest, mutating: boolean): void;
    /** 403 unless the request echoes the CSRF token of its cookie, bound to its session (every mutation). */
    checkCsrf(request: FastifyRequest): void;
  }
}

export const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Probes reach the pod by its IP; they reveal nothing a rebound page could use. */
const HOST_EXEMPT = new Set(['/healthz', '/readyz']);

/**
 * RFC 9110 §7.2 / RFC 9112 §3.2: `Host = uri-host [ ":" port ]`, the uri-host an IP literal in
 * brackets, an IPv4 address or a reg-name (unreserved, %-escapes, sub-delims). No `@`, `/`, `?`,
 * `#` or spaces: `127.0.0.1:8080@evil.example` is not a loopback name with a port, and Node's
 * parser passes it as it is.
 */
const HOST_FIELD = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9\-._~%!$&'()*+,;=]+)(?::[0-9]*)?$/;

const badHost = (message: string, key: string) =>
  new HttpError(400, 'BadRequest', message, [issue('R-AUTH', 'Host', key, message)]);

/**
 * The request names exactly one host, in its Host field, and that field is well-formed; else 400
 * (RFC 9112 §3.2: a server MUST answer 400 to more than one Host line or an invalid one). An
 * absolute-form target (`GET http://evil.example/ HTTP/1.1`) names its host in the target, where
 * RFC 9112 §3.2.2 says it overrides Host: this console is no proxy and checks only Host, so such
 * a request is refused rather than read two ways. Node keeps the first of repeated Host lines
 * and says nothing, so they are counted in the raw headers.
 */
function checkHostFraming(request: FastifyRequest): void {
  const raw = request.raw;
  const target = raw.url ?? '';
  if (!target.startsWith('/') && target !== '*') {
    throw badHost(
      'the request target must be a path (origin-form): this console is not a proxy',
      'bff.auth.hostAbsoluteForm',
    );
  }
  let hosts = 0;
  const headers = raw.rawHeaders;
  for (let i = 0; i < headers.length; i += 2) if (headers[i]?.toLowerCase() === 'host') hosts++;
  if (hosts > 1) {
    throw badHost(
      `the request names ${String(hosts)} Host header lines; exactly one is allowed`,
      'bff.auth.hostRepeated',
    );
  }
  const host = raw.headers.host;
  if (host !== undefined && host !== '' && !HOST_FIELD.test(host)) {
    throw badHost(
      'the Host header is not a host name or address with an optional port (RFC 9112 §3.2)',
      'bff.auth.hostInvalid',
    );
  }
}

const originRefused = (message: string, path: string, key: string, params = {}) =>
  forbidden(message, [issue('R-AUTH', path, key, message, params)]);

export default fp(
  (app, _opts, done) => {
    const allowedOrigins = new Set(app.config.allowedOrigins);
    const allowedHosts = new Set(app.config.allowedHosts);

    // DNS rebinding: a page of evil.example whose name now resolves to this address sends
    // `Host: evil.example`. Its Origin is then "same-origin" by construction, so the Origin check
    // alone cannot tell; only the name the browser thinks it talks to can. Every request but the
    // probes names an allowed host, before anything else is looked at.
    app.addHook('onRequest', async (request, reply) => {
      const path = request.url.split('?', 1)[0] ?? '';
      // API answers are per user and per moment: no browser or proxy may keep one (errors too).
      if (path.startsWith('/api/')) void reply.header('cache-control', 'no-store');
      // What the Host check reads must be the one name the request has (issue 25, item 12).
      checkHostFraming(request);
      if (HOST_EXEMPT.has(path)) return;
      const host = request.host;
      const name = typeof host === 'string' && host !== '' ? hostNameOf(host) : '';
      if (allowedHosts.has(name)) return;
      const message =
        name === ''
          ? 'the request names no Host'
          : `host ${name} is not a name of this console (allowed: ${[...allowedHosts].join(', ')}; add names with ALLOWED_HOSTS)`;
      throw new HttpError(421, 'MisdirectedRequest', message, [
        issue('R-AUTH', 'Host', 'bff.auth.host', message, { host: name }),
      ]);
    });

    app.decorate('checkOrigin', (request: FastifyRequest, mutating: boolean) => {
      // Browsers label cross-site requests; such a label is never the console's own page.
      const site = request.headers['sec-fetch-site'];
      if (site === 'cross-site') {
        throw originRefused('cross-site request refused', 'Sec-Fetch-Site', 'bff.auth.crossSite');
      }
      const origin = request.headers.origin;
      if (origin === undefined) {
        // Browsers send Origin with every non-GET fetch; without it only a browser's own
        // same-origin label will do. A GET stream may carry neither (EventSource, same origin).
        if (!mutating || site === 'same-origin') return;
        throw originRefused(
          'a mutation must carry the Origin header of the console (or Sec-Fetch-Site: same-origin)',
          'Origin',
          'bff.auth.originMissing',
        );
      }
      const own = `${request.protocol}://${request.host}`;
      if (origin === own || allowedOrigins.has(origin)) return;
      throw originRefused(`origin ${origin} is not allowed`, 'Origin', 'bff.auth.origin', {
        origin,
      });
    });

    app.decorate('checkCsrf', (request: FastifyRequest) => {
      const csrf = app.sessions.readCsrf(request.cookies[CSRF_COOKIE]);
      // Bound to the session the request carries (none before sign-in and in local mode).
      const sid = app.sessions.read(request.cookies[SESSION_COOKIE])?.sid ?? '';
      const header = request.headers[CSRF_HEADER];
      const given = Array.isArray(header) ? header[0] : header;
      if (csrf?.sid === sid && Sessions.csrfMatches(csrf.token, given)) return;
      const message = `missing or wrong ${CSRF_HEADER} header: read csrfToken from GET /api/v1/session`;
      throw forbidden(message, [issue('R-AUTH', CSRF_HEADER, 'bff.auth.csrf', message)]);
    });
    done();
  },
  { name: 'guard', dependencies: ['config', 'auth'] },
);
