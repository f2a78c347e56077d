import { describe, expect, it } from 'vitest';
import { errorFromResponse, KubeApiError } from './errors';
import type { KubeClient, KubeResponse, RequestOptions } from './rest';
import { whoAmI } from './reviews';

/**
 * An API server that answers reviews as the given version would: `reviews` maps a review path to
 * its HTTP status (404 = the kind does not exist there); a bad token is a 401 everywhere.
 */
function server(
  reviews: Record<string, number>,
  options: { token?: string; tokenOk?: boolean } = {},
): KubeClient & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    ...(options.token !== undefined ? { bearerToken: options.token } : {}),
    request(_method: string, path: string, _o?: RequestOptions): Promise<KubeResponse> {
      asked.push(path);
      if (options.tokenOk === false) {
        return Promise.reject(errorFromResponse(401, { code: 401, reason: 'Unauthorized' }));
      }
      const status = reviews[path] ?? 404;
      if (status !== 201) {
        return Promise.reject(
          errorFromResponse(status, { code: status, message: `${path}: HTTP ${String(status)}` }),
        );
      }
      const body = path.includes('selfsubjectreviews')
        ? { status: { userInfo: { username: 'alice', groups: ['ops'] } } }
        : { status: { allowed: false } };
      return Promise.resolve({ status, body });
    },
  };
}

const SSR = (v: string) => `/apis/authentication.k8s.io/${v}/selfsubjectreviews`;
const SSAR = '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews';
const jwt = (claims: object) =>
  ['e30', Buffer.from(JSON.stringify(claims)).toString('base64url'), 'sig'].join('.');

describe('whoAmI: proving a token on any server version (issue 13 item 5)', () => {
  it('asks SelfSubjectReview v1 on a server ≥ 1.28', async () => {
    const s = server({ [SSR('v1')]: 201 });
    await expect(whoAmI(s)).resolves.toEqual({ username: 'alice', groups: ['ops'] });
    expect(s.asked).toEqual([SSR('v1')]);
  });

  it('falls back to v1beta1 on 1.27', async () => {
    const s = server({ [SSR('v1beta1')]: 201 });
    await expect(whoAmI(s)).resolves.toEqual({ username: 'alice', groups: ['ops'] });
    expect(s.asked).toEqual([SSR('v1'), SSR('v1beta1')]);
  });

  it('proves the token with a SelfSubjectAccessReview where no SelfSubjectReview exists', async () => {
    const s = server({ [SSAR]: 201 }, { token: jwt({ sub: 'system:serviceaccount:ops:bob' }) });
    await expect(whoAmI(s)).resolves.toEqual({
      username: 'system:serviceaccount:ops:bob',
      groups: [],
    });
    expect(s.asked).toEqual([SSR('v1'), SSR('v1beta1'), SSR('v1alpha1'), SSAR]);
    await expect(whoAmI(server({ [SSAR]: 201 }, { token: 'opaque' }))).resolves.toEqual({
      username: 'unknown',
      groups: [],
    });
  });

  it('proves the token with an access review when RBAC forbids the SelfSubjectReview (403)', async () => {
    const s = server({ [SSR('v1')]: 403, [SSAR]: 201 });
    await expect(whoAmI(s)).resolves.toMatchObject({ username: 'unknown' });
    expect(s.asked).toEqual([SSR('v1'), SSAR]);
  });

  it('says 401 for a token the server does not accept, on every server version', async () => {
    for (const reviews of [{ [SSR('v1')]: 201 }, { [SSAR]: 201 }]) {
      const error = await whoAmI(server(reviews, { tokenOk: false })).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(KubeApiError);
      expect((error as KubeApiError).status).toBe(401);
    }
  });

  it('says 403 (not a bad token) when the server refuses every review of a genuine token', async () => {
    const error = await whoAmI(server({ [SSR('v1')]: 403, [SSAR]: 403 })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(KubeApiError);
    expect((error as KubeApiError).status).toBe(403);
    expect((error as KubeApiError).message).toMatch(/accepted this token but forbids it/);
  });
});
