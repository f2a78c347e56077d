import { z } from 'zod';

/**
 * A bearer token as RFC 6750 §2.1 allows it: `token68` (letters, digits, `-._~+/`, then `=`
 * padding). Anything else (CR/LF, NUL, spaces, non-Latin-1) could never be a valid credential and
 * would make Node refuse to build the `Authorization` header, or worse, split it; so it is
 * refused as a client fault before any header is built, wherever a token comes from.
 */
export const TOKEN68 = /^[A-Za-z0-9\-._~+/]+=*$/;

export const TOKEN68_RULE =
  'a bearer token (RFC 6750 token68: letters, digits, - . _ ~ + / and trailing =)';

export const isToken68 = (token: string): boolean => TOKEN68.test(token);

export const BearerToken = z.string().min(1).max(16_384).regex(TOKEN68, TOKEN68_RULE);

/** Thrown where a token that is not token68 reaches the HTTP client: a bug upstream of it. */
export class BadBearerToken extends Error {
  override readonly name = 'BadBearerToken';
  constructor() {
    super(`refusing to send a credential that is not ${TOKEN68_RULE}`);
  }
}
