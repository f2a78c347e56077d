import { describe, expect, it } from 'vitest';
import { ANNOTATION_FAIL } from '../../src/logic/failures';
import { clusterObjects, poolEntries } from '../../src/seed/objects';
import { advanceUntil, clusterUp, createPool, machinesOf, poolSettled } from '../support/scenario';
import { startSim, type Sim } from '../support/sim';

/**
 * The clock contract (README): every timestamp written is wall-clock time, never ahead of it;
 * --time-scale divides durations only, and elapsed-time judgements (nodeDrainTimeout) run on
 * simulated time.
 */

const DRAINING = 'DrainingSucceeded';

/** Every timestamp the controllers wrote into conditions and Events. */
function stamps(sim: Sim): { what: string; at: string }[] {
  const out: { what: string; at: string }[] = [];
  const kinds = [
    'Cluster',
    'KubeadmControlPlane',
    'MachineDeployment',
    'MachineSet',
    'Machine',
    'KubeadmConfig',
    'DCSMachine',
    'DCSIpHostnamePool',
  ] as const;
  for (const kind of kinds) {
    for (const o of sim.list(kind)) {
      const status = o.status as
        | { conditions?: { type: string; lastTransitionTime?: string }[]; lastUpdated?: string }
        | undefined;
      for (const c of status?.conditions ?? [])
        if (c.lastTransitionTime)
          out.push({
            what: `${kind} ${o.metadata.name ?? ''} ${c.type}`,
            at: c.lastTransitionTime,
          });
      if (status?.lastUpdated)
        out.push({ what: `${kind} ${o.metadata.name ?? ''} lastUpdated`, at: status.lastUpdated });
    }
  }
  for (const e of sim.list('Event')) {
    for (const at of [e.firstTimestamp, e.lastTimestamp])
      if (at) out.push({ what: `Event ${e.metadata.name ?? ''}`, at });
  }
  return out;
}

const drainingSince = (sim: Sim, pool: string) =>
  machinesOf(sim, pool).find((m) =>
    m.status?.conditions?.some((c) => c.type === DRAINING && c.reason === 'Draining'),
  );

describe('clock contract: wall-clock timestamps, simulated durations', () => {
  it('at --time-scale 60 no timestamp is ever after the wall-clock now, while hours of simulated time pass', async () => {
    const sim = await startSim({ timeScale: 60 });
    try {
      await clusterUp(sim, 'wall');
      await createPool(sim, { name: 'wall-md', cluster: 'wall', version: 'v1.34.1', replicas: 2 });
      const started = Date.now();
      const simStarted = sim.clock.now();
      // Sample while machines move through their phases (minutes of simulated time).
      let samples = 0;
      await sim.until(
        'wall-md settled',
        () => {
          const now = Date.now();
          for (const s of stamps(sim)) {
            samples++;
            if (Date.parse(s.at) > now)
              throw new Error(`${s.what} is ${s.at}, after ${String(now)}`);
          }
          return poolSettled(sim, 'wall-md');
        },
        90_000,
      );
      expect(samples).toBeGreaterThan(0);
      // The simulated clock ran far ahead of the wall clock meanwhile.
      const real = Date.now() - started;
      expect(sim.clock.now() - simStarted).toBeGreaterThan(real * 30);
      const last = Math.max(...stamps(sim).map((s) => Date.parse(s.at)));
      expect(last).toBeLessThanOrEqual(Date.now());
    } finally {
      await sim.close();
    }
  }, 120_000);

  it('nodeDrainTimeout fires after its simulated duration, judged on the simulated clock (manual clock)', async () => {
    const sim = await startSim({ timeScale: 0 });
    try {
      await sim.create(
        ...clusterObjects({
          name: 'drain',
          version: 'v1.34.1',
          endpoint: '10.7.0.10',
          replicas: 1,
          controlPlaneEntries: poolEntries({
            subnet: '10.7.0.',
            first: 11,
            count: 2,
            hostnamePrefix: 'drain-cp',
          }),
        }),
      );
      await createPool(sim, {
        name: 'drain-md',
        cluster: 'drain',
        version: 'v1.34.1',
        replicas: 1,
        nodeDrainTimeout: '2m',
        poolAnnotations: { [ANNOTATION_FAIL]: 'drain-stuck' },
      });
      await advanceUntil(sim, 'drain-md settled', () => poolSettled(sim, 'drain-md'), 10_000);
      await sim.kubectl.patch('MachineDeployment', 'drain-md', 'json', [
        { op: 'replace', path: '/spec/replicas', value: 0 },
      ]);
      // Step a second at a time until the drain has started: it started within the last second.
      await advanceUntil(sim, 'draining', () => Boolean(drainingSince(sim, 'drain-md')), 1_000);
      const machine = drainingSince(sim, 'drain-md')?.metadata.name ?? '';
      const failed = () =>
        sim.events(machine, 'Machine').some((e) => e.reason === 'FailedDrainNode');
      await sim.clock.advance(110_000);
      await sim.controllers.idle();
      expect(failed()).toBe(false);
      expect(drainingSince(sim, 'drain-md')?.metadata.name).toBe(machine);
      await sim.clock.advance(15_000);
      await sim.controllers.idle();
      expect(failed()).toBe(true);
    } finally {
      await sim.close();
    }
  }, 120_000);
});
