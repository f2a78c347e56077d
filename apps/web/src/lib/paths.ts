/**
 * The app's deep links, built in one place so that support staff can paste any of them:
 * a cluster, a pool, a machine, their conditions.
 */
const e = encodeURIComponent;

export const clusterPath = (ns: string, cluster: string) => `/clusters/${e(ns)}/${e(cluster)}`;
export const poolsPath = (ns: string, cluster: string) => `${clusterPath(ns, cluster)}/node-pools`;
export const newPoolPath = (ns: string, cluster: string) => `${poolsPath(ns, cluster)}/new`;
export const poolPath = (ns: string, cluster: string, pool: string) =>
  `${poolsPath(ns, cluster)}/${e(pool)}`;
export const poolConditionsPath = (ns: string, cluster: string, pool: string) =>
  `${poolPath(ns, cluster, pool)}/conditions`;
/** R-DISK-5: the migration plan of a worker pool on the legacy disk layout. */
export const poolDiskMigrationPath = (ns: string, cluster: string, pool: string) =>
  `${poolPath(ns, cluster, pool)}/disk-migration`;
export const nodesPath = (ns: string, cluster: string) => `${clusterPath(ns, cluster)}/nodes`;
export const machinePath = (ns: string, cluster: string, machine: string) =>
  `${nodesPath(ns, cluster)}/${e(machine)}`;
export const machineConditionsPath = (ns: string, cluster: string, machine: string) =>
  `${machinePath(ns, cluster, machine)}/conditions`;
/** The cluster's object tree, as clusterctl describe cluster shows it (issue 26). */
export const objectTreePath = (ns: string, cluster: string) => `${clusterPath(ns, cluster)}/tree`;
export const ipPoolsPath = (ns: string, cluster: string) => `${clusterPath(ns, cluster)}/ip-pools`;
export const newIpPoolPath = (ns: string, cluster: string) => `${ipPoolsPath(ns, cluster)}/new`;
export const ipPoolPath = (ns: string, cluster: string, name: string) =>
  `${ipPoolsPath(ns, cluster)}/${e(name)}`;
/** The Nodes tab showing only the machines of one MachineSet (a rollout's old or new set). */
export const machineSetMachinesPath = (ns: string, cluster: string, machineSet: string) =>
  `${nodesPath(ns, cluster)}?${new URLSearchParams({ set: machineSet }).toString()}`;
