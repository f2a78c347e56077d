/**
 * Bootstrap RBAC: the default roles kubectl users expect, and cluster-admin for system:masters.
 */
import type { KubeObject } from '../types';

const VIEW_RESOURCES: Readonly<Record<string, readonly string[]>> = {
  '': [
    'bindings',
    'configmaps',
    'endpoints',
    'events',
    'limitranges',
    'namespaces',
    'namespaces/status',
    'persistentvolumeclaims',
    'persistentvolumeclaims/status',
    'pods',
    'pods/log',
    'pods/status',
    'replicationcontrollers',
    'replicationcontrollers/scale',
    'replicationcontrollers/status',
    'resourcequotas',
    'resourcequotas/status',
    'serviceaccounts',
    'services',
    'services/status',
  ],
  apps: [
    'controllerrevisions',
    'daemonsets',
    'daemonsets/status',
    'deployments',
    'deployments/scale',
    'deployments/status',
    'replicasets',
    'replicasets/scale',
    'replicasets/status',
    'statefulsets',
    'statefulsets/scale',
    'statefulsets/status',
  ],
  'events.k8s.io': ['events'],
  policy: ['poddisruptionbudgets', 'poddisruptionbudgets/status'],
};

/** What upstream's aggregate-to-edit role may write, by API group (Secrets yes, RBAC no). */
const EDIT_RESOURCES: Readonly<Record<string, readonly string[]>> = {
  '': [
    'configmaps',
    'endpoints',
    'persistentvolumeclaims',
    'pods',
    'replicationcontrollers',
    'replicationcontrollers/scale',
    'secrets',
    'serviceaccounts',
    'services',
  ],
  apps: [
    'daemonsets',
    'deployments',
    'deployments/rollback',
    'deployments/scale',
    'replicasets',
    'replicasets/scale',
    'statefulsets',
    'statefulsets/scale',
  ],
  policy: ['poddisruptionbudgets'],
};

/** The annotation with which an operator keeps a changed bootstrap role from being reset. */
export const AUTOUPDATE_ANNOTATION = 'rbac.authorization.kubernetes.io/autoupdate';

/**
 * The bootstrap roles and bindings. `view`, `edit` and `admin` are upstream's aggregated roles
 * for the resources this server has: `view` reads everything but Secrets and RBAC objects, `edit`
 * adds writes and Secrets but no RBAC, `admin` adds Roles and RoleBindings. Kinds registered by
 * the caller (`customGroups`) are read by `view` and written by `edit`, as if each came with its
 * aggregate-to-view/edit role. The server reconciles these on every start (`reconcileBootstrap`).
 */
export function bootstrapPolicy(customGroups: readonly string[] = []): KubeObject[] {
  const cr = (name: string, rules: unknown[]): KubeObject => ({
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
    metadata: {
      name,
      labels: { 'kubernetes.io/bootstrapping': 'rbac-defaults' },
      annotations: { [AUTOUPDATE_ANNOTATION]: 'true' },
    },
    rules,
  });
  const crb = (name: string, role: string, subjects: unknown[]): KubeObject => ({
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRoleBinding',
    metadata: {
      name,
      labels: { 'kubernetes.io/bootstrapping': 'rbac-defaults' },
      annotations: { [AUTOUPDATE_ANNOTATION]: 'true' },
    },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: role },
    subjects,
  });
  const authenticated = [
    { apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'system:authenticated' },
  ];
  const read = ['get', 'list', 'watch'];
  const write = ['create', 'delete', 'deletecollection', 'patch', 'update'];
  const byGroup = (table: Readonly<Record<string, readonly string[]>>, verbs: string[]) =>
    Object.entries(table).map(([group, resources]) => ({
      apiGroups: [group],
      resources: [...resources],
      verbs,
    }));
  const custom = [...new Set(customGroups)].sort();
  const viewRules = [
    ...byGroup(VIEW_RESOURCES, read),
    ...(custom.length ? [{ apiGroups: custom, resources: ['*'], verbs: read }] : []),
  ];
  const editRules = [
    ...byGroup(VIEW_RESOURCES, read),
    { apiGroups: [''], resources: ['secrets'], verbs: read },
    ...byGroup(EDIT_RESOURCES, write),
    // Draining a Node: upstream's edit role may create evictions.
    { apiGroups: [''], resources: ['pods/eviction'], verbs: ['create'] },
    ...(custom.length ? [{ apiGroups: custom, resources: ['*'], verbs: [...read, ...write] }] : []),
  ];
  const adminRules = [
    ...editRules,
    {
      apiGroups: ['rbac.authorization.k8s.io'],
      resources: ['roles', 'rolebindings'],
      verbs: [...read, ...write],
    },
    {
      apiGroups: ['authorization.k8s.io'],
      resources: ['localsubjectaccessreviews'],
      verbs: ['create'],
    },
  ];
  return [
    cr('cluster-admin', [
      { apiGroups: ['*'], resources: ['*'], verbs: ['*'] },
      { nonResourceURLs: ['*'], verbs: ['*'] },
    ]),
    cr('admin', adminRules),
    cr('edit', editRules),
    cr('view', viewRules),
    cr('system:discovery', [
      {
        nonResourceURLs: [
          '/api',
          '/api/*',
          '/apis',
          '/apis/*',
          '/healthz',
          '/livez',
          '/readyz',
          '/openapi',
          '/openapi/*',
          '/version',
          '/version/',
        ],
        verbs: ['get'],
      },
    ]),
    cr('system:basic-user', [
      {
        apiGroups: ['authorization.k8s.io'],
        resources: ['selfsubjectaccessreviews', 'selfsubjectrulesreviews'],
        verbs: ['create'],
      },
      {
        apiGroups: ['authentication.k8s.io'],
        resources: ['selfsubjectreviews'],
        verbs: ['create'],
      },
    ]),
    crb('cluster-admin', 'cluster-admin', [
      { apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'system:masters' },
    ]),
    crb('system:discovery', 'system:discovery', authenticated),
    crb('system:basic-user', 'system:basic-user', authenticated),
  ];
}
