/**
 * RBAC over the Role, ClusterRole, RoleBinding and ClusterRoleBinding objects stored in the server
 * itself, with the matching rules of k8s.io/kubernetes/plugin/pkg/auth/authorizer/rbac: apiGroups,
 * resources (plural, plural/subresource, a star, star/subresource), verbs, resourceNames and
 * nonResourceURLs; subjects User, Group and ServiceAccount. Members of system:masters are allowed
 * everything, as the real server's privileged-group authorizer does.
 */
import { isObject, own } from '../json';
import type { KubeObject, UserInfo } from '../types';

export interface Attributes {
  user: UserInfo;
  verb: string;
  resourceRequest: boolean;
  apiGroup: string;
  resource: string;
  subresource: string;
  namespace: string;
  name: string;
  path: string;
}

export interface Decision {
  allowed: boolean;
  reason: string;
}

export interface PolicyRule {
  verbs: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

/** Where the authorizer reads the policy from (the store). */
export interface RbacSource {
  clusterRoleBindings(): KubeObject[];
  roleBindings(namespace: string): KubeObject[];
  clusterRole(name: string): KubeObject | undefined;
  role(namespace: string, name: string): KubeObject | undefined;
}

function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

/**
 * The rules of a Role or ClusterRole. Only own properties are read (here and for bindings and
 * subjects): a field a rule does not have must never be supplied by a prototype.
 */
export function rulesOf(role: KubeObject | undefined): PolicyRule[] {
  const rules = role ? own(role, 'rules') : undefined;
  if (!Array.isArray(rules)) return [];
  return rules.filter(isObject).map((r) => {
    const rule: PolicyRule = { verbs: strings(own(r, 'verbs')) };
    const apiGroups = own(r, 'apiGroups');
    const resources = own(r, 'resources');
    const resourceNames = own(r, 'resourceNames');
    const nonResourceURLs = own(r, 'nonResourceURLs');
    if (apiGroups !== undefined) rule.apiGroups = strings(apiGroups);
    if (resources !== undefined) rule.resources = strings(resources);
    if (resourceNames !== undefined) rule.resourceNames = strings(resourceNames);
    if (nonResourceURLs !== undefined) rule.nonResourceURLs = strings(nonResourceURLs);
    return rule;
  });
}

function subjectMatches(subject: unknown, user: UserInfo, bindingNamespace: string): boolean {
  if (!isObject(subject)) return false;
  const kind = own(subject, 'kind');
  const name = own(subject, 'name');
  if (kind === 'User') return name === user.username;
  if (kind === 'Group') return typeof name === 'string' && user.groups.includes(name);
  if (kind === 'ServiceAccount') {
    const namespace = own(subject, 'namespace');
    const ns = typeof namespace === 'string' && namespace ? namespace : bindingNamespace;
    return user.username === `system:serviceaccount:${ns}:${String(name)}`;
  }
  return false;
}

export function ruleAllows(rule: PolicyRule, a: Omit<Attributes, 'user'>): boolean {
  if (!rule.verbs.includes('*') && !rule.verbs.includes(a.verb)) return false;
  if (!a.resourceRequest) {
    return (rule.nonResourceURLs ?? []).some(
      (u) => u === '*' || u === a.path || (u.endsWith('*') && a.path.startsWith(u.slice(0, -1))),
    );
  }
  const groups = rule.apiGroups ?? [];
  if (!groups.includes('*') && !groups.includes(a.apiGroup)) return false;
  const combined = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
  const resources = rule.resources ?? [];
  const resOk = resources.some(
    (r) => r === '*' || r === combined || (a.subresource !== '' && r === `*/${a.subresource}`),
  );
  if (!resOk) return false;
  const names = rule.resourceNames ?? [];
  if (names.length === 0) return true;
  return a.name !== '' && names.includes(a.name);
}

function subjectsOf(binding: KubeObject): unknown[] {
  const subjects = own(binding, 'subjects');
  return Array.isArray(subjects) ? (subjects as unknown[]) : [];
}

function roleRefOf(binding: KubeObject): { kind: unknown; name: unknown } {
  const ref = own(binding, 'roleRef');
  return isObject(ref)
    ? { kind: own(ref, 'kind'), name: own(ref, 'name') }
    : { kind: undefined, name: undefined };
}

interface Grant {
  bindingKind: 'ClusterRoleBinding' | 'RoleBinding';
  binding: string;
  namespace: string;
  roleKind: string;
  role: string;
  rules: readonly PolicyRule[];
  subject: string;
}

function subjectLabel(subject: unknown): string {
  if (!isObject(subject)) return '';
  const kind = String(subject.kind);
  const ns =
    typeof subject.namespace === 'string' && subject.namespace ? `${subject.namespace}/` : '';
  return `${kind} "${ns}${String(subject.name)}"`;
}

/** Decisions remembered at most; past it the cache starts over (names make keys unbounded). */
const MAX_CACHED_DECISIONS = 10_000;

export class RbacAuthorizer {
  /**
   * Decisions by user and request attributes. Evaluating one reads every binding and role from
   * the store; they change rarely, requests are many, so the server clears this on any change to
   * an RBAC object (`invalidate`).
   */
  private readonly decisions = new Map<string, Decision>();
  private readonly grantsByUser = new Map<string, readonly Grant[]>();

  constructor(private readonly source: RbacSource) {}

  invalidate(): void {
    this.decisions.clear();
    this.grantsByUser.clear();
  }

  /**
   * Every grant that applies to the user in a namespace (cluster grants always apply), in the
   * order they are evaluated. Remembered per user and namespace until an RBAC object changes: a
   * decision for a new object name (every create of a new name misses the decision cache) then
   * matches a few rules instead of reading and converting every binding and role in the store.
   */
  private grants(user: UserInfo, namespace: string): readonly Grant[] {
    const key = `${user.username}\0${user.groups.join('\0')}\0\0${namespace}`;
    let grants = this.grantsByUser.get(key);
    if (!grants) {
      grants = [...this.readGrants(user, namespace)];
      if (this.grantsByUser.size >= MAX_CACHED_DECISIONS) this.grantsByUser.clear();
      this.grantsByUser.set(key, grants);
    }
    return grants;
  }

  private *readGrants(user: UserInfo, namespace: string): Generator<Grant> {
    for (const b of this.source.clusterRoleBindings()) {
      const subject = subjectsOf(b).find((s) => subjectMatches(s, user, ''));
      if (!subject) continue;
      const ref = roleRefOf(b);
      if (ref.kind !== 'ClusterRole' || typeof ref.name !== 'string') continue;
      yield {
        bindingKind: 'ClusterRoleBinding',
        binding: b.metadata.name ?? '',
        namespace: '',
        roleKind: 'ClusterRole',
        role: ref.name,
        rules: rulesOf(this.source.clusterRole(ref.name)),
        subject: subjectLabel(subject),
      };
    }
    if (!namespace) return;
    for (const b of this.source.roleBindings(namespace)) {
      const subject = subjectsOf(b).find((s) => subjectMatches(s, user, namespace));
      if (!subject) continue;
      const ref = roleRefOf(b);
      if (typeof ref.name !== 'string') continue;
      const role =
        ref.kind === 'ClusterRole'
          ? this.source.clusterRole(ref.name)
          : this.source.role(namespace, ref.name);
      yield {
        bindingKind: 'RoleBinding',
        binding: b.metadata.name ?? '',
        namespace,
        roleKind: String(ref.kind),
        role: ref.name,
        rules: rulesOf(role),
        subject: subjectLabel(subject),
      };
    }
  }

  authorize(a: Attributes): Decision {
    if (a.user.groups.includes('system:masters')) return { allowed: true, reason: '' };
    const key = decisionKey(a);
    let decision = this.decisions.get(key);
    if (!decision) {
      decision = this.evaluate(a);
      if (this.decisions.size >= MAX_CACHED_DECISIONS) this.decisions.clear();
      this.decisions.set(key, decision);
    }
    return decision;
  }

  private evaluate(a: Attributes): Decision {
    for (const g of this.grants(a.user, a.namespace)) {
      if (g.rules.some((r) => ruleAllows(r, a))) {
        const binding = g.namespace ? `${g.binding}/${g.namespace}` : g.binding;
        return {
          allowed: true,
          reason: `RBAC: allowed by ${g.bindingKind} "${binding}" of ${g.roleKind} "${g.role}" to ${g.subject}`,
        };
      }
    }
    return { allowed: false, reason: '' };
  }

  /** A Role or ClusterRole by reference: what a binding to it grants. */
  role(kind: 'Role' | 'ClusterRole', namespace: string, name: string): KubeObject | undefined {
    return kind === 'ClusterRole'
      ? this.source.clusterRole(name)
      : this.source.role(namespace, name);
  }

  /** The rules a user has in a namespace (SelfSubjectRulesReview). */
  rules(user: UserInfo, namespace: string): PolicyRule[] {
    if (user.groups.includes('system:masters')) {
      return [
        { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
        { verbs: ['*'], nonResourceURLs: ['*'] },
      ];
    }
    const out: PolicyRule[] = [];
    for (const g of this.grants(user, namespace)) out.push(...g.rules);
    return out;
  }
}

/** Everything a decision depends on; NUL cannot occur in a name, a path or a header value. */
function decisionKey(a: Attributes): string {
  const who = `${a.user.username}\0${a.user.groups.join('\0')}\0\0${a.verb}`;
  if (!a.resourceRequest) return `${who}\0P\0${a.path}`;
  return `${who}\0R\0${a.apiGroup}\0${a.resource}\0${a.subresource}\0${a.namespace}\0${a.name}`;
}

/** The 403 text: `User "x" cannot list resource "machines" in API group "g" in the namespace "ns"`. */
export function forbiddenReason(a: Attributes): string {
  if (!a.resourceRequest) return `User "${a.user.username}" cannot ${a.verb} path "${a.path}"`;
  const res = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
  const scope = a.namespace ? `in the namespace "${a.namespace}"` : 'at the cluster scope';
  return `User "${a.user.username}" cannot ${a.verb} resource "${res}" in API group "${a.apiGroup}" ${scope}`;
}
