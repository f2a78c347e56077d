/**
 * The access reviews of authorization.k8s.io/v1 and authentication.k8s.io/v1 SelfSubjectReview:
 * create-only, answered from the same RBAC authorizer that guards every request.
 */
import { isObject, type JsonObject } from '../json';
import { badRequest } from '../status';
import type { KubeObject, UserInfo } from '../types';
import type { Attributes, RbacAuthorizer } from './rbac';

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

function attributesOf(spec: JsonObject, user: UserInfo, namespaceOverride?: string): Attributes {
  const ra = spec.resourceAttributes;
  const nra = spec.nonResourceAttributes;
  if (isObject(ra)) {
    return {
      user,
      verb: str(ra.verb),
      resourceRequest: true,
      apiGroup: str(ra.group),
      resource: str(ra.resource),
      subresource: str(ra.subresource),
      namespace: namespaceOverride ?? str(ra.namespace),
      name: str(ra.name),
      path: '',
    };
  }
  if (isObject(nra)) {
    return {
      user,
      verb: str(nra.verb),
      resourceRequest: false,
      apiGroup: '',
      resource: '',
      subresource: '',
      namespace: '',
      name: '',
      path: str(nra.path),
    };
  }
  throw badRequest('exactly one of nonResourceAttributes or resourceAttributes must be specified');
}

function review(body: KubeObject, allowed: boolean, reason: string): KubeObject {
  const status: JsonObject = { allowed };
  if (reason) status.reason = reason;
  return { ...body, metadata: { ...body.metadata, creationTimestamp: null }, status };
}

export function answerReview(
  kind: string,
  body: KubeObject,
  requester: UserInfo,
  rbac: RbacAuthorizer,
  urlNamespace: string,
): KubeObject {
  const spec = isObject(body.spec) ? body.spec : {};
  switch (kind) {
    case 'SelfSubjectAccessReview': {
      const d = rbac.authorize(attributesOf(spec, requester));
      return review(body, d.allowed, d.reason);
    }
    case 'SubjectAccessReview':
    case 'LocalSubjectAccessReview': {
      const groups = Array.isArray(spec.groups)
        ? spec.groups.filter((g): g is string => typeof g === 'string')
        : [];
      const user: UserInfo = { username: str(spec.user), groups };
      if (!user.username && groups.length === 0) {
        throw badRequest('at least one of user or group must be specified');
      }
      const d = rbac.authorize(
        attributesOf(spec, user, kind === 'LocalSubjectAccessReview' ? urlNamespace : undefined),
      );
      return review(body, d.allowed, d.reason);
    }
    case 'SelfSubjectRulesReview': {
      const ns = str(spec.namespace);
      const rules = rbac.rules(requester, ns);
      return {
        ...body,
        metadata: { ...body.metadata, creationTimestamp: null },
        status: {
          resourceRules: rules
            .filter((r) => r.resources !== undefined)
            .map((r) => ({
              verbs: r.verbs,
              apiGroups: r.apiGroups ?? [],
              resources: r.resources ?? [],
              ...(r.resourceNames?.length ? { resourceNames: r.resourceNames } : {}),
            })),
          nonResourceRules: rules
            .filter((r) => r.nonResourceURLs !== undefined)
            .map((r) => ({ verbs: r.verbs, nonResourceURLs: r.nonResourceURLs ?? [] })),
          incomplete: false,
        },
      };
    }
    case 'SelfSubjectReview': {
      const userInfo: JsonObject = { username: requester.username, groups: requester.groups };
      if (requester.uid) userInfo.uid = requester.uid;
      if (requester.extra) userInfo.extra = requester.extra;
      return {
        ...body,
        metadata: { ...body.metadata, creationTimestamp: null },
        status: { userInfo },
      };
    }
    default:
      throw badRequest(`${kind} is not a review`);
  }
}
