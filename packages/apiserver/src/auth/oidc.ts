import { request as httpsRequest } from 'node:https';
import { request as httpRequest } from 'node:http';
import { createRemoteJWKSet, customFetch, decodeJwt, jwtVerify, type JWTPayload } from 'jose';
import type { UserInfo } from '../types';

/**
 * OpenID Connect ID tokens as kube-apiserver trusts them (its `--oidc-*` flags): the issuer's
 * discovery document names the JWKS; a token is accepted when its signature verifies with one of
 * those keys (an unknown `kid` fetches the set again: rotated keys), `iss` is the issuer URL
 * exactly, `aud` holds the client id, and `exp`/`nbf` hold now. The user is the username claim
 * with its prefix and the groups claim with its prefix, then `system:authenticated`.
 */
export interface OidcOptions {
  /** --oidc-issuer-url: https (or http on loopback, for tests), compared with `iss` exactly. */
  issuerUrl: string;
  /** --oidc-client-id: must be one of the token's audiences. */
  clientId: string;
  /** --oidc-username-claim, default `sub`. */
  usernameClaim?: string;
  /**
   * --oidc-username-prefix. Unset: `<issuer>#` for every claim but `email` (which gets none), as
   * kube-apiserver does; `-` means no prefix.
   */
  usernamePrefix?: string;
  /** --oidc-groups-claim: a string or an array of strings; unset = no groups from the token. */
  groupsClaim?: string;
  /** --oidc-groups-prefix, default none. */
  groupsPrefix?: string;
  /** --oidc-ca-file's PEM: the CA that signed the issuer's serving certificate. */
  caPem?: string;
  /** --oidc-signing-algs, default RS256 (kube-apiserver's default). */
  signingAlgs?: string[];
  /** --oidc-required-claim key=value pairs: each must be in the token with that value. */
  requiredClaims?: Record<string, string>;
}

/** kube-apiserver's flag names, as `--flag=value` or `--flag value`, to OidcOptions. */
export function oidcOptionsFromFlags(
  flags: Readonly<Record<string, string | undefined>>,
  readFile: (file: string) => string,
): OidcOptions | undefined {
  const issuerUrl = flags['oidc-issuer-url'];
  if (issuerUrl === undefined) return undefined;
  const clientId = flags['oidc-client-id'];
  if (!clientId) throw new Error('--oidc-client-id is required with --oidc-issuer-url');
  const ca = flags['oidc-ca-file'];
  const algs = flags['oidc-signing-algs'];
  const required = flags['oidc-required-claim'];
  const claim = flags['oidc-username-claim'];
  const prefix = flags['oidc-username-prefix'];
  const groups = flags['oidc-groups-claim'];
  const groupsPrefix = flags['oidc-groups-prefix'];
  return {
    issuerUrl,
    clientId,
    ...(claim !== undefined ? { usernameClaim: claim } : {}),
    ...(prefix !== undefined ? { usernamePrefix: prefix } : {}),
    ...(groups !== undefined ? { groupsClaim: groups } : {}),
    ...(groupsPrefix !== undefined ? { groupsPrefix } : {}),
    ...(ca !== undefined ? { caPem: readFile(ca) } : {}),
    ...(algs !== undefined ? { signingAlgs: algs.split(',').map((a) => a.trim()) } : {}),
    ...(required !== undefined
      ? {
          requiredClaims: Object.fromEntries(
            required.split(',').map((pair) => {
              const eq = pair.indexOf('=');
              if (eq <= 0) throw new Error(`--oidc-required-claim wants key=value, got ${pair}`);
              return [pair.slice(0, eq), pair.slice(eq + 1)];
            }),
          ),
        }
      : {}),
  };
}

/** The names the flags above are parsed from (for CLIs that pass them through). */
export const OIDC_FLAGS = [
  'oidc-issuer-url',
  'oidc-client-id',
  'oidc-username-claim',
  'oidc-username-prefix',
  'oidc-groups-claim',
  'oidc-groups-prefix',
  'oidc-ca-file',
  'oidc-signing-algs',
  'oidc-required-claim',
] as const;

/** The username prefix kube-apiserver applies (see `usernamePrefix`). */
export function usernamePrefixOf(o: OidcOptions): string {
  if (o.usernamePrefix === '-') return '';
  if (o.usernamePrefix !== undefined) return o.usernamePrefix;
  return (o.usernameClaim ?? 'sub') === 'email' ? '' : `${o.issuerUrl}#`;
}

/** GET over http(s) with the issuer's CA, as the Response jose and we read. */
function fetcherWith(caPem: string | undefined) {
  return (url: string, init: { headers?: Headers; signal?: AbortSignal } = {}) =>
    new Promise<Response>((resolvePromise, reject) => {
      const u = new URL(url);
      const send = u.protocol === 'https:' ? httpsRequest : httpRequest;
      const req = send(
        u,
        {
          method: 'GET',
          headers: {
            accept: 'application/json',
            ...Object.fromEntries(init.headers ?? new Headers()),
          },
          ...(caPem && u.protocol === 'https:' ? { ca: caPem } : {}),
          ...(init.signal ? { signal: init.signal } : {}),
        },
        (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (c: Buffer) => {
            size += c.length;
            if (size > 1024 * 1024) req.destroy(new Error(`${url}: answer over 1 MiB`));
            else chunks.push(c);
          });
          res.on('end', () => {
            resolvePromise(
              new Response(Buffer.concat(chunks), {
                status: res.statusCode ?? 500,
                headers: { 'content-type': res.headers['content-type'] ?? '' },
              }),
            );
          });
          res.on('error', reject);
        },
      );
      req.setTimeout(5000, () => req.destroy(new Error(`${url}: no answer in 5 s`)));
      req.on('error', reject);
      req.end();
    });
}

/**
 * A token with an unknown `kid` fetches the JWKS again at most this often: a rotated key is
 * picked up within a second, and forged key ids cannot make the server hammer the issuer.
 */
export const JWKS_COOLDOWN_MS = 1000;

export class OidcAuthenticator {
  readonly #o: OidcOptions;
  readonly #fetch: ReturnType<typeof fetcherWith>;
  #jwks: ReturnType<typeof createRemoteJWKSet> | undefined;
  #discovering: Promise<ReturnType<typeof createRemoteJWKSet>> | undefined;

  constructor(options: OidcOptions) {
    const u = new URL(options.issuerUrl);
    const loopback = ['127.0.0.1', 'localhost', '[::1]'].includes(u.hostname);
    if (u.protocol !== 'https:' && !(u.protocol === 'http:' && loopback)) {
      throw new Error(`--oidc-issuer-url must be https, got ${options.issuerUrl}`);
    }
    if (!options.clientId) throw new Error('--oidc-client-id is required');
    this.#o = options;
    this.#fetch = fetcherWith(options.caPem);
  }

  get issuerUrl(): string {
    return this.#o.issuerUrl;
  }

  /** Whether a bearer token names this issuer (an unverified look, to pick the authenticator). */
  claims(token: string): boolean {
    if (token.split('.').length !== 3) return false;
    try {
      return decodeJwt(token).iss === this.#o.issuerUrl;
    } catch {
      return false;
    }
  }

  /** The discovery document's JWKS, fetched once it is needed (again after a failure). */
  #keys(): Promise<ReturnType<typeof createRemoteJWKSet>> {
    if (this.#jwks) return Promise.resolve(this.#jwks);
    this.#discovering ??= (async () => {
      const url = `${this.#o.issuerUrl.replace(/\/$/, '')}/.well-known/openid-configuration`;
      const res = await this.#fetch(url);
      if (res.status !== 200) throw new Error(`${url}: HTTP ${String(res.status)}`);
      const doc = (await res.json()) as { issuer?: unknown; jwks_uri?: unknown };
      if (doc.issuer !== this.#o.issuerUrl) {
        throw new Error(`discovery names issuer ${String(doc.issuer)}, not ${this.#o.issuerUrl}`);
      }
      if (typeof doc.jwks_uri !== 'string') throw new Error(`${url}: no jwks_uri`);
      const fetcher = this.#fetch;
      this.#jwks = createRemoteJWKSet(new URL(doc.jwks_uri), {
        cooldownDuration: JWKS_COOLDOWN_MS,
        [customFetch]: (u, init) => fetcher(u, init),
      });
      return this.#jwks;
    })().finally(() => {
      this.#discovering = undefined;
    });
    return this.#discovering;
  }

  /** The user of a verified token; throws for any token kube-apiserver would refuse. */
  async authenticate(token: string): Promise<UserInfo> {
    const o = this.#o;
    const keys = await this.#keys();
    const { payload } = await jwtVerify(token, keys, {
      issuer: o.issuerUrl,
      audience: o.clientId,
      algorithms: o.signingAlgs ?? ['RS256'],
      requiredClaims: ['exp'],
    });
    return userOf(o, payload);
  }
}

/** The user a verified token's claims name, as kube-apiserver maps them. */
export function userOf(o: OidcOptions, payload: JWTPayload): UserInfo {
  for (const [k, v] of Object.entries(o.requiredClaims ?? {})) {
    if (!Object.hasOwn(payload, k) || payload[k] !== v) {
      throw new Error(`required claim ${k} is not ${v}`);
    }
  }
  const claim = o.usernameClaim ?? 'sub';
  const name = Object.hasOwn(payload, claim) ? payload[claim] : undefined;
  if (typeof name !== 'string' || name === '') throw new Error(`claim ${claim} is not a string`);
  if (claim === 'email' && Object.hasOwn(payload, 'email_verified')) {
    if (payload.email_verified !== true) throw new Error('email_verified is not true');
  }
  const groups: string[] = [];
  if (o.groupsClaim !== undefined && Object.hasOwn(payload, o.groupsClaim)) {
    const g = payload[o.groupsClaim];
    const list = typeof g === 'string' ? [g] : g;
    if (!Array.isArray(list) || !list.every((x): x is string => typeof x === 'string')) {
      throw new Error(`claim ${o.groupsClaim} is not a string or a list of strings`);
    }
    for (const x of list) groups.push(`${o.groupsPrefix ?? ''}${x}`);
  }
  if (!groups.includes('system:authenticated')) groups.push('system:authenticated');
  return { username: `${usernamePrefixOf(o)}${name}`, groups };
}
