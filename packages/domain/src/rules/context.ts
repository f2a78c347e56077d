import type { VersionsCatalog } from '../schemas/catalog';
import type { KubeadmConfigSpec } from '../schemas/bootstrap';
import type { DCSMachineSpec, IpPoolEntry } from '../schemas/dcs';
import type { IntOrString } from '../schemas/meta';
import type { PauseContext } from './pause';

/**
 * What the rules need to know about the namespace, gathered by the BFF from its cache and sent to
 * the browser by the `context` route, so that the very same rules run in both places.
 */
export interface ValidationContext {
  namespace: string;
  /** The cluster the request is about (for the recommended name prefix, R-MD-5). */
  clusterName: string;
  /** Names taken in the namespace, per kind (R-MD-5: all clusters share the namespace). */
  namesInUse: {
    machineDeployments: readonly string[];
    machineTemplates: readonly string[];
    bootstrapTemplates: readonly string[];
    ipPools: readonly string[];
  };
  ipPools: readonly IpPoolContext[];
  machineTemplates: readonly { name: string; spec: DCSMachineSpec }[];
  /**
   * The worker pools of this cluster (MachineDeployments whose `spec.clusterName` is it) and the
   * machine template each uses now: a new pool's defaults follow their layout, never another
   * cluster's (O-CREATE-POOL). Absent: unknown, the documents' defaults apply.
   */
  workerPools?: readonly { name: string; machineTemplate: string | undefined }[] | undefined;
  bootstrapTemplates: readonly { name: string; spec: KubeadmConfigSpec }[];
  /**
   * Contents of the Secret keys that bootstrap templates reference through `contentFrom.secret`
   * (R-BOOT-1), only those the user may read. A missing entry means "unknown", not "empty".
   */
  bootstrapSecrets: readonly { name: string; data: Readonly<Record<string, string>> }[];
  versions: VersionsCatalog;
  /** The DCS provider's version (R-VER-*), undefined when it could not be found. */
  providerVersion: string | undefined;
  /** The cluster's control-plane Kubernetes version (R-MD-4). */
  controlPlaneVersion: string | undefined;
  /**
   * The DCS distributed switches and their port groups, when the BFF can read them (R-TPL-3,
   * R-NIC-1: a port group must belong to its switch). Absent: membership is not checked.
   */
  dcsInventory?: DcsNetworkInventory | undefined;
  /**
   * What of this cluster is paused (R-PAUSE-1): every plan that writes a paused object, or any
   * object of a paused cluster, warns that nothing happens until it is resumed. Absent: unknown.
   */
  paused?: PauseContext | undefined;
}

export interface DcsNetworkInventory {
  dvSwitches: readonly { name: string; portGroups: readonly string[] }[];
}

/** One DCSIpHostnamePool as the rules see it. */
export interface IpPoolContext {
  name: string;
  resourceVersion: string;
  entries: readonly IpPoolEntry[];
  /** Entries claimed by a live DCSMachine (R-POOL-5): the entry's ip and who holds it. */
  claims: readonly { ip: string; machine: string }[];
  /** Every MachineDeployment whose machine template names this pool (R-POOL-1 demand). */
  consumers: readonly {
    deployment: string;
    replicas: number;
    maxSurge: IntOrString | undefined;
    /** Its current machine template, when known (R-TPL-2: its mounts against the entries). */
    machineTemplate?: string | undefined;
  }[];
}
