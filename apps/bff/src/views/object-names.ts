import { CONTROL_PLANE_POOL_ID, type MachineView } from '@dcs/domain';
import type { ObjectCache } from '../cache/object-cache';
import type { ClusterModel } from './cluster-model';

/**
 * Which objects a pool or a cluster is made of, by kind and name: what both the diagnostics
 * bundle and the timeline select their objects and Events by.
 */

/** The names of objects, by kind. */
export type ObjectNames = Map<string, Set<string>>;

function namesCollector(): { out: ObjectNames; add: (kind: string, name?: string) => void } {
  const out: ObjectNames = new Map();
  const add = (kind: string, name: string | undefined) => {
    if (name === undefined) return;
    let set = out.get(kind);
    if (!set) {
      set = new Set();
      out.set(kind, set);
    }
    set.add(name);
  };
  return { out, add };
}

/** The names of the objects a pool is made of, by kind. */
export function poolObjects(
  cache: ObjectCache,
  namespace: string,
  cluster: string,
  pool: string,
  machines: readonly MachineView[],
): ObjectNames {
  const s = cache.stores;
  const { out, add } = namesCollector();
  if (pool === CONTROL_PLANE_POOL_ID) {
    for (const kcp of s.KubeadmControlPlane.byIndex('cluster', `${namespace}/${cluster}`)) {
      add('KubeadmControlPlane', kcp.metadata.name);
      add('DCSMachineTemplate', kcp.spec?.machineTemplate.infrastructureRef.name);
    }
  } else {
    const md = s.MachineDeployment.get(namespace, pool);
    add('MachineDeployment', pool);
    add('DCSMachineTemplate', md?.spec?.template.spec.infrastructureRef.name);
    add('KubeadmConfigTemplate', md?.spec?.template.spec.bootstrap.configRef?.name);
    for (const ms of s.MachineSet.byIndex('deployment', `${namespace}/${pool}`))
      add('MachineSet', ms.metadata.name);
  }
  for (const m of machines) {
    add('Machine', m.name);
    add('DCSMachine', m.dcsMachineName);
  }
  return out;
}

/** The names of every object a cluster is made of: its pools' and its own. */
export function clusterObjects(cache: ObjectCache, model: ClusterModel): ObjectNames {
  const s = cache.stores;
  const { namespace, name: cluster } = model;
  const { out, add } = namesCollector();
  add('Cluster', cluster);
  for (const pool of model.pools()) {
    for (const [kind, names] of poolObjects(
      cache,
      namespace,
      cluster,
      pool.id,
      model.machinesOf(pool.id),
    ))
      for (const n of names) add(kind, n);
  }
  for (const t of out.get('DCSMachineTemplate') ?? [])
    add(
      'DCSIpHostnamePool',
      s.DCSMachineTemplate.get(namespace, t)?.spec?.template.spec.ipHostPoolRef.name,
    );
  return out;
}
