import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InformerFactory } from '@dcs/informer';
import { LABEL_DEPLOYMENT_NAME, kindTable, type ObjectOf } from '@dcs/domain';
import { startControllers } from '../../src/controllers/start';
import { machineTemplate, type Obj } from '../../src/seed/objects';
import { clusterUp, createPool, waitSettled } from '../support/scenario';
import { startSim, type Sim } from '../support/sim';

/**
 * Issue 13 item 2: controllers restarted against a server that holds a running cluster, mid-rollout,
 * write nothing that a controller with full caches would not. Before the fix the fresh controllers
 * reconciled as their informers' first lists arrived: a Cluster saw no DCSCluster yet
 * (InfrastructureReady flapped to False), a deployment saw no MachineSets (a spurious new set), an
 * IP pool saw no DCSMachines (every persistent disk marked Detached). A watch opened after the
 * first controllers stopped records every write the second ones make.
 */

let sim: Sim;
beforeAll(async () => {
  sim = await startSim({ timeScale: 1000 });
  await clusterUp(sim, 'rs');
}, 120_000);
afterAll(async () => {
  await sim.close();
});

const setsOf = (md: string) =>
  sim.list('MachineSet').filter((s) => s.metadata.labels?.[LABEL_DEPLOYMENT_NAME] === md);

describe('restarting the controllers mid-rollout (WaitForCacheSync)', () => {
  it('makes no condition flap, no spurious MachineSet and marks no attached disk Detached', async () => {
    await createPool(sim, {
      name: 'rs-data',
      cluster: 'rs',
      version: 'v1.34.1',
      replicas: 3,
      persistent: true,
    });
    await createPool(sim, {
      name: 'rs-roll',
      cluster: 'rs',
      version: 'v1.34.1',
      replicas: 4,
      entries: 5,
      maxSurge: 1,
      maxUnavailable: 0,
    });
    await waitSettled(sim, 'rs-data');
    await waitSettled(sim, 'rs-roll');
    await sim.kubectl.create(
      machineTemplate({
        name: 'rs-roll-b',
        version: 'v1.34.1',
        pool: 'rs-roll-ippool',
        cpu: 6,
      }) as Obj,
    );
    await sim.kubectl.patch('MachineDeployment', 'rs-roll', 'merge', {
      spec: { template: { spec: { infrastructureRef: { name: 'rs-roll-b' } } } },
    });
    // Mid-rollout: the new set has machines and the old one still has some.
    await sim.until(
      'rs-roll mid-rollout',
      () => {
        const sets = setsOf('rs-roll');
        return sets.length === 2 && sets.every((s) => (s.status?.replicas ?? 0) > 0);
      },
      60_000,
    );
    await sim.controllers.stop();
    // A handler added to a synced informer is told of every object it holds: these are not new.
    const setNames = new Set(sim.list('MachineSet').map((s) => s.metadata.name));

    // Every write from here on is the second controllers'.
    const violations: string[] = [];
    const factory = new InformerFactory(sim.kubeconfig);
    const informer = <K extends 'Cluster' | 'MachineSet' | 'DCSIpHostnamePool'>(kind: K) =>
      factory.informer<ObjectOf<K>>({
        group: kindTable[kind].group,
        version: kindTable[kind].version,
        plural: kindTable[kind].plural,
        namespace: 'cpaas-system',
      });
    const clusters = informer('Cluster');
    const sets = informer('MachineSet');
    const pools = informer('DCSIpHostnamePool');
    await Promise.all([clusters.synced, sets.synced, pools.synced]);
    clusters.addEventHandler({
      update: (c, old) => {
        for (const was of old.status?.conditions ?? []) {
          const now = c.status?.conditions?.find((x) => x.type === was.type);
          if (was.status === 'True' && now?.status !== 'True')
            violations.push(
              `Cluster ${String(c.metadata.name)}: ${was.type} went ${String(now?.status)}`,
            );
        }
      },
    });
    sets.addEventHandler({
      add: (s) => {
        if (!setNames.has(s.metadata.name))
          violations.push(`MachineSet ${String(s.metadata.name)} created`);
      },
    });
    pools.addEventHandler({
      update: (p, old) => {
        const before = old.status?.persistentDiskStatus ?? [];
        for (const r of p.status?.persistentDiskStatus ?? []) {
          const was = before.find((b) => b.ip === r.ip && b.slot === r.slot);
          // rs-data does not roll: each of its volumes stays with its running machine.
          if (r.phase === 'Detached' && was && was.phase !== 'Detached')
            violations.push(`${String(p.metadata.name)}: volume of ${r.ip} marked Detached`);
        }
      },
    });

    const logs: string[] = [];
    sim.controllers = await startControllers({
      kubeconfig: sim.kubeconfig,
      clock: sim.clock,
      options: { log: (l) => logs.push(l) },
    });
    // The restarted controllers finish the rollout: every replica on the new template.
    await waitSettled(sim, 'rs-roll', 90_000);
    await waitSettled(sim, 'rs-data');
    await factory.stop();
    expect(violations).toEqual([]);
  }, 180_000);
});
