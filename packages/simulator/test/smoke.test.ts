import { afterAll, beforeAll, expect, it } from 'vitest';
import { clusterObjects, poolEntries, workerPoolObjects } from '../src/seed/objects';
import { startSim, type Sim } from './support/sim';

let sim: Sim;
beforeAll(async () => {
  sim = await startSim({ timeScale: 1000 });
});
afterAll(async () => {
  await sim.close();
});

it('a cluster and a worker pool converge to Running machines', async () => {
  await sim.create(
    ...clusterObjects({
      name: 'c1',
      version: 'v1.34.1',
      endpoint: '10.0.0.10',
      controlPlaneEntries: poolEntries({
        subnet: '10.0.0.',
        first: 11,
        count: 4,
        hostnamePrefix: 'c1-cp',
      }),
    }),
    ...workerPoolObjects({
      name: 'c1-md-0',
      cluster: 'c1',
      version: 'v1.34.1',
      replicas: 3,
      entries: poolEntries({
        subnet: '10.0.1.',
        first: 11,
        count: 3,
        hostnamePrefix: 'c1-w',
        persistentCpaas: true,
      }),
      maxSurge: 0,
      maxUnavailable: 1,
    }),
  );
  const md = await sim.until(
    'md ready',
    () => {
      const m = sim.get('MachineDeployment', 'c1-md-0');
      return m?.status?.readyReplicas === 3 && m.status.phase === 'Running' ? m : undefined;
    },
    120_000,
  );
  expect(md.status?.availableReplicas).toBe(3);
  const machines = sim.list('Machine');
  console.log(
    machines
      .map(
        (m) => `${m.metadata.name ?? ''} ${m.status?.phase ?? ''} ${m.status?.nodeRef?.name ?? ''}`,
      )
      .join('\n'),
  );
  console.log(JSON.stringify(sim.controllers.metrics(), null, 1));
}, 150_000);
