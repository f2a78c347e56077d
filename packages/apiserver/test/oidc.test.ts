/* eslint-disable @typescript-eslint/no-unsafe-member-access -- responses are JSON from the wire */
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCertificateAuthority, createServingCertificate } from '../src/certs';
import { JWKS_COOLDOWN_MS, oidcOptionsFromFlags, type OidcOptions } from '../src/auth/oidc';
import { startTestServer, type TestServer } from './support/server';

/**
 * The OIDC authenticator against a real issuer on loopback: a discovery document and a JWKS
 * served over HTTP(S), tokens signed with jose keys, requests sent to the API server over HTTP.
 */

interface Issuer {
  url: string;
  server: Server;
  keys: JWK[];
  fetches: number;
}

async function startIssuer(
  make: (h: Parameters<typeof createHttpServer>[1]) => Server = (h) => createHttpServer(h),
  scheme = 'http',
): Promise<Issuer> {
  const issuer: Issuer = { url: '', server: undefined as unknown as Server, keys: [], fetches: 0 };
  issuer.server = make((req, res) => {
    if (req.url === '/.well-known/openid-configuration') {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ issuer: issuer.url, jwks_uri: `${issuer.url}/jwks` }));
    } else if (req.url === '/jwks') {
      issuer.fetches++;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ keys: issuer.keys }));
    } else {
      res.statusCode = 404;
      res.end();
    }
  });
  await new Promise<void>((r) => issuer.server.listen(0, '127.0.0.1', r));
  issuer.url = `${scheme}://127.0.0.1:${String((issuer.server.address() as AddressInfo).port)}`;
  return issuer;
}

async function keyPair(kid: string): Promise<{ key: CryptoKey; jwk: JWK }> {
  const { publicKey, privateKey } = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' };
  return { key: privateKey, jwk };
}

function must(o: OidcOptions | undefined): OidcOptions {
  if (!o) throw new Error('no OIDC options');
  return o;
}

const now = () => Math.floor(Date.now() / 1000);

function sign(
  key: CryptoKey,
  kid: string,
  claims: Record<string, unknown>,
  o: { iss: string; aud?: string; exp?: number; nbf?: number; alg?: string },
): Promise<string> {
  const jwt = new SignJWT(claims)
    .setProtectedHeader({ alg: o.alg ?? 'RS256', kid })
    .setIssuer(o.iss)
    .setAudience(o.aud ?? 'console')
    .setIssuedAt()
    .setExpirationTime(o.exp ?? now() + 300);
  if (o.nbf !== undefined) jwt.setNotBefore(o.nbf);
  return jwt.sign(key);
}

const review = async (t: TestServer, token: string) => {
  const r = await t.api('POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', {
    token,
    body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' },
  });
  return {
    status: r.status,
    user:
      r.status === 201
        ? (r.body.status.userInfo as { username: string; groups: string[] })
        : undefined,
  };
};

describe('the OIDC authenticator (kube-apiserver --oidc-* flags)', () => {
  let issuer: Issuer;
  let t: TestServer;
  let k1: { key: CryptoKey; jwk: JWK };
  let options: OidcOptions;

  beforeAll(async () => {
    issuer = await startIssuer();
    k1 = await keyPair('k1');
    issuer.keys = [k1.jwk];
    options = must(
      oidcOptionsFromFlags(
        {
          'oidc-issuer-url': issuer.url,
          'oidc-client-id': 'console',
          'oidc-groups-claim': 'groups',
          'oidc-groups-prefix': 'oidc:',
        },
        () => '',
      ),
    );
    t = await startTestServer({ oidc: options });
    await t.server.client.create({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: 'oidc-ops-admin' },
      roleRef: {
        apiGroup: 'rbac.authorization.k8s.io',
        kind: 'ClusterRole',
        name: 'cluster-admin',
      },
      subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'oidc:ops' }],
    });
  });
  afterAll(async () => {
    await t.server.close();
    issuer.server.close();
  });

  it('names the user <issuer>#sub and the groups with their prefix', async () => {
    const token = await sign(
      k1.key,
      'k1',
      { sub: 'alice', groups: ['ops', 'dev'] },
      { iss: issuer.url },
    );
    expect(await review(t, token)).toEqual({
      status: 201,
      user: {
        username: `${issuer.url}#alice`,
        groups: ['oidc:ops', 'oidc:dev', 'system:authenticated'],
      },
    });
  });

  it('lets RBAC decide on the resulting user: a bound group may, another may not', async () => {
    const ops = await sign(k1.key, 'k1', { sub: 'alice', groups: ['ops'] }, { iss: issuer.url });
    const dev = await sign(k1.key, 'k1', { sub: 'bob', groups: 'dev' }, { iss: issuer.url });
    expect((await t.api('GET', '/api/v1/namespaces', { token: ops })).status).toBe(200);
    const denied = await t.api('GET', '/api/v1/namespaces', { token: dev });
    expect(denied.status).toBe(403);
    expect(denied.body.message).toContain(`User "${issuer.url}#bob" cannot list`);
  });

  it.each([
    ['another audience', { aud: 'someone-else' }],
    ['an expired token', { exp: now() - 10 }],
    ['a token not valid yet (nbf)', { nbf: now() + 600 }],
  ])('refuses %s (401)', async (_what, o) => {
    const token = await sign(k1.key, 'k1', { sub: 'alice' }, { iss: issuer.url, ...o });
    expect((await review(t, token)).status).toBe(401);
  });

  it('refuses another issuer, a forged signature and an HMAC token signed with the public key', async () => {
    const other = await sign(k1.key, 'k1', { sub: 'alice' }, { iss: 'https://evil.example' });
    expect((await review(t, other)).status).toBe(401);
    const forger = await keyPair('k1');
    const forged = await sign(forger.key, 'k1', { sub: 'alice' }, { iss: issuer.url });
    expect((await review(t, forged)).status).toBe(401);
    const hs = await new SignJWT({ sub: 'alice' })
      .setProtectedHeader({ alg: 'HS256', kid: 'k1' })
      .setIssuer(issuer.url)
      .setAudience('console')
      .setExpirationTime(now() + 60)
      .sign(new TextEncoder().encode(JSON.stringify(k1.jwk)));
    expect((await review(t, hs)).status).toBe(401);
    const unsigned = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(JSON.stringify({ iss: issuer.url, aud: 'console', sub: 'alice', exp: now() + 60 })).toString('base64url')}.`;
    expect((await review(t, unsigned)).status).toBe(401);
  });

  it('refuses a username claim that is missing or not a string, and groups that are not strings', async () => {
    const noSub = await sign(k1.key, 'k1', { name: 'x' }, { iss: issuer.url });
    expect((await review(t, noSub)).status).toBe(401);
    const badGroups = await sign(k1.key, 'k1', { sub: 'a', groups: [1, 2] }, { iss: issuer.url });
    expect((await review(t, badGroups)).status).toBe(401);
  });

  it('takes a rotated signing key from the JWKS again (unknown kid), after the cooldown', async () => {
    const k2 = await keyPair('k2');
    issuer.keys = [k2.jwk];
    await new Promise((r) => setTimeout(r, JWKS_COOLDOWN_MS + 100));
    const before = issuer.fetches;
    const token = await sign(k2.key, 'k2', { sub: 'carol' }, { iss: issuer.url });
    expect(await review(t, token)).toMatchObject({
      status: 201,
      user: { username: `${issuer.url}#carol` },
    });
    expect(issuer.fetches).toBe(before + 1);
    // The retired key is no longer trusted.
    const old = await sign(k1.key, 'k1', { sub: 'alice' }, { iss: issuer.url });
    expect((await review(t, old)).status).toBe(401);
    issuer.keys = [k1.jwk, k2.jwk];
  });

  it('keeps static tokens working beside OIDC', async () => {
    expect((await review(t, 'admin-token')).user?.username).toBe('admin');
    expect((await review(t, 'not-a-token')).status).toBe(401);
  });
});

describe('username prefixes and claims as kube-apiserver defaults them', () => {
  let issuer: Issuer;
  let key: { key: CryptoKey; jwk: JWK };
  beforeAll(async () => {
    issuer = await startIssuer();
    key = await keyPair('k');
    issuer.keys = [key.jwk];
  });
  afterAll(() => {
    issuer.server.close();
  });

  it.each([
    ['email: no prefix', { 'oidc-username-claim': 'email' }, 'a@example.com'],
    ['sub with "-": no prefix', { 'oidc-username-prefix': '-' }, 'alice'],
    ['an explicit prefix', { 'oidc-username-prefix': 'sso:' }, 'sso:alice'],
    ['preferred_username: <issuer>#', { 'oidc-username-claim': 'preferred_username' }, '#al'],
  ])('%s', async (_what, flags, expected) => {
    const t = await startTestServer({
      oidc: must(
        oidcOptionsFromFlags(
          { 'oidc-issuer-url': issuer.url, 'oidc-client-id': 'console', ...flags },
          () => '',
        ),
      ),
    });
    try {
      const token = await sign(
        key.key,
        'k',
        { sub: 'alice', email: 'a@example.com', email_verified: true, preferred_username: 'al' },
        { iss: issuer.url },
      );
      const user = (await review(t, token)).user;
      expect(user?.username).toBe(expected.startsWith('#') ? `${issuer.url}${expected}` : expected);
    } finally {
      await t.server.close();
    }
  });

  it('refuses an email claim whose email_verified is false, and a missing required claim', async () => {
    const t = await startTestServer({
      oidc: must(
        oidcOptionsFromFlags(
          {
            'oidc-issuer-url': issuer.url,
            'oidc-client-id': 'console',
            'oidc-username-claim': 'email',
            'oidc-required-claim': 'tenant=acme',
          },
          () => '',
        ),
      ),
    });
    try {
      const claims = { sub: 'a', email: 'a@example.com', email_verified: false, tenant: 'acme' };
      const unverified = await sign(key.key, 'k', claims, { iss: issuer.url });
      expect((await review(t, unverified)).status).toBe(401);
      const noTenant = await sign(
        key.key,
        'k',
        { ...claims, email_verified: true, tenant: 'x' },
        { iss: issuer.url },
      );
      expect((await review(t, noTenant)).status).toBe(401);
      const good = await sign(
        key.key,
        'k',
        { ...claims, email_verified: true },
        { iss: issuer.url },
      );
      expect((await review(t, good)).user?.username).toBe('a@example.com');
    } finally {
      await t.server.close();
    }
  });

  it('refuses flags without a client id or with a plain-HTTP issuer that is not loopback', async () => {
    expect(() => oidcOptionsFromFlags({ 'oidc-issuer-url': issuer.url }, () => '')).toThrow(
      /--oidc-client-id/,
    );
    await expect(
      startTestServer({ oidc: { issuerUrl: 'http://idp.example.com', clientId: 'c' } }),
    ).rejects.toThrow(/must be https/);
  });
});

describe('an HTTPS issuer trusted through --oidc-ca-file', () => {
  it('verifies with the given CA, and refuses every token without it', async () => {
    const ca = await createCertificateAuthority('oidc-test-ca');
    const cert = await createServingCertificate(ca, ['127.0.0.1']);
    const issuer = await startIssuer(
      (h) => createHttpsServer({ cert: cert.certPem, key: cert.keyPem }, h),
      'https',
    );
    const key = await keyPair('k');
    issuer.keys = [key.jwk];
    const flags = {
      'oidc-issuer-url': issuer.url,
      'oidc-client-id': 'console',
      'oidc-ca-file': 'ca.pem',
    };
    const withCa = await startTestServer({
      oidc: must(oidcOptionsFromFlags(flags, (f) => (f === 'ca.pem' ? ca.certPem : ''))),
    });
    const withoutCa = await startTestServer({
      oidc: must(oidcOptionsFromFlags({ ...flags, 'oidc-ca-file': undefined }, () => '')),
    });
    try {
      const token = await sign(key.key, 'k', { sub: 'alice' }, { iss: issuer.url });
      expect((await review(withCa, token)).user?.username).toBe(`${issuer.url}#alice`);
      expect((await review(withoutCa, token)).status).toBe(401);
    } finally {
      await withCa.server.close();
      await withoutCa.server.close();
      issuer.server.close();
    }
  });
});
