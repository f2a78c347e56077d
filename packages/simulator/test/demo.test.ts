import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seed } from '../src/seed';
import { seedClientInProcess } from '../src/seed/clients';
import { DEMO } from '../src/seed/demo';
import { machinesOf, poolSettled } from './support/scenario';
import { startSim, type Sim } from './support/sim';

/**
 * At --time-scale 1000 the demo converges in about 3 s of real time (measured at load average 5
 * on 2 cores): the waits below poll for the states that matter, bounded at WAIT_MS, forty times
 * that, for a CI machine shared with other suites. Each test's own timeout is longer than its
 * waits, so a miss reports what it waited for with the cluster's picture (sim.until).
 */
const WAIT_MS = 120_000;
const TEST_MS = WAIT_MS + 30_000;

let sim: Sim;
let background: Promise<void>;
beforeAll(async () => {
  sim = await startSim({ timeScale: 1000 });
  const result = await seed('demo', seedClientInProcess(sim.api), { pollMs: 50 });
  background = result.background;
  expect(result.created).toBeGreaterThan(30);
}, 60_000);
afterAll(async () => {
  await sim.close();
});

describe('--seed demo', () => {
  it(
    'both clusters come up: Provisioned, control planes of 3 Ready',
    async () => {
      await sim.until(
        'clusters ready',
        () =>
          ['prod-east', 'dev-west'].every((c) => {
            const cluster = sim.get('Cluster', c);
            const kcp = sim.get('KubeadmControlPlane', `${c}-control-plane`);
            return (
              cluster?.status?.phase === 'Provisioned' &&
              kcp?.status?.readyReplicas === 3 &&
              kcp.status.ready
            );
          }),
        WAIT_MS,
      );
    },
    TEST_MS,
  );

  it(
    'the pools converge, the batch pool rolls to 1.34, one machine of the stall pool stays in placement (T-1)',
    async () => {
      // The seed starts the rolling upgrade once the batch pool is up: wait for that, bounded.
      await sim.until(
        'the rolling upgrade started',
        () =>
          sim.get('MachineDeployment', DEMO.rollingPool)?.spec?.template.spec.version ===
          DEMO.rollingTo,
        WAIT_MS,
      );
      await background;
      // Converged: the controllers observed the latest spec, every replica is updated, ready and
      // available, no other machine is left, and the batch pool's machines run the new version.
      await sim.until(
        'pools converged',
        () =>
          [
            'prod-east-legacy',
            'prod-east-data',
            DEMO.rollingPool,
            'dev-west-k135',
            DEMO.fullPool,
          ].every((name) => poolSettled(sim, name)) &&
          machinesOf(sim, DEMO.rollingPool).every((m) => m.spec?.version === DEMO.rollingTo),
        WAIT_MS,
      );
      const stalled = sim
        .list('DCSMachine')
        .find((d) => d.status?.networkConfig?.ip === DEMO.stalledIp);
      expect(stalled?.status?.vmState).toBe('creating');
      expect(stalled?.status?.cdRomFile).toBeTruthy();
      const machine = sim.get('Machine', stalled?.metadata.name ?? '');
      expect(machine?.status?.phase).toBe('Provisioning');
      const full = sim
        .list('DCSIpHostnamePool')
        .find((p) => p.metadata.name === `${DEMO.fullPool}-ippool`);
      expect(full?.status).toMatchObject({ total: 5, free: 1 });
      const provider = sim.api.get({
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        namespace: 'cpaas-system',
        name: 'capdcs-controller-manager',
      }) as { metadata: { labels: Record<string, string> } } | undefined;
      expect(provider?.metadata.labels['app.kubernetes.io/version']).toBe('1.0.16');
    },
    TEST_MS,
  );
});
