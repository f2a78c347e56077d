/**
 * The one list of terms the Chinese console keeps in English; everything else on screen is
 * translated (`catalogs.test.ts` fails on any other Latin word in a Chinese text).
 *
 * Why these: the product's Chinese documents keep the names of products, API kinds and fields as
 * written in the objects (a user copies them into kubectl and YAML), and a few Cluster API words
 * (machine, provider, bootstrap, datastore) that they never translate. Screen labels the
 * documents quote from the English UI ("Node Pools", "Replicas", …) are translated: the Chinese
 * console is read, not matched against the documents' screenshots.
 */
export const ZH_GLOSSARY = {
  /** Products, tools, formats and protocols. */
  products: [
    'Cluster API',
    'DCS',
    'Kubernetes',
    'kubectl',
    // Cluster API's CLI, whose describe cluster output the object tree reproduces (issue 26).
    'clusterctl',
    'kubeadm',
    'etcd',
    'kubelet',
    'kubeconfig',
    'YAML',
    'OIDC',
    'ServiceAccount',
    'Cookie',
    'Bearer',
    'SSH',
    'Web',
    // Cluster API's API versions, as written in apiVersion (issue 23).
    'v1beta1',
    'v1beta2',
  ],
  /** Abbreviations and units as engineers write them in Chinese too. */
  abbreviations: [
    'API',
    'IPv4',
    'IP',
    'DNS',
    'CIDR',
    'NIC',
    'VM',
    'OS',
    'CPU',
    'PCI',
    'MB',
    'GB',
    'GiB',
    // RFC 3339, the timestamps Kubernetes reads (O-RESTART's time).
    'RFC',
  ],
  /** Kubernetes kinds, as in `kind:`. */
  kinds: [
    'Cluster',
    'MachineDeployment',
    'MachineSet',
    'Machine',
    'ConfigMap',
    'Deployment',
    'KubeadmControlPlane',
    'KubeadmConfigTemplate',
    'DCSMachine',
    'DCSMachineTemplate',
    'DCSIpHostnamePool',
    'Secret',
    // The workload cluster's Node (issue 12), as `kubectl get nodes` names it.
    'Node',
    // What the cluster autoscaler schedules for (issue 26 item 2): `kubectl get pods`.
    'Pod',
    // A pool's health check (issue 26 item 1), as `kind:` names it.
    'MachineHealthCheck',
    // What holds a drain (issue 26 item 6), as `kind:` and `kubectl get pdb` name it.
    'PodDisruptionBudget',
  ],
  /** Field names, parameters and placeholders as written in objects and requests. */
  fields: [
    // DCSIpHostnamePool entries, NICs and persistent disks (DOMAIN.md, dcs-fields.ts)
    'ip',
    'mask',
    'gateway',
    'dns',
    'hostname',
    'machineName',
    'slot',
    'path',
    'quantityGB',
    'quantity',
    'isThin',
    'format',
    'options',
    'pciType',
    // DCSMachineTemplate, KubeadmConfigTemplate, MachineDeployment
    'vmTemplateName',
    'systemVolume',
    'type',
    'name',
    'version',
    'content',
    'contentFrom',
    'kubeletExtraArgs',
    'imagePullCredentialsVerificationPolicy',
    'NeverVerify',
    'infrastructureRef',
    'machineResourceVersions',
    'true',
    'maxSurge',
    'maxUnavailable',
    // O-EDIT-STRATEGY: the node timeouts and strategy types as written in a MachineDeployment
    'nodeDrainTimeout',
    'nodeDeletionTimeout',
    'nodeVolumeDetachTimeout',
    'RollingUpdate',
    'OnDelete',
    'additionNic',
    'persistentDisk',
    'dvSwitchName',
    'portGroupName',
    'providerID',
    'resourceVersion',
    'dryRun=All',
    'PROVIDER_ID',
    'NODE_IP',
    // O-EDIT-CP-CONFIG: the KubeadmControlPlane's kubeadm config, as written in the object
    'kubeadmConfigSpec',
    'files',
    'users',
    'preKubeadmCommands',
    'postKubeadmCommands',
    'initConfiguration',
    'joinConfiguration',
    'clusterConfiguration',
    'nodeRegistration',
    'patches',
    // O-PAUSE / O-RESUME (issue 26): metadata and the v1beta2 Paused condition, as written
    'generation',
    'finalizer',
    'Paused',
    'NotPaused',
    // O-AUTOSCALE (issue 26 item 2): the request's fields, as the console's API names them
    'minSize',
    'maxSize',
    'replicas',
    'null',
    // O-RESTART (issue 26 item 4): the field it writes, its request's time, the deletion orders
    'rolloutAfter',
    'at',
    'Random',
    'Oldest',
    'Newest',
    // O-MHC-* (issue 26 item 1): the health check's fields and the conditions it writes
    'maxUnhealthy',
    'unhealthyRange',
    'nodeStartupTimeoutSeconds',
    'HealthCheckSucceeded',
    'OwnerRemediated',
    'RemediationAllowed',
    // A drain (issue 26 item 6): a PodDisruptionBudget's field, the Machine's condition
    'minAvailable',
    'Deleting',
    'True',
    'False',
    'Unknown',
  ],
  /** Words the Chinese documents keep in English, and API values shown as they are. */
  documentTerms: [
    'machine',
    'provider',
    'Bootstrap',
    'bootstrap',
    'datastore',
    'boot',
    'dry run',
    'Running',
  ],
} as const;

/** Every term, longest first (so that "Cluster API" is taken before "API"). */
export const zhGlossaryTerms: readonly string[] = Object.values(ZH_GLOSSARY)
  .flat()
  .sort((a, b) => b.length - a.length);

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A glossary term as a whole word: "ip" is taken in "ip 地址", never inside "Description". */
const glossaryWords = new RegExp(
  `(?<![A-Za-z0-9_])(?:${zhGlossaryTerms.map(escape).join('|')})(?![A-Za-z0-9_])`,
  'g',
);

/**
 * The Latin words of a Chinese text that are not in the glossary. Values rather than words are
 * left out: placeholders and ICU plural syntax, rule and operation ids (R-POOL-4,
 * O-SCALE-DOWN-TARGETED: a plan's heading names its operation), label keys
 * (cluster.x-k8s.io/delete-machine), paths (/var/cpaas), dotted field paths
 * (bootstrap.configRef.name), object names (dcs-kubernetes-versions), versions (v1.33.4), Go
 * durations and sizes (5m, 1h30m), quoted literals ("30s"), and the ns/us/ms/s/m/h unit list.
 */
export function englishOutsideGlossary(text: string): string[] {
  let rest = text
    .replace(/\{\s*\w+\s*,\s*plural\s*,/g, ' ')
    .replace(/\b(?:zero|one|two|few|many|other)\s*\{/g, ' ')
    .replace(/\{\w+\}/g, ' ')
    .replace(/\bR-[A-Z]+-\d+(?:\.\.\d+)?\b/g, ' ')
    .replace(/\bO-[A-Z]+(?:-[A-Z]+)*\b/g, ' ')
    .replace(/[\w.-]+\.(?:io|com)\/[\w.-]+/g, ' ')
    .replace(/\/[\w/.-]+/g, ' ')
    .replace(/\.?\b\w+(?:\.\w+)+/g, ' ')
    .replace(/\b[a-z0-9]+(?:-[a-z0-9]+)+\b/g, ' ')
    .replace(/\bv\d+(?:\.\d+)*\b/g, ' ')
    .replace(/"[^"]*"/g, ' ')
    .replace(/\b\d+(?:\.\d+)?[a-zA-Z]+\b/g, ' ')
    .replace(/（单位[^）]*）/g, ' ');
  rest = rest.replace(glossaryWords, ' ');
  return rest.match(/[A-Za-z][A-Za-z0-9_-]*/g) ?? [];
}
