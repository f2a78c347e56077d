import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seed } from '../src/seed';
import { seedClientInProcess } from '../src/seed/clients';
import { DEMO } from '../src/seed/demo';
import { startSim, type Sim } from './support/sim';

let sim: Sim;
let background: Promise<void>;
beforeAll(async () => {
  sim = await startSim({ timeScale: 1000 });
  const result = await seed('demo', seedClientInProcess(sim.api), { pollMs: 50 });
  background = result.background;
  expect(result.created).toBeGreaterThan(30);
});
afterAll(async () => {
  await sim.close();
});

describe('--seed demo', () => {
  it('both clusters come up: Provisioned, control planes of 3 Ready', async () => {
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
      120_000,
    );
  }, 150_000);

  it('the pools converge, the batch pool rolls to 1.34, one machine of the stall pool stays in placement (T-1)', async () => {
    await background;
    await sim.until(
      'pools converged',
      () =>
        [
          'prod-east-legacy',
          'prod-east-data',
          DEMO.rollingPool,
          'dev-west-k135',
          DEMO.fullPool,
        ].every((name) => {
          const md = sim.get('MachineDeployment', name);
          const r = md?.spec?.replicas;
          const s = md?.status;
          return (
            s?.readyReplicas === r &&
            s?.updatedReplicas === r &&
            s?.replicas === r &&
            md?.spec?.template.spec.version !== DEMO.rollingFrom
          );
        }),
      120_000,
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
  }, 150_000);
});
