import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DCS_CONDITIONS, DCS_REASONS, type Condition } from '@dcs/domain';
import { parseGoDuration } from '../../src/logic/durations';
import { ANNOTATION_FAIL } from '../../src/logic/failures';
import { clusterUp, createPool, dcsMachineOf, machinesOf, waitSettled } from '../support/scenario';
import { startSim, type Sim } from '../support/sim';

let sim: Sim;
beforeAll(async () => {
  // A CLI rule (`--fail vm-create-error:pool=fail-cli-ippool`) besides the annotations.
  sim = await startSim({
    timeScale: 1000,
    controllers: { failures: [{ mode: 'vm-create-error', pool: 'fail-cli-ippool' }] },
  });
  await clusterUp(sim, 'fail');
}, 120_000);
afterAll(async () => {
  await sim.close();
});

const condition = (conditions: Condition[] | undefined, type: string) =>
  conditions?.find((c) => c.type === type);
const ipOf = (subnet: string, n: number) => `${subnet}${String(10 + n)}`;

describe('failure injection: every troubleshooting path can be shown', () => {
  it('T-1 placement stall (pool annotation MODE@IP): cdRomFile set, the VM stays creating, the Machine stays Provisioning; removing the fault lets it finish', async () => {
    const { subnet } = await createPool(sim, {
      name: 'fail-stall',
      cluster: 'fail',
      version: 'v1.34.1',
      replicas: 2,
      maxSurge: 0,
      maxUnavailable: 1,
    });
    await sim.kubectl.annotate('DCSIpHostnamePool', 'fail-stall-ippool', {
      [ANNOTATION_FAIL]: `placement-stall@${ipOf(subnet, 2)}`,
    });
    const healthy = await sim.until('one machine running', () =>
      machinesOf(sim, 'fail-stall').find((m) => m.status?.phase === 'Running'),
    );
    await sim.clock.advance(3 * 3600_000);
    await sim.controllers.idle();
    const stalled = machinesOf(sim, 'fail-stall').find(
      (m) => m !== healthy && m.metadata.name !== healthy.metadata.name,
    );
    const dm = stalled ? dcsMachineOf(sim, stalled) : undefined;
    expect(dm?.status?.networkConfig?.ip).toBe(ipOf(subnet, 2));
    expect(dm?.status?.vmState).toBe('creating');
    expect(dm?.status?.cdRomFile).toBeTruthy();
    expect(condition(dm?.status?.conditions, DCS_CONDITIONS.bootstrapIsoUploaded)?.status).toBe(
      'True',
    );
    expect(condition(dm?.status?.conditions, DCS_CONDITIONS.vmProvisioned)).toMatchObject({
      status: 'False',
      reason: DCS_REASONS.vmCreating,
    });
    expect(stalled?.status?.phase).toBe('Provisioning');
    await sim.until('the deployment reports one ready, scaling up', () => {
      const st = sim.get('MachineDeployment', 'fail-stall')?.status;
      return st?.readyReplicas === 1 && st.phase === 'ScalingUp';
    });
    // Lifting the fault (the annotation removed from the pool) lets the VM be placed.
    await sim.kubectl.annotate('DCSIpHostnamePool', 'fail-stall-ippool', {
      [ANNOTATION_FAIL]: null,
    });
    await waitSettled(sim, 'fail-stall');
  }, 90_000);

  it('ISO upload failure (annotation on the pool): no cdRomFile, an Error condition and a Warning event; removing the fault lets it finish', async () => {
    await createPool(sim, {
      name: 'fail-iso',
      cluster: 'fail',
      version: 'v1.34.1',
      replicas: 1,
      poolAnnotations: { [ANNOTATION_FAIL]: 'iso-upload' },
    });
    const dm = await sim.until('ISO upload failed', () =>
      sim
        .list('DCSMachine')
        .find(
          (d) =>
            d.metadata.name?.startsWith('fail-iso') &&
            condition(d.status?.conditions, DCS_CONDITIONS.bootstrapIsoUploaded)?.reason ===
              DCS_REASONS.isoUploadFailed,
        ),
    );
    expect(dm.status?.cdRomFile).toBeUndefined();
    expect(dm.status?.vmState).toBeUndefined();
    expect(condition(dm.status?.conditions, DCS_CONDITIONS.bootstrapIsoUploaded)).toMatchObject({
      status: 'False',
      severity: 'Error',
    });
    await sim.until('ISOUploadFailed event', () =>
      sim
        .events(dm.metadata.name ?? '', 'DCSMachine')
        .some((e) => e.reason === DCS_REASONS.isoUploadFailed && e.type === 'Warning'),
    );
    expect(sim.get('Machine', dm.metadata.name ?? '')?.status?.phase).toBe('Provisioning');
    await sim.kubectl.annotate('DCSIpHostnamePool', 'fail-iso-ippool', { [ANNOTATION_FAIL]: null });
    await waitSettled(sim, 'fail-iso');
  }, 90_000);

  it('VM creation error (CLI rule --fail vm-create-error:pool=…): the DCSMachine fails, the Machine is Failed with the reason and message', async () => {
    await createPool(sim, { name: 'fail-cli', cluster: 'fail', version: 'v1.34.1', replicas: 1 });
    const m = await sim.until('machine failed', () =>
      machinesOf(sim, 'fail-cli').find((x) => x.status?.phase === 'Failed'),
    );
    const dm = dcsMachineOf(sim, m);
    expect(dm?.status).toMatchObject({ vmState: 'failed', failureReason: 'CreateError' });
    expect(dm?.status?.failureMessage).toMatch(/DCS task CreateVM .* failed/);
    expect(condition(dm?.status?.conditions, DCS_CONDITIONS.vmProvisioned)).toMatchObject({
      status: 'False',
      reason: DCS_REASONS.vmCreateFailed,
      severity: 'Error',
    });
    expect(m.status?.failureReason).toBe('CreateError');
    expect(m.status?.failureMessage).toMatch(
      /^Failure detected from referenced resource infrastructure.cluster.x-k8s.io\/v1beta1, Kind=DCSMachine with name ".*": DCS task CreateVM/,
    );
    await sim.until('VMCreateFailed event', () =>
      sim
        .events(dm?.metadata.name ?? '', 'DCSMachine')
        .some((e) => e.reason === DCS_REASONS.vmCreateFailed),
    );
  }, 90_000);

  it('node never healthy: the Machine runs with a nodeRef, NodeHealthy stays False; scaling down removes it first (unhealthy before the policy)', async () => {
    const { subnet } = await createPool(sim, {
      name: 'fail-node',
      cluster: 'fail',
      version: 'v1.34.1',
      replicas: 3,
    });
    await sim.kubectl.annotate('DCSIpHostnamePool', 'fail-node-ippool', {
      [ANNOTATION_FAIL]: `node-unhealthy@${ipOf(subnet, 3)}`,
    });
    await sim.until('two ready, one running unhealthy', () => {
      const ms = machinesOf(sim, 'fail-node');
      return (
        ms.length === 3 &&
        ms.every((m) => m.status?.phase === 'Running') &&
        sim.get('MachineDeployment', 'fail-node')?.status?.readyReplicas === 2
      );
    });
    await sim.clock.advance(3600_000);
    await sim.controllers.idle();
    const sick = machinesOf(sim, 'fail-node').find(
      (m) => condition(m.status?.conditions, 'NodeHealthy')?.status === 'False',
    );
    expect(sick).toBeDefined();
    expect(
      dcsMachineOf(sim, sick ?? machinesOf(sim, 'fail-node')[0] ?? ({} as never))?.status
        ?.networkConfig?.ip,
    ).toBe(ipOf(subnet, 3));
    expect(condition(sick?.status?.conditions, 'NodeHealthy')).toMatchObject({
      reason: 'NodeConditionsFailed',
      severity: 'Warning',
      message: 'Node condition Ready is False. ',
    });
    expect(sick?.status?.nodeRef?.name).toBeTruthy();
    await sim.kubectl.patch('MachineDeployment', 'fail-node', 'json', [
      { op: 'replace', path: '/spec/replicas', value: 2 },
    ]);
    await waitSettled(sim, 'fail-node');
    expect(machinesOf(sim, 'fail-node').map((m) => m.metadata.name)).not.toContain(
      sick?.metadata.name,
    );
  }, 90_000);

  it('drain blocked (drain-stuck): deletion waits for nodeDrainTimeout, then goes on with a FailedDrainNode event', async () => {
    await createPool(sim, {
      name: 'fail-drain',
      cluster: 'fail',
      version: 'v1.34.1',
      replicas: 2,
      nodeDrainTimeout: '2m',
      poolAnnotations: { [ANNOTATION_FAIL]: 'drain-stuck' },
    });
    await waitSettled(sim, 'fail-drain');
    const before = machinesOf(sim, 'fail-drain').map((m) => m.metadata.name ?? '');
    await sim.kubectl.patch('MachineDeployment', 'fail-drain', 'json', [
      { op: 'replace', path: '/spec/replicas', value: 1 },
    ]);
    await waitSettled(sim, 'fail-drain');
    const gone =
      before.find((n) => !machinesOf(sim, 'fail-drain').some((m) => m.metadata.name === n)) ?? '';
    const failed = sim.events(gone, 'Machine').find((e) => e.reason === 'FailedDrainNode');
    expect(failed?.type).toBe('Warning');
    expect(failed?.message).toMatch(/nodeDrainTimeout 2m0s/);
    expect(sim.events(gone, 'Machine').some((e) => e.reason === 'SuccessfulDrainNode')).toBe(false);
  }, 90_000);

  it("O-EDIT-STRATEGY: a pool's new nodeDrainTimeout reaches its machines in place, one already draining too, and bounds that drain", async () => {
    await createPool(sim, {
      name: 'fail-drain-edit',
      cluster: 'fail',
      version: 'v1.34.1',
      replicas: 2,
      // Long enough (1.5 s of real time at the scale of 600) for the edit below to reach the
      // machines before it runs out, on a busy machine too: at 2m it sometimes did not.
      nodeDrainTimeout: '15m',
      poolAnnotations: { [ANNOTATION_FAIL]: 'drain-stuck' },
    });
    await waitSettled(sim, 'fail-drain-edit');
    const before = machinesOf(sim, 'fail-drain-edit').map((m) => m.metadata.name ?? '');
    await sim.kubectl.patch('MachineDeployment', 'fail-drain-edit', 'json', [
      { op: 'replace', path: '/spec/replicas', value: 1 },
    ]);
    const draining = await sim.until('a machine draining', () =>
      machinesOf(sim, 'fail-drain-edit').find((m) => m.status?.deletion?.nodeDrainStartTime),
    );
    const name = draining.metadata.name ?? '';
    await sim.kubectl.patch('MachineDeployment', 'fail-drain-edit', 'merge', {
      spec: { template: { spec: { nodeDrainTimeout: '6h' } } },
    });
    await sim.until('every machine has the new timeout', () =>
      // As a length of time: v1.14 stores seconds and prints v1beta1's durations as Go does.
      before.every(
        (n) =>
          parseGoDuration(sim.get('Machine', n)?.spec?.nodeDrainTimeout) === parseGoDuration('6h'),
      ),
    );
    // In place: the same machines, no new MachineSet.
    expect(
      sim.list('MachineSet').filter((s) => s.metadata.name?.startsWith('fail-drain-edit')),
    ).toHaveLength(1);
    // Past the old 15m, the drain is still held; past the new 6h, it gives up naming 6h.
    await sim.clock.advance(30 * 60_000);
    await sim.controllers.idle();
    expect(sim.get('Machine', name)?.metadata.deletionTimestamp).toBeTruthy();
    await sim.clock.advance(6 * 3600_000);
    await waitSettled(sim, 'fail-drain-edit');
    const failed = sim.events(name, 'Machine').find((e) => e.reason === 'FailedDrainNode');
    expect(failed?.message).toMatch(/nodeDrainTimeout 6h0m0s/);
  }, 90_000);

  it('R-POOL-1 during a rollout: without an entry for the surge machine the rollout waits, and says why', async () => {
    await createPool(sim, {
      name: 'fail-surge',
      cluster: 'fail',
      version: 'v1.34.1',
      replicas: 2,
      maxSurge: 1,
      maxUnavailable: 0,
    });
    await waitSettled(sim, 'fail-surge');
    await sim.kubectl.patch('MachineDeployment', 'fail-surge', 'merge', {
      spec: { template: { spec: { version: 'v1.34.2' } } },
    });
    const waiting = await sim.until('surge machine waits', () =>
      sim
        .list('DCSMachine')
        .find(
          (d) =>
            d.metadata.name?.startsWith('fail-surge') &&
            condition(d.status?.conditions, DCS_CONDITIONS.ipHostnameClaimed)?.reason ===
              DCS_REASONS.noFreePoolEntry,
        ),
    );
    await sim.until(
      'the Machine mirrors the wait',
      () =>
        sim
          .get('Machine', waiting.metadata.name ?? '')
          ?.status?.conditions?.find((c) => c.type === 'Ready')?.reason ===
        DCS_REASONS.noFreePoolEntry,
    );
    expect(
      sim
        .get('DCSIpHostnamePool', 'fail-surge-ippool')
        ?.status?.conditions?.find((c) => c.type === DCS_CONDITIONS.freeEntriesAvailable),
    ).toMatchObject({ status: 'False', reason: DCS_REASONS.poolExhausted });
    expect(sim.get('MachineDeployment', 'fail-surge')?.status).toMatchObject({
      replicas: 3,
      availableReplicas: 2,
      updatedReplicas: 1,
    });
  }, 90_000);
});
