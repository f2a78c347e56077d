import { describe, expect, it } from 'vitest';
import { ANNOTATION_DELETE_MACHINE, LABEL_CONTROL_PLANE_NAME, LABEL_SET_NAME } from '../labels';
import { RestartRequestSchema, requestIssues } from '../requests';
import { rolloutAfterExpired } from '../rules/restart';
import {
  aKubeadmControlPlane,
  aMachine,
  aMachineDeployment,
  aMachineSet,
  anIpEntry,
  aValidationContext,
  controlPlaneLabels,
} from '../testing';
import type { JsonPatchOp } from './json-patch';
import { applyStep } from './objects';
import { withPauseWarnings } from './pause';
import { canExecute, type Plan } from './plan';
import { planRestart, rollingSteps } from './restart';

const ctx = aValidationContext();
/** The console server's clock in these tests. */
const NOW = new Date('2026-03-01T10:00:00.750Z');
const ops = (plan: Plan): JsonPatchOp[] => {
  const s = plan.steps[0];
  return s?.verb === 'patch' && s.patch.type === 'json' ? s.patch.ops : [];
};
const notes = (plan: Plan) => (plan.effects.notes ?? []).map((n) => n.messageKey);
const rules = (plan: Plan) => plan.issues.map((i) => `${i.rule} ${i.severity}`);

/** The pool's three machines, created a day apart (m1 oldest), all of set demo-md-0-abc12. */
const machines = (o: { unhealthy?: string; marked?: string } = {}) =>
  ['m1', 'm2', 'm3'].map((n, i) =>
    aMachine({
      metadata: {
        name: `demo-md-0-abc12-${n}`,
        creationTimestamp: `2026-01-0${String(i + 1)}T00:00:00Z`,
        ...(o.marked === n ? { annotations: { [ANNOTATION_DELETE_MACHINE]: '' } } : {}),
      },
      ...(o.unhealthy === n
        ? {
            status: {
              conditions: [
                {
                  type: 'NodeHealthy',
                  status: 'False',
                  lastTransitionTime: '2026-01-05T00:00:00Z',
                },
              ],
            },
          }
        : {}),
    }),
  );
const set = aMachineSet({ metadata: { creationTimestamp: '2025-12-31T00:00:00Z' } });
/** The three machines of set demo-md-0-new01, made by a restart at 09:00 (rolloutAfter). */
const restarted = () =>
  ['n1', 'n2', 'n3'].map((n) =>
    aMachine({
      metadata: {
        name: `demo-md-0-new01-${n}`,
        creationTimestamp: '2026-03-01T09:01:00Z',
        labels: { [LABEL_SET_NAME]: 'demo-md-0-new01' },
      },
    }),
  );

describe('planRestart (O-RESTART) of a worker pool', () => {
  it('restart now: one JSON patch testing the resourceVersion and adding spec.rolloutAfter from the console server’s clock, in whole seconds; its undo removes it', () => {
    const md = aMachineDeployment();
    const plan = planRestart(
      { resourceVersion: '1' },
      { target: md, machines: machines(), machineSets: [set] },
      ctx,
      NOW,
    );
    expect(plan.operation).toBe('O-RESTART');
    expect(plan.target).toEqual({ kind: 'MachineDeployment', name: 'demo-md-0' });
    expect(ops(plan)).toEqual([
      { op: 'test', path: '/metadata/resourceVersion', value: '1' },
      { op: 'add', path: '/spec/rolloutAfter', value: '2026-03-01T10:00:00Z' },
    ]);
    expect(plan.issues).toEqual([]);
    expect(canExecute(plan)).toBe(true);
    const step = plan.steps[0];
    if (step?.verb !== 'patch') throw new Error('a patch');
    expect(step.description.message).toBe(
      'Restart MachineDeployment demo-md-0: set its rolloutAfter to 2026-03-01T10:00:00Z',
    );
    const after = applyStep(md, step) as typeof md;
    expect(after.spec?.rolloutAfter).toBe('2026-03-01T10:00:00Z');
    expect(step.undo && (applyStep(after, step.undo) as typeof md).spec).not.toHaveProperty(
      'rolloutAfter',
    );
    expect(plan.kubectl[0]).toContain('kubectl patch machinedeployment demo-md-0');
    expect(plan.kubectl[0]).toContain('/spec/rolloutAfter');
    expect(notes(plan)).toEqual([
      'plan.effect.restartNow',
      'plan.effect.restartClockNow',
      'plan.effect.restartOrderRolling',
      'plan.effect.restartPickRandom',
      // The demo pool's entries carry /var/cpaas: each disk moves to the replacement.
      'plan.effect.persistentDisksMove',
    ]);
    expect(plan.effects.notes?.[1]?.message).toContain(
      'the console server’s clock, not your browser’s',
    );
  });

  it('names the machines and the order under maxSurge 0 / maxUnavailable 1: one old machine goes, then its replacement comes', () => {
    const plan = planRestart(
      { resourceVersion: '1' },
      { target: aMachineDeployment(), machines: machines(), machineSets: [set] },
      ctx,
      NOW,
    );
    expect(plan.effects.restart).toEqual({
      rolloutAfter: '2026-03-01T10:00:00Z',
      plannedAt: '2026-03-01T10:00:00Z',
      scheduled: false,
      machines: ['demo-md-0-abc12-m1', 'demo-md-0-abc12-m2', 'demo-md-0-abc12-m3'],
      steps: [
        { create: 0, delete: ['demo-md-0-abc12-m1'] },
        { create: 1, delete: [] },
        { create: 0, delete: ['demo-md-0-abc12-m2'] },
        { create: 1, delete: [] },
        { create: 0, delete: ['demo-md-0-abc12-m3'] },
        { create: 1, delete: [] },
      ],
      order: 'Random',
    });
    expect(plan.effects.rollout).toEqual({ replaces: 3, atATime: 1 });
  });

  it('under maxSurge 1 / maxUnavailable 1 of 4 machines: each step creates one and deletes one at once (Cluster API’s fenceposts)', () => {
    expect(rollingSteps(4, 1, 1)).toEqual([
      { create: 1, delete: 1 },
      { create: 1, delete: 1 },
      { create: 1, delete: 1 },
      { create: 1, delete: 1 },
    ]);
    // maxSurge 1 / maxUnavailable 0: a new machine first, then the old one once it is available.
    expect(rollingSteps(2, 1, 0)).toEqual([
      { create: 1, delete: 0 },
      { create: 0, delete: 1 },
      { create: 1, delete: 0 },
      { create: 0, delete: 1 },
    ]);
    // 25% of 4 surges 1 (rounded up) and takes none unavailable (rounded down).
    expect(rollingSteps(4, '25%', '25%')).toEqual(rollingSteps(4, 1, 1));
    // Both 0 after rounding: Cluster API takes maxUnavailable 1.
    expect(rollingSteps(2, '0%', '10%')).toEqual([
      { create: 0, delete: 1 },
      { create: 1, delete: 0 },
      { create: 0, delete: 1 },
      { create: 1, delete: 0 },
    ]);
    // A large surge replaces everything in one step.
    expect(rollingSteps(3, 3, 0)).toEqual([
      { create: 3, delete: 0 },
      { create: 0, delete: 3 },
    ]);
    expect(rollingSteps(3, 'x', 1)).toBeUndefined();
  });

  it('the old machine of each step: marked for deletion, then not healthy, then by the deletion order (Oldest, Newest; Random by name)', () => {
    const ms = machines({ unhealthy: 'm3', marked: 'm2' });
    const of = (deletePolicy?: 'Oldest' | 'Newest') =>
      planRestart(
        { resourceVersion: '1' },
        {
          target: aMachineDeployment({
            spec: {
              strategy: {
                rollingUpdate: {
                  maxSurge: 0,
                  maxUnavailable: 1,
                  ...(deletePolicy ? { deletePolicy } : {}),
                },
              },
            },
          }),
          machines: ms,
          machineSets: [set],
        },
        ctx,
        NOW,
      ).effects.restart;
    expect(of()?.machines).toEqual([
      'demo-md-0-abc12-m2',
      'demo-md-0-abc12-m3',
      'demo-md-0-abc12-m1',
    ]);
    expect(of('Oldest')?.order).toBe('Oldest');
    const healthy = machines();
    const order = (deletePolicy: 'Oldest' | 'Newest') =>
      planRestart(
        { resourceVersion: '1' },
        {
          target: aMachineDeployment({ spec: { strategy: { rollingUpdate: { deletePolicy } } } }),
          machines: healthy,
          machineSets: [set],
        },
        ctx,
        NOW,
      );
    expect(order('Newest').effects.restart?.machines).toEqual([
      'demo-md-0-abc12-m3',
      'demo-md-0-abc12-m2',
      'demo-md-0-abc12-m1',
    ]);
    expect(order('Oldest').effects.restart?.machines[0]).toBe('demo-md-0-abc12-m1');
    expect(notes(order('Newest'))).toContain('plan.effect.restartPickNewest');
  });

  it('at a time: a restart scheduled for later, said so; Cluster API’s clock decides when', () => {
    const plan = planRestart(
      { resourceVersion: '1', at: '2026-03-02T06:00:00+08:00' },
      { target: aMachineDeployment(), machines: machines(), machineSets: [set] },
      ctx,
      NOW,
    );
    expect(ops(plan)[1]).toEqual({
      op: 'add',
      path: '/spec/rolloutAfter',
      value: '2026-03-01T22:00:00Z',
    });
    expect(plan.steps[0]?.description.messageKey).toBe('plan.step.restartScheduled');
    expect(plan.effects.restart).toMatchObject({
      scheduled: true,
      rolloutAfter: '2026-03-01T22:00:00Z',
    });
    expect(notes(plan).slice(0, 2)).toEqual([
      'plan.effect.restartScheduled',
      'plan.effect.restartClockScheduled',
    ]);
    expect(canExecute(plan)).toBe(true);
  });

  it('R-RESTART-3: a time that is not later than the console server’s clock is refused; an unreadable one by the request schema', () => {
    const past = planRestart(
      { resourceVersion: '1', at: '2026-03-01T09:59:00Z' },
      { target: aMachineDeployment(), machines: machines(), machineSets: [set] },
      ctx,
      NOW,
    );
    expect(rules(past)).toEqual(['R-RESTART-3 error']);
    expect(past.issues[0]?.path).toBe('at');
    expect(past.issues[0]?.message).toBe(
      '2026-03-01T09:59:00Z is not later than the console server’s clock (2026-03-01T10:00:00Z): to restart at once, choose Restart now',
    );
    expect(canExecute(past)).toBe(false);
    for (const at of ['tomorrow', '2026-03-02', '2026-03-02T06:00:00', '2026-13-02T06:00:00Z']) {
      const parsed = RestartRequestSchema.safeParse({ resourceVersion: '1', at });
      expect(parsed.success, at).toBe(false);
      if (!parsed.success)
        expect(
          requestIssues(parsed.error, {}).map((i) => `${i.rule} ${i.path}`),
          at,
        ).toEqual(['R-RESTART-3 at']);
    }
    expect(RestartRequestSchema.safeParse({ resourceVersion: '1', at: 1 }).success).toBe(false);
    expect(RestartRequestSchema.safeParse({ resourceVersion: '1', now: true }).success).toBe(false);
  });

  it('R-RESTART-2 judges MachineSets by their machines, as the card does: a restart just finished is not "still replacing" while the old set’s status.replicas lags', () => {
    // rolloutAfter 09:00 made the new set (created 09:00:05) and replaced every machine; the old
    // set (created before it) wants none and owns none, but its controller has not yet written
    // status.replicas 0.
    const newSet = aMachineSet({
      metadata: { name: 'demo-md-0-new01', creationTimestamp: '2026-03-01T09:00:05Z' },
      status: { replicas: 3 },
    });
    const oldSet = aMachineSet({ spec: { replicas: 0 }, status: { replicas: 1 } });
    const fresh = restarted();
    const target = aMachineDeployment({ spec: { rolloutAfter: '2026-03-01T09:00:00Z' } });
    const settled = planRestart(
      { resourceVersion: '1' },
      { target, machines: fresh, machineSets: [oldSet, newSet] },
      ctx,
      NOW,
    );
    expect(rules(settled)).toEqual([]);
    // One old machine still there (being deleted): the restart is still replacing machines.
    const lastOld = machines()[0] ?? aMachine();
    const stillGoing = planRestart(
      { resourceVersion: '1' },
      {
        target,
        machines: [
          ...fresh,
          {
            ...lastOld,
            metadata: { ...lastOld.metadata, deletionTimestamp: '2026-03-01T09:59:00Z' },
          },
        ],
        machineSets: [oldSet, newSet],
      },
      ctx,
      NOW,
    );
    expect(stillGoing.issues.map((i) => `${i.rule} ${i.messageKey}`)).toEqual([
      'R-RESTART-2 plan.issue.restartDue',
    ]);
  });

  it('R-RESTART-2 judges the MachineDeployment by its sets and machines too: its status.replicas and updatedReplicas, written after its sets’ status, may still count the rollout just finished', () => {
    const newSet = aMachineSet({
      metadata: { name: 'demo-md-0-new01', creationTimestamp: '2026-03-01T09:00:05Z' },
    });
    const oldSet = aMachineSet({ spec: { replicas: 0 } });
    const fresh = restarted();
    const target = aMachineDeployment({
      spec: { rolloutAfter: '2026-03-01T09:00:00Z' },
      // As the deployment's controller last wrote it, mid-rollout: one old machine still counted.
      status: { replicas: 4, updatedReplicas: 2, readyReplicas: 3 },
    });
    const plan = planRestart(
      { resourceVersion: '1' },
      { target, machines: fresh, machineSets: [oldSet, newSet] },
      ctx,
      NOW,
    );
    expect(plan.issues).toEqual([]);
    // Its machines still short of the new set: refused, whatever the status says.
    const short = planRestart(
      { resourceVersion: '1' },
      {
        target: aMachineDeployment({ status: { replicas: 3, updatedReplicas: 3 } }),
        machines: fresh.slice(0, 2),
        machineSets: [oldSet, newSet],
      },
      ctx,
      NOW,
    );
    expect(short.issues.map((i) => `${i.rule} ${i.messageKey}`)).toEqual([
      'R-RESTART-2 plan.issue.restartChanging',
    ]);
  });

  it('R-RESTART-1: a pool of 0 replicas has nothing to restart', () => {
    const plan = planRestart(
      { resourceVersion: '1' },
      {
        target: aMachineDeployment({
          spec: { replicas: 0 },
          status: { replicas: 0, updatedReplicas: 0 },
        }),
        machines: [],
        machineSets: [],
      },
      ctx,
      NOW,
    );
    expect(rules(plan)).toEqual(['R-RESTART-1 error']);
    expect(canExecute(plan)).toBe(false);
  });

  it('R-RESTART-2: not while the pool is changing: a rollout under way, a change not yet acted on, a restart already due, a machine being deleted', () => {
    const ms = machines();
    const cases: [string, Parameters<typeof planRestart>[1]][] = [
      [
        'plan.issue.restartChanging',
        {
          // An upgrade under way: a new set of the new version holds one machine, the old two.
          target: aMachineDeployment({ spec: { template: { spec: { version: 'v1.34.1' } } } }),
          machines: [
            ...ms.slice(1),
            aMachine({
              metadata: {
                name: 'demo-md-0-new01-n1',
                labels: { [LABEL_SET_NAME]: 'demo-md-0-new01' },
              },
              spec: { version: 'v1.34.1' },
            }),
          ],
          machineSets: [
            set,
            aMachineSet({
              metadata: { name: 'demo-md-0-new01' },
              spec: { replicas: 1, template: { spec: { version: 'v1.34.1' } } },
            }),
          ],
        },
      ],
      [
        'plan.issue.restartPendingSpec',
        {
          target: aMachineDeployment({
            metadata: { generation: 3 },
            status: { observedGeneration: 2 },
          }),
          machines: ms,
        },
      ],
      [
        'plan.issue.restartDue',
        {
          target: aMachineDeployment({ spec: { rolloutAfter: '2026-03-01T09:00:00Z' } }),
          machines: ms,
          machineSets: [set],
        },
      ],
      [
        'plan.issue.restartChanging',
        {
          target: aMachineDeployment(),
          machines: [
            ...ms,
            aMachine({ metadata: { name: 'gone', deletionTimestamp: '2026-03-01T09:59:00Z' } }),
          ],
        },
      ],
      [
        'plan.issue.restartDeleting',
        {
          target: aMachineDeployment({ metadata: { deletionTimestamp: '2026-03-01T09:00:00Z' } }),
          machines: ms,
        },
      ],
    ];
    for (const [key, current] of cases) {
      const plan = planRestart({ resourceVersion: '1' }, current, ctx, NOW);
      expect(
        plan.issues.map((i) => `${i.rule} ${i.messageKey}`),
        key,
      ).toEqual([`R-RESTART-2 ${key}`]);
      expect(canExecute(plan)).toBe(false);
    }
    // A restart set in the past that has finished (the set is newer than it) is no obstacle.
    const done = planRestart(
      { resourceVersion: '1' },
      {
        target: aMachineDeployment({ spec: { rolloutAfter: '2025-12-30T00:00:00Z' } }),
        machines: ms,
        machineSets: [set],
      },
      ctx,
      NOW,
    );
    expect(done.issues).toEqual([]);
    expect(ops(done).slice(1)).toEqual([
      { op: 'test', path: '/spec/rolloutAfter', value: '2025-12-30T00:00:00Z' },
      { op: 'replace', path: '/spec/rolloutAfter', value: '2026-03-01T10:00:00Z' },
    ]);
  });

  it('R-RESTART-4: a restart already scheduled is replaced, and said so; the same time again changes nothing', () => {
    const md = aMachineDeployment({ spec: { rolloutAfter: '2026-03-05T00:00:00Z' } });
    const plan = planRestart(
      { resourceVersion: '1' },
      { target: md, machines: machines(), machineSets: [set] },
      ctx,
      NOW,
    );
    expect(rules(plan)).toEqual(['R-RESTART-4 warning']);
    expect(plan.issues[0]?.message).toContain('already set for 2026-03-05T00:00:00Z');
    expect(canExecute(plan)).toBe(true);
    const same = planRestart(
      { resourceVersion: '1', at: '2026-03-05T00:00:00Z' },
      { target: md, machines: machines(), machineSets: [set] },
      ctx,
      NOW,
    );
    expect(same.steps).toEqual([]);
    expect(notes(same)[0]).toBe('plan.effect.restartAlreadyScheduled');
  });

  it('R-RESTART-5: OnDelete replaces a machine only once it is deleted: the machines are named, no order is claimed', () => {
    const plan = planRestart(
      { resourceVersion: '1' },
      {
        target: aMachineDeployment({ spec: { strategy: { type: 'OnDelete' } } }),
        machines: machines(),
        machineSets: [set],
      },
      ctx,
      NOW,
    );
    expect(rules(plan)).toEqual(['R-RESTART-5 warning']);
    expect(plan.effects.restart).toMatchObject({ order: 'OnDelete', steps: [] });
    expect(plan.effects.restart?.machines).toHaveLength(3);
    expect(plan.effects.rollout).toBeUndefined();
  });

  it('R-RESTART-6: a MachineDeployment paused by its own spec.paused holds the rollout; R-PAUSE-1 for the paused annotation, as on every plan', () => {
    const plan = planRestart(
      { resourceVersion: '1' },
      {
        target: aMachineDeployment({ spec: { paused: true } }),
        machines: machines(),
        machineSets: [set],
      },
      ctx,
      NOW,
    );
    expect(rules(plan)).toEqual(['R-RESTART-6 warning']);
    const paused = withPauseWarnings(plan, {
      clusterName: 'demo',
      paused: { cluster: true, objects: [] },
    });
    expect(rules(paused)).toEqual(['R-RESTART-6 warning', 'R-PAUSE-1 warning']);
    expect(canExecute(paused)).toBe(true);
  });

  it('R-MD-3 and R-POOL-1 warn of the surge, as before an upgrade: persistent disks with maxSurge 1, an IP pool with no spare entry', () => {
    const surging = aMachineDeployment({
      spec: { strategy: { rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } } },
    });
    const pool = ctx.ipPools[0];
    if (!pool) throw new Error('the demo context has an IP pool');
    const withEntries = (n: number, disks: boolean) =>
      aValidationContext({
        ipPools: [
          {
            ...pool,
            entries: Array.from({ length: n }, (_, i) =>
              disks ? anIpEntry(i + 1) : { ...anIpEntry(i + 1), persistentDisk: [] },
            ),
          },
        ],
      });
    const plan = (c: typeof ctx) =>
      planRestart(
        { resourceVersion: '1' },
        { target: surging, machines: machines(), machineSets: [set] },
        c,
        NOW,
      );
    // 3 entries for 3 replicas: no room for the surge (R-POOL-1); no disks, so no R-MD-3.
    expect(rules(plan(withEntries(3, false)))).toEqual(['R-POOL-1 warning']);
    expect(plan(withEntries(3, false)).issues[0]?.messageKey).toBe('pool.surgeExceedsEntries');
    expect(rules(plan(withEntries(4, false)))).toEqual([]);
    // A spare entry, but the pool relies on persistent disks and surges (R-MD-3).
    const withDisks = plan(withEntries(4, true));
    expect(rules(withDisks)).toEqual(['R-MD-3 warning']);
    expect(notes(withDisks)).toContain('plan.effect.persistentDisksMove');
    expect(canExecute(withDisks)).toBe(true);
    // maxSurge 0 (the demo's default) neither surges nor needs a spare entry.
    expect(
      rules(
        planRestart(
          { resourceVersion: '1' },
          { target: aMachineDeployment(), machines: machines(), machineSets: [set] },
          withEntries(3, true),
          NOW,
        ),
      ),
    ).toEqual([]);
  });

  it('a stale resourceVersion is R-PLAN-STALE (the BFF rebases or answers 409)', () => {
    const plan = planRestart(
      { resourceVersion: '1' },
      {
        target: aMachineDeployment({ metadata: { resourceVersion: '7' } }),
        machines: machines(),
        machineSets: [set],
      },
      ctx,
      NOW,
    );
    expect(plan.issues.map((i) => i.rule)).toEqual(['R-PLAN-STALE']);
  });
});

describe('planRestart (O-RESTART) of the control plane', () => {
  const cp = (name: string, day: number) =>
    aMachine({
      metadata: {
        name,
        creationTimestamp: `2026-01-0${String(day)}T00:00:00Z`,
        labels: { ...controlPlaneLabels(), [LABEL_CONTROL_PLANE_NAME]: 'demo-control-plane' },
      },
    });
  const cps = [cp('cp-b', 2), cp('cp-a', 3), cp('cp-c', 1)];

  it('one at a time, the oldest first: a new machine joins, then the oldest goes (maxSurge 1, the default)', () => {
    const plan = planRestart(
      { resourceVersion: '1' },
      { target: aKubeadmControlPlane(), machines: cps },
      ctx,
      NOW,
    );
    expect(plan.target).toEqual({ kind: 'KubeadmControlPlane', name: 'demo-control-plane' });
    expect(ops(plan)[1]).toEqual({
      op: 'add',
      path: '/spec/rolloutAfter',
      value: '2026-03-01T10:00:00Z',
    });
    expect(plan.effects.restart).toMatchObject({
      order: 'ControlPlane',
      machines: ['cp-c', 'cp-b', 'cp-a'],
      steps: [
        { create: 1, delete: [] },
        { create: 0, delete: ['cp-c'] },
        { create: 1, delete: [] },
        { create: 0, delete: ['cp-b'] },
        { create: 1, delete: [] },
        { create: 0, delete: ['cp-a'] },
      ],
    });
    expect(plan.effects.rollout).toEqual({ replaces: 3, atATime: 1 });
    expect(notes(plan)).toContain('plan.effect.restartControlPlaneSurge');
    expect(plan.kubectl[0]).toContain('kubectl patch kubeadmcontrolplane demo-control-plane');
    expect(canExecute(plan)).toBe(true);
  });

  it('maxSurge 0: the oldest is removed before its replacement joins', () => {
    const plan = planRestart(
      { resourceVersion: '1' },
      {
        target: aKubeadmControlPlane({
          spec: { rolloutStrategy: { rollingUpdate: { maxSurge: 0 } } },
        }),
        machines: cps,
      },
      ctx,
      NOW,
    );
    expect(plan.effects.restart?.steps.slice(0, 2)).toEqual([
      { create: 0, delete: ['cp-c'] },
      { create: 1, delete: [] },
    ]);
    expect(
      plan.effects.notes?.find((n) => n.messageKey === 'plan.effect.restartControlPlaneNoSurge')
        ?.params,
    ).toMatchObject({ during: 2 });
  });

  it('R-RESTART-2: a control plane being upgraded (a machine short of the new spec) is not restarted', () => {
    const plan = planRestart(
      { resourceVersion: '1' },
      { target: aKubeadmControlPlane({ status: { updatedReplicas: 2 } }), machines: cps },
      ctx,
      NOW,
    );
    expect(rules(plan)).toEqual(['R-RESTART-2 error']);
  });
});

describe('rolloutAfterExpired (upstream’s ShouldRolloutAfter / FindNewAndOldMachineSets)', () => {
  const now = Date.parse('2026-03-01T10:00:00Z');
  it('expires what was created before a time that has passed; nothing when unset, in the future or unreadable', () => {
    expect(rolloutAfterExpired('2026-03-01T09:00:00Z', '2026-03-01T08:59:59Z', now)).toBe(true);
    // Created at the very time: not before it (cluster-api#12260).
    expect(rolloutAfterExpired('2026-03-01T09:00:00Z', '2026-03-01T09:00:00Z', now)).toBe(false);
    expect(rolloutAfterExpired('2026-03-01T11:00:00Z', '2026-03-01T08:00:00Z', now)).toBe(false);
    // rolloutAfter must be strictly before now.
    expect(rolloutAfterExpired('2026-03-01T10:00:00Z', '2026-03-01T08:00:00Z', now)).toBe(false);
    expect(rolloutAfterExpired(undefined, '2026-03-01T08:00:00Z', now)).toBe(false);
    expect(rolloutAfterExpired('soon', '2026-03-01T08:00:00Z', now)).toBe(false);
  });
});
