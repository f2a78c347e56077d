import { conditionView, type MachineNode } from '@dcs/domain';
import { describe, expect, it } from 'vitest';
import { aMachineView } from '../../../test/fixtures';
import { emptyFilter, filterMachines, guardSelection } from './machine-filter';

describe('Nodes tab filter', () => {
  const ms = [
    aMachineView('a-1'),
    aMachineView('b-1', { poolId: 'b' }),
    aMachineView('a-2', { phase: 'Provisioning' }),
  ];
  it('keeps everything without a filter, the same array', () => {
    expect(filterMachines(ms, emptyFilter)).toBe(ms);
  });
  it("filters by MachineSet: a rollout's set links to its machines", () => {
    const sets = [
      { ...aMachineView('a-1'), machineSet: 'demo-md-0-old' },
      { ...aMachineView('a-2'), machineSet: 'demo-md-0-new' },
    ];
    expect(
      filterMachines(sets, { ...emptyFilter, machineSet: 'demo-md-0-new' }).map((m) => m.name),
    ).toEqual(['a-2']);
  });
  it('counts a problem of the VM on DCS (DCSMachine condition) as a problem', () => {
    const vm = {
      ...aMachineView('a-1'),
      infrastructureConditions: [
        conditionView({ type: 'VMProvisioned', status: 'False', severity: 'Error' }),
      ],
    };
    expect(
      filterMachines([vm, aMachineView('a-2')], { ...emptyFilter, problemsOnly: true }),
    ).toEqual([vm]);
  });
  it('counts a problem of the machine’s Node (NotReady) as a problem, through the row’s join (issue 12)', () => {
    const a = aMachineView('a-1');
    const b = aMachineView('a-2');
    const notReady: MachineNode = {
      state: 'NotReady',
      node: { name: 'a-1', state: 'NotReady', ready: 'False', unschedulable: false },
    };
    const ready: MachineNode = {
      state: 'Ready',
      node: { name: 'a-2', state: 'Ready', ready: 'True', unschedulable: false },
    };
    const nodeOf = (m: { name: string }) => (m.name === 'a-1' ? notReady : ready);
    const problemsOnly = { ...emptyFilter, problemsOnly: true };
    expect(filterMachines([a, b], problemsOnly, nodeOf)).toEqual([a]);
    // Without the Nodes (a viewer, still listing) only the machine's own problems count.
    expect(filterMachines([a, b], problemsOnly)).toEqual([]);
  });
  it('filters by the fields of issue 26 (phases, condition), with pool and text', () => {
    const failed = {
      ...aMachineView('b-2', { poolId: 'b', phase: 'Failed' }),
      conditions: [conditionView({ type: 'Ready', status: 'False', severity: 'Error' })],
    };
    const all = [...ms, failed];
    const keep = (f: Partial<typeof emptyFilter>) =>
      filterMachines(all, { ...emptyFilter, ...f }).map((m) => m.name);
    expect(keep({ phases: ['Failed', 'Provisioning'] })).toEqual(['a-2', 'b-2']);
    expect(keep({ phases: ['Failed', 'Provisioning'], pool: 'b' })).toEqual(['b-2']);
    expect(keep({ condition: 'Ready' })).toEqual(['b-2']);
    expect(keep({ name: 'A-', phases: ['Running'] })).toEqual(['a-1']);
    expect(keep({ text: 'b-', condition: 'Ready' })).toEqual(['b-2']);
  });
  it('filters by pool and text', () => {
    expect(filterMachines(ms, { ...emptyFilter, pool: 'b' }).map((m) => m.name)).toEqual(['b-1']);
    expect(filterMachines(ms, { ...emptyFilter, text: 'provisioning' }).map((m) => m.name)).toEqual(
      ['a-2'],
    );
  });
});

describe('O-SCALE-DOWN-TARGETED selection guards (R-MD-6)', () => {
  it('accepts machines of one worker pool', () => {
    const g = guardSelection([aMachineView('a-1'), aMachineView('a-2')]);
    expect(g.blocked).toBeUndefined();
    expect(g.poolId).toBe('demo-md-0');
  });
  it('refuses machines of several pools', () => {
    expect(
      guardSelection([aMachineView('a-1'), aMachineView('b-1', { poolId: 'b' })]).blocked,
    ).toBe('severalPools');
  });
  it('refuses control-plane machines', () => {
    expect(guardSelection([aMachineView('cp-1', { poolId: 'control-plane' })]).blocked).toBe(
      'controlPlane',
    );
  });
});
