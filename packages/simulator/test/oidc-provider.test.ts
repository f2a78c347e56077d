import { oidcOptionsFromFlags } from '@dcs/apiserver';
import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedCluster, type EmbeddedCluster } from '../src/embedded';
import { signInAtProvider } from '../src/oidc/browser';
import {
  CONSOLE_CLIENT_ID,
  oidcTrustFlags,
  startEmbeddedOidcProvider,
  type EmbeddedOidcProvider,
} from '../src/oidc/provider';

/**
 * The embedded OpenID provider, driven as a relying party would (openid-client: code flow with
 * PKCE S256, state and nonce) and a browser would (its own login and consent pages over HTTP),
 * and the embedded cluster trusting its ID tokens.
 */

const REDIRECT = 'http://127.0.0.1:9/callback';

let op: EmbeddedOidcProvider;
let cluster: EmbeddedCluster;
let config: client.Configuration;

beforeAll(async () => {
  op = await startEmbeddedOidcProvider({ redirectUris: [REDIRECT] });
  const trust = oidcOptionsFromFlags(oidcTrustFlags(op.issuer), () => '');
  cluster = await startEmbeddedCluster({ tls: false, ...(trust ? { oidc: trust } : {}) });
  config = await client.discovery(new URL(op.issuer), CONSOLE_CLIENT_ID, undefined, client.None(), {
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- the embedded provider is plain HTTP on loopback
    execute: [client.allowInsecureRequests],
  });
});
afterAll(async () => {
  await cluster.close();
  await op.close();
});

async function signIn(login: string, consent: 'allow' | 'deny' = 'allow') {
  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const nonce = client.randomNonce();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: REDIRECT,
    scope: 'openid email profile groups offline_access',
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    nonce,
  });
  const back = await signInAtProvider(url.href, REDIRECT, { login, consent });
  return { back: new URL(back), verifier, state, nonce };
}

async function tokensOf(login: string) {
  const { back, verifier, state, nonce } = await signIn(login);
  return client.authorizationCodeGrant(config, back, {
    pkceCodeVerifier: verifier,
    expectedState: state,
    expectedNonce: nonce,
  });
}

async function asUser(idToken: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${cluster.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${idToken}`,
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

const whoAmI = async (idToken: string) => {
  const r = await asUser(idToken, 'POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', {
    apiVersion: 'authentication.k8s.io/v1',
    kind: 'SelfSubjectReview',
  });
  return (r.body.status as { userInfo?: unknown } | undefined)?.userInfo;
};

describe('the embedded OpenID provider', () => {
  it('publishes discovery with S256 PKCE, refresh, and RP-initiated logout', () => {
    const meta = config.serverMetadata();
    expect(meta.issuer).toBe(op.issuer);
    expect(meta.code_challenge_methods_supported).toEqual(['S256']);
    expect(meta.grant_types_supported).toContain('refresh_token');
    expect(meta.end_session_endpoint).toBe(`${op.issuer}/session/end`);
  });

  it('signs the operator in through its login and consent pages; the cluster names them and RBAC lets them write', async () => {
    const tokens = await tokensOf('operator');
    const claims = tokens.claims();
    expect(claims).toMatchObject({
      iss: op.issuer,
      aud: CONSOLE_CLIENT_ID,
      sub: 'operator',
      email: 'operator@dcs.example',
      groups: ['dcs-operators'],
    });
    expect(tokens.refresh_token).toBeTruthy();
    const idToken = tokens.id_token ?? '';
    expect(await whoAmI(idToken)).toEqual({
      username: 'operator@dcs.example',
      groups: ['oidc:dcs-operators', 'system:authenticated'],
    });
    const created = await asUser(idToken, 'POST', '/api/v1/namespaces/default/configmaps', {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'by-operator' },
    });
    expect(created.status).toBe(201);
  });

  it('signs the viewer in: they may read machines and may not write', async () => {
    const idToken = (await tokensOf('viewer')).id_token ?? '';
    expect(await whoAmI(idToken)).toMatchObject({ username: 'viewer@dcs.example' });
    const list = await asUser(idToken, 'GET', '/apis/cluster.x-k8s.io/v1beta2/machines');
    expect(list.status).toBe(200);
    const write = await asUser(idToken, 'POST', '/api/v1/namespaces/default/configmaps', {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'by-viewer' },
    });
    expect(write.status).toBe(403);
    expect(write.body.message).toContain('User "viewer@dcs.example" cannot create');
  });

  it('refuses a wrong password on its page, and returns access_denied when consent is refused', async () => {
    await expect(
      signInAtProvider(
        client.buildAuthorizationUrl(config, {
          redirect_uri: REDIRECT,
          scope: 'openid',
          code_challenge: await client.calculatePKCECodeChallenge(client.randomPKCECodeVerifier()),
          code_challenge_method: 'S256',
        }).href,
        REDIRECT,
        { login: 'operator', password: 'wrong' },
      ),
    ).rejects.toThrow(/sign-in refused/);
    const { back } = await signIn('viewer', 'deny');
    expect(back.searchParams.get('error')).toBe('access_denied');
  });

  it('refuses an authorization request without PKCE, and a redirect URI it was not given', async () => {
    const noPkce = client.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT,
      scope: 'openid',
    });
    const back = new URL(await signInAtProvider(noPkce.href, REDIRECT, { login: 'operator' }));
    expect(back.searchParams.get('error')).toBe('invalid_request');
    const other = client.buildAuthorizationUrl(config, {
      redirect_uri: 'http://127.0.0.1:9/elsewhere',
      scope: 'openid',
      code_challenge: await client.calculatePKCECodeChallenge(client.randomPKCECodeVerifier()),
      code_challenge_method: 'S256',
    });
    const res = await fetch(other, { redirect: 'manual' });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('redirect_uri did not match');
  });

  it('refreshes: a new ID token the cluster accepts; after revocation the refresh is refused', async () => {
    const tokens = await tokensOf('operator');
    // A second later, so that the new token's iat/exp differ from the first's.
    await new Promise((r) => setTimeout(r, 1100));
    const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token ?? '');
    expect(refreshed.id_token).toBeTruthy();
    expect(refreshed.id_token).not.toBe(tokens.id_token);
    expect(await whoAmI(refreshed.id_token ?? '')).toMatchObject({
      username: 'operator@dcs.example',
    });
    await op.revokeAll();
    await expect(
      client.refreshTokenGrant(config, refreshed.refresh_token ?? tokens.refresh_token ?? ''),
    ).rejects.toMatchObject({ error: 'invalid_grant' });
  });

  it('rotates its signing key: new tokens carry the new kid and still verify at the cluster', async () => {
    const before = (await tokensOf('operator')).id_token ?? '';
    await op.rotateKeys();
    const after = (await tokensOf('operator')).id_token ?? '';
    const kid = (t: string) =>
      (JSON.parse(Buffer.from(t.split('.')[0] ?? '', 'base64url').toString()) as { kid: string })
        .kid;
    expect(kid(after)).not.toBe(kid(before));
    await new Promise((r) => setTimeout(r, 1100));
    expect(await whoAmI(after)).toMatchObject({ username: 'operator@dcs.example' });
    expect(await whoAmI(before)).toMatchObject({ username: 'operator@dcs.example' });
  });
});
