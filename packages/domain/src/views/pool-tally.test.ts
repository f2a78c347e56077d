import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { aKubeadmControlPlane, aMachine, aMachineDeployment, aMachineSet } from '../testing';
import type { DiagnosisCode } from './diagnosis';
import { NOW } from './fixtures';
import { factsAvailable, type MachineView } from './machine';
import {
  buildControlPlanePoolFrom,
  buildWorkerPoolFrom,
  controlPlanePoolCard,
  workerPoolCard,
  type PoolMachine,
  type PoolViewContext,
} from './nodepool';
import { PoolTally } from './pool-tally';
import { sortProblems, viewProblem, type ViewProblem } from './problem';
import type { LiveCounts } from './rollout';

/**
 * A pool kept incrementally (PoolTally: a machine's entry counted out and its new one in) against
 * the pool counted from scratch, after every step of random sequences of entries set and deleted;
 * and the tally's counts against a plain walk of the entries (what the cards counted before).
 */

const SEED = 20261207;
const NAMES = ['m-a', 'm-b', 'm-c', 'm-d', 'm-e', 'm-f', 'm-g', 'm-h', 'm-i', 'm-j', 'm-k', 'm-l'];
const CODES: DiagnosisCode[] = ['placement-stall', 'early-failure', 'vm-failed', 'waiting-for-ip'];
const PHASES = ['Running', 'Provisioning', 'Provisioned', 'Pending', 'Failed', 'Deleting'];
const machine = aMachine();

const entry = fc
  .record({
    name: fc.constantFrom(...NAMES),
    deleting: fc.boolean(),
    ready: fc.boolean(),
    phase: fc.constantFrom(...PHASES),
    diagnosis: fc.option(
      fc.record({
        code: fc.constantFrom(...CODES),
        error: fc.boolean(),
        rule: fc.constantFrom(undefined, 'T-1', 'T-2'),
      }),
    ),
    drain: fc.array(
      fc.record({ name: fc.constantFrom('pdb-x', 'pdb-y', 'pdb-z'), needs: fc.nat(3) }),
      { maxLength: 3 },
    ),
    readyAgoS: fc.option(fc.nat(60)),
    set: fc.constantFrom(undefined, '', 's-new', 's-old'),
    upToDate: fc.boolean(),
  })
  .map((r): PoolMachine => {
    const view = {
      name: r.name,
      deleting: r.deleting,
      ready: r.ready,
      phase: r.phase,
      ...(r.diagnosis
        ? {
            diagnosis: {
              ...viewProblem(
                r.diagnosis.code,
                r.diagnosis.error ? 'error' : 'warning',
                'view.problem.placementStall',
                { count: 1, machines: r.name },
                r.diagnosis.rule,
              ),
              code: r.diagnosis.code,
              checklist: [],
            },
          }
        : {}),
      ...(r.drain.length
        ? { drainBlockedBy: r.drain.map((d) => ({ name: d.name, needs: d.needs, has: 0 })) }
        : {}),
    } as unknown as MachineView;
    return {
      view,
      facts: {
        machine,
        deleting: r.deleting,
        ready: r.ready,
        readySince:
          r.ready && r.readyAgoS !== null ? NOW.getTime() - r.readyAgoS * 1000 : undefined,
        set: r.set,
      },
      upToDate: r.upToDate,
    };
  });

const step = fc.oneof(
  { weight: 3, arbitrary: entry.map((e) => ({ set: e })) },
  { weight: 1, arbitrary: fc.constantFrom(...NAMES).map((name) => ({ delete: name })) },
);

const ctx: PoolViewContext = { now: NOW };
const workerOwn = (minReadySeconds: number) => ({
  machineDeployment: aMachineDeployment({ spec: { minReadySeconds, replicas: 4 } }),
  machineSets: [
    aMachineSet({ metadata: { name: 's-new' }, spec: { replicas: 4 } }),
    aMachineSet({
      metadata: { name: 's-old' },
      spec: { replicas: 1, template: { spec: { version: 'v1.32.1' } } },
    }),
  ],
});
const controlPlaneOwn = { controlPlane: aKubeadmControlPlane() };

/** The plain walks the tally replaces (nodepool's machineProblems and drainProblems before). */
function walkedProblems(machines: readonly MachineView[]): ViewProblem[] {
  const out: ViewProblem[] = [];
  const byCode = new Map<string, MachineView[]>();
  for (const m of machines) {
    if (!m.diagnosis) continue;
    byCode.set(m.diagnosis.code, [...(byCode.get(m.diagnosis.code) ?? []), m]);
  }
  const keys: Record<string, string> = {
    'placement-stall': 'view.problem.placementStall',
    'early-failure': 'view.problem.earlyFailure',
    'waiting-for-ip': 'view.problem.waitingForIp',
    'vm-failed': 'view.problem.vmFailed',
  };
  const listed = (names: string[]) =>
    names.slice(0, 5).join(', ') + (names.length > 5 ? ` (+${String(names.length - 5)})` : '');
  for (const [code, list] of byCode) {
    out.push(
      viewProblem(
        code,
        list.some((m) => m.diagnosis?.severity === 'error') ? 'error' : 'warning',
        keys[code] as 'view.problem.placementStall',
        { count: list.length, machines: listed(list.map((m) => m.name)) },
        list[0]?.diagnosis?.rule,
      ),
    );
  }
  const byBudget = new Map<string, { needs: number; has: number; machines: string[] }>();
  for (const m of machines) {
    for (const b of m.drainBlockedBy ?? []) {
      const e = byBudget.get(b.name);
      if (e) e.machines.push(m.name);
      else byBudget.set(b.name, { needs: b.needs, has: b.has, machines: [m.name] });
    }
  }
  for (const [budget, e] of byBudget) {
    out.push(
      viewProblem('drain-blocked', 'warning', 'view.problem.drainBlocked', {
        budget,
        needs: e.needs,
        has: e.has,
        count: e.machines.length,
        machines: listed(e.machines),
      }),
    );
  }
  return out;
}

function walkedCounts(entries: readonly PoolMachine[], minReadySeconds: number) {
  const views = entries.map((e) => e.view);
  const live = views.filter((v) => !v.deleting);
  const liveFacts = entries.map((e) => e.facts).filter((f) => !f.deleting);
  const bySet = (set: string | undefined) => liveFacts.filter((f) => f.set === set);
  const countsOf = (fs: typeof liveFacts) => ({
    live: fs.length,
    ready: fs.filter((f) => f.ready).length,
    available: fs.filter((f) => factsAvailable(f, minReadySeconds, NOW)).length,
  });
  return {
    status: {
      machines: views.length,
      deleting: views.length - live.length,
      ready: live.filter((v) => v.ready).length,
      failed: live.filter((v) => v.diagnosis?.code === 'vm-failed').length,
      stuck: live.filter((v) => v.diagnosis && v.diagnosis.code !== 'vm-failed').length,
      notReady: live.filter((v) => !v.ready).length,
      notReadyComingUp: live.filter(
        (v) => !v.ready && ['Pending', 'Provisioning', 'Provisioned'].includes(v.phase),
      ).length,
      stuckMachines: views.filter((v) => v.diagnosis && v.diagnosis.code !== 'vm-failed').length,
      failedMachines: views.filter((v) => v.diagnosis?.code === 'vm-failed').length,
    },
    all: countsOf(liveFacts),
    sets: [undefined, '', 's-new', 's-old'].map((s) => countsOf(bySet(s))),
    upToDate: countsOf(entries.filter((e) => e.upToDate && !e.facts.deleting).map((e) => e.facts)),
  };
}

function tallyCounts(t: PoolTally, minReadySeconds: number) {
  const countsOf = (c: LiveCounts | undefined) => ({
    live: c?.live ?? 0,
    ready: c?.ready ?? 0,
    available: c?.available(minReadySeconds, NOW) ?? 0,
  });
  return {
    status: t.statusCounts(),
    all: countsOf(t.rollout.all),
    sets: [undefined, '', 's-new', 's-old'].map((s) => countsOf(t.rollout.ofSet(s))),
    upToDate: countsOf(t.upToDate),
  };
}

/** The current entries, in an order of their own (the cache's indexes differ in order). */
const shuffled = (entries: Map<string, PoolMachine>, seed: number) =>
  [...entries.values()].sort(
    (a, b) =>
      ((a.view.name.charCodeAt(2) * (seed | 1)) % 13) -
      ((b.view.name.charCodeAt(2) * (seed | 1)) % 13),
  );

describe('PoolTally', () => {
  it(`kept incrementally, cards a pool as counting it from scratch and as walking its machines do (seed ${String(SEED)})`, () => {
    fc.assert(
      fc.property(
        fc.array(step, { minLength: 1, maxLength: 40 }),
        fc.constantFrom(0, 30),
        fc.nat(100),
        (steps, minReadySeconds, seed) => {
          const own = workerOwn(minReadySeconds);
          const tally = new PoolTally();
          const current = new Map<string, PoolMachine>();
          for (const s of steps) {
            if ('set' in s) {
              tally.set(s.set);
              current.set(s.set.view.name, s.set);
            } else {
              expect(tally.delete(s.delete)).toBe(current.delete(s.delete));
            }
            const entries = shuffled(current, seed);
            const scratch = buildWorkerPoolFrom(own, entries, ctx);
            expect(workerPoolCard(own, tally, ctx)).toEqual(scratch.pool);
            expect(tally.views()).toEqual(scratch.machines);
            expect(controlPlanePoolCard(controlPlaneOwn, tally, ctx)).toEqual(
              buildControlPlanePoolFrom(controlPlaneOwn, entries, ctx).pool,
            );
            const byName = [...current.values()].sort((a, b) =>
              a.view.name < b.view.name ? -1 : 1,
            );
            expect(tallyCounts(tally, minReadySeconds)).toEqual(
              walkedCounts(byName, minReadySeconds),
            );
            expect(sortProblems([...tally.machineProblems(), ...tally.drainProblems()])).toEqual(
              sortProblems(walkedProblems(byName.map((e) => e.view))),
            );
          }
        },
      ),
      { seed: SEED, numRuns: 300 },
    );
  });

  it("counts one machine's event in and out, whatever the pool's size", () => {
    const one = (name: string, ready: boolean): PoolMachine => ({
      view: { name, deleting: false, ready, phase: 'Running' } as unknown as MachineView,
      facts: { machine, deleting: false, ready, readySince: undefined, set: 's-new' },
      upToDate: true,
    });
    const touchedByAnEvent = (size: number) => {
      const names = Array.from({ length: size }, (_, i) => `m-${String(i).padStart(5, '0')}`);
      const tally = PoolTally.of(names.map((n) => one(n, true)));
      const before = tally.touched;
      tally.set(one(names[size >> 1] ?? '', false));
      workerPoolCard(workerOwn(0), tally, ctx);
      return { touched: tally.touched - before, ready: tally.rollout.all.ready };
    };
    expect(touchedByAnEvent(10)).toEqual({ touched: 2, ready: 9 });
    expect(touchedByAnEvent(5000)).toEqual({ touched: 2, ready: 4999 });
  });
});
