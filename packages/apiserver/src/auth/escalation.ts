/**
 * RBAC's escalation prevention, as kube-apiserver's rbac registry does it
 * (k8s.io/kubernetes/pkg/registry/rbac: `ConfirmNoEscalation`, `BindingAuthorized`,
 * `EscalationAllowed`): a user may only write a Role or ClusterRole whose rules they already
 * hold themselves, unless they may `escalate` it; and only bind a role whose rules they hold,
 * unless they may `bind` it. Without it, anyone allowed to create RoleBindings (the built-in
 * `admin` in a namespace) could bind `cluster-admin` to themselves, or edit a role they are
 * bound to until it grants everything.
 *
 * Run as a validating admission step on CREATE and UPDATE (patches and server-side apply are
 * updates or creates), on the object as it would be stored, for every user but system:masters.
 * One difference from upstream, on purpose: an update that leaves the granting fields as they
 * were (a Role's rules and aggregationRule; a binding's roleRef and subjects) is not checked —
 * upstream exempts only changes of ownerReferences and finalizers — so that a label can be set
 * by whoever may patch the object, which grants nothing.
 */
import { isDeepStrictEqual } from 'node:util';
import { isObject, own } from '../json';
import { forbidden } from '../status';
import type { AdmissionHook, AdmissionRequest, KubeObject, UserInfo } from '../types';
import { rulesOf, type PolicyRule, type RbacAuthorizer } from './rbac';

const RBAC_GROUP = 'rbac.authorization.k8s.io';

/** A rule reduced to one verb, one group, one resource and at most one name (or one URL). */
interface SimpleRule {
  verb: string;
  group?: string;
  resource?: string;
  name?: string;
  url?: string;
}

function breakdown(rule: PolicyRule): SimpleRule[] {
  const out: SimpleRule[] = [];
  for (const verb of rule.verbs) {
    for (const url of rule.nonResourceURLs ?? []) out.push({ verb, url });
    for (const group of rule.apiGroups ?? []) {
      for (const resource of rule.resources ?? []) {
        const names = rule.resourceNames ?? [];
        if (names.length === 0) out.push({ verb, group, resource });
        for (const name of names) out.push({ verb, group, resource, name });
      }
    }
  }
  return out;
}

function has(list: readonly string[] | undefined, value: string): boolean {
  return (list ?? []).includes('*') || (list ?? []).includes(value);
}

/** Upstream's `ruleCovers`: a star covers anything; a star is covered only by a star. */
function covers(owner: PolicyRule, s: SimpleRule): boolean {
  if (!has(owner.verbs, s.verb)) return false;
  if (s.url !== undefined) {
    const url = s.url;
    return (owner.nonResourceURLs ?? []).some(
      (u) => u === '*' || u === url || (u.endsWith('*') && url.startsWith(u.slice(0, -1))),
    );
  }
  if (s.group === undefined || s.resource === undefined) return false;
  if (!has(owner.apiGroups, s.group)) return false;
  const resources = owner.resources ?? [];
  const slash = s.resource.indexOf('/');
  const resourceOk =
    resources.includes('*') ||
    resources.includes(s.resource) ||
    (slash > 0 && resources.includes(`*${s.resource.slice(slash)}`));
  if (!resourceOk) return false;
  const names = owner.resourceNames ?? [];
  if (names.length === 0) return true;
  return s.name !== undefined && names.includes(s.name);
}

/** The rules of `servant` that `owner` does not cover, as simple rules (empty: covered). */
export function uncovered(
  owner: readonly PolicyRule[],
  servant: readonly PolicyRule[],
): SimpleRule[] {
  return servant.flatMap(breakdown).filter((s) => !owner.some((o) => covers(o, s)));
}

function describeRules(rules: readonly SimpleRule[]): string {
  return rules
    .slice(0, 20)
    .map((r) =>
      r.url !== undefined
        ? `{NonResourceURLs:["${r.url}"], Verbs:["${r.verb}"]}`
        : `{APIGroups:["${r.group ?? ''}"], Resources:["${r.resource ?? ''}"]${r.name !== undefined ? `, ResourceNames:["${r.name}"]` : ''}, Verbs:["${r.verb}"]}`,
    )
    .join('\n');
}

function userLabel(user: UserInfo): string {
  return `user "${user.username}" (groups=[${user.groups.map((g) => `"${g}"`).join(' ')}])`;
}

const FULL_AUTHORITY: PolicyRule[] = [
  { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
  { verbs: ['*'], nonResourceURLs: ['*'] },
];

export function escalationHook(rbac: RbacAuthorizer): AdmissionHook {
  const may = (user: UserInfo, verb: string, resource: string, namespace: string, name: string) =>
    rbac.authorize({
      user,
      verb,
      resourceRequest: true,
      apiGroup: RBAC_GROUP,
      resource,
      subresource: '',
      namespace,
      name,
      path: '',
    }).allowed;

  const checkRole = (req: AdmissionRequest, obj: KubeObject, old: KubeObject | undefined) => {
    const cluster = req.kind.kind === 'ClusterRole';
    const aggregation = own(obj, 'aggregationRule');
    if (
      old &&
      isDeepStrictEqual(own(obj, 'rules'), own(old, 'rules')) &&
      isDeepStrictEqual(aggregation, own(old, 'aggregationRule'))
    )
      return;
    const namespace = cluster ? '' : (req.namespace ?? '');
    const resource = cluster ? 'clusterroles' : 'roles';
    if (may(req.userInfo, 'escalate', resource, namespace, req.name)) return;
    const held = rbac.rules(req.userInfo, namespace);
    const gr = { group: RBAC_GROUP, resource };
    // An aggregated ClusterRole takes the rules of roles chosen by label: any rules at all.
    if (cluster && aggregation !== undefined && uncovered(held, FULL_AUTHORITY).length > 0) {
      throw forbidden(
        gr,
        req.name,
        `${userLabel(req.userInfo)} must have cluster-admin privileges to use the aggregationRule`,
      );
    }
    const missing = uncovered(held, rulesOf(obj));
    if (missing.length > 0) {
      throw forbidden(
        gr,
        req.name,
        `${userLabel(req.userInfo)} is attempting to grant RBAC permissions not currently held:\n${describeRules(missing)}`,
      );
    }
  };

  const checkBinding = (req: AdmissionRequest, obj: KubeObject, old: KubeObject | undefined) => {
    const cluster = req.kind.kind === 'ClusterRoleBinding';
    if (
      old &&
      isDeepStrictEqual(own(obj, 'roleRef'), own(old, 'roleRef')) &&
      isDeepStrictEqual(own(obj, 'subjects'), own(old, 'subjects'))
    )
      return;
    const ref = own(obj, 'roleRef');
    const kind = isObject(ref) ? own(ref, 'kind') : undefined;
    const name = isObject(ref) ? own(ref, 'name') : undefined;
    if (typeof name !== 'string' || (kind !== 'Role' && kind !== 'ClusterRole')) return;
    const namespace = cluster ? '' : (req.namespace ?? '');
    const resource = kind === 'ClusterRole' ? 'clusterroles' : 'roles';
    if (may(req.userInfo, 'bind', resource, namespace, name)) return;
    const role = rbac.role(kind, namespace, name);
    const missing = uncovered(rbac.rules(req.userInfo, namespace), rulesOf(role));
    if (missing.length > 0) {
      const gr = { group: RBAC_GROUP, resource: cluster ? 'clusterrolebindings' : 'rolebindings' };
      throw forbidden(
        gr,
        req.name,
        `${userLabel(req.userInfo)} is attempting to grant RBAC permissions not currently held:\n${describeRules(missing)}`,
      );
    }
  };

  return {
    name: 'rbac-escalation',
    match: {
      operations: ['CREATE', 'UPDATE'],
      kinds: ['Role', 'ClusterRole', 'RoleBinding', 'ClusterRoleBinding'].map((kind) => ({
        group: RBAC_GROUP,
        kind,
      })),
    },
    validate: (req) => {
      const obj = req.object;
      if (!obj || req.userInfo.groups.includes('system:masters')) return { allowed: true };
      if (req.kind.kind === 'Role' || req.kind.kind === 'ClusterRole')
        checkRole(req, obj, req.oldObject);
      else checkBinding(req, obj, req.oldObject);
      return { allowed: true };
    },
  };
}
