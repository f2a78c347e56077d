import {
  kindAtVersion,
  CONTROL_PLANE_POOL_ID,
  DEFAULT_NAMESPACE,
  LABEL_CLUSTER_NAME,
  LABEL_CONTROL_PLANE,
  LABEL_DEPLOYMENT_NAME,
  LABEL_PROVIDER,
  PROVIDER_DCS,
  VERSIONS_CATALOG_NAME,
  type ApiVersionChoice,
  type KindName,
  type ObjectOf,
} from '@dcs/domain';
import type { Indexer } from './kind-store';
import type { WatchSpec } from './source';

/**
 * The kinds the BFF caches (DOMAIN.md §1), how each is watched, and the indexes the views need.
 * Secrets and Events are never cached: they are read on demand with the user's own credential,
 * so that their contents reach only users whom the API server lets read them.
 */

export const NAMESPACED_KINDS = [
  'Cluster',
  'KubeadmControlPlane',
  'MachineDeployment',
  'MachineSet',
  'Machine',
  'DCSMachine',
  'DCSMachineTemplate',
  'KubeadmConfigTemplate',
  'DCSIpHostnamePool',
  // Read only by the object tree (issue 26): machines' bootstrap objects, the cluster's infrastructure.
  'KubeadmConfig',
  'DCSCluster',
  // A pool's health check (issue 26 item 1).
  'MachineHealthCheck',
] as const satisfies readonly KindName[];

export type CachedKind = (typeof NAMESPACED_KINDS)[number] | 'ConfigMap' | 'Deployment';
export type Cached<K extends CachedKind> = ObjectOf<K>;

/** Kinds whose recent versions are remembered for three-way conflicts. */
export const EDITED_KINDS: readonly CachedKind[] = [
  // O-PAUSE / O-RESUME of a cluster (issue 26): its spec.paused.
  'Cluster',
  'MachineDeployment',
  'KubeadmControlPlane',
  'DCSIpHostnamePool',
  'DCSMachineTemplate',
  'KubeadmConfigTemplate',
  'Machine',
  // O-MHC-EDIT: its checks and limit.
  'MachineHealthCheck',
];

/**
 * One watch per (kind, namespace); none of the namespaces = one cluster-wide watch per kind. The
 * Cluster API kinds are watched in the version `versions` names for their group (issue 23: what the
 * management cluster serves), the others in their own.
 */
export function watchSpecs(
  namespaces: readonly string[],
  versions: ApiVersionChoice = {},
): { kind: CachedKind; spec: WatchSpec }[] {
  const scopes = namespaces.length ? namespaces : [''];
  const specs: { kind: CachedKind; spec: WatchSpec }[] = [];
  for (const kind of NAMESPACED_KINDS) {
    const info = kindAtVersion(kind, versions);
    for (const ns of scopes) {
      specs.push({
        kind,
        spec: {
          group: info.group,
          version: info.version,
          plural: info.plural,
          ...(ns ? { namespace: ns } : {}),
        },
      });
    }
  }
  // The versions catalog: one ConfigMap, so one narrow watch.
  specs.push({
    kind: 'ConfigMap',
    spec: {
      group: '',
      version: 'v1',
      plural: 'configmaps',
      namespace: DEFAULT_NAMESPACE,
      fieldSelector: `metadata.name=${VERSIONS_CATALOG_NAME}`,
    },
  });
  // The DCS provider's Deployment, wherever clusterctl installed it.
  specs.push({
    kind: 'Deployment',
    spec: {
      group: 'apps',
      version: 'v1',
      plural: 'deployments',
      labelSelector: `${LABEL_PROVIDER}=${PROVIDER_DCS}`,
    },
  });
  return specs;
}

const nsKey = (ns: string | undefined, name: string | undefined) => `${ns ?? ''}/${name ?? ''}`;
const one = (ns: string | undefined, name: string | undefined) =>
  name === undefined || name === '' ? [] : [nsKey(ns, name)];

interface WithMeta {
  metadata: { namespace?: string; labels?: Record<string, string> };
}
const clusterLabel = (o: WithMeta) => o.metadata.labels?.[LABEL_CLUSTER_NAME];

/** Secondary indexes, by kind. Values are `namespace/name` of the related object. */
export const indexes = {
  Machine: {
    /** The pool: `ns/control-plane@cluster` or `ns/<deployment>`. */
    pool: (m: Cached<'Machine'>) => {
      const labels = m.metadata.labels ?? {};
      const cluster = m.spec?.clusterName ?? labels[LABEL_CLUSTER_NAME];
      if (LABEL_CONTROL_PLANE in labels)
        return one(m.metadata.namespace, `${CONTROL_PLANE_POOL_ID}@${cluster ?? ''}`);
      return one(m.metadata.namespace, labels[LABEL_DEPLOYMENT_NAME]);
    },
    cluster: (m: Cached<'Machine'>) =>
      one(m.metadata.namespace, m.spec?.clusterName ?? m.metadata.labels?.[LABEL_CLUSTER_NAME]),
    infra: (m: Cached<'Machine'>) =>
      one(m.metadata.namespace, m.spec?.infrastructureRef.name ?? m.metadata.name),
  },
  MachineSet: {
    deployment: (ms: Cached<'MachineSet'>) =>
      one(ms.metadata.namespace, ms.metadata.labels?.[LABEL_DEPLOYMENT_NAME]),
  },
  MachineDeployment: {
    cluster: (md: Cached<'MachineDeployment'>) => one(md.metadata.namespace, md.spec?.clusterName),
    template: (md: Cached<'MachineDeployment'>) =>
      one(md.metadata.namespace, md.spec?.template.spec.infrastructureRef.name),
    bootstrap: (md: Cached<'MachineDeployment'>) =>
      one(md.metadata.namespace, md.spec?.template.spec.bootstrap.configRef?.name),
  },
  KubeadmControlPlane: {
    cluster: (kcp: Cached<'KubeadmControlPlane'>) => one(kcp.metadata.namespace, clusterLabel(kcp)),
    template: (kcp: Cached<'KubeadmControlPlane'>) =>
      one(kcp.metadata.namespace, kcp.spec?.machineTemplate.infrastructureRef.name),
  },
  DCSMachine: {
    ipPool: (dm: Cached<'DCSMachine'>) => one(dm.metadata.namespace, dm.spec?.ipHostPoolRef.name),
  },
  DCSMachineTemplate: {
    ipPool: (t: Cached<'DCSMachineTemplate'>) =>
      one(t.metadata.namespace, t.spec?.template.spec.ipHostPoolRef.name),
  },
  MachineHealthCheck: {
    cluster: (c: Cached<'MachineHealthCheck'>) => one(c.metadata.namespace, c.spec?.clusterName),
  },
} satisfies Partial<{ [K in CachedKind]: Record<string, Indexer<Cached<K>>> }>;
