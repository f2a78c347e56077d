import type { KubeadmConfigTemplate } from '../schemas/bootstrap';
import type { Cluster, Machine, MachineDeployment, MachineSet } from '../schemas/capi';
import type { KubeadmControlPlane } from '../schemas/controlplane';
import type { ConfigMap, Deployment, Node, Secret } from '../schemas/core';
import type {
  DCSCluster,
  DCSIpHostnamePool,
  DCSMachine,
  DCSMachineTemplate,
  IpPoolEntry,
} from '../schemas/dcs';
import type { VersionsCatalog } from '../schemas/catalog';
import type { ValidationContext } from '../rules/context';
import type { CreatePoolRequestInput } from '../requests';
import { defaultBootstrapSpec } from '../planners/bootstrap-defaults';
import {
  DEFAULT_NAMESPACE,
  KUBELET_PATCH_PATH,
  LABEL_APP_VERSION,
  LABEL_CLUSTER_NAME,
  LABEL_CONTROL_PLANE,
  LABEL_DEPLOYMENT_NAME,
  LABEL_POOL_NAME,
  LABEL_PROVIDER,
  LABEL_SET_NAME,
  PROVIDER_DCS,
  VERSIONS_CATALOG_KEY,
  VERSIONS_CATALOG_NAME,
} from '../labels';

/**
 * Typed test-data builders shared by every test suite (unit, integration, e2e). Each returns a
 * complete, valid object; `overrides` are deep-merged (arrays replace).
 */

export type DeepPartial<T> = T extends readonly (infer U)[]
  ? U[]
  : T extends object
    ? { [K in keyof T]?: DeepPartial<T[K]> }
    : T;

function must<T>(v: T | undefined): T {
  if (v === undefined) throw new Error('builder default is missing a field');
  return v;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function deepMerge<T>(base: T, overrides: DeepPartial<T> | undefined): T {
  if (overrides === undefined) return base;
  if (!isPlainObject(base) || !isPlainObject(overrides)) return overrides as T;
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(overrides)) {
    out[k] = v === undefined ? out[k] : deepMerge(out[k], v as DeepPartial<unknown>);
  }
  return out as T;
}

const ns = DEFAULT_NAMESPACE;
const created = '2026-01-01T00:00:00Z';
let uidCounter = 0;
const uid = () => `00000000-0000-4000-8000-${String(++uidCounter).padStart(12, '0')}`;
const meta = (name: string, labels?: Record<string, string>) => ({
  name,
  namespace: ns,
  uid: uid(),
  resourceVersion: '1',
  generation: 1,
  creationTimestamp: created,
  ...(labels ? { labels } : {}),
});

export const INFRA_API = 'infrastructure.cluster.x-k8s.io/v1beta1';
export const BOOTSTRAP_API = 'bootstrap.cluster.x-k8s.io/v1beta1';

export function aCluster(o?: DeepPartial<Cluster>): Cluster {
  const name = o?.metadata?.name ?? 'demo';
  return deepMerge<Cluster>(
    {
      apiVersion: 'cluster.x-k8s.io/v1beta1',
      kind: 'Cluster',
      metadata: meta(name),
      spec: {
        controlPlaneEndpoint: { host: '10.0.0.10', port: 6443 },
        controlPlaneRef: {
          apiVersion: 'controlplane.cluster.x-k8s.io/v1beta1',
          kind: 'KubeadmControlPlane',
          name: `${name}-control-plane`,
          namespace: ns,
        },
        infrastructureRef: { apiVersion: INFRA_API, kind: 'DCSCluster', name, namespace: ns },
      },
      status: {
        phase: 'Provisioned',
        infrastructureReady: true,
        controlPlaneReady: true,
        conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: created }],
      },
    },
    o,
  );
}

export function aDCSCluster(o?: DeepPartial<DCSCluster>): DCSCluster {
  const name = o?.metadata?.name ?? 'demo';
  return deepMerge<DCSCluster>(
    {
      apiVersion: INFRA_API,
      kind: 'DCSCluster',
      metadata: meta(name, { [LABEL_CLUSTER_NAME]: name }),
      spec: { controlPlaneEndpoint: { host: '10.0.0.10', port: 6443 } },
      status: { ready: true },
    },
    o,
  );
}

export function aKubeadmControlPlane(o?: DeepPartial<KubeadmControlPlane>): KubeadmControlPlane {
  const cluster = o?.metadata?.labels?.[LABEL_CLUSTER_NAME] ?? 'demo';
  return deepMerge<KubeadmControlPlane>(
    {
      apiVersion: 'controlplane.cluster.x-k8s.io/v1beta1',
      kind: 'KubeadmControlPlane',
      metadata: meta(`${cluster}-control-plane`, { [LABEL_CLUSTER_NAME]: cluster }),
      spec: {
        replicas: 3,
        version: 'v1.33.4',
        machineTemplate: {
          infrastructureRef: {
            apiVersion: INFRA_API,
            kind: 'DCSMachineTemplate',
            name: `${cluster}-control-plane-template`,
            namespace: ns,
          },
        },
        kubeadmConfigSpec: { format: 'ignition' },
      },
      status: {
        replicas: 3,
        readyReplicas: 3,
        updatedReplicas: 3,
        unavailableReplicas: 0,
        version: 'v1.33.4',
        initialized: true,
        ready: true,
        observedGeneration: 1,
        conditions: [
          { type: 'Ready', status: 'True', lastTransitionTime: created },
          { type: 'Available', status: 'True', lastTransitionTime: created },
        ],
      },
    },
    o,
  );
}

export function aMachineDeployment(o?: DeepPartial<MachineDeployment>): MachineDeployment {
  const name = o?.metadata?.name ?? 'demo-md-0';
  const cluster = o?.spec?.clusterName ?? 'demo';
  return deepMerge<MachineDeployment>(
    {
      apiVersion: 'cluster.x-k8s.io/v1beta1',
      kind: 'MachineDeployment',
      metadata: meta(name, { [LABEL_CLUSTER_NAME]: cluster }),
      spec: {
        clusterName: cluster,
        replicas: 3,
        selector: { matchLabels: { [LABEL_CLUSTER_NAME]: cluster, [LABEL_DEPLOYMENT_NAME]: name } },
        strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 1 } },
        template: {
          // The selector's labels, as Cluster API's webhook requires of the template's.
          metadata: {
            labels: {
              [LABEL_CLUSTER_NAME]: cluster,
              [LABEL_DEPLOYMENT_NAME]: name,
              [LABEL_POOL_NAME]: name,
            },
          },
          spec: {
            clusterName: cluster,
            version: 'v1.33.4',
            nodeDrainTimeout: '1m',
            nodeDeletionTimeout: '5m',
            bootstrap: {
              configRef: {
                apiVersion: BOOTSTRAP_API,
                kind: 'KubeadmConfigTemplate',
                name: `${name}-kct`,
                namespace: ns,
              },
            },
            infrastructureRef: {
              apiVersion: INFRA_API,
              kind: 'DCSMachineTemplate',
              name: `${name}-template`,
              namespace: ns,
            },
          },
        },
      },
      status: {
        replicas: 3,
        readyReplicas: 3,
        updatedReplicas: 3,
        availableReplicas: 3,
        unavailableReplicas: 0,
        phase: 'Running',
        observedGeneration: 1,
        conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: created }],
      },
    },
    o,
  );
}

export function aMachineSet(o?: DeepPartial<MachineSet>): MachineSet {
  const deployment = o?.metadata?.labels?.[LABEL_DEPLOYMENT_NAME] ?? 'demo-md-0';
  const name = o?.metadata?.name ?? `${deployment}-abc12`;
  const cluster = o?.spec?.clusterName ?? 'demo';
  const labels = { [LABEL_CLUSTER_NAME]: cluster, [LABEL_DEPLOYMENT_NAME]: deployment };
  return deepMerge<MachineSet>(
    {
      apiVersion: 'cluster.x-k8s.io/v1beta1',
      kind: 'MachineSet',
      metadata: meta(name, labels),
      spec: {
        clusterName: cluster,
        replicas: 3,
        selector: { matchLabels: labels },
        template: {
          metadata: { labels },
          spec: {
            clusterName: cluster,
            version: 'v1.33.4',
            bootstrap: {
              configRef: {
                apiVersion: BOOTSTRAP_API,
                kind: 'KubeadmConfigTemplate',
                name: `${deployment}-kct`,
              },
            },
            infrastructureRef: {
              apiVersion: INFRA_API,
              kind: 'DCSMachineTemplate',
              name: `${deployment}-template`,
            },
          },
        },
      },
      status: { replicas: 3, readyReplicas: 3, availableReplicas: 3, observedGeneration: 1 },
    },
    o,
  );
}

/** A Running worker Machine with its node; pass `controlPlane: true` labels for a control-plane one. */
export function aMachine(o?: DeepPartial<Machine>): Machine {
  const name = o?.metadata?.name ?? 'demo-md-0-abc12-x1y2z';
  const cluster = o?.spec?.clusterName ?? 'demo';
  return deepMerge<Machine>(
    {
      apiVersion: 'cluster.x-k8s.io/v1beta1',
      kind: 'Machine',
      metadata: meta(name, {
        [LABEL_CLUSTER_NAME]: cluster,
        [LABEL_DEPLOYMENT_NAME]: 'demo-md-0',
        [LABEL_SET_NAME]: 'demo-md-0-abc12',
      }),
      spec: {
        clusterName: cluster,
        version: 'v1.33.4',
        bootstrap: { configRef: { apiVersion: BOOTSTRAP_API, kind: 'KubeadmConfig', name } },
        infrastructureRef: { apiVersion: INFRA_API, kind: 'DCSMachine', name },
        providerID: `dcs://${name}`,
      },
      status: {
        phase: 'Running',
        bootstrapReady: true,
        infrastructureReady: true,
        nodeRef: { apiVersion: 'v1', kind: 'Node', name },
        addresses: [{ type: 'InternalIP', address: '10.0.1.11' }],
        conditions: [
          { type: 'Ready', status: 'True', lastTransitionTime: created },
          { type: 'BootstrapReady', status: 'True', lastTransitionTime: created },
          { type: 'InfrastructureReady', status: 'True', lastTransitionTime: created },
          { type: 'NodeHealthy', status: 'True', lastTransitionTime: created },
        ],
      },
    },
    o,
  );
}

/** Labels of a control-plane Machine of `cluster`. */
export const controlPlaneLabels = (cluster = 'demo') => ({
  [LABEL_CLUSTER_NAME]: cluster,
  [LABEL_CONTROL_PLANE]: '',
});

export function aDCSMachine(o?: DeepPartial<DCSMachine>): DCSMachine {
  const name = o?.metadata?.name ?? 'demo-md-0-abc12-x1y2z';
  return deepMerge<DCSMachine>(
    {
      apiVersion: INFRA_API,
      kind: 'DCSMachine',
      metadata: meta(name, { [LABEL_CLUSTER_NAME]: 'demo' }),
      spec: {
        vmTemplateName: 'alauda-os-k8s-v1.33.4',
        ipHostPoolRef: { name: 'demo-worker-pool' },
        providerID: `dcs://${name}`,
      },
      status: {
        ready: true,
        networkConfig: { ip: '10.0.1.11' },
        cdRomFile: `/iso/${name}.iso`,
        vmState: 'running',
      },
    },
    o,
  );
}

/** The machine spec of the demo's worker templates (v1.33.4 image, 4 CPU, 8 GiB, two data disks), without its IP pool. */
function aMachineSpec() {
  return {
    vmTemplateName: 'alauda-os-k8s-v1.33.4',
    location: { type: 'folder' as const, name: 'k8s-workers' },
    vmConfig: {
      dcsMachineCpuSpec: { quantity: 4 },
      dcsMachineMemorySpec: { quantity: 8192 },
      dcsMachineDiskSpec: [
        { quantity: 0, datastoreClusterName: 'ds-cluster-1', systemVolume: true },
        ...['/var/lib/kubelet', '/var/lib/containerd'].map((path) => ({
          quantity: 100,
          datastoreClusterName: 'ds-cluster-1',
          path,
          format: 'xfs' as const,
        })),
      ],
    },
  };
}

export function aMachineTemplate(o?: DeepPartial<DCSMachineTemplate>): DCSMachineTemplate {
  return deepMerge<DCSMachineTemplate>(
    {
      apiVersion: INFRA_API,
      kind: 'DCSMachineTemplate',
      metadata: meta('demo-md-0-template'),
      spec: {
        template: {
          spec: {
            ...aMachineSpec(),
            ipHostPoolRef: { name: 'demo-worker-pool' },
          },
        },
      },
    },
    o,
  );
}

export const KUBELET_PATCH_1_35 = `{
  "apiVersion": "kubelet.config.k8s.io/v1beta1",
  "kind": "KubeletConfiguration",
  "imagePullCredentialsVerificationPolicy": "NeverVerify",
  "protectKernelDefaults": true
}
`;
export const KUBELET_PATCH_1_34 = `{
  "apiVersion": "kubelet.config.k8s.io/v1beta1",
  "kind": "KubeletConfiguration",
  "protectKernelDefaults": true
}
`;

export function aBootstrapTemplate(o?: DeepPartial<KubeadmConfigTemplate>): KubeadmConfigTemplate {
  return deepMerge<KubeadmConfigTemplate>(
    {
      apiVersion: BOOTSTRAP_API,
      kind: 'KubeadmConfigTemplate',
      metadata: meta('demo-md-0-kct'),
      spec: {
        template: {
          spec: {
            format: 'ignition',
            users: [
              {
                name: 'boot',
                sshAuthorizedKeys: ['ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIDemo demo@example'],
              },
            ],
            files: [
              {
                path: KUBELET_PATCH_PATH,
                owner: 'root:root',
                permissions: '0644',
                content: KUBELET_PATCH_1_34,
              },
            ],
            preKubeadmCommands: ['if [ -f /etc/disk-setup.sh ]; then bash /etc/disk-setup.sh; fi'],
            postKubeadmCommands: ['chmod 600 /var/lib/kubelet/config.yaml'],
            joinConfiguration: {
              patches: { directory: '/etc/kubernetes/patches' },
              nodeRegistration: {
                kubeletExtraArgs: { 'node-ip': 'NODE_IP', 'provider-id': 'PROVIDER_ID' },
              },
            },
          },
        },
      },
    },
    o,
  );
}

/** Entry n (1-based) of a /24 worker network, with the platform's /var/cpaas persistent disk. */
export function anIpEntry(n: number, o?: DeepPartial<IpPoolEntry>): IpPoolEntry {
  return deepMerge<IpPoolEntry>(
    {
      ip: `10.0.1.${10 + n}`,
      mask: '24',
      gateway: '10.0.1.1',
      dns: '10.0.0.2',
      hostname: `worker-node-${n}`,
      machineName: `worker-vm-${n}`,
      persistentDisk: [
        {
          slot: 0,
          quantityGB: 40,
          datastoreClusterName: 'ds-cluster-1',
          path: '/var/cpaas',
          format: 'xfs',
        },
      ],
    },
    o,
  );
}

export function anIpPool(
  o?: DeepPartial<DCSIpHostnamePool> & { entries?: number },
): DCSIpHostnamePool {
  const { entries = 3, ...rest } = o ?? {};
  return deepMerge<DCSIpHostnamePool>(
    {
      apiVersion: INFRA_API,
      kind: 'DCSIpHostnamePool',
      metadata: meta('demo-worker-pool'),
      spec: { pool: Array.from({ length: entries }, (_, i) => anIpEntry(i + 1)) },
    },
    rest,
  );
}

export const DEMO_CATALOG: VersionsCatalog = [
  { version: 'v1.32.8', vmTemplateName: 'alauda-os-k8s-v1.32.8' },
  {
    version: 'v1.33.4',
    vmTemplateName: 'alauda-os-k8s-v1.33.4',
    bootstrapFilesSecret: 'dcs-kubernetes-1.33-files',
  },
  { version: 'v1.34.1', vmTemplateName: 'alauda-os-k8s-v1.34.1' },
  { version: 'v1.35.0', vmTemplateName: 'alauda-os-k8s-v1.35.0' },
];

/** The versions catalog ConfigMap, its YAML written by hand (domain carries no YAML library). */
export function aVersionsCatalog(entries: VersionsCatalog = DEMO_CATALOG): ConfigMap {
  const yaml = entries
    .map(
      (e) =>
        `- version: ${e.version}\n  vmTemplateName: ${e.vmTemplateName}\n` +
        (e.bootstrapFilesSecret ? `  bootstrapFilesSecret: ${e.bootstrapFilesSecret}\n` : ''),
    )
    .join('');
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: meta(VERSIONS_CATALOG_NAME),
    data: { [VERSIONS_CATALOG_KEY]: yaml },
  };
}

/** The provider's Deployment as clusterctl installs it: spec.selector matches the pod template's labels. */
export function aProviderDeployment(version = '1.0.16'): Deployment {
  const labels = {
    [LABEL_PROVIDER]: PROVIDER_DCS,
    [LABEL_APP_VERSION]: version,
    'control-plane': 'controller-manager',
  };
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: meta('capdcs-controller-manager', { ...labels }),
    spec: {
      replicas: 1,
      selector: {
        matchLabels: { [LABEL_PROVIDER]: PROVIDER_DCS, 'control-plane': 'controller-manager' },
      },
      template: {
        metadata: { labels },
        spec: { containers: [{ name: 'manager', image: `registry.example/capdcs:v${version}` }] },
      },
    },
  };
}

export function aSecret(name: string, data: Record<string, string>): Secret {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: meta(name),
    type: 'Opaque',
    data: Object.fromEntries(Object.entries(data).map(([k, v]) => [k, btoa(v)])),
  };
}

/** A workload cluster's Node as a healthy kubelet reports it (cluster-scoped: no namespace). */
export function aNode(name: string, o?: DeepPartial<Node>): Node {
  const base: Node = {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, uid: `uid-node-${name}`, creationTimestamp: '2026-01-01T00:00:00Z' },
    spec: { providerID: `dcs://${name}` },
    status: {
      conditions: [
        { type: 'MemoryPressure', status: 'False', reason: 'KubeletHasSufficientMemory' },
        { type: 'DiskPressure', status: 'False', reason: 'KubeletHasNoDiskPressure' },
        { type: 'PIDPressure', status: 'False', reason: 'KubeletHasSufficientPID' },
        { type: 'NetworkUnavailable', status: 'False', reason: 'CalicoIsUp' },
        { type: 'Ready', status: 'True', reason: 'KubeletReady' },
      ],
      nodeInfo: { kubeletVersion: 'v1.33.4' },
    },
  };
  return deepMerge(base, o);
}

/** A context in which a new pool `demo-md-1` of 3 replicas on a fresh 3-entry pool is valid. */
export function aValidationContext(o?: Partial<ValidationContext>): ValidationContext {
  return {
    namespace: ns,
    clusterName: 'demo',
    namesInUse: {
      machineDeployments: ['demo-md-0'],
      machineTemplates: ['demo-md-0-template'],
      bootstrapTemplates: ['demo-md-0-kct'],
      ipPools: ['demo-worker-pool'],
    },
    ipPools: [
      {
        name: 'demo-worker-pool',
        resourceVersion: '1',
        entries: [1, 2, 3].map((n) => anIpEntry(n)),
        claims: [1, 2, 3].map((n) => ({
          ip: `10.0.1.${10 + n}`,
          machine: `demo-md-0-abc12-m${n}`,
        })),
        consumers: [{ deployment: 'demo-md-0', replicas: 3, maxSurge: 0 }],
      },
    ],
    machineTemplates: [
      { name: 'demo-md-0-template', spec: must(aMachineTemplate().spec).template.spec },
    ],
    bootstrapTemplates: [
      { name: 'demo-md-0-kct', spec: must(must(aBootstrapTemplate().spec).template.spec) },
    ],
    bootstrapSecrets: [],
    versions: DEMO_CATALOG,
    providerVersion: '1.0.16',
    controlPlaneVersion: 'v1.33.4',
    ...o,
  };
}

/**
 * A create-pool request (O-CREATE-POOL) that is valid in {@link aValidationContext}: pool
 * `demo-md-1`, 3 replicas of v1.33.4 on a new 3-entry IP pool, new templates. As the form sends
 * it (the schema's input); `o` replaces top-level fields.
 */
export function aCreatePoolRequest(
  o: Partial<CreatePoolRequestInput> = {},
): CreatePoolRequestInput {
  return {
    name: 'demo-md-1',
    replicas: 3,
    version: '1.33.4',
    machineTemplate: {
      mode: 'new',
      name: 'demo-md-1-template',
      spec: aMachineSpec(),
    },
    bootstrap: {
      mode: 'new',
      name: 'demo-md-1-kct',
      spec: defaultBootstrapSpec({ version: 'v1.33.4', sshAuthorizedKeys: ['ssh-ed25519 AAAA k'] }),
    },
    ipPool: { mode: 'new', name: 'demo-md-1-ippool', entries: [4, 5, 6].map((n) => anIpEntry(n)) },
    strategy: { maxSurge: 0, maxUnavailable: 1 },
    ...o,
  };
}
