import { buildClusterViews, indexObjects, type ViewContext } from '@dcs/domain';
import type { ObjectCache } from '../../src/cache/object-cache';

/**
 * The reference the cluster model is checked against: domain's full grouping of every object the
 * cache holds, read through each store's whole list (not the model's indexes), so that a test
 * compares the incrementally kept model with a reading that shares none of its shortcuts.
 */
export function fullViewsOf(
  cache: ObjectCache,
  cluster: { namespace: string; name: string },
  ctx: ViewContext,
) {
  const s = cache.stores;
  return buildClusterViews(
    indexObjects({
      clusters: s.Cluster.list(),
      kubeadmControlPlanes: s.KubeadmControlPlane.list(),
      machineDeployments: s.MachineDeployment.list(),
      machineSets: s.MachineSet.list(),
      machines: s.Machine.list(),
      dcsMachines: s.DCSMachine.list(),
      machineTemplates: s.DCSMachineTemplate.list(),
      bootstrapTemplates: s.KubeadmConfigTemplate.list(),
      ipPools: s.DCSIpHostnamePool.list(),
      healthChecks: s.MachineHealthCheck.list(),
    }),
    cluster,
    ctx,
  );
}
