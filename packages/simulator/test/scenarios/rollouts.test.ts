import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANNOTATION_REFUSE } from '../../src/admission';
import { ANNOTATION_DISABLE_MACHINE_CREATE } from '../../src/logic/machineset-desired';
import { maxSurgeOf } from '../../src/logic/rollout';
import { machineTemplate, type Obj } from '../../src/seed/objects';
import { RolloutMonitor } from '../support/monitor';
import { clusterUp, createPool, machinesOf, waitSettled } from '../support/scenario';
import { startSim, type Sim } from '../support/sim';
import { LABEL_SET_NAME, type IntOrString } from '@dcs/domain';

let sim: Sim;
beforeAll(async () => {
  sim = await startSim({ timeScale: 1000 });
  await clusterUp(sim, 'roll');
}, 120_000);
afterAll(async () => {
  await sim.close();
});

const sets = (md: string) => [
  ...new Set(machinesOf(sim, md).map((m) => m.metadata.labels?.[LABEL_SET_NAME])),
];

/** The invariants monitor of pool `md`, synced and checking from now on. */
async function armedMonitor(md: string): Promise<RolloutMonitor> {
  const monitor = new RolloutMonitor(sim.kubeconfig, () => sim.get('MachineDeployment', md), md);
  await monitor.synced();
  monitor.arm();
  return monitor;
}

/** O-UPGRADE-INFRA as kubectl does it: a new machine template (more CPU), then the pool on it. */
async function rollToNewTemplate(md: string): Promise<void> {
  await sim.kubectl.create(
    machineTemplate({ name: `${md}-b`, version: 'v1.34.1', pool: `${md}-ippool`, cpu: 6 }) as Obj,
  );
  await sim.kubectl.patch('MachineDeployment', md, 'merge', {
    spec: { template: { spec: { infrastructureRef: { name: `${md}-b` } } } },
  });
}

const CASES: [number, IntOrString, IntOrString][] = [
  [4, 1, 0],
  [4, 0, 1],
  [5, 2, 1],
  [4, '50%', '50%'],
  [4, '0%', '25%'],
  [3, 0, '100%'],
  [6, '25%', '0%'],
];

describe('rolling updates on the embedded server: the invariants hold on every watch event', () => {
  it.each(CASES)(
    'replicas %i, maxSurge %j, maxUnavailable %j: never more than replicas + maxSurge machines, never fewer than replicas - maxUnavailable available',
    async (replicas, maxSurge, maxUnavailable) => {
      const name = `roll-${String(replicas)}-${String(maxSurge).replace('%', 'p')}-${String(maxUnavailable).replace('%', 'p')}`;
      const surge = maxSurgeOf({ replicas, strategy: 'RollingUpdate', maxSurge, maxUnavailable });
      await createPool(sim, {
        name,
        cluster: 'roll',
        version: 'v1.34.1',
        replicas,
        entries: replicas + surge,
        maxSurge,
        maxUnavailable,
      });
      await waitSettled(sim, name);
      const monitor = await armedMonitor(name);
      const before = sets(name)[0];
      await rollToNewTemplate(name);
      await sim.until(
        `${name} rolled`,
        () => sets(name).length === 1 && sets(name)[0] !== before,
        90_000,
      );
      await waitSettled(sim, name);
      await monitor.stop();
      expect(monitor.violations).toEqual([]);
      expect(monitor.events).toBeGreaterThan(replicas * 4);
    },
    120_000,
  );

  it('OnDelete: nothing is replaced until the user deletes a machine; the replacement comes from the new set, never exceeding replicas', async () => {
    const name = 'roll-ondelete';
    await createPool(sim, {
      name,
      cluster: 'roll',
      version: 'v1.34.1',
      replicas: 3,
      strategy: 'OnDelete',
    });
    await waitSettled(sim, name);
    const monitor = await armedMonitor(name);
    const [oldSet] = sets(name);
    await rollToNewTemplate(name);
    await sim.until(
      'old set disabled',
      () =>
        sim.get('MachineSet', oldSet ?? '')?.metadata.annotations?.[
          ANNOTATION_DISABLE_MACHINE_CREATE
        ] === 'true',
    );
    await sim.clock.advance(30 * 60_000);
    await sim.controllers.idle();
    expect(sets(name)).toEqual([oldSet]);
    for (const m of machinesOf(sim, name)) {
      await sim.kubectl.delete('Machine', m.metadata.name ?? '');
      await sim.until(
        'replaced',
        () =>
          machinesOf(sim, name).filter(
            (x) => !x.metadata.deletionTimestamp && x.metadata.labels?.[LABEL_SET_NAME] !== oldSet,
          ).length >= 1 && !machinesOf(sim, name).some((x) => x.metadata.name === m.metadata.name),
        60_000,
      );
    }
    await waitSettled(sim, name);
    await monitor.stop();
    expect(sets(name)).not.toContain(oldSet);
    expect(monitor.maxMachines).toBeLessThanOrEqual(3);
  }, 120_000);

  it('a refusal injected on the deployment and lifted again does not freeze its next rollout (the hook is not copied to its MachineSet)', async () => {
    const name = 'roll-refused';
    await createPool(sim, { name, cluster: 'roll', version: 'v1.34.1', replicas: 2, entries: 3 });
    await waitSettled(sim, name);
    await sim.kubectl.patch('MachineDeployment', name, 'merge', {
      metadata: { annotations: { [ANNOTATION_REFUSE]: 'frozen by the test' } },
    });
    await sim.controllers.idle();
    await sim.kubectl.patch('MachineDeployment', name, 'merge', {
      metadata: { annotations: { [ANNOTATION_REFUSE]: null } },
    });
    const before = sets(name)[0];
    await rollToNewTemplate(name);
    await sim.until(
      `${name} rolled`,
      () => sets(name).length === 1 && sets(name)[0] !== before,
      90_000,
    );
    await waitSettled(sim, name);
  }, 120_000);

  it('scaling during a rollout ends with the new replicas, all on the new template', async () => {
    const name = 'roll-scale';
    await createPool(sim, {
      name,
      cluster: 'roll',
      version: 'v1.34.1',
      replicas: 4,
      entries: 8,
      maxSurge: 1,
      maxUnavailable: 1,
    });
    await waitSettled(sim, name);
    await rollToNewTemplate(name);
    await sim.until('rollout started', () => sets(name).length === 2);
    await sim.kubectl.patch('MachineDeployment', name, 'json', [
      { op: 'replace', path: '/spec/replicas', value: 6 },
    ]);
    await waitSettled(sim, name, 90_000);
    expect(machinesOf(sim, name)).toHaveLength(6);
    expect(sets(name)).toHaveLength(1);
  }, 120_000);
});
