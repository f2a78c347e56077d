import type { KubeObject } from '@dcs/apiserver';
import { parseDrainMessage, type Machine } from '@dcs/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startControllers } from '../../src/controllers/start';
import { ANNOTATION_FAIL } from '../../src/logic/failures';
import { v1beta2Of } from '../../src/logic/v1beta2';
import { DRAIN_STUCK_PREFIX } from '../../src/workload/pods';
import { clusterUp, createPool, machinesOf, must, waitSettled } from '../support/scenario';
import { NS, startSim, type Sim } from '../support/sim';

/**
 * Issue 26 item 6, the cluster side: the workload clusters hold Pods (a ReplicaSet's replica per
 * Node, a DaemonSet's Pod on each) and PodDisruptionBudgets, so a Machine's drain evicts through
 * the Eviction API and a budget really blocks it; `drain-stuck` is such a budget. The messages are
 * Cluster API v1.14's, and the domain's parser reads them.
 */

const CLUSTER = 'drain';
let sim: Sim;

beforeAll(async () => {
  sim = await startSim({ timeScale: 600 });
  await clusterUp(sim, CLUSTER);
}, 150_000);
afterAll(async () => {
  await sim.close();
});

const workload = async () =>
  must(await sim.controllers.workload?.get(NS, CLUSTER), 'workload cluster').server.client;

const podsOn = async (node: string) =>
  (await workload())
    .list('v1', 'Pod')
    .filter((p) => (p.spec as { nodeName?: string } | undefined)?.nodeName === node);

const deletingOf = (m: Machine | undefined) =>
  v1beta2Of(m?.status)?.conditions?.find((c) => c.type === 'Deleting');
const drainingOf = (m: Machine | undefined) =>
  m?.status?.conditions?.find((c) => c.type === 'DrainingSucceeded');

const ownerKind = (p: KubeObject) => p.metadata.ownerReferences?.find((r) => r.controller)?.kind;

async function scaleDown(pool: string, to: number): Promise<void> {
  await sim.kubectl.patch('MachineDeployment', pool, 'json', [
    { op: 'replace', path: '/spec/replicas', value: to },
  ]);
}

describe('drain in the workload cluster', () => {
  it('each Node runs a web replica and a kube-proxy Pod; a drain evicts the replica, skips kube-proxy, and completes', async () => {
    await createPool(sim, {
      name: 'drain-ok',
      cluster: CLUSTER,
      version: 'v1.34.1',
      replicas: 2,
      entries: 3,
      nodeDrainTimeout: '2h',
    });
    await waitSettled(sim, 'drain-ok');
    const machines = machinesOf(sim, 'drain-ok');
    const nodes = machines.map((m) => must(m.status?.nodeRef?.name, 'nodeRef'));
    const c = await workload();
    await sim.until('every node runs its pods, Ready', () =>
      nodes.every((n) => {
        const on = c
          .list('v1', 'Pod')
          .filter(
            (p) =>
              (p.spec as { nodeName?: string }).nodeName === n && !p.metadata.deletionTimestamp,
          );
        return (
          on.some((p) => ownerKind(p) === 'ReplicaSet') &&
          on.some((p) => ownerKind(p) === 'DaemonSet') &&
          on.every((p) => (p.status as { phase?: string } | undefined)?.phase === 'Running')
        );
      }),
    );
    const rs = must(
      c.list('apps/v1', 'ReplicaSet').find((r) => r.metadata.name?.startsWith('web-')),
      'web ReplicaSet',
    );
    expect((rs.spec as { replicas: number }).replicas).toBeGreaterThanOrEqual(2);

    // A finalizer keeps each evicted replica terminating until the test has seen the drain wait
    // for it (the kubelet's final delete cannot remove it), so the wait is not a race with the
    // clock; removing it lets the drain finish.
    const HOLD = 'example.com/hold';
    const web = () =>
      c
        .list('v1', 'Pod')
        .filter((p) => ownerKind(p) === 'ReplicaSet' && p.metadata.namespace === 'default');
    for (const p of web()) {
      await c.update({ ...p, metadata: { ...p.metadata, finalizers: [HOLD] } });
    }
    await scaleDown('drain-ok', 1);
    const gone = await sim.until('a machine deleting', () =>
      machinesOf(sim, 'drain-ok').find((m) => m.metadata.deletionTimestamp),
    );
    const name = must(gone.metadata.name, 'name');
    const node = must(gone.status?.nodeRef?.name, 'nodeRef');
    // While it drains, the message names the evicted replica (upstream's v1.14 text).
    const evicting = await sim.until('the drain names the evicted Pod', () => {
      const m = sim.get('Machine', name);
      const msg = deletingOf(m)?.message ?? '';
      return msg.includes('* Pods with deletionTimestamp that still exist: default/web-')
        ? m
        : undefined;
    });
    const message = must(deletingOf(evicting)?.message, 'message');
    expect(message).toMatch(
      /^Drain not completed yet \(started at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\):\n\* Pods with deletionTimestamp that still exist: default\/web-[a-z0-9-]+$/,
    );
    expect(deletingOf(evicting)).toMatchObject({ status: 'True', reason: 'DrainingNode' });
    expect(drainingOf(evicting)).toMatchObject({ status: 'False', reason: 'Draining', message });
    // The domain's parser reads what the simulator wrote.
    const parsed = parseDrainMessage(message);
    expect(parsed.startedAt).toBe(evicting.status?.deletion?.nodeDrainStartTime);
    expect(parsed.evicting.pods).toHaveLength(1);
    expect(parsed.evicting.pods[0]).toMatch(/^default\/web-/);
    expect(parsed.failed).toEqual([]);
    // Held by its finalizer, the evicted replica is still there 5 simulated minutes later.
    await sim.clock.advance(5 * 60_000);
    await sim.controllers.idle();
    expect(sim.get('Machine', name)?.metadata.deletionTimestamp).toBeTruthy();
    for (const p of web()) {
      if (!p.metadata.finalizers?.includes(HOLD)) continue;
      await c.update({ ...p, metadata: { ...p.metadata, finalizers: [] } });
    }
    await sim.until('machine gone', () => !sim.get('Machine', name));
    expect(sim.events(name, 'Machine').some((e) => e.reason === 'SuccessfulDrainNode')).toBe(true);
    // The replica was started again elsewhere; the Node's Pods are gone with it.
    expect(await podsOn(node)).toEqual([]);
    await waitSettled(sim, 'drain-ok');
  }, 120_000);

  it('a PodDisruptionBudget that allows no disruption refuses the eviction (429): the message names it; deleting it lets the drain finish', async () => {
    await createPool(sim, {
      name: 'drain-pdb',
      cluster: CLUSTER,
      version: 'v1.34.1',
      replicas: 2,
      entries: 3,
      // Longer than the test holds the drain (the pools' default is 1m).
      nodeDrainTimeout: '2h',
    });
    await waitSettled(sim, 'drain-pdb');
    const c = await workload();
    // An operator's budget over every web replica: all must stay.
    const replicas = c
      .list('v1', 'Pod')
      .filter((p) => ownerKind(p) === 'ReplicaSet' && !p.metadata.deletionTimestamp).length;
    await c.create({
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      metadata: { name: 'web-all', namespace: 'default' },
      spec: { minAvailable: '100%', selector: { matchLabels: { app: 'web' } } },
    });
    await sim.until('the budget observed, no disruption allowed', () => {
      const b = c.get({
        apiVersion: 'policy/v1',
        kind: 'PodDisruptionBudget',
        name: 'web-all',
        namespace: 'default',
      });
      const st = b?.status as
        | { observedGeneration?: number; disruptionsAllowed?: number; currentHealthy?: number }
        | undefined;
      return (
        st?.observedGeneration === 1 && st.disruptionsAllowed === 0 && (st.currentHealthy ?? 0) > 0
      );
    });
    await scaleDown('drain-pdb', 1);
    const blocked = await sim.until('the drain refused by the budget', () =>
      machinesOf(sim, 'drain-pdb').find((m) =>
        deletingOf(m)?.message.includes(
          "Cannot evict pod as it would violate the pod's disruption budget.",
        ),
      ),
    );
    const name = must(blocked.metadata.name, 'name');
    const message = must(deletingOf(blocked)?.message, 'message');
    const budget = c.get({
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      name: 'web-all',
      namespace: 'default',
    });
    const st = budget?.status as { desiredHealthy: number; currentHealthy: number };
    expect(message).toMatch(
      new RegExp(
        `^Drain not completed yet \\(started at \\S+\\):\\n\\* Pods with eviction failed:\\n  \\* Cannot evict pod as it would violate the pod's disruption budget\\. The disruption budget web-all needs ${String(st.desiredHealthy)} healthy pods and has ${String(st.currentHealthy)} currently: default/web-[a-z0-9-]+$`,
      ),
    );
    expect(st.desiredHealthy).toBeGreaterThanOrEqual(replicas);
    expect(drainingOf(blocked)).toMatchObject({ status: 'False', reason: 'Draining', message });
    const parsed = parseDrainMessage(message);
    expect(parsed.failed).toHaveLength(1);
    expect(parsed.failed[0]?.pdb).toEqual({
      name: 'web-all',
      needs: st.desiredHealthy,
      has: st.currentHealthy,
    });
    // Held: 10 simulated minutes later it still drains.
    await sim.clock.advance(10 * 60_000);
    await sim.controllers.idle();
    expect(sim.get('Machine', name)?.metadata.deletionTimestamp).toBeTruthy();
    await c.delete({
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      name: 'web-all',
      namespace: 'default',
    });
    await sim.until(
      'machine gone once the budget is deleted',
      () => !sim.get('Machine', name),
      60_000,
    );
    expect(sim.events(name, 'Machine').some((e) => e.reason === 'SuccessfulDrainNode')).toBe(true);
    await waitSettled(sim, 'drain-pdb');
  }, 120_000);

  it('drain-stuck is a budget over that Node’s replica, visible as a PodDisruptionBudget; nodeDrainTimeout ends the drain and the budget goes with the Machine', async () => {
    await createPool(sim, {
      name: 'drain-stuck',
      cluster: CLUSTER,
      version: 'v1.34.1',
      replicas: 2,
      entries: 3,
      // Long enough to see the refusal on a busy machine (3 s of real time); the test then moves
      // the clock past it.
      nodeDrainTimeout: '30m',
      poolAnnotations: { [ANNOTATION_FAIL]: 'drain-stuck' },
    });
    await waitSettled(sim, 'drain-stuck');
    const c = await workload();
    const nodes = machinesOf(sim, 'drain-stuck').map((m) =>
      must(m.status?.nodeRef?.name, 'nodeRef'),
    );
    const budgets = () =>
      c
        .list('policy/v1', 'PodDisruptionBudget')
        .filter((b) => b.metadata.name?.startsWith(DRAIN_STUCK_PREFIX))
        .map((b) => b.metadata.name ?? '');
    await sim.until('a drain-stuck budget per node', () =>
      nodes.every((n) => budgets().includes(`${DRAIN_STUCK_PREFIX}${n}`)),
    );
    await scaleDown('drain-stuck', 1);
    const blocked = await sim.until('the drain refused by the drain-stuck budget', () =>
      machinesOf(sim, 'drain-stuck').find((m) =>
        deletingOf(m)?.message.includes('The disruption budget drain-stuck-'),
      ),
    );
    const name = must(blocked.metadata.name, 'name');
    const node = must(blocked.status?.nodeRef?.name, 'nodeRef');
    expect(deletingOf(blocked)?.message).toMatch(
      new RegExp(
        `\\* Cannot evict pod as it would violate the pod's disruption budget\\. The disruption budget ${DRAIN_STUCK_PREFIX}${node} needs 1 healthy pods and has 1 currently: default/web-`,
      ),
    );
    await sim.clock.advance(31 * 60_000);
    await sim.until('machine gone after nodeDrainTimeout', () => !sim.get('Machine', name), 60_000);
    const failed = sim.events(name, 'Machine').find((e) => e.reason === 'FailedDrainNode');
    expect(failed?.message).toMatch(/nodeDrainTimeout 30m0s/);
    await sim.until(
      'its budget gone with the Machine',
      () => !budgets().includes(`${DRAIN_STUCK_PREFIX}${node}`),
    );
    await waitSettled(sim, 'drain-stuck');
  }, 120_000);

  it('a restart of the controllers mid-drain: the drain goes on from its start time, held by the same budget, and nothing else is written', async () => {
    await createPool(sim, {
      name: 'drain-restart',
      cluster: CLUSTER,
      version: 'v1.34.1',
      replicas: 2,
      entries: 3,
      // Longer than the test holds the drain (the pools' default is 1m).
      nodeDrainTimeout: '2h',
    });
    await waitSettled(sim, 'drain-restart');
    const victim = must(machinesOf(sim, 'drain-restart')[0], 'machine');
    const name = must(victim.metadata.name, 'name');
    await sim.kubectl.annotate('Machine', name, { [ANNOTATION_FAIL]: 'drain-stuck' });
    await sim.kubectl.delete('Machine', name);
    const blocked = await sim.until('held by drain-stuck', () => {
      const m = sim.get('Machine', name);
      return deletingOf(m)?.message.includes('Cannot evict pod') ? m : undefined;
    });
    const started = blocked.status?.deletion?.nodeDrainStartTime;
    const others = () =>
      sim
        .list('Machine')
        .filter((m) => m.metadata.name !== name)
        .map((m) => `${m.metadata.name ?? ''}@${m.metadata.resourceVersion ?? ''}`)
        .sort();
    await sim.controllers.stop();
    const before = others();
    const again = await startControllers({
      kubeconfig: sim.kubeconfig,
      clock: sim.clock,
      options: { log: () => undefined },
    });
    try {
      await sim.clock.advance(5 * 60_000);
      await again.idle();
      const m = sim.get('Machine', name);
      expect(m?.metadata.deletionTimestamp).toBeTruthy();
      expect(m?.status?.deletion?.nodeDrainStartTime).toBe(started);
      expect(deletingOf(m)?.message).toMatch(
        /Cannot evict pod as it would violate the pod's disruption budget\./,
      );
      expect(parseDrainMessage(deletingOf(m)?.message).startedAt).toBe(started);
      // The other Machines were not written by the restart.
      expect(others()).toEqual(before);
      await sim.kubectl.annotate('Machine', name, { [ANNOTATION_FAIL]: null });
      await sim.until(
        'machine gone once the failure is removed',
        () => !sim.get('Machine', name),
        60_000,
      );
    } finally {
      await again.stop();
    }
  }, 150_000);
});
