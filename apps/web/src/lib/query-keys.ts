/**
 * Every react-query key of the app, from one factory: mutations invalidate through it and the
 * stream reducer finds the lists it patches through it, so a key is never spelled twice.
 */
export const queryKeys = {
  session: ['session'] as const,
  clusters: ['clusters'] as const,
  cluster: (namespace: string, name: string) => ['clusters', namespace, name] as const,
  context: (namespace: string, name: string) =>
    [...queryKeys.cluster(namespace, name), 'context'] as const,
  pools: (namespace: string, name: string) =>
    [...queryKeys.cluster(namespace, name), 'nodepools'] as const,
  pool: (namespace: string, name: string, pool: string) =>
    [...queryKeys.pools(namespace, name), pool] as const,
  poolMachines: (namespace: string, name: string, pool: string) =>
    [...queryKeys.pool(namespace, name, pool), 'machines'] as const,
  poolEvents: (namespace: string, name: string, pool: string) =>
    [...queryKeys.pool(namespace, name, pool), 'events'] as const,
  poolDiskMigration: (namespace: string, name: string, pool: string) =>
    [...queryKeys.pool(namespace, name, pool), 'disk-migration'] as const,
  machines: (namespace: string, name: string) =>
    [...queryKeys.cluster(namespace, name), 'machines'] as const,
  /** The object tree (issue 26), per choice of options. */
  objectTree: (namespace: string, name: string, options: Readonly<Record<string, string>>) =>
    [...queryKeys.cluster(namespace, name), 'tree', options] as const,
  /** The workload cluster's Nodes (issue 12): the summaries, and one Node by name below it. */
  nodes: (namespace: string, name: string) =>
    [...queryKeys.cluster(namespace, name), 'nodes'] as const,
  node: (namespace: string, name: string, node: string) =>
    [...queryKeys.nodes(namespace, name), node] as const,
  /** The cluster autoscaler's status in the workload cluster (issue 26 item 2). */
  autoscaler: (namespace: string, name: string) =>
    [...queryKeys.cluster(namespace, name), 'autoscaler'] as const,
  ipPools: (namespace: string) => ['namespaces', namespace, 'ippools'] as const,
  ipPool: (namespace: string, name: string) => [...queryKeys.ipPools(namespace), name] as const,
  /** The Events of a page's objects (issue 26), per filter. */
  objectEvents: (
    namespace: string,
    objects: readonly string[],
    filter: Readonly<Record<string, string>>,
  ) => ['namespaces', namespace, 'events', objects, filter] as const,
  object: (namespace: string, kind: string, name: string) =>
    ['namespaces', namespace, 'objects', kind, name] as const,
};
