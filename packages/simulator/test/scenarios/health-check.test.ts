import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Condition, Machine, MachineHealthCheck } from '@dcs/domain';
import { ANNOTATION_FAIL } from '../../src/logic/failures';
import { clusterUp, createPool, machinesOf, waitSettled } from '../support/scenario';
import { NS, startSim, type Sim } from '../support/sim';

/**
 * Issue 26 item 1: a MachineHealthCheck over a worker pool, on the embedded cluster (v1.14:
 * written through the deprecated v1beta1, stored as v1beta2) with the simulated controllers.
 */

let sim: Sim;
beforeAll(async () => {
  sim = await startSim({ timeScale: 1000 });
  await clusterUp(sim, 'mhc');
}, 120_000);
afterAll(async () => {
  await sim.close();
});

const condition = (conditions: readonly Condition[] | undefined, type: string) =>
  conditions?.find((c) => c.type === type);

const healthCheck = (pool: string, spec: Record<string, unknown> = {}) => ({
  apiVersion: 'cluster.x-k8s.io/v1beta1',
  kind: 'MachineHealthCheck',
  metadata: { name: `${pool}-mhc`, namespace: NS },
  spec: {
    clusterName: 'mhc',
    selector: { matchLabels: { 'cluster.x-k8s.io/deployment-name': pool } },
    unhealthyConditions: [
      { type: 'Ready', status: 'False', timeout: '60s' },
      { type: 'Ready', status: 'Unknown', timeout: '60s' },
    ],
    nodeStartupTimeout: '10m',
    ...spec,
  },
});

async function poolWithHealthCheck(pool: string, spec: Record<string, unknown> = {}) {
  await createPool(sim, {
    name: pool,
    cluster: 'mhc',
    version: 'v1.34.1',
    replicas: 3,
    entries: 4,
  });
  await waitSettled(sim, pool);
  await sim.kubectl.create(healthCheck(pool, spec));
  return sim.until(`${pool}: the health check sees three healthy machines`, () => {
    const mhc = sim.get('MachineHealthCheck', `${pool}-mhc`);
    const ok =
      mhc?.status?.expectedMachines === 3 &&
      mhc.status.currentHealthy === 3 &&
      machinesOf(sim, pool).every(
        (m) => condition(m.status?.conditions, 'HealthCheckSucceeded')?.status === 'True',
      );
    return ok ? mhc : undefined;
  });
}

describe('MachineHealthCheck controller and the MachineSet’s remediation', () => {
  it('a healthy pool: targets, counters, RemediationAllowed True in both condition lists, observedGeneration', async () => {
    const mhc: MachineHealthCheck = await poolWithHealthCheck('mhc-ok');
    expect(mhc.status?.targets?.slice().sort()).toEqual(
      machinesOf(sim, 'mhc-ok')
        .map((m) => m.metadata.name)
        .sort(),
    );
    expect(mhc.status?.remediationsAllowed).toBe(3);
    expect(mhc.status?.observedGeneration).toBe(mhc.metadata.generation);
    expect(condition(mhc.status?.conditions, 'RemediationAllowed')?.status).toBe('True');
    expect(
      mhc.status?.v1beta2?.conditions?.find((c) => c.type === 'RemediationAllowed'),
    ).toMatchObject({ status: 'True', reason: 'RemediationAllowed' });
    // The webhook's default, as upstream's: the cluster-name label.
    expect(mhc.metadata.labels).toMatchObject({ 'cluster.x-k8s.io/cluster-name': 'mhc' });
  }, 120_000);

  it('node-unhealthy on a running machine: its Node’s Ready goes False, past the timeout it is marked (HealthCheckSucceeded False, OwnerRemediated False), its MachineSet deletes it and a replacement joins', async () => {
    await poolWithHealthCheck('mhc-fix');
    const [victim] = machinesOf(sim, 'mhc-fix');
    const name = victim?.metadata.name ?? '';
    await sim.kubectl.annotate('Machine', name, { [ANNOTATION_FAIL]: 'node-unhealthy' });
    // Marked, then deleted by its MachineSet: the conditions are read from the last state seen.
    let seen: Machine | undefined;
    await sim.until('the machine is marked for remediation', () => {
      const m: Machine | undefined = sim.get('Machine', name);
      if (condition(m?.status?.conditions, 'HealthCheckSucceeded')?.status === 'False') seen = m;
      return seen !== undefined;
    });
    expect(condition(seen?.status?.conditions, 'HealthCheckSucceeded')).toMatchObject({
      reason: 'UnhealthyNode',
      message: 'Condition Ready on Node is reporting status False for more than 1m0s',
    });
    await sim.until('the machine is replaced', () => {
      const ms = machinesOf(sim, 'mhc-fix');
      return (
        !ms.some((m) => m.metadata.name === name) &&
        ms.length === 3 &&
        ms.every((m) => m.status?.phase === 'Running')
      );
    });
    await waitSettled(sim, 'mhc-fix');
    expect(sim.events(name, 'Machine').map((e) => e.reason)).toContain('MachineMarkedUnhealthy');
    await sim.until('the health check counts three healthy again', () => {
      const st = sim.get('MachineHealthCheck', 'mhc-fix-mhc')?.status;
      return st?.currentHealthy === 3 && st.expectedMachines === 3;
    });
  }, 120_000);

  it('past the limit remediation is held back: RemediationAllowed False (TooManyUnhealthy), the machine marked unhealthy but not remediated', async () => {
    await poolWithHealthCheck('mhc-held', { maxUnhealthy: 0 });
    const [victim] = machinesOf(sim, 'mhc-held');
    const name = victim?.metadata.name ?? '';
    await sim.kubectl.annotate('Machine', name, { [ANNOTATION_FAIL]: 'node-unhealthy' });
    const mhc = await sim.until('remediation held back', () => {
      const h = sim.get('MachineHealthCheck', 'mhc-held-mhc');
      return condition(h?.status?.conditions, 'RemediationAllowed')?.status === 'False'
        ? h
        : undefined;
    });
    expect(condition(mhc.status?.conditions, 'RemediationAllowed')).toMatchObject({
      reason: 'TooManyUnhealthy',
      message:
        'Remediation is not allowed, the number of not started or unhealthy machines exceeds maxUnhealthy (total: 3, unhealthy: 1, maxUnhealthy: 0)',
    });
    expect(mhc.status?.currentHealthy).toBe(2);
    // v1beta1's remediationsAllowed is omitempty: 0 is left out.
    expect(mhc.status?.remediationsAllowed ?? 0).toBe(0);
    await sim.clock.advance(600_000);
    await sim.controllers.idle();
    const m = sim.get('Machine', name);
    expect(m?.metadata.deletionTimestamp).toBeUndefined();
    expect(condition(m?.status?.conditions, 'HealthCheckSucceeded')?.status).toBe('False');
    expect(condition(m?.status?.conditions, 'OwnerRemediated')).toBeUndefined();
    // Lifting the fault: the machine is healthy again, remediation allowed again.
    await sim.kubectl.annotate('Machine', name, { [ANNOTATION_FAIL]: null });
    await sim.until('healthy again', () => {
      const h = sim.get('MachineHealthCheck', 'mhc-held-mhc');
      return h?.status?.currentHealthy === 3 &&
        condition(h.status.conditions, 'RemediationAllowed')?.status === 'True'
        ? h
        : undefined;
    });
  }, 120_000);
});
