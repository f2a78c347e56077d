import { describe, expect, it } from 'vitest';
import * as client from 'openid-client';
import { failureOf, SsoError } from './oidc';

/** The reasons the sign-in page names, from the errors openid-client throws. */
describe('failureOf', () => {
  const ope = (code: string, message = 'x', cause?: unknown) =>
    Object.assign(new Error(message, { cause }), { code });

  it('names clock skew, an unknown signing key and a foreign state', () => {
    expect(failureOf(ope('OAUTH_JWT_TIMESTAMP_CHECK_FAILED'))).toBe('clock_skew');
    expect(failureOf(ope('OAUTH_KEY_SELECTION_FAILED'))).toBe('signing_key');
    expect(
      failureOf(ope('OAUTH_INVALID_RESPONSE', 'unexpected "state" response parameter value')),
    ).toBe('expired');
    expect(failureOf(ope('OAUTH_JWT_CLAIM_COMPARISON_FAILED', 'nonce', { claim: 'nonce' }))).toBe(
      'expired',
    );
  });

  it('names a network failure the provider being unavailable, and keeps an SsoError’s reason', () => {
    expect(failureOf(new TypeError('fetch failed'))).toBe('provider_unavailable');
    expect(failureOf(new SsoError('not_trusted', 'no'))).toBe('not_trusted');
    expect(failureOf(new Error('anything else'))).toBe('provider_error');
  });

  it('names access_denied from the authorization response', () => {
    const e = new client.AuthorizationResponseError('denied', {
      cause: new URLSearchParams({ error: 'access_denied' }),
    });
    expect(failureOf(e)).toBe('access_denied');
  });
});
