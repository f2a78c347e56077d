import { KubeApiError } from './errors';
import type { KubeClient } from './rest';

/** Access and identity reviews, asked with the user's own credential (no special rights needed). */

export interface ResourceAttributes {
  verb: string;
  group: string;
  resource: string;
  namespace?: string;
  name?: string;
  subresource?: string;
}

interface ReviewStatus {
  status?: {
    allowed?: boolean;
    denied?: boolean;
    reason?: string;
    userInfo?: { username?: string; groups?: string[] };
  };
}

export async function selfAccessReview(
  client: KubeClient,
  attrs: ResourceAttributes,
): Promise<{ allowed: boolean; reason?: string }> {
  const res = await client.request(
    'POST',
    '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews',
    {
      body: {
        apiVersion: 'authorization.k8s.io/v1',
        kind: 'SelfSubjectAccessReview',
        spec: { resourceAttributes: attrs },
      },
    },
  );
  const status = (res.body as ReviewStatus | undefined)?.status;
  return {
    allowed: status?.allowed === true && status.denied !== true,
    ...(status?.reason ? { reason: status.reason } : {}),
  };
}

/** The name of a user the API server did not name (or could not be asked about). */
export const UNKNOWN_USER = 'unknown';

export interface Identity {
  username: string;
  groups: string[];
}

/**
 * The SelfSubjectReview versions, newest first: GA in Kubernetes 1.28, beta in 1.27, alpha (behind
 * a feature gate) in 1.26. A server without the kind answers 404 (no such resource).
 */
const SELF_SUBJECT_REVIEWS = ['v1', 'v1beta1', 'v1alpha1'] as const;

/**
 * Who the credential belongs to, and proof that the API server accepts it: a bad token is a 401
 * (a `KubeApiError`) here, whatever the server's version.
 *
 * Asked with a SelfSubjectReview (issue 13 item 5). A server older than 1.28 may lack it (404)
 * and RBAC may forbid it (403): the token is then proven by a SelfSubjectAccessReview, which any
 * authenticated user may create and which a server answers with 401 for a token it does not
 * accept. That review says nothing of who the user is, so the name comes from the token when it
 * is a JWT the server just accepted (`sub`, as for service accounts), else `unknown`. Only a
 * refused access review (a 403 there too) is an error besides 401: the token is genuine but may
 * do nothing, and the caller reports that as a 403, not as a bad token.
 */
export async function whoAmI(client: KubeClient): Promise<Identity> {
  for (const version of SELF_SUBJECT_REVIEWS) {
    try {
      const res = await client.request(
        'POST',
        `/apis/authentication.k8s.io/${version}/selfsubjectreviews`,
        { body: { apiVersion: `authentication.k8s.io/${version}`, kind: 'SelfSubjectReview' } },
      );
      const info = (res.body as ReviewStatus | undefined)?.status?.userInfo;
      return { username: info?.username ?? UNKNOWN_USER, groups: info?.groups ?? [] };
    } catch (error) {
      if (!(error instanceof KubeApiError)) throw error;
      if (error.status === 403) break;
      if (error.status !== 404) throw error;
    }
  }
  // Any verb on any resource: only the answer's status matters (201, or 401 for a bad token).
  try {
    await selfAccessReview(client, { verb: 'get', group: '', resource: 'namespaces' });
  } catch (error) {
    if (error instanceof KubeApiError && error.status === 403) {
      throw new KubeApiError(
        403,
        'Forbidden',
        `the API server accepted this token but forbids it to review its own access: ${error.message}`,
      );
    }
    throw error;
  }
  return { username: jwtSubject(client) ?? UNKNOWN_USER, groups: [] };
}

/** The `sub` claim of the bearer token a client carries, when it is a JWT. Display only. */
function jwtSubject(client: KubeClient): string | undefined {
  const token = client.bearerToken;
  const payload = token?.split('.')[1];
  if (token === undefined || payload === undefined || token.split('.').length !== 3) {
    return undefined;
  }
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as unknown;
    const sub =
      typeof claims === 'object' && claims !== null ? (claims as { sub?: unknown }).sub : undefined;
    return typeof sub === 'string' && sub !== '' ? sub : undefined;
  } catch {
    return undefined;
  }
}
