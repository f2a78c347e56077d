/**
 * User impersonation, as k8s.io/apiserver/pkg/endpoints/filters/impersonation.go does it between
 * authentication and authorization: the `Impersonate-User`, `Impersonate-Group` (repeatable),
 * `Impersonate-Uid` and `Impersonate-Extra-<key>` headers each ask to act as something, each is
 * authorized (verb `impersonate` on `users`, `groups` or `serviceaccounts` in the core group, on
 * `uids` or `userextras/<key>` in authentication.k8s.io) for the requester, and the request then
 * runs as the user they name.
 */
import type { IncomingMessage } from 'node:http';
import { put } from '../json';
import { forbidden } from '../status';
import type { UserInfo } from '../types';
import { forbiddenReason, type Attributes, type RbacAuthorizer } from './rbac';

const EXTRA_PREFIX = 'impersonate-extra-';
const SERVICE_ACCOUNT_PREFIX = 'system:serviceaccount:';
const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** One thing a request asks to act as (upstream builds a v1.ObjectReference per header value). */
interface ImpersonationRequest {
  kind: 'User' | 'ServiceAccount' | 'Group' | 'UserExtra' | 'UID';
  namespace: string;
  name: string;
  apiVersion: string;
  fieldPath: string;
}

/**
 * A request that names groups, extras or a uid without a user: upstream answers it with a plain
 * text 500 (`responsewriters.InternalError`), not a Status.
 */
export class ImpersonationHeaderError extends Error {
  constructor(
    readonly requestURI: string,
    readonly requests: string,
  ) {
    super(`requested ${requests} without impersonating a user`);
  }

  /** The body upstream writes: `Internal Server Error: "<uri>": <error>`, HTML-escaped. */
  body(): string {
    const text = `Internal Server Error: ${JSON.stringify(this.requestURI)}: ${this.message}`;
    return `${text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')}\n`;
  }
}

/** `serviceaccount.SplitUsername`: namespace and name of a service account's user name. */
function splitServiceAccount(username: string): { namespace: string; name: string } | undefined {
  if (!username.startsWith(SERVICE_ACCOUNT_PREFIX)) return undefined;
  const parts = username.slice(SERVICE_ACCOUNT_PREFIX.length).split(':');
  if (parts.length !== 2) return undefined;
  const [namespace = '', name = ''] = parts;
  if (namespace.length > 63 || !DNS1123_LABEL.test(namespace)) return undefined;
  if (name.length > 253 || !DNS1123_SUBDOMAIN.test(name)) return undefined;
  return { namespace, name };
}

/** `url.PathUnescape`, or the key as it is when it does not unescape. */
function unescapeExtraKey(key: string): string {
  try {
    return decodeURIComponent(key);
  } catch {
    return key;
  }
}

/** Go's `%v` of a v1.ObjectReference: its seven string fields, space separated, in braces. */
function printReference(r: ImpersonationRequest): string {
  return `{${[r.kind, r.namespace, r.name, '', r.apiVersion, '', r.fieldPath].join(' ')}}`;
}

function buildRequests(req: IncomingMessage): ImpersonationRequest[] {
  const headers = req.headersDistinct;
  const out: ImpersonationRequest[] = [];
  const ref = (
    kind: ImpersonationRequest['kind'],
    name: string,
    more: Partial<ImpersonationRequest> = {},
  ): ImpersonationRequest => ({
    kind,
    namespace: '',
    name,
    apiVersion: '',
    fieldPath: '',
    ...more,
  });
  const user = headers['impersonate-user']?.[0] ?? '';
  if (user) {
    const sa = splitServiceAccount(user);
    out.push(sa ? ref('ServiceAccount', sa.name, { namespace: sa.namespace }) : ref('User', user));
  }
  const groups = headers['impersonate-group'] ?? [];
  for (const g of groups) out.push(ref('Group', g));
  let extras = false;
  for (const [header, values] of Object.entries(headers)) {
    if (!header.startsWith(EXTRA_PREFIX) || !values) continue;
    extras = true;
    const key = unescapeExtraKey(header.slice(EXTRA_PREFIX.length));
    for (const v of values) {
      out.push(ref('UserExtra', v, { apiVersion: 'authentication.k8s.io/v1', fieldPath: key }));
    }
  }
  const uid = headers['impersonate-uid']?.[0] ?? '';
  if (uid) out.push(ref('UID', uid, { apiVersion: 'authentication.k8s.io/v1' }));
  if ((groups.length > 0 || extras || uid) && !user) {
    throw new ImpersonationHeaderError(req.url ?? '/', `[${out.map(printReference).join(' ')}]`);
  }
  return out;
}

/**
 * The user a request runs as: `requester` itself when it asks to impersonate nobody, else the
 * user its headers name, once the requester may impersonate each part of it (a 403 Forbidden
 * naming the first part it may not, worded as upstream's `responsewriters.Forbidden`).
 */
export function impersonate(
  req: IncomingMessage,
  requester: UserInfo,
  rbac: RbacAuthorizer,
): UserInfo {
  const requests = buildRequests(req);
  if (requests.length === 0) return requester;
  const groupsSpecified = (req.headersDistinct['impersonate-group'] ?? []).length > 0;
  let username = '';
  let groups: string[] = [];
  const extra = new Map<string, string[]>();
  let uid = '';
  for (const r of requests) {
    const attrs: Attributes = {
      user: requester,
      verb: 'impersonate',
      resourceRequest: true,
      apiGroup: r.apiVersion ? 'authentication.k8s.io' : '',
      resource: '',
      subresource: '',
      namespace: r.namespace,
      name: r.name,
      path: req.url ?? '/',
    };
    switch (r.kind) {
      case 'ServiceAccount':
        attrs.resource = 'serviceaccounts';
        username = `${SERVICE_ACCOUNT_PREFIX}${r.namespace}:${r.name}`;
        if (!groupsSpecified) {
          groups = ['system:serviceaccounts', `system:serviceaccounts:${r.namespace}`];
        }
        break;
      case 'User':
        attrs.resource = 'users';
        username = r.name;
        break;
      case 'Group':
        attrs.resource = 'groups';
        groups.push(r.name);
        break;
      case 'UserExtra':
        attrs.resource = 'userextras';
        attrs.subresource = r.fieldPath;
        extra.set(r.fieldPath, [...(extra.get(r.fieldPath) ?? []), r.name]);
        break;
      case 'UID':
        attrs.resource = 'uids';
        uid = r.name;
        break;
    }
    const decision = rbac.authorize(attrs);
    if (!decision.allowed) {
      throw forbidden(
        { group: attrs.apiGroup, resource: attrs.resource },
        r.name,
        forbiddenReason(attrs),
      );
    }
  }
  if (username !== 'system:anonymous') {
    // system:authenticated unless the groups say authenticated or unauthenticated already.
    if (!groups.some((g) => g === 'system:authenticated' || g === 'system:unauthenticated')) {
      groups.push('system:authenticated');
    }
  } else if (!groups.includes('system:unauthenticated')) {
    groups.push('system:unauthenticated');
  }
  const user: UserInfo = { username, groups };
  if (uid) user.uid = uid;
  if (extra.size > 0) {
    // Header names are data: a key such as __proto__ is a key like any other.
    const record: Record<string, string[]> = {};
    for (const [k, v] of extra) put(record, k, v);
    user.extra = record;
  }
  return user;
}
