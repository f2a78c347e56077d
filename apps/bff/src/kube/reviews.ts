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

export interface Identity {
  username: string;
  groups: string[];
}

/**
 * Who the credential belongs to (SelfSubjectReview, Kubernetes ≥ 1.28). It also proves that the
 * API server accepts the credential: a bad token is a 401 here.
 */
export async function whoAmI(client: KubeClient): Promise<Identity> {
  const res = await client.request('POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', {
    body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' },
  });
  const info = (res.body as ReviewStatus | undefined)?.status?.userInfo;
  return { username: info?.username ?? 'unknown', groups: info?.groups ?? [] };
}
