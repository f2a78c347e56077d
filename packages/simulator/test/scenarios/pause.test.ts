import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANNOTATION_PAUSED, LABEL_DEPLOYMENT_NAME } from '@dcs/domain';
import type { V2Condition } from '../../src/logic/v1beta2';
import { clusterUp, createPool, machinesOf, waitSettled } from '../support/scenario';
import { NS, startSim, type Sim } from '../support/sim';

/**
 * Issue 26: the controllers stop and resume as Cluster API v1.14's do (util/paused). A paused
 * object, or any object of a paused cluster, is not reconciled (its deletion neither); only its
 * v1beta2 Paused condition is kept: True, reason Paused, the message naming the cause; False,
 * reason NotPaused once resumed, and whatever was changed meanwhile is carried out then.
 */

interface V2Object {
  metadata: { name?: string; labels?: Record<string, string> };
  status?: { conditions?: V2Condition[] };
}

let sim: Sim;
const v2 = (kind: string, name: string) =>
  (
    sim.api.list(
      kind === 'KubeadmControlPlane'
        ? 'controlplane.cluster.x-k8s.io/v1beta2'
        : 'cluster.x-k8s.io/v1beta2',
      kind,
      NS,
    ) as unknown as V2Object[]
  ).find((o) => o.metadata.name === name);
const paused = (kind: string, name: string) =>
  v2(kind, name)?.status?.conditions?.find((c) => c.type === 'Paused');
const machineSetOf = (md: string) =>
  sim.list('MachineSet').find((ms) => ms.metadata.labels?.[LABEL_DEPLOYMENT_NAME] === md);

/** Long enough, in simulated time, for a machine to be created and join (≈ minutes). */
const settle = async () => {
  for (let i = 0; i < 5; i++) {
    await sim.clock.advance(10 * 60_000);
    await sim.controllers.idle();
  }
};

beforeAll(async () => {
  sim = await startSim({ timeScale: 1000, capiRelease: 'v1.14' });
  await clusterUp(sim, 'pz');
  await createPool(sim, {
    name: 'pz-md',
    cluster: 'pz',
    version: 'v1.34.1',
    replicas: 1,
    entries: 4,
  });
  await waitSettled(sim, 'pz-md');
}, 180_000);
afterAll(async () => {
  await sim.close();
});

describe('pausing reconciliation (util/paused)', () => {
  it('a MachineDeployment with the paused annotation: Paused True naming it; a scale stops at the deployment, and goes on once resumed', async () => {
    await sim.kubectl.annotate('MachineDeployment', 'pz-md', { [ANNOTATION_PAUSED]: 'true' });
    await sim.until('the deployment says it is paused', () => {
      const c = paused('MachineDeployment', 'pz-md');
      return c?.status === 'True' && c.reason === 'Paused' ? c : undefined;
    });
    expect(paused('MachineDeployment', 'pz-md')?.message).toBe(
      'MachineDeployment has the cluster.x-k8s.io/paused annotation',
    );
    // Its MachineSet is not paused (the annotation is the deployment's own).
    expect(paused('MachineSet', machineSetOf('pz-md')?.metadata.name ?? '')?.status).toBe('False');

    await sim.kubectl.patch('MachineDeployment', 'pz-md', 'merge', { spec: { replicas: 2 } });
    await settle();
    expect(machineSetOf('pz-md')?.spec?.replicas).toBe(1);
    expect(machinesOf(sim, 'pz-md')).toHaveLength(1);
    const md = sim.get('MachineDeployment', 'pz-md');
    expect(md?.status?.observedGeneration).toBeLessThan(md?.metadata.generation ?? 0);

    await sim.kubectl.annotate('MachineDeployment', 'pz-md', { [ANNOTATION_PAUSED]: null });
    await sim.until('resumed: NotPaused', () =>
      paused('MachineDeployment', 'pz-md')?.reason === 'NotPaused' ? true : undefined,
    );
    await waitSettled(sim, 'pz-md', 90_000);
    expect(machinesOf(sim, 'pz-md')).toHaveLength(2);
  }, 120_000);

  it('a paused Cluster (spec.paused): every object of it says so, nothing progresses, not even a deletion; resumed, all goes on', async () => {
    await sim.kubectl.patch('Cluster', 'pz', 'merge', { spec: { paused: true } });
    const cluster = 'Cluster spec.paused is set to true';
    await sim.until('every object of the cluster paused', () => {
      const set = machineSetOf('pz-md')?.metadata.name ?? '';
      const machine = machinesOf(sim, 'pz-md')[0]?.metadata.name ?? '';
      return [
        paused('Cluster', 'pz'),
        paused('KubeadmControlPlane', 'pz-control-plane'),
        paused('MachineDeployment', 'pz-md'),
        paused('MachineSet', set),
        paused('Machine', machine),
      ].every((c) => c?.status === 'True' && c.message === cluster)
        ? true
        : undefined;
    });

    // A scale-down: the deployment does not pass it on, and a machine deleted by hand stays.
    await sim.kubectl.patch('MachineDeployment', 'pz-md', 'merge', { spec: { replicas: 1 } });
    const victim = machinesOf(sim, 'pz-md')[0]?.metadata.name ?? '';
    await sim.kubectl.delete('Machine', victim);
    await settle();
    expect(machineSetOf('pz-md')?.spec?.replicas).toBe(2);
    const held = sim.get('Machine', victim);
    expect(held?.metadata.deletionTimestamp).toBeDefined();
    expect(held?.status?.phase).not.toBe('Deleting');

    await sim.kubectl.patch('Cluster', 'pz', 'merge', { spec: { paused: null } });
    await sim.until('the cluster resumed', () =>
      paused('Cluster', 'pz')?.status === 'False' ? true : undefined,
    );
    await waitSettled(sim, 'pz-md', 90_000);
    expect(machinesOf(sim, 'pz-md')).toHaveLength(1);
    expect(sim.get('Machine', victim)).toBeUndefined();
    expect(paused('KubeadmControlPlane', 'pz-control-plane')?.reason).toBe('NotPaused');
  }, 150_000);
});
