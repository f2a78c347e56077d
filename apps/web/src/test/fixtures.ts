import {
  buildClusterViews,
  indexObjects,
  machineView,
  type ClusterViews,
  type MachineView,
  type ObjectSet,
} from '@dcs/domain';
import {
  aCluster,
  aKubeadmControlPlane,
  aMachine,
  aMachineDeployment,
  aMachineSet,
  aMachineTemplate,
  aBootstrapTemplate,
  anIpPool,
  aDCSMachine,
  DEMO_CATALOG,
} from '@dcs/domain/testing';

/**
 * Test data for the web's unit tests: real view models, made by domain's view functions from
 * domain's builders, never hand-written results.
 */
export const NOW = new Date('2026-01-01T01:00:00Z');

export function aMachineView(
  name: string,
  o: { poolId?: string; phase?: string } = {},
): MachineView {
  const pool = o.poolId ?? 'demo-md-0';
  return machineView(
    aMachine({
      metadata: { name, labels: { 'cluster.x-k8s.io/deployment-name': pool } },
      ...(o.phase ? { status: { phase: o.phase } } : {}),
    }),
    undefined,
    NOW,
  );
}

/**
 * The demo cluster: a control plane and one worker pool of three running machines. `change`
 * edits its objects first (a pool as someone patched it).
 */
export function demoClusterViews(change?: (objects: ObjectSet) => void): ClusterViews {
  const objects: ObjectSet = {
    clusters: [aCluster()],
    kubeadmControlPlanes: [aKubeadmControlPlane()],
    machineDeployments: [aMachineDeployment()],
    machineSets: [aMachineSet()],
    machines: [1, 2, 3].map((n) => aMachine({ metadata: { name: `demo-md-0-abc12-m${n}` } })),
    dcsMachines: [1, 2, 3].map((n) => aDCSMachine({ metadata: { name: `demo-md-0-abc12-m${n}` } })),
    machineTemplates: [aMachineTemplate()],
    bootstrapTemplates: [aBootstrapTemplate()],
    ipPools: [anIpPool()],
  };
  change?.(objects);
  const index = indexObjects(objects);
  const views = buildClusterViews(
    index,
    { namespace: 'cpaas-system', name: 'demo' },
    {
      now: NOW,
      versions: DEMO_CATALOG,
      providerVersion: '1.0.16',
    },
  );
  if (!views) throw new Error('the demo cluster has no views');
  return views;
}
