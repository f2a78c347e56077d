/**
 * The authorizer remembers each user's grants per namespace (issue 14: a request for a new object
 * name used to read and convert every binding and role in the store) and forgets them on any RBAC
 * change, so what it decides is what evaluating the stored policy afresh decides.
 */
import { describe, expect, it } from 'vitest';
import { RbacAuthorizer, type Attributes, type RbacSource } from '../src/auth/rbac';
import type { KubeObject, UserInfo } from '../src/types';

const alice: UserInfo = { username: 'alice', groups: ['system:authenticated'] };

function attrs(verb: string, name: string, namespace = 'team'): Attributes {
  return {
    user: alice,
    verb,
    resourceRequest: true,
    apiGroup: '',
    resource: 'configmaps',
    subresource: '',
    namespace,
    name,
    path: '',
  };
}

/** A policy in memory that counts how often the authorizer reads it. */
function policy(verbs: string[]) {
  let reads = 0;
  const role: KubeObject = {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'Role',
    metadata: { name: 'cm', namespace: 'team' },
    rules: [{ apiGroups: [''], resources: ['configmaps'], verbs }],
  };
  const binding: KubeObject = {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'RoleBinding',
    metadata: { name: 'cm', namespace: 'team' },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'cm' },
    subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'alice' }],
  };
  const source: RbacSource = {
    clusterRoleBindings: () => {
      reads++;
      return [];
    },
    roleBindings: (ns) => {
      reads++;
      return ns === 'team' ? [binding] : [];
    },
    clusterRole: () => undefined,
    role: (ns, name) => {
      reads++;
      return ns === 'team' && name === 'cm' ? role : undefined;
    },
  };
  return { source, role, reads: () => reads };
}

describe('RBAC grants cache', () => {
  it('decides for many new names with one read of the policy per user and namespace', () => {
    const p = policy(['get', 'create']);
    const rbac = new RbacAuthorizer(p.source);
    for (let i = 0; i < 500; i++) {
      expect(rbac.authorize(attrs('create', `cm-${String(i)}`)).allowed).toBe(true);
      expect(rbac.authorize(attrs('delete', `cm-${String(i)}`)).allowed).toBe(false);
    }
    expect(p.reads()).toBe(3); // cluster bindings, the namespace's bindings, the role
    expect(rbac.authorize(attrs('get', 'x', 'other')).allowed).toBe(false);
    expect(p.reads()).toBe(5); // another namespace: read once more (no role bound there)
  });

  it('a changed role takes effect once the server invalidates (on any RBAC object change)', () => {
    const p = policy(['get']);
    const rbac = new RbacAuthorizer(p.source);
    expect(rbac.authorize(attrs('delete', 'a')).allowed).toBe(false);
    (p.role.rules as { verbs: string[] }[])[0]?.verbs.push('delete');
    rbac.invalidate();
    expect(rbac.authorize(attrs('delete', 'b')).allowed).toBe(true);
    expect(rbac.authorize(attrs('delete', 'a')).allowed).toBe(true);
    expect(rbac.rules(alice, 'team').flatMap((r) => r.verbs)).toEqual(['get', 'delete']);
  });
});
