import {
  DEFAULT_NAMESPACE,
  healthCheckNameOf,
  poolHealthCheckSelector,
  KUBELET_PATCH_PATH,
  KUBELET_PATCHES_DIRECTORY,
  LABEL_CLUSTER_NAME,
  LABEL_POOL_NAME,
  VERSIONS_CATALOG_KEY,
  VERSIONS_CATALOG_NAME,
  type ConfigMap,
  type DCSIpHostnamePool,
  type DCSMachineTemplate,
  type IntOrString,
  type IpPoolEntry,
  type KubeadmConfigTemplate,
  type MachineDeployment,
  type VersionsCatalog,
} from '@dcs/domain';
import { stringify } from 'yaml';

/**
 * Builders of the objects an operator creates, written the way the reference documents write
 * them (DCSIpHostnamePool, DCSMachineTemplate, KubeadmConfigTemplate, MachineDeployment, and a
 * cluster's Cluster / DCSCluster / KubeadmControlPlane): what the demo seed and the scenario
 * tests send to the API server, as kubectl would.
 */

const INFRA = 'infrastructure.cluster.x-k8s.io/v1beta1';
const BOOTSTRAP = 'bootstrap.cluster.x-k8s.io/v1beta1';
const CAPI = 'cluster.x-k8s.io/v1beta1';

export interface Obj {
  apiVersion: string;
  kind: string;
  metadata: {
    name: string;
    namespace?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
  };
  [k: string]: unknown;
}

export const vmTemplateFor = (version: string) =>
  `alauda-os-k8s-${version.startsWith('v') ? version : `v${version}`}`;

/** The kubelet patch of R-BOOT-1: NeverVerify on Kubernetes ≥ 1.35 only. */
export function kubeletPatch(version: string): string {
  const minor = Number(/^v?1\.(\d+)/.exec(version)?.[1] ?? '0');
  const fields: Record<string, unknown> = {
    apiVersion: 'kubelet.config.k8s.io/v1beta1',
    kind: 'KubeletConfiguration',
    ...(minor >= 35 ? { imagePullCredentialsVerificationPolicy: 'NeverVerify' } : {}),
    protectKernelDefaults: true,
    staticPodPath: null,
    tlsCertFile: '/etc/kubernetes/pki/kubelet.crt',
    tlsPrivateKeyFile: '/etc/kubernetes/pki/kubelet.key',
    streamingConnectionIdleTimeout: '5m',
    clientCAFile: '/etc/kubernetes/pki/ca.crt',
  };
  return `${JSON.stringify(fields, null, 2)}\n`;
}

export interface EntryOptions {
  /** e.g. '10.0.1.' */
  subnet: string;
  first: number;
  count: number;
  hostnamePrefix: string;
  gateway?: string;
  mask?: string;
  dns?: string;
  /** Adds the platform's /var/cpaas disk as a pool-managed persistent disk (provider ≥ 1.0.16). */
  persistentCpaas?: boolean;
  /** Adds an extra NIC on a storage network per entry. */
  extraNicSubnet?: string;
}

export function poolEntries(o: EntryOptions): IpPoolEntry[] {
  return Array.from({ length: o.count }, (_, i) => {
    const n = o.first + i;
    return {
      ip: `${o.subnet}${String(n)}`,
      mask: o.mask ?? '24',
      gateway: o.gateway ?? `${o.subnet}1`,
      dns: o.dns ?? '10.0.0.2',
      hostname: `${o.hostnamePrefix}-${String(i + 1)}`,
      machineName: `${o.hostnamePrefix}-vm-${String(i + 1)}`,
      ...(o.extraNicSubnet
        ? {
            additionNic: [
              {
                ip: `${o.extraNicSubnet}${String(n)}`,
                mask: '24',
                dvSwitchName: 'dvs-storage',
                portGroupName: 'pg-storage-vlan20',
              },
            ],
          }
        : {}),
      ...(o.persistentCpaas
        ? {
            persistentDisk: [
              {
                slot: 0,
                quantityGB: 40,
                datastoreClusterName: 'ds-cluster-1',
                path: '/var/cpaas',
                format: 'xfs',
              },
            ],
          }
        : {}),
    };
  });
}

export function ipPool(
  name: string,
  entries: IpPoolEntry[],
  namespace = DEFAULT_NAMESPACE,
  annotations?: Record<string, string>,
): DCSIpHostnamePool {
  return {
    apiVersion: INFRA,
    kind: 'DCSIpHostnamePool',
    metadata: { name, namespace, ...(annotations ? { annotations } : {}) },
    spec: { pool: entries },
  };
}

export interface MachineTemplateOptions {
  name: string;
  namespace?: string;
  version: string;
  pool: string;
  cpu?: number;
  memoryMB?: number;
  /** The older document's layout: /var/cpaas is a template disk (R-DISK-5 "legacy"). */
  legacyCpaasDisk?: boolean;
}

export function machineTemplate(o: MachineTemplateOptions): DCSMachineTemplate {
  const disk = (quantity: number, path: string) => ({
    quantity,
    datastoreClusterName: 'ds-cluster-1',
    path,
    format: 'xfs',
  });
  return {
    apiVersion: INFRA,
    kind: 'DCSMachineTemplate',
    metadata: { name: o.name, namespace: o.namespace ?? DEFAULT_NAMESPACE },
    spec: {
      template: {
        spec: {
          vmTemplateName: vmTemplateFor(o.version),
          location: { type: 'folder', name: 'k8s-nodes' },
          resource: { type: 'cluster', name: 'dcs-compute-cluster-1' },
          vmConfig: {
            dvSwitchName: 'dvs-business',
            portGroupName: 'pg-k8s-nodes',
            dcsMachineCpuSpec: { quantity: o.cpu ?? 4 },
            dcsMachineMemorySpec: { quantity: o.memoryMB ?? 8192 },
            dcsMachineDiskSpec: [
              { quantity: 0, datastoreClusterName: 'ds-cluster-1', systemVolume: true },
              disk(100, '/var/lib/kubelet'),
              disk(100, '/var/lib/containerd'),
              ...(o.legacyCpaasDisk ? [disk(40, '/var/cpaas')] : []),
            ],
          },
          ipHostPoolRef: { name: o.pool },
        },
      },
    },
  };
}

export interface BootstrapTemplateOptions {
  name: string;
  namespace?: string;
  version: string;
  /** Take the kubelet patch from this Secret (contentFrom) instead of inline content. */
  patchSecret?: string;
}

export function bootstrapTemplate(o: BootstrapTemplateOptions): KubeadmConfigTemplate {
  return {
    apiVersion: BOOTSTRAP,
    kind: 'KubeadmConfigTemplate',
    metadata: { name: o.name, namespace: o.namespace ?? DEFAULT_NAMESPACE },
    spec: {
      template: {
        spec: {
          format: 'ignition',
          users: [
            {
              name: 'boot',
              sshAuthorizedKeys: [
                'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAISimulatedDemoKey demo@dcs-sim',
              ],
            },
          ],
          files: [
            o.patchSecret
              ? {
                  path: KUBELET_PATCH_PATH,
                  owner: 'root:root',
                  permissions: '0644',
                  contentFrom: {
                    secret: { name: o.patchSecret, key: 'worker-kubelet-patch.json' },
                  },
                }
              : {
                  path: KUBELET_PATCH_PATH,
                  owner: 'root:root',
                  permissions: '0644',
                  content: kubeletPatch(o.version),
                },
          ],
          preKubeadmCommands: [
            'while ! ip route | grep -q "default via"; do sleep 1; done; echo "NetworkManager started"',
            'mkdir -p /run/cluster-api && restorecon -Rv /run/cluster-api',
            'if [ -f /etc/disk-setup.sh ]; then bash /etc/disk-setup.sh; fi',
          ],
          postKubeadmCommands: ['chmod 600 /var/lib/kubelet/config.yaml'],
          joinConfiguration: {
            patches: { directory: KUBELET_PATCHES_DIRECTORY },
            nodeRegistration: {
              kubeletExtraArgs: {
                'node-ip': 'NODE_IP',
                'provider-id': 'PROVIDER_ID',
                'volume-plugin-dir': '/opt/libexec/kubernetes/kubelet-plugins/volume/exec/',
                'protect-kernel-defaults': 'true',
              },
            },
          },
        },
      },
    },
  };
}

export interface MachineDeploymentOptions {
  name: string;
  namespace?: string;
  cluster: string;
  replicas: number;
  version: string;
  machineTemplate: string;
  bootstrapTemplate: string;
  maxSurge?: IntOrString;
  maxUnavailable?: IntOrString;
  strategy?: 'RollingUpdate' | 'OnDelete';
  deletePolicy?: 'Random' | 'Newest' | 'Oldest';
  nodeDrainTimeout?: string;
  nodeDeletionTimeout?: string;
  minReadySeconds?: number;
}

/** A MachineDeployment as the reference document writes it (selector matchLabels: null). */
export function machineDeployment(o: MachineDeploymentOptions): MachineDeployment {
  const ns = o.namespace ?? DEFAULT_NAMESPACE;
  return {
    apiVersion: CAPI,
    kind: 'MachineDeployment',
    metadata: { name: o.name, namespace: ns },
    spec: {
      clusterName: o.cluster,
      replicas: o.replicas,
      selector: { matchLabels: null },
      ...(o.minReadySeconds !== undefined ? { minReadySeconds: o.minReadySeconds } : {}),
      strategy:
        o.strategy === 'OnDelete'
          ? {
              type: 'OnDelete',
              ...(o.deletePolicy ? { rollingUpdate: { deletePolicy: o.deletePolicy } } : {}),
            }
          : {
              type: 'RollingUpdate',
              rollingUpdate: {
                maxSurge: o.maxSurge ?? 0,
                maxUnavailable: o.maxUnavailable ?? 1,
                ...(o.deletePolicy ? { deletePolicy: o.deletePolicy } : {}),
              },
            },
      template: {
        metadata: { labels: { [LABEL_CLUSTER_NAME]: o.cluster, [LABEL_POOL_NAME]: o.name } },
        spec: {
          clusterName: o.cluster,
          version: o.version,
          nodeDrainTimeout: o.nodeDrainTimeout ?? '1m',
          nodeDeletionTimeout: o.nodeDeletionTimeout ?? '5m',
          bootstrap: {
            configRef: {
              apiVersion: BOOTSTRAP,
              kind: 'KubeadmConfigTemplate',
              name: o.bootstrapTemplate,
              namespace: ns,
            },
          },
          infrastructureRef: {
            apiVersion: INFRA,
            kind: 'DCSMachineTemplate',
            name: o.machineTemplate,
            namespace: ns,
          },
        },
      },
    },
  };
}

export interface ClusterOptions {
  name: string;
  namespace?: string;
  version: string;
  /** The control-plane endpoint (a VIP). */
  endpoint: string;
  /** The control-plane pool's entries (3 needed; more leave room for upgrades with surge). */
  controlPlaneEntries: IpPoolEntry[];
  replicas?: number;
}

/** A cluster with its DCSCluster, control-plane machine template and IP pool, and KubeadmControlPlane. */
export function clusterObjects(o: ClusterOptions): Obj[] {
  const ns = o.namespace ?? DEFAULT_NAMESPACE;
  const cpPool = `${o.name}-control-plane-pool`;
  const cpTemplate = `${o.name}-control-plane-${o.version.replace(/\./g, '-')}`;
  return [
    {
      apiVersion: INFRA,
      kind: 'DCSCluster',
      metadata: { name: o.name, namespace: ns },
      spec: {
        controlPlaneEndpoint: { host: o.endpoint, port: 6443 },
        credentialSecretRef: { name: 'dcs-credentials' },
        server: 'https://dcs.example.internal:8443',
      },
    },
    ipPool(cpPool, o.controlPlaneEntries, ns) as Obj,
    machineTemplate({
      name: cpTemplate,
      namespace: ns,
      version: o.version,
      pool: cpPool,
      cpu: 8,
      memoryMB: 16384,
    }) as Obj,
    {
      apiVersion: 'controlplane.cluster.x-k8s.io/v1beta1',
      kind: 'KubeadmControlPlane',
      metadata: { name: `${o.name}-control-plane`, namespace: ns },
      spec: {
        replicas: o.replicas ?? 3,
        version: o.version,
        machineTemplate: {
          infrastructureRef: {
            apiVersion: INFRA,
            kind: 'DCSMachineTemplate',
            name: cpTemplate,
            namespace: ns,
          },
          nodeDrainTimeout: '1m',
          nodeDeletionTimeout: '5m',
        },
        kubeadmConfigSpec: {
          format: 'ignition',
          files: [
            {
              path: KUBELET_PATCH_PATH,
              owner: 'root:root',
              permissions: '0644',
              content: kubeletPatch(o.version),
            },
          ],
          // kubeadm applies the kubelet patch above only from this directory (R-BOOT-1), on the
          // first control-plane node (init) and the others (join), as the worker pools have it.
          initConfiguration: {
            patches: { directory: KUBELET_PATCHES_DIRECTORY },
            nodeRegistration: {
              kubeletExtraArgs: { 'node-ip': 'NODE_IP', 'provider-id': 'PROVIDER_ID' },
            },
          },
          joinConfiguration: {
            patches: { directory: KUBELET_PATCHES_DIRECTORY },
            nodeRegistration: {
              kubeletExtraArgs: { 'node-ip': 'NODE_IP', 'provider-id': 'PROVIDER_ID' },
            },
          },
          clusterConfiguration: { clusterName: o.name },
        },
        rolloutStrategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1 } },
      },
    },
    {
      apiVersion: CAPI,
      kind: 'Cluster',
      metadata: { name: o.name, namespace: ns },
      spec: {
        clusterNetwork: {
          pods: { cidrBlocks: ['10.244.0.0/16'] },
          services: { cidrBlocks: ['10.96.0.0/12'] },
        },
        controlPlaneRef: {
          apiVersion: 'controlplane.cluster.x-k8s.io/v1beta1',
          kind: 'KubeadmControlPlane',
          name: `${o.name}-control-plane`,
          namespace: ns,
        },
        infrastructureRef: { apiVersion: INFRA, kind: 'DCSCluster', name: o.name, namespace: ns },
      },
    },
  ];
}

export interface WorkerPoolOptions {
  name: string;
  namespace?: string;
  cluster: string;
  version: string;
  replicas: number;
  entries: IpPoolEntry[];
  maxSurge?: IntOrString;
  maxUnavailable?: IntOrString;
  legacyCpaasDisk?: boolean;
  poolAnnotations?: Record<string, string>;
  strategy?: 'RollingUpdate' | 'OnDelete';
  deletePolicy?: 'Random' | 'Newest' | 'Oldest';
  nodeDrainTimeout?: string;
  patchSecret?: string;
}

/** A worker pool in the order O-CREATE-POOL creates it: IP pool, machine template, bootstrap template, MachineDeployment. */
export function workerPoolObjects(o: WorkerPoolOptions): Obj[] {
  const ns = o.namespace ?? DEFAULT_NAMESPACE;
  const pool = `${o.name}-ippool`;
  const tpl = `${o.name}-${o.version.replace(/\./g, '-')}`;
  const kct = `${o.name}-kct-${o.version.replace(/\./g, '-')}`;
  return [
    ipPool(pool, o.entries, ns, o.poolAnnotations) as Obj,
    machineTemplate({
      name: tpl,
      namespace: ns,
      version: o.version,
      pool,
      ...(o.legacyCpaasDisk ? { legacyCpaasDisk: true } : {}),
    }) as Obj,
    bootstrapTemplate({
      name: kct,
      namespace: ns,
      version: o.version,
      ...(o.patchSecret ? { patchSecret: o.patchSecret } : {}),
    }) as Obj,
    machineDeployment({
      name: o.name,
      namespace: ns,
      cluster: o.cluster,
      replicas: o.replicas,
      version: o.version,
      machineTemplate: tpl,
      bootstrapTemplate: kct,
      ...(o.maxSurge !== undefined ? { maxSurge: o.maxSurge } : {}),
      ...(o.maxUnavailable !== undefined ? { maxUnavailable: o.maxUnavailable } : {}),
      ...(o.strategy ? { strategy: o.strategy } : {}),
      ...(o.deletePolicy ? { deletePolicy: o.deletePolicy } : {}),
      ...(o.nodeDrainTimeout ? { nodeDrainTimeout: o.nodeDrainTimeout } : {}),
    }) as Obj,
  ];
}

export const DEMO_VERSIONS: VersionsCatalog = [
  { version: 'v1.32.8', vmTemplateName: vmTemplateFor('v1.32.8') },
  {
    version: 'v1.33.4',
    vmTemplateName: vmTemplateFor('v1.33.4'),
    bootstrapFilesSecret: 'dcs-kubernetes-1.33-files',
  },
  {
    version: 'v1.34.1',
    vmTemplateName: vmTemplateFor('v1.34.1'),
    bootstrapFilesSecret: 'dcs-kubernetes-1.34-files',
  },
  {
    version: 'v1.35.0',
    vmTemplateName: vmTemplateFor('v1.35.0'),
    bootstrapFilesSecret: 'dcs-kubernetes-1.35-files',
  },
];

/** The versions catalog ConfigMap (DOMAIN.md, "The versions catalog"). */
export function versionsCatalog(
  entries: VersionsCatalog = DEMO_VERSIONS,
  namespace = DEFAULT_NAMESPACE,
): ConfigMap {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: VERSIONS_CATALOG_NAME, namespace },
    data: { [VERSIONS_CATALOG_KEY]: stringify(entries) },
  };
}

/** The bootstrap files Secret of a catalog entry: the kubelet patch for contentFrom (R-BOOT-1). */
export function bootstrapFilesSecret(
  name: string,
  version: string,
  namespace = DEFAULT_NAMESPACE,
): Obj {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name, namespace },
    type: 'Opaque',
    data: { 'worker-kubelet-patch.json': Buffer.from(kubeletPatch(version)).toString('base64') },
  };
}

/**
 * A pool's MachineHealthCheck as the console's O-MHC-CREATE writes it (its name, its selector of
 * the pool's machines, R-MHC-5): a Node Ready False or Unknown for 5 minutes, no Node 10 minutes
 * after the machine was created, at most 40 % of the pool unhealthy before remediation waits.
 */
export function poolHealthCheck(o: { namespace?: string; cluster: string; pool: string }): Obj {
  return {
    apiVersion: 'cluster.x-k8s.io/v1beta1',
    kind: 'MachineHealthCheck',
    metadata: {
      name: healthCheckNameOf(o.pool),
      namespace: o.namespace ?? DEFAULT_NAMESPACE,
      labels: { [LABEL_CLUSTER_NAME]: o.cluster },
    },
    spec: {
      clusterName: o.cluster,
      selector: poolHealthCheckSelector(o.cluster, o.pool),
      unhealthyConditions: [
        { type: 'Ready', status: 'False', timeout: '5m0s' },
        { type: 'Ready', status: 'Unknown', timeout: '5m0s' },
      ],
      nodeStartupTimeout: '10m0s',
      maxUnhealthy: '40%',
    },
  };
}
