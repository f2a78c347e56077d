import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Sealer } from '../session/seal';
import type { PendingSignIn } from './oidc';

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
/**
 * OIDC mode: the sign-in in progress. SameSite=Lax, not Strict: the provider's redirect back is a
 * cross-site navigation, and a Strict cookie would not come with it.
 */
export const OIDC_PENDING_COOKIE = 'dcs_oidc';

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
  /** OIDC mode: what refresh needs and the user menu shows (issue 27). */
  oidc?: OidcSessionPart;
}

export interface OidcSessionPart {
  /** The refresh token, if the provider gave one. */
  rt?: string;
  /** When `token` expires (epoch ms); it is refreshed before then. */
  te: number;
  /** The ID token's claims the user menu shows and refresh compares (iss, sub, …). */
  c: Record<string, unknown>;
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

function isOidcPart(v: unknown): boolean {
  if (v === undefined) return true;
  if (typeof v !== 'object' || v === null) return false;
  const o = v as Record<string, unknown>;
  return (
    (o.rt === undefined || typeof o.rt === 'string') &&
    typeof o.te === 'number' &&
    typeof o.c === 'object' &&
    o.c !== null
  );
}

function isSession(v: unknown): v is SessionPayload {
  if (typeof v !== 'object' || v === null) return false;
  const o = v as Record<string, unknown>;
  return (
    isOidcPart(o.oidc) &&
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

  /**
   * A new session; it ends at the configured TTL or when the token itself expires, unless it can
   * be refreshed (OIDC with a refresh token): then at the TTL.
   */
  issue(
    token: string,
    identity: { username: string; groups: string[] },
    oidc?: OidcSessionPart,
  ): { cookie: string; payload: SessionPayload } {
    const ttlEnd = this.#now() + this.#ttlMs;
    const tokenEnd = oidc ? (oidc.rt ? undefined : oidc.te) : jwtExpiry(token);
    const payload: SessionPayload = {
      v: 2,
      sid: randomBytes(16).toString('base64url'),
      token,
      username: identity.username,
      groups: identity.groups,
      exp: tokenEnd !== undefined ? Math.min(ttlEnd, tokenEnd) : ttlEnd,
      ...(oidc ? { oidc } : {}),
    };
    return { cookie: this.#sealer.seal(SESSION_COOKIE, payload), payload };
  }

  /** The same session (id, end) with refreshed tokens and the identity confirmed for them. */
  renew(
    previous: SessionPayload,
    token: string,
    identity: { username: string; groups: string[] },
    oidc: OidcSessionPart,
  ): { cookie: string; payload: SessionPayload } {
    const payload: SessionPayload = {
      ...previous,
      token,
      username: identity.username,
      groups: identity.groups,
      exp: oidc.rt ? previous.exp : Math.min(previous.exp, oidc.te),
      oidc,
    };
    return { cookie: this.#sealer.seal(SESSION_COOKIE, payload), payload };
  }

  /** The cookie value of a session payload. */
  seal(payload: SessionPayload): string {
    return this.#sealer.seal(SESSION_COOKIE, payload);
  }

  /** A sign-in in progress (state, nonce, PKCE verifier), in its own short-lived cookie. */
  sealPending(pending: PendingSignIn): string {
    return this.#sealer.seal(OIDC_PENDING_COOKIE, pending);
  }

  openPending(cookie: string | undefined): PendingSignIn | undefined {
    if (!cookie) return undefined;
    const p = this.#sealer.open(OIDC_PENDING_COOKIE, cookie) as Partial<PendingSignIn> | undefined;
    return p?.v === 1 &&
      typeof p.state === 'string' &&
      typeof p.nonce === 'string' &&
      typeof p.verifier === 'string' &&
      typeof p.next === 'string' &&
      typeof p.exp === 'number'
      ? (p as PendingSignIn)
      : undefined;
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
