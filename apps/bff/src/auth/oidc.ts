import * as client from 'openid-client';
import type { OidcConfig } from '../config/env';

/**
 * Single sign-on with OpenID Connect (issue 27), through panva's certified relying party
 * `openid-client`: authorization code flow with PKCE (S256), state and nonce, the provider's
 * metadata from its discovery document, the exact redirect URI, a public or confidential client,
 * refresh, RP-initiated logout. Nothing here parses a JWT or builds an OAuth request by hand.
 */

/** Why a sign-in did not happen: each one has its own message on the sign-in page. */
export type SsoFailure =
  /** The provider does not answer (discovery, token endpoint) or answers 5xx. */
  | 'provider_unavailable'
  /** Its tokens' times are off from this host's clock beyond the tolerance. */
  | 'clock_skew'
  /** Its token is signed with a key its JWKS does not (yet) publish: it rotated keys. */
  | 'signing_key'
  /** The user refused consent (or the provider refused them: access_denied). */
  | 'access_denied'
  /** The sign-in took too long, was started in another tab, or was replayed. */
  | 'expired'
  /** The API server does not accept the provider's token (its --oidc-* flags). */
  | 'not_trusted'
  /** Anything else the provider or its answer got wrong. */
  | 'provider_error';

export class SsoError extends Error {
  override readonly name = 'SsoError';
  constructor(
    readonly failure: SsoFailure,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** What a sign-in in progress keeps (sealed in a short-lived cookie), until the callback. */
export interface PendingSignIn {
  v: 1;
  state: string;
  nonce: string;
  verifier: string;
  /** Where in the console to land afterwards (a path). */
  next: string;
  /** Epoch ms. */
  exp: number;
}

export interface SsoTokens {
  /** The token presented to the API server (ID or access token, as OIDC_PRESENT says). */
  token: string;
  /** Epoch ms when `token` expires. */
  tokenExp: number;
  refreshToken: string | undefined;
  /** The ID token's claims that matter to the user menu. */
  claims: Record<string, unknown>;
}

const PENDING_MS = 10 * 60_000;

/** Classifies an openid-client failure (an error of the provider, its answer, or the network). */
export function failureOf(error: unknown): SsoFailure {
  if (error instanceof SsoError) return error.failure;
  if (error instanceof client.AuthorizationResponseError) {
    return error.error === 'access_denied' ? 'access_denied' : 'provider_error';
  }
  if (error instanceof client.ResponseBodyError) {
    if (error.status >= 500) return 'provider_unavailable';
    return error.error === 'invalid_grant' ? 'expired' : 'provider_error';
  }
  const code = (error as { code?: unknown } | undefined)?.code;
  if (code === 'OAUTH_JWT_TIMESTAMP_CHECK_FAILED') return 'clock_skew';
  if (code === 'OAUTH_KEY_SELECTION_FAILED') return 'signing_key';
  if (code === 'OAUTH_JWT_CLAIM_COMPARISON_FAILED') {
    const claim = (error as { cause?: { claim?: unknown } }).cause?.claim;
    return claim === 'nonce' || claim === 'state' ? 'expired' : 'provider_error';
  }
  // A callback whose state is not the one this browser's sign-in sent: not this sign-in's.
  if (
    code === 'OAUTH_INVALID_RESPONSE' &&
    error instanceof Error &&
    error.message.includes('"state"')
  ) {
    return 'expired';
  }
  if (code === 'OAUTH_INVALID_RESPONSE' || code === 'OAUTH_RESPONSE_IS_NOT_CONFORM') {
    const status = (error as { cause?: { status?: unknown } }).cause;
    if (status instanceof Response && status.status >= 500) return 'provider_unavailable';
    return 'provider_error';
  }
  // openid-client's discovery and fetches: a refused connection, a timeout, a 5xx.
  if (error instanceof TypeError || (error instanceof Error && error.name === 'TimeoutError')) {
    return 'provider_unavailable';
  }
  if (error instanceof client.ClientError) {
    const cause = (error as { cause?: unknown }).cause;
    if (cause instanceof Response && cause.status >= 500) return 'provider_unavailable';
    if (cause instanceof TypeError) return 'provider_unavailable';
    return code === 'OAUTH_RESPONSE_IS_NOT_JSON' ? 'provider_unavailable' : 'provider_error';
  }
  return 'provider_error';
}

const isLoopback = (u: URL) => ['127.0.0.1', 'localhost', '[::1]'].includes(u.hostname);

export class OidcClient {
  readonly #o: OidcConfig;
  readonly #now: () => number;
  #config: client.Configuration | undefined;
  #discovering: Promise<client.Configuration> | undefined;

  constructor(o: OidcConfig, now: () => number = Date.now) {
    this.#o = o;
    this.#now = now;
  }

  get settings(): OidcConfig {
    return this.#o;
  }

  /** The provider's metadata, from its discovery document (read again after any failure). */
  async configuration(): Promise<client.Configuration> {
    if (this.#config) return this.#config;
    this.#discovering ??= (async () => {
      const o = this.#o;
      const issuer = new URL(o.issuerUrl);
      const auth = o.clientSecret ? client.ClientSecretBasic(o.clientSecret) : client.None();
      const config = await client.discovery(
        issuer,
        o.clientId,
        {
          ...(o.clientSecret ? { client_secret: o.clientSecret } : {}),
          [client.clockTolerance]: o.clockToleranceSeconds,
        },
        auth,
        {
          timeout: 10,
          // Plain HTTP only for a provider on loopback (the embedded one): config/env.ts.
          ...(issuer.protocol === 'http:' && isLoopback(issuer)
            ? // eslint-disable-next-line @typescript-eslint/no-deprecated -- loopback only
              { execute: [client.allowInsecureRequests] }
            : {}),
        },
      );
      config.timeout = 10;
      this.#config = config;
      return config;
    })().finally(() => {
      this.#discovering = undefined;
    });
    return this.#discovering;
  }

  /** Forget the metadata and the cached JWKS: the next sign-in reads them again (a rotated key). */
  forget(): void {
    this.#config = undefined;
  }

  /** Where to send the browser, and what to keep until it comes back. */
  async start(next: string): Promise<{ url: string; pending: PendingSignIn }> {
    const config = await this.configuration().catch((e: unknown) => {
      throw new SsoError(
        'provider_unavailable',
        `the identity provider ${this.#o.issuerUrl} did not answer its discovery document`,
        { cause: e },
      );
    });
    const verifier = client.randomPKCECodeVerifier();
    const pending: PendingSignIn = {
      v: 1,
      state: client.randomState(),
      nonce: client.randomNonce(),
      verifier,
      next,
      exp: this.#now() + PENDING_MS,
    };
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: this.#o.redirectUri,
      scope: this.#o.scopes.join(' '),
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state: pending.state,
      nonce: pending.nonce,
    });
    return { url: url.href, pending };
  }

  /** The provider's redirect back (`currentUrl`, the callback's full URL) to tokens. */
  async finish(currentUrl: URL, pending: PendingSignIn | undefined): Promise<SsoTokens> {
    const error = currentUrl.searchParams.get('error');
    if (error !== null) {
      const description = currentUrl.searchParams.get('error_description') ?? '';
      throw new SsoError(
        error === 'access_denied' ? 'access_denied' : 'provider_error',
        `the identity provider answered ${error}${description ? `: ${description}` : ''}`,
      );
    }
    if (!pending || pending.exp <= this.#now()) {
      throw new SsoError('expired', 'this sign-in expired or was started elsewhere; sign in again');
    }
    const config = await this.configuration();
    try {
      const tokens = await client.authorizationCodeGrant(config, currentUrl, {
        pkceCodeVerifier: pending.verifier,
        expectedState: pending.state,
        expectedNonce: pending.nonce,
        idTokenExpected: true,
      });
      return this.#tokensOf(tokens);
    } catch (e) {
      const failure = failureOf(e);
      // A key the cached JWKS lacks: read the provider's metadata and keys afresh next time.
      if (failure === 'signing_key') this.forget();
      throw new SsoError(failure, e instanceof Error ? e.message : String(e), { cause: e });
    }
  }

  /** New tokens for a refresh token; throws SsoError (`expired` when the provider refuses it). */
  async refresh(refreshToken: string, previous: Record<string, unknown>): Promise<SsoTokens> {
    try {
      const config = await this.configuration();
      const tokens = await client.refreshTokenGrant(config, refreshToken);
      const next = this.#tokensOf(tokens, refreshToken);
      // A refreshed ID token names the same user (OIDC Core §12.2): sub and iss unchanged.
      if (next.claims.sub !== previous.sub || next.claims.iss !== previous.iss) {
        throw new SsoError('provider_error', 'the refreshed ID token names another user');
      }
      return next;
    } catch (e) {
      const failure = failureOf(e);
      if (failure === 'signing_key') this.forget();
      throw new SsoError(failure, e instanceof Error ? e.message : String(e), { cause: e });
    }
  }

  /** RP-initiated logout at the provider, when its metadata offers it (no token in the URL). */
  async logoutUrl(): Promise<string | undefined> {
    const config = await this.configuration().catch(() => undefined);
    if (!config?.serverMetadata().end_session_endpoint) return undefined;
    return client.buildEndSessionUrl(config, {
      client_id: this.#o.clientId,
      post_logout_redirect_uri: this.#o.postLogoutRedirectUri,
    }).href;
  }

  #tokensOf(
    tokens: client.TokenEndpointResponse & client.TokenEndpointResponseHelpers,
    previousRefresh?: string,
  ): SsoTokens {
    const claims = tokens.claims();
    if (!claims) throw new SsoError('provider_error', 'the provider returned no ID token');
    const now = this.#now();
    let token: string;
    let tokenExp: number;
    if (this.#o.present === 'access_token') {
      token = tokens.access_token;
      const expiresIn = tokens.expiresIn();
      tokenExp = expiresIn !== undefined ? now + expiresIn * 1000 : claims.exp * 1000;
    } else {
      token = tokens.id_token ?? '';
      tokenExp = claims.exp * 1000;
    }
    return {
      token,
      tokenExp,
      refreshToken: tokens.refresh_token ?? previousRefresh,
      claims: { ...claims },
    };
  }
}
