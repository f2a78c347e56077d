import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANNOTATION_DELETE_MACHINE } from '@dcs/domain';
import { clusterUp, createPool, machinesOf, waitSettled } from '../support/scenario';
import { startSim, type Sim } from '../support/sim';

let sim: Sim;
beforeAll(async () => {
  sim = await startSim({ timeScale: 1000 });
  await clusterUp(sim, 'order');
}, 120_000);
afterAll(async () => {
  await sim.close();
});

const names = (md: string) =>
  machinesOf(sim, md)
    .map((m) => m.metadata.name ?? '')
    .sort();

/** Machines created in two waves at least a second apart (creationTimestamp has whole seconds). */
async function twoWaves(name: string, deletePolicy: 'Oldest' | 'Newest' | 'Random') {
  await createPool(sim, {
    name,
    cluster: 'order',
    version: 'v1.34.1',
    replicas: 2,
    entries: 4,
    maxSurge: 1,
    maxUnavailable: 0,
    deletePolicy,
  });
  await waitSettled(sim, name);
  const first = names(name);
  await new Promise((r) => setTimeout(r, 1100));
  await sim.kubectl.patch('MachineDeployment', name, 'json', [
    { op: 'replace', path: '/spec/replicas', value: 4 },
  ]);
  await waitSettled(sim, name);
  const second = names(name).filter((n) => !first.includes(n));
  return { first, second };
}

const scaleTo = async (name: string, replicas: number) => {
  await sim.kubectl.patch('MachineDeployment', name, 'json', [
    { op: 'replace', path: '/spec/replicas', value: replicas },
  ]);
  await waitSettled(sim, name);
};

describe('scale-down order: deleting, then delete-machine, then unhealthy, then the deletePolicy, ties by name', () => {
  it('deletePolicy Oldest removes the oldest machines', async () => {
    const { first, second } = await twoWaves('order-oldest', 'Oldest');
    await scaleTo('order-oldest', 2);
    expect(names('order-oldest')).toEqual(second);
    expect(first).toHaveLength(2);
  }, 90_000);

  it('deletePolicy Newest removes the newest machines', async () => {
    const { first } = await twoWaves('order-newest', 'Newest');
    await scaleTo('order-newest', 2);
    expect(names('order-newest')).toEqual(first);
  }, 90_000);

  it("O-SCALE-DOWN-TARGETED and unhealthy machines go before the policy's choice", async () => {
    const { first, second } = await twoWaves('order-mixed', 'Oldest');
    const [unhealthy, annotated] = second;
    await sim.kubectl.annotate('Machine', annotated ?? '', { [ANNOTATION_DELETE_MACHINE]: 'true' });
    // A failed health check, as a MachineHealthCheck would report it (status patch).
    const m = sim.get('Machine', unhealthy ?? '');
    await sim.api.patch(
      {
        apiVersion: 'cluster.x-k8s.io/v1beta1',
        kind: 'Machine',
        namespace: 'cpaas-system',
        name: unhealthy ?? '',
      },
      'merge',
      {
        status: {
          conditions: [
            ...(m?.status?.conditions ?? []),
            {
              type: 'HealthCheckSucceeded',
              status: 'False',
              severity: 'Warning',
              reason: 'UnhealthyNode',
              lastTransitionTime: sim.clock.stamp(),
            },
          ],
        },
      },
      { subresource: 'status' },
    );
    await scaleTo('order-mixed', 2);
    // Oldest alone would have removed the first wave.
    expect(names('order-mixed')).toEqual(first);
  }, 90_000);
});
