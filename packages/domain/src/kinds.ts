import { dcsFieldPaths } from './dcs-fields';

/**
 * The one table of every kind this product reads or writes: where it lives in the API, how
 * kubectl names it, and how `kubectl get` prints it. The API server, the simulator, the informer
 * cache and the BFF all take these facts from here.
 */

export type Scope = 'Namespaced' | 'Cluster';

export interface PrinterColumn {
  name: string;
  type: 'string' | 'integer' | 'number' | 'boolean' | 'date';
  jsonPath: string;
  description?: string;
  /** 0 = shown by `kubectl get`; > 0 = only with `-o wide`. */
  priority?: number;
}

export interface KindInfo {
  kind: string;
  group: string;
  version: string;
  plural: string;
  singular: string;
  scope: Scope;
  shortNames: readonly string[];
  categories: readonly string[];
  subresources: { status?: boolean; scale?: boolean };
  printerColumns: readonly PrinterColumn[];
}

const age: PrinterColumn = { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' };

export const CAPI_GROUP = 'cluster.x-k8s.io';
export const CONTROL_PLANE_GROUP = 'controlplane.cluster.x-k8s.io';
export const BOOTSTRAP_GROUP = 'bootstrap.cluster.x-k8s.io';
export const INFRASTRUCTURE_GROUP = 'infrastructure.cluster.x-k8s.io';
export const CAPI_VERSION = 'v1beta1';

function capi(
  kind: string,
  group: string,
  plural: string,
  shortNames: string[],
  subresources: KindInfo['subresources'],
  printerColumns: PrinterColumn[],
): KindInfo {
  return {
    kind,
    group,
    version: CAPI_VERSION,
    plural,
    singular: kind.toLowerCase(),
    scope: 'Namespaced',
    shortNames,
    categories: ['cluster-api'],
    subresources,
    printerColumns,
  };
}

function core(
  kind: string,
  group: string,
  version: string,
  plural: string,
  scope: Scope,
  shortNames: string[] = [],
  printerColumns: PrinterColumn[] = [age],
): KindInfo {
  return {
    kind,
    group,
    version,
    plural,
    singular: kind.toLowerCase(),
    scope,
    shortNames,
    categories: [],
    subresources: {},
    printerColumns,
  };
}

const replicaColumns = (
  ...names: ('Desired' | 'Replicas' | 'Ready' | 'Updated' | 'Available' | 'Unavailable')[]
) =>
  names.map<PrinterColumn>((name) =>
    name === 'Desired'
      ? { name, type: 'integer', jsonPath: '.spec.replicas', priority: 10 }
      : {
          name,
          type: 'integer',
          jsonPath: `.status.${name === 'Replicas' ? 'replicas' : `${name[0]?.toLowerCase() ?? ''}${name.slice(1)}Replicas`}`,
        },
  );

export const kindTable = {
  Cluster: capi('Cluster', CAPI_GROUP, 'clusters', ['cl'], { status: true }, [
    { name: 'ClusterClass', type: 'string', jsonPath: '.spec.topology.class' },
    { name: 'Phase', type: 'string', jsonPath: '.status.phase' },
    age,
    { name: 'Version', type: 'string', jsonPath: '.spec.topology.version' },
  ]),
  MachineDeployment: capi(
    'MachineDeployment',
    CAPI_GROUP,
    'machinedeployments',
    ['md'],
    { status: true, scale: true },
    [
      { name: 'Cluster', type: 'string', jsonPath: '.spec.clusterName' },
      ...replicaColumns('Desired', 'Replicas', 'Ready', 'Updated', 'Unavailable'),
      { name: 'Phase', type: 'string', jsonPath: '.status.phase' },
      age,
      { name: 'Version', type: 'string', jsonPath: '.spec.template.spec.version' },
    ],
  ),
  MachineSet: capi('MachineSet', CAPI_GROUP, 'machinesets', ['ms'], { status: true, scale: true }, [
    { name: 'Cluster', type: 'string', jsonPath: '.spec.clusterName' },
    ...replicaColumns('Desired', 'Replicas', 'Ready', 'Available'),
    age,
    { name: 'Version', type: 'string', jsonPath: '.spec.template.spec.version' },
  ]),
  Machine: capi('Machine', CAPI_GROUP, 'machines', ['ma'], { status: true }, [
    { name: 'Cluster', type: 'string', jsonPath: '.spec.clusterName' },
    { name: 'NodeName', type: 'string', jsonPath: '.status.nodeRef.name' },
    { name: 'ProviderID', type: 'string', jsonPath: '.spec.providerID' },
    { name: 'Phase', type: 'string', jsonPath: '.status.phase' },
    age,
    { name: 'Version', type: 'string', jsonPath: '.spec.version' },
  ]),
  // Issue 26 item 1: a pool's health check, as `kubectl get mhc` prints it (v1beta1's columns).
  MachineHealthCheck: capi(
    'MachineHealthCheck',
    CAPI_GROUP,
    'machinehealthchecks',
    ['mhc', 'mhcs'],
    { status: true },
    [
      { name: 'Cluster', type: 'string', jsonPath: '.spec.clusterName' },
      { name: 'ExpectedMachines', type: 'integer', jsonPath: '.status.expectedMachines' },
      { name: 'MaxUnhealthy', type: 'string', jsonPath: '.spec.maxUnhealthy' },
      { name: 'CurrentHealthy', type: 'integer', jsonPath: '.status.currentHealthy' },
      age,
    ],
  ),
  KubeadmControlPlane: capi(
    'KubeadmControlPlane',
    CONTROL_PLANE_GROUP,
    'kubeadmcontrolplanes',
    ['kcp'],
    { status: true, scale: true },
    [
      {
        name: 'Cluster',
        type: 'string',
        jsonPath: ".metadata.labels['cluster\\.x-k8s\\.io/cluster-name']",
      },
      { name: 'Initialized', type: 'boolean', jsonPath: '.status.initialized' },
      { name: 'API Server Available', type: 'boolean', jsonPath: '.status.ready' },
      ...replicaColumns('Desired', 'Replicas', 'Ready', 'Updated', 'Unavailable'),
      age,
      { name: 'Version', type: 'string', jsonPath: '.spec.version' },
    ],
  ),
  KubeadmConfigTemplate: capi(
    'KubeadmConfigTemplate',
    BOOTSTRAP_GROUP,
    'kubeadmconfigtemplates',
    [],
    {},
    [age],
  ),
  KubeadmConfig: capi('KubeadmConfig', BOOTSTRAP_GROUP, 'kubeadmconfigs', [], { status: true }, [
    {
      name: 'Cluster',
      type: 'string',
      jsonPath: ".metadata.labels['cluster\\.x-k8s\\.io/cluster-name']",
    },
    { name: 'Ready', type: 'boolean', jsonPath: '.status.ready' },
    age,
  ]),
  DCSMachineTemplate: capi(
    'DCSMachineTemplate',
    INFRASTRUCTURE_GROUP,
    'dcsmachinetemplates',
    ['dcsmt'],
    {},
    [
      { name: 'VMTemplate', type: 'string', jsonPath: '.spec.template.spec.vmTemplateName' },
      { name: 'IPPool', type: 'string', jsonPath: '.spec.template.spec.ipHostPoolRef.name' },
      age,
    ],
  ),
  DCSMachine: capi('DCSMachine', INFRASTRUCTURE_GROUP, 'dcsmachines', ['dcsm'], { status: true }, [
    {
      name: 'Cluster',
      type: 'string',
      jsonPath: ".metadata.labels['cluster\\.x-k8s\\.io/cluster-name']",
    },
    { name: 'IP', type: 'string', jsonPath: '.status.networkConfig.ip' },
    { name: 'VMState', type: 'string', jsonPath: dcsFieldPaths.vmState },
    { name: 'Ready', type: 'boolean', jsonPath: '.status.ready' },
    age,
  ]),
  DCSIpHostnamePool: capi(
    'DCSIpHostnamePool',
    INFRASTRUCTURE_GROUP,
    'dcsiphostnamepools',
    ['dcsippool'],
    { status: true },
    [
      { name: 'Entries', type: 'integer', jsonPath: dcsFieldPaths.poolTotal },
      { name: 'Free', type: 'integer', jsonPath: dcsFieldPaths.poolFree },
      age,
    ],
  ),
  DCSCluster: capi('DCSCluster', INFRASTRUCTURE_GROUP, 'dcsclusters', ['dcsc'], { status: true }, [
    {
      name: 'Cluster',
      type: 'string',
      jsonPath: ".metadata.labels['cluster\\.x-k8s\\.io/cluster-name']",
    },
    { name: 'Ready', type: 'boolean', jsonPath: '.status.ready' },
    { name: 'Endpoint', type: 'string', jsonPath: '.spec.controlPlaneEndpoint.host' },
    age,
  ]),
  Namespace: {
    ...core('Namespace', '', 'v1', 'namespaces', 'Cluster', ['ns']),
    subresources: { status: true },
  },
  ConfigMap: core('ConfigMap', '', 'v1', 'configmaps', 'Namespaced', ['cm']),
  Secret: core(
    'Secret',
    '',
    'v1',
    'secrets',
    'Namespaced',
    [],
    [{ name: 'Type', type: 'string', jsonPath: '.type' }, age],
  ),
  Event: core(
    'Event',
    '',
    'v1',
    'events',
    'Namespaced',
    ['ev'],
    [
      { name: 'Last Seen', type: 'date', jsonPath: '.lastTimestamp' },
      { name: 'Type', type: 'string', jsonPath: '.type' },
      { name: 'Reason', type: 'string', jsonPath: '.reason' },
      { name: 'Object', type: 'string', jsonPath: '.involvedObject.name' },
      { name: 'Message', type: 'string', jsonPath: '.message' },
    ],
  ),
  Deployment: {
    ...core('Deployment', 'apps', 'v1', 'deployments', 'Namespaced', ['deploy']),
    subresources: { status: true, scale: true },
  },
} as const satisfies Record<string, KindInfo>;

export type KindName = keyof typeof kindTable;

/** Every kind, in a stable order. */
export const kinds: readonly KindInfo[] = Object.values(kindTable);

/** `group/version`, or `version` for the core group: the apiVersion field of an object. */
export function apiVersionOf(info: Pick<KindInfo, 'group' | 'version'>): string {
  return info.group ? `${info.group}/${info.version}` : info.version;
}

/** The table entry of a kind by name, plural, singular or short name (as kubectl resolves them). */
export function findKind(name: string): KindInfo | undefined {
  const lower = name.toLowerCase();
  return kinds.find(
    (k) =>
      k.kind.toLowerCase() === lower ||
      k.plural === lower ||
      k.singular === lower ||
      k.shortNames.includes(lower),
  );
}

/**
 * The REST path of a collection or of one object:
 * `/apis/{group}/{version}/namespaces/{ns}/{plural}/{name}` (or `/api/v1/...` for the core group).
 */
export function resourcePath(info: KindInfo, namespace?: string, name?: string): string {
  const base = info.group ? `/apis/${info.group}/${info.version}` : `/api/${info.version}`;
  const ns =
    info.scope === 'Namespaced' && namespace ? `/namespaces/${encodeURIComponent(namespace)}` : '';
  return `${base}${ns}/${info.plural}${name ? `/${encodeURIComponent(name)}` : ''}`;
}
