import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Sealer } from '../session/seal';

/**
 * Sessions and CSRF tokens live in encrypted, httpOnly, SameSite=Strict cookies, so any replica
 * can serve any request and the browser's JavaScript never sees the bearer token.
 * - `dcs_session`: the user's token, who they are, and when the session ends;
 * - `dcs_csrf`: a random token; mutations must echo it in `x-csrf-token` (the SPA reads it from
 *   `GET /api/v1/session`, which a foreign page cannot read).
 */

export const SESSION_COOKIE = 'dcs_session';
export const CSRF_COOKIE = 'dcs_csrf';
export const CSRF_HEADER = 'x-csrf-token';

export interface SessionPayload {
  v: 1;
  token: string;
  username: string;
  groups: string[];
  /** Epoch ms. */
  exp: number;
}

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
    o.v === 1 &&
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
      v: 1,
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

  issueCsrf(): { cookie: string; token: string } {
    const token = randomBytes(24).toString('base64url');
    return { cookie: this.#sealer.seal(CSRF_COOKIE, { v: 1, t: token }), token };
  }

  /** The CSRF token a cookie holds, if genuine. */
  readCsrf(cookie: string | undefined): string | undefined {
    if (!cookie) return undefined;
    const payload = this.#sealer.open(CSRF_COOKIE, cookie) as
      { v?: unknown; t?: unknown } | undefined;
    return payload?.v === 1 && typeof payload.t === 'string' ? payload.t : undefined;
  }

  /** Constant-time comparison of the header with the cookie's token. */
  static csrfMatches(expected: string | undefined, given: string | undefined): boolean {
    if (expected === undefined || given === undefined) return false;
    const a = Buffer.from(expected);
    const b = Buffer.from(given);
    return a.length === b.length && timingSafeEqual(a, b);
  }
}
