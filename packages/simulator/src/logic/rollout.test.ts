import { describe, expect, it } from 'vitest';
import type { IntOrString } from '@dcs/domain';
import { seeded } from './random';
import {
  initialNewMachineSetReplicas,
  maxSurgeOf,
  maxUnavailableOf,
  newMSNewReplicas,
  planRollout,
  type DeploymentState,
  type MachineSetState,
} from './rollout';
import { RolloutWorld } from '../../test/support/rollout-world';

const ms = (name: string, o: Partial<MachineSetState> = {}): MachineSetState => ({
  name,
  createdAt: 0,
  replicas: 0,
  statusReplicas: o.replicas ?? 0,
  availableReplicas: o.replicas ?? 0,
  readyReplicas: o.replicas ?? 0,
  ...o,
});

const rolling = (
  replicas: number,
  maxSurge?: IntOrString,
  maxUnavailable?: IntOrString,
): DeploymentState => ({
  replicas,
  strategy: 'RollingUpdate',
  ...(maxSurge !== undefined ? { maxSurge } : {}),
  ...(maxUnavailable !== undefined ? { maxUnavailable } : {}),
});

describe('maxSurge and maxUnavailable as Cluster API resolves them (R-MD-2)', () => {
  it.each([
    [rolling(3, 0, 1), 0, 1],
    [rolling(3, 1, 0), 1, 0],
    [rolling(10, '25%', '25%'), 3, 2],
    [rolling(3, '0%', '0%'), 0, 1],
    [rolling(1, '10%', '10%'), 1, 0],
    [rolling(3), 1, 0],
    [rolling(2, 0, 5), 0, 2],
  ])('%j resolves to surge %i, unavailable %i', (md, surge, unavailable) => {
    expect(maxSurgeOf(md)).toBe(surge);
    expect(maxUnavailableOf(md)).toBe(unavailable);
  });

  it('OnDelete has neither surge nor unavailability, and 0 replicas no unavailability', () => {
    expect(maxSurgeOf({ replicas: 3, strategy: 'OnDelete' })).toBe(0);
    expect(maxUnavailableOf({ replicas: 3, strategy: 'OnDelete' })).toBe(0);
    expect(maxUnavailableOf(rolling(0, 0, 1))).toBe(0);
  });
});

describe('NewMSNewReplicas', () => {
  it('grows the new set up to replicas + maxSurge machines in all, counting deleting machines', () => {
    const md = rolling(3, 1, 0);
    expect(newMSNewReplicas(md, [ms('old', { replicas: 3 }), ms('new')], 0)).toBe(1);
    // status.replicas 3 > spec 2: a machine is still being deleted, it still counts.
    expect(
      newMSNewReplicas(
        md,
        [ms('old', { replicas: 2, statusReplicas: 3 }), ms('new', { replicas: 1 })],
        1,
      ),
    ).toBe(1);
    expect(newMSNewReplicas(md, [ms('old', { replicas: 2 }), ms('new', { replicas: 1 })], 1)).toBe(
      2,
    );
  });

  it('a new set starts with what surge allows (computeDesiredMachineSet)', () => {
    expect(initialNewMachineSetReplicas(rolling(3, 0, 1), [ms('old', { replicas: 3 })])).toBe(0);
    expect(initialNewMachineSetReplicas(rolling(3, 2, 0), [ms('old', { replicas: 3 })])).toBe(2);
    expect(initialNewMachineSetReplicas(rolling(3, 1, 0), [])).toBe(3);
  });
});

describe('planRollout: one reconcile of rolloutRolling', () => {
  it('maxSurge 0 / maxUnavailable 1 (R-MD-3): deletes an old machine first, then replaces it', () => {
    const md = rolling(3, 0, 1);
    const plan = planRollout(md, ms('new', { createdAt: 2 }), [
      ms('old', { createdAt: 1, replicas: 3 }),
    ]);
    expect(plan.steps).toEqual([
      { machineSet: 'old', from: 3, to: 2, reason: 'scale down old MachineSet' },
    ]);
    const next = planRollout(md, ms('new', { createdAt: 2 }), [
      ms('old', { createdAt: 1, replicas: 2 }),
    ]);
    expect(next.steps).toEqual([
      { machineSet: 'new', from: 0, to: 1, reason: 'scale new MachineSet' },
    ]);
  });

  it('does not scale old sets down while the new set has unavailable machines', () => {
    const md = rolling(3, 1, 0);
    const plan = planRollout(
      md,
      ms('new', { createdAt: 2, replicas: 1, availableReplicas: 0, readyReplicas: 0 }),
      [ms('old', { createdAt: 1, replicas: 3 })],
    );
    expect(plan.steps).toEqual([]);
  });

  it('cleans up unhealthy old replicas before healthy ones', () => {
    const md = rolling(4, 0, 1);
    const plan = planRollout(md, ms('new', { createdAt: 3 }), [
      ms('a', { createdAt: 1, replicas: 2 }),
      ms('b', { createdAt: 2, replicas: 2, availableReplicas: 1, readyReplicas: 1 }),
    ]);
    expect(plan.steps[0]).toEqual({
      machineSet: 'b',
      from: 2,
      to: 1,
      reason: 'clean up unhealthy replicas',
    });
  });

  it('scales the new set down directly when the deployment shrinks', () => {
    const plan = planRollout(rolling(2, 1, 0), ms('new', { replicas: 5 }), []);
    expect(plan.steps).toEqual([
      { machineSet: 'new', from: 5, to: 2, reason: 'scale new MachineSet' },
    ]);
  });
});

/** The rolling-update invariants at every step, over many (replicas, maxSurge, maxUnavailable). */
describe('rolling update invariants (property, seeded)', () => {
  const rng = seeded(20260101, 'rollout-property');
  const value = (): IntOrString => (rng.next() < 0.5 ? rng.int(0, 4) : `${rng.int(0, 100)}%`);
  const cases: {
    replicas: number;
    maxSurge: IntOrString;
    maxUnavailable: IntOrString;
    seed: number;
  }[] = [];
  while (cases.length < 300) {
    const maxSurge = value();
    const maxUnavailable = value();
    if (maxSurge === 0 && maxUnavailable === 0) continue; // R-MD-2 rejects both integer 0
    cases.push({ replicas: rng.int(0, 12), maxSurge, maxUnavailable, seed: rng.int(1, 1e9) });
  }

  it.each(cases.map((c) => [c.replicas, c.maxSurge, c.maxUnavailable, c.seed] as const))(
    'replicas %i, maxSurge %j, maxUnavailable %j (seed %i): never more than replicas + maxSurge machines, never fewer than replicas - maxUnavailable available, and it completes',
    (replicas, maxSurge, maxUnavailable, seed) => {
      const world = new RolloutWorld({ replicas, maxSurge, maxUnavailable, seed });
      world.checking = false;
      expect(world.settle()).toBe(true);
      world.checking = true;
      world.changeTemplate();
      const done = world.runUntil(() => world.converged(), 2000);
      expect(world.violations).toEqual([]);
      expect(done).toBe(true);
    },
  );

  it.each(
    cases
      .slice(0, 120)
      .map((c, i) => [c.replicas, c.maxSurge, c.maxUnavailable, c.seed, 1 + (i % 7)] as const),
  )(
    'roll-over: replicas %i, maxSurge %j, maxUnavailable %j (seed %i), template changed again after %i steps: invariants hold and it completes',
    (replicas, maxSurge, maxUnavailable, seed, after) => {
      const world = new RolloutWorld({ replicas, maxSurge, maxUnavailable, seed });
      world.checking = false;
      world.settle();
      world.checking = true;
      world.changeTemplate();
      for (let i = 0; i < after; i++) world.step();
      world.changeTemplate();
      expect(world.runUntil(() => world.converged(), 2000)).toBe(true);
      expect(world.violations).toEqual([]);
    },
  );

  it.each([
    [3, 0, 1],
    [6, 3, 1],
    [10, '25%', '25%'],
    [5, 1, 0],
  ] as const)(
    'a second template change in the middle of a rollout (replicas %i, %j, %j) keeps the invariants',
    (replicas, maxSurge, maxUnavailable) => {
      const world = new RolloutWorld({ replicas, maxSurge, maxUnavailable, seed: 7 });
      world.checking = false;
      world.settle();
      world.checking = true;
      world.changeTemplate();
      for (let i = 0; i < 4; i++) world.step();
      world.changeTemplate();
      expect(world.runUntil(() => world.converged(), 2000)).toBe(true);
      expect(world.violations).toEqual([]);
      expect(world.sets.filter((s) => s.replicas > 0).map((s) => s.template)).toEqual([2]);
    },
  );

  it('why a machine being deleted is not available: counted as available, a roll-over scales down too far', () => {
    const run = (deletingCountsAsAvailable: boolean) => {
      const world = new RolloutWorld({
        replicas: 6,
        maxSurge: 3,
        maxUnavailable: 1,
        seed: 7,
        deletingCountsAsAvailable,
      });
      world.checking = false;
      world.settle();
      world.checking = true;
      world.changeTemplate();
      for (let i = 0; i < 4; i++) world.step();
      world.changeTemplate();
      world.runUntil(() => world.converged(), 2000);
      return world.violations.length;
    };
    expect(run(true)).toBeGreaterThan(0);
    expect(run(false)).toBe(0);
  });

  it('scaling up and down during a rollout converges to the new replicas', () => {
    const world = new RolloutWorld({ replicas: 6, maxSurge: 2, maxUnavailable: 1, seed: 11 });
    world.settle();
    world.changeTemplate();
    for (let i = 0; i < 3; i++) world.step();
    world.checking = false;
    world.md.replicas = 9;
    for (let i = 0; i < 3; i++) world.step();
    world.md.replicas = 4;
    expect(world.runUntil(() => world.converged(), 2000)).toBe(true);
    expect(world.machines).toHaveLength(4);
  });
});

describe('OnDelete rollouts', () => {
  it('replace machines only as the user deletes them, never exceeding replicas', () => {
    const world = new RolloutWorld({ replicas: 4, strategy: 'OnDelete', seed: 3 });
    world.checking = false;
    world.settle();
    world.checking = true;
    world.changeTemplate();
    for (let i = 0; i < 10; i++) world.step();
    // Nothing happens on its own.
    expect(world.machines.every((m) => m.set === 'ms-0')).toBe(true);
    const done = world.runUntil(
      () => world.converged(),
      500,
      () => {
        if (world.tick % 5 === 0) world.deleteOneOldMachine();
      },
    );
    expect(done).toBe(true);
    expect(world.violations).toEqual([]);
  });

  it('marks old sets so that they create no machine (disable-machine-create)', () => {
    const plan = planRollout({ replicas: 2, strategy: 'OnDelete' }, ms('new', { createdAt: 2 }), [
      ms('old', { createdAt: 1, replicas: 2, machines: 2, deletingMachines: 1 }),
    ]);
    expect(plan.disableCreation).toEqual(['old']);
    expect(plan.steps).toEqual([
      { machineSet: 'old', from: 2, to: 1, reason: 'align to deleted machines' },
    ]);
  });
});
