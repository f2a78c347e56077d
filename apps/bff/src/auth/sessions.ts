import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Sealer } from '../session/seal';

/**
 * Sessions and CSRF tokens live in encrypted, httpOnly, SameSite=Strict cookies, so any replica
 * can serve any request and the browser's JavaScript never sees the bearer token.
 * - `dcs_session`: the user's token, who they are, the session's id and when the session ends;
 *   sign-out records the id as revoked for every replica (auth/revocations.ts);
 * - `dcs_csrf`: a random token bound to the session's id (or to no session, before sign-in);
 *   mutations must echo it in `x-csrf-token` (the SPA reads it from `GET /api/v1/session`, which
 *   a foreign page cannot read). Bound, a token planted with another session's cookie (cookie
 *   tossing from a sibling domain) does not pass for this session's.
 */

export const SESSION_COOKIE = 'dcs_session';
export const CSRF_COOKIE = 'dcs_csrf';
export const CSRF_HEADER = 'x-csrf-token';

export interface SessionPayload {
  /** 2: sessions have ids (revocation, CSRF binding); older cookies no longer open. */
  v: 2;
  /** Random, 128 bits, base64url: names the session in the revocation list. */
  sid: string;
  token: string;
  username: string;
  groups: string[];
  /** Epoch ms. */
  exp: number;
}

/**
 * The most a browser keeps of one cookie, name and value: 4096 bytes (RFC 6265 §6.1's minimum,
 * which Chrome, Firefox and Safari implement as their maximum; a longer Set-Cookie is dropped
 * silently). The session cookie carries the sealed token, so this, not a header limit, is what
 * bounds a sign-in token (kube-apiserver takes 1 MiB of headers, Go's MaxHeaderBytes; the
 * embedded one, Node's default, 16 KiB; issue 25, item 11).
 */
export const MAX_COOKIE_BYTES = 4096;

/** The bytes of `name=value` for the session cookie whose value is `sealed`. */
export const sessionCookieBytes = (sealed: string): number =>
  SESSION_COOKIE.length + 1 + sealed.length;

/**
 * The longest token whose session cookie fits with the shortest identity (no name, and only the
 * group every authenticated user is in, `system:authenticated`): a longer one can never make a
 * session, and is refused before the API server is asked. The
 * sealed value is base64url of 33 bytes of header and the payload's JSON (session/seal.ts).
 */
export const MAX_SESSION_TOKEN_CHARS = ((): number => {
  const emptyJson = JSON.stringify({
    v: 2,
    sid: 'x'.repeat(22),
    token: '',
    username: '',
    groups: ['system:authenticated'],
    exp: 9_999_999_999_999,
  }).length;
  const sealedBytes = Math.floor(((MAX_COOKIE_BYTES - SESSION_COOKIE.length - 1) * 3) / 4);
  return sealedBytes - 33 - emptyJson;
})();

export const credentialKey = (token: string): string =>
  createHash('sha256').update(token).digest('base64url').slice(0, 32);

/** The `exp` of a JWT bearer token (epoch ms), when the token is a JWT that says so. */
export function jwtExpiry(token: string): number | undefined {
  const parts = token.split('.');
  if (parts.length !== 3 || parts[1] === undefined) return undefined;
  try {
    const payload = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8')) as {
      exp?: unknown;
    };
    return typeof payload.exp === 'number' ? payload.exp * 1000 : undefined;
  } catch {
    return undefined;
  }
}

function isSession(v: unknown): v is SessionPayload {
  if (typeof v !== 'object' || v === null) return false;
  const o = v as Record<string, unknown>;
  return (
    o.v === 2 &&
    typeof o.sid === 'string' &&
    typeof o.token === 'string' &&
    typeof o.username === 'string' &&
    Array.isArray(o.groups) &&
    typeof o.exp === 'number'
  );
}

export class Sessions {
  readonly #sealer: Sealer;
  readonly #ttlMs: number;
  readonly #now: () => number;

  constructor(sealer: Sealer, ttlSeconds: number, now: () => number = Date.now) {
    this.#sealer = sealer;
    this.#ttlMs = ttlSeconds * 1000;
    this.#now = now;
  }

  /** A new session; it ends at the configured TTL or when the token itself expires. */
  issue(
    token: string,
    identity: { username: string; groups: string[] },
  ): { cookie: string; payload: SessionPayload } {
    const ttlEnd = this.#now() + this.#ttlMs;
    const tokenEnd = jwtExpiry(token);
    const payload: SessionPayload = {
      v: 2,
      sid: randomBytes(16).toString('base64url'),
      token,
      username: identity.username,
      groups: identity.groups,
      exp: tokenEnd !== undefined ? Math.min(ttlEnd, tokenEnd) : ttlEnd,
    };
    return { cookie: this.#sealer.seal(SESSION_COOKIE, payload), payload };
  }

  /** The session in a cookie, if genuine and not expired. */
  read(cookie: string | undefined): SessionPayload | undefined {
    if (!cookie) return undefined;
    const payload = this.#sealer.open(SESSION_COOKIE, cookie);
    if (!isSession(payload) || payload.exp <= this.#now()) return undefined;
    return payload;
  }

  /** A new CSRF token bound to the session `sid` (none: before sign-in, or local mode). */
  issueCsrf(sid = ''): { cookie: string; token: string } {
    const token = randomBytes(24).toString('base64url');
    return { cookie: this.#sealer.seal(CSRF_COOKIE, { v: 2, t: token, s: sid }), token };
  }

  /** The CSRF token a cookie holds and the session it is bound to, if genuine. */
  readCsrf(cookie: string | undefined): { token: string; sid: string } | undefined {
    if (!cookie) return undefined;
    const payload = this.#sealer.open(CSRF_COOKIE, cookie) as
      { v?: unknown; t?: unknown; s?: unknown } | undefined;
    return payload?.v === 2 && typeof payload.t === 'string' && typeof payload.s === 'string'
      ? { token: payload.t, sid: payload.s }
      : undefined;
  }

  /** Constant-time comparison of the header with the cookie's token. */
  static csrfMatches(expected: string | undefined, given: string | undefined): boolean {
    if (expected === undefined || given === undefined) return false;
    const a = Buffer.from(expected);
    const b = Buffer.from(given);
    return a.length === b.length && timingSafeEqual(a, b);
  }
}
