import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LABEL_DEPLOYMENT_NAME, type Machine } from '@dcs/domain';
import { findNewMachineSet, rolloutAfterExpired } from '../../src/logic/machineset-desired';
import type { V2Condition } from '../../src/logic/v1beta2';
import { clusterUp, createPool, machinesOf, waitSettled } from '../support/scenario';
import { NS, startSim, type Sim } from '../support/sim';

/**
 * O-RESTART (issue 26 item 4): the controllers honour rolloutAfter as Cluster API v1.14's do.
 * A MachineDeployment whose MachineSets were created before a rolloutAfter that has passed gets a
 * new MachineSet of the same template (mdutil.FindNewAndOldMachineSets) and rolls every machine
 * under its strategy; the old machines' UpToDate condition says "MachineDeployment
 * spec.rolloutAfter expired". A KubeadmControlPlane replaces each machine created before it, one
 * at a time (collections.ShouldRolloutAfter). A time still to come changes nothing until it
 * passes, then the controller, woken at that time, starts. Timestamps are wall-clock times.
 */

let sim: Sim;
const setsOf = (md: string) =>
  sim.list('MachineSet').filter((s) => s.metadata.labels?.[LABEL_DEPLOYMENT_NAME] === md);
const live = (ms: readonly Machine[]) => ms.filter((m) => !m.metadata.deletionTimestamp);
const names = (ms: readonly Machine[]) => ms.map((m) => m.metadata.name ?? '').sort();
const stamp = (ms: number) => `${new Date(ms).toISOString().slice(0, 19)}Z`;
const controlPlaneMachines = () =>
  sim
    .list('Machine')
    .filter((m) => m.metadata.ownerReferences?.some((r) => r.kind === 'KubeadmControlPlane'));

beforeAll(async () => {
  sim = await startSim({ timeScale: 1000, capiRelease: 'v1.14' });
  await clusterUp(sim, 'rr', { cpReplicas: 3 });
  await createPool(sim, {
    name: 'rr-md',
    cluster: 'rr',
    version: 'v1.34.1',
    replicas: 3,
    maxSurge: 1,
    maxUnavailable: 0,
    entries: 4,
  });
  await waitSettled(sim, 'rr-md', 120_000);
}, 240_000);
afterAll(async () => {
  await sim.close();
});

describe('rolloutAfter (O-RESTART)', () => {
  it('MachineDeployment, restarted now: a new MachineSet of the same template, every machine replaced, never more than replicas + maxSurge, the old ones marked not up to date', async () => {
    const before = machinesOf(sim, 'rr-md');
    const [oldSet] = setsOf('rr-md');
    expect(setsOf('rr-md')).toHaveLength(1);
    // Sampled as it goes: maxSurge 1, maxUnavailable 0 allows 4 machines, never fewer than 3 Ready.
    let most = 0;
    let sawExpired = false;
    const watch = setInterval(() => {
      most = Math.max(most, live(machinesOf(sim, 'rr-md')).length);
      sawExpired ||= machinesOf(sim, 'rr-md').some((m) =>
        (
          m.status as { v1beta2?: { conditions?: V2Condition[] } } | undefined
        )?.v1beta2?.conditions?.some(
          (c) =>
            c.type === 'UpToDate' &&
            c.status === 'False' &&
            c.message.includes('MachineDeployment spec.rolloutAfter expired'),
        ),
      );
    }, 10);
    // Whole seconds, as the console writes it, and a later second than the set's creation: a set
    // created in the very second is the new one (cluster-api#12260), and nothing would roll.
    const created = Date.parse(oldSet?.metadata.creationTimestamp ?? '');
    while (Math.floor(Date.now() / 1000) * 1000 <= created)
      await new Promise((r) => setTimeout(r, 50));
    await sim.kubectl.patch('MachineDeployment', 'rr-md', 'merge', {
      spec: { rolloutAfter: stamp(Date.now()) },
    });
    await sim.until('a second MachineSet', () => setsOf('rr-md').length === 2 || undefined);
    const fresh = setsOf('rr-md').find((s) => s.metadata.name !== oldSet?.metadata.name);
    // The same template: only the time tells the new set from the old.
    expect(fresh?.spec?.template?.spec.infrastructureRef.name).toBe(
      oldSet?.spec?.template?.spec.infrastructureRef.name,
    );
    await sim.until(
      'every machine replaced',
      () =>
        machinesOf(sim, 'rr-md').length === 3 &&
        machinesOf(sim, 'rr-md').every(
          (m) =>
            m.status?.phase === 'Running' &&
            m.metadata.labels?.['cluster.x-k8s.io/set-name'] === fresh?.metadata.name,
        ),
      120_000,
    );
    await waitSettled(sim, 'rr-md', 60_000);
    clearInterval(watch);
    expect(names(machinesOf(sim, 'rr-md')).some((n) => names(before).includes(n))).toBe(false);
    expect(most).toBe(4);
    expect(sawExpired).toBe(true);
    // Done: the old set is scaled to 0 (or cleaned up), and the deployment does not roll again.
    const md = sim.get('MachineDeployment', 'rr-md');
    expect(md?.status?.updatedReplicas).toBe(3);
    if (!md) throw new Error('the deployment is there');
    expect(findNewMachineSet(md, setsOf('rr-md'), Date.now())?.metadata.name).toBe(
      fresh?.metadata.name,
    );
    const settledNames = names(machinesOf(sim, 'rr-md'));
    await sim.clock.advance(10 * 60_000);
    await sim.controllers.idle();
    expect(names(machinesOf(sim, 'rr-md'))).toEqual(settledNames);
    // Written through v1beta1, stored and served in v1beta2 as spec.rollout.after.
    const v2 = (
      sim.api.list('cluster.x-k8s.io/v1beta2', 'MachineDeployment', NS) as unknown as {
        metadata: { name: string };
        spec: { rollout?: { after?: string }; rolloutAfter?: string };
      }[]
    ).find((o) => o.metadata.name === 'rr-md');
    expect(v2?.spec.rollout?.after).toBe(md.spec?.rolloutAfter);
    expect(v2?.spec).not.toHaveProperty('rolloutAfter');
  }, 180_000);

  it('MachineDeployment, a restart scheduled a few seconds ahead: nothing until then, then it rolls', async () => {
    await waitSettled(sim, 'rr-md', 60_000);
    const before = names(machinesOf(sim, 'rr-md'));
    const sets = setsOf('rr-md').length;
    const at = Date.now() + 4000;
    await sim.kubectl.patch('MachineDeployment', 'rr-md', 'merge', {
      spec: { rolloutAfter: stamp(at) },
    });
    // Minutes of simulated time before the wall clock reaches it: nothing is replaced.
    await new Promise((r) => setTimeout(r, 1000));
    await sim.controllers.idle();
    if (Date.now() < Math.floor(at / 1000) * 1000) {
      expect(setsOf('rr-md')).toHaveLength(sets);
      expect(names(machinesOf(sim, 'rr-md'))).toEqual(before);
    }
    // Woken when it is due (nothing else changes meanwhile): a new set and new machines.
    await sim.until(
      'a new MachineSet once the time has passed',
      () =>
        setsOf('rr-md').some((s) => Date.parse(s.metadata.creationTimestamp ?? '') >= at - 1000) ||
        undefined,
      30_000,
    );
    await sim.until(
      'every machine replaced again',
      () =>
        machinesOf(sim, 'rr-md').length === 3 &&
        names(machinesOf(sim, 'rr-md')).every((n) => !before.includes(n)),
      120_000,
    );
    await waitSettled(sim, 'rr-md', 60_000);
  }, 180_000);

  it('KubeadmControlPlane, restarted now: each machine created before rolloutAfter replaced, one at a time, the oldest first', async () => {
    const before = [...controlPlaneMachines()].sort(
      (a, b) =>
        Date.parse(a.metadata.creationTimestamp ?? '') -
          Date.parse(b.metadata.creationTimestamp ?? '') ||
        (a.metadata.name ?? '').localeCompare(b.metadata.name ?? ''),
    );
    expect(before).toHaveLength(3);
    const gone: string[] = [];
    let most = 0;
    const watch = setInterval(() => {
      const now = controlPlaneMachines();
      most = Math.max(most, live(now).length);
      for (const m of before) {
        const name = m.metadata.name ?? '';
        const current = now.find((x) => x.metadata.name === name);
        if ((!current || current.metadata.deletionTimestamp) && !gone.includes(name))
          gone.push(name);
      }
    }, 5);
    // Through v1beta2, as a v1.14 cluster serves it: spec.rollout.after.
    const kcp = sim.get('KubeadmControlPlane', 'rr-control-plane');
    await sim.api.patch(
      {
        apiVersion: 'controlplane.cluster.x-k8s.io/v1beta2',
        kind: 'KubeadmControlPlane',
        name: 'rr-control-plane',
        namespace: NS,
      },
      'merge',
      { spec: { rollout: { after: stamp(Date.now()) } } },
    );
    expect(sim.get('KubeadmControlPlane', 'rr-control-plane')?.spec?.rolloutAfter).toBeDefined();
    await sim.until(
      'every control-plane machine replaced',
      () => {
        const now = controlPlaneMachines();
        return (
          now.length === 3 &&
          now.every(
            (m) =>
              m.status?.phase === 'Running' &&
              !before.some((b) => b.metadata.name === m.metadata.name),
          ) &&
          sim.get('KubeadmControlPlane', 'rr-control-plane')?.status?.readyReplicas === 3
        );
      },
      180_000,
    );
    clearInterval(watch);
    expect(kcp?.spec?.replicas).toBe(3);
    // maxSurge 1 (the default): one more machine at most, and the oldest went first.
    expect(most).toBe(4);
    expect(gone).toEqual(before.map((m) => m.metadata.name));
  }, 240_000);
});

describe('rolloutAfterExpired (the MachineSet side of FindNewAndOldMachineSets)', () => {
  it('a set created before a time that has passed; not one created at it or after, nor before a time to come', () => {
    const now = Date.parse('2026-03-01T10:00:00Z');
    expect(rolloutAfterExpired('2026-03-01T09:00:00Z', '2026-03-01T08:00:00Z', now)).toBe(true);
    expect(rolloutAfterExpired('2026-03-01T09:00:00Z', '2026-03-01T09:00:00Z', now)).toBe(false);
    expect(rolloutAfterExpired('2026-03-01T09:00:00Z', '2026-03-01T09:30:00Z', now)).toBe(false);
    expect(rolloutAfterExpired('2026-03-01T11:00:00Z', '2026-03-01T08:00:00Z', now)).toBe(false);
    expect(rolloutAfterExpired('2026-03-01T10:00:00Z', '2026-03-01T08:00:00Z', now)).toBe(false);
    expect(rolloutAfterExpired(undefined, '2026-03-01T08:00:00Z', now)).toBe(false);
  });
});
