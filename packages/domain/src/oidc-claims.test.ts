import { describe, expect, it } from 'vitest';
import { mapClaims, usernamePrefixFor } from './oidc-claims';

const issuer = 'https://idp.example';

describe('claims mapping as kube-apiserver', () => {
  it('prefixes every claim but email with <issuer># unless a prefix is set; "-" disables', () => {
    expect(usernamePrefixFor({ issuer, usernameClaim: 'sub' })).toBe(`${issuer}#`);
    expect(usernamePrefixFor({ issuer, usernameClaim: 'email' })).toBe('');
    expect(usernamePrefixFor({ issuer, usernameClaim: 'sub', usernamePrefix: '-' })).toBe('');
    expect(usernamePrefixFor({ issuer, usernameClaim: 'email', usernamePrefix: 'sso:' })).toBe(
      'sso:',
    );
  });

  it('maps username and groups (a string or a list), ignoring non-strings', () => {
    const claims = { sub: 'u1', email: 'a@b.c', groups: ['ops', 3, 'dev'], role: 'admin' };
    expect(
      mapClaims(claims, {
        issuer,
        usernameClaim: 'email',
        groupsClaim: 'groups',
        groupsPrefix: 'oidc:',
      }),
    ).toEqual({
      usernameClaimValue: 'a@b.c',
      groupsClaimValues: ['ops', 'dev'],
      username: 'a@b.c',
      groups: ['oidc:ops', 'oidc:dev'],
    });
    expect(mapClaims(claims, { issuer, usernameClaim: 'sub', groupsClaim: 'role' })).toMatchObject({
      username: `${issuer}#u1`,
      groups: ['admin'],
    });
  });

  it('names nobody for a missing claim, and reads no inherited keys (__proto__, constructor)', () => {
    const claims = JSON.parse('{"__proto__":{"polluted":"x"}}') as Record<string, unknown>;
    expect(
      mapClaims(claims, { issuer, usernameClaim: 'constructor', groupsClaim: 'toString' }),
    ).toEqual({
      usernameClaimValue: undefined,
      groupsClaimValues: [],
      username: undefined,
      groups: [],
    });
  });
});
