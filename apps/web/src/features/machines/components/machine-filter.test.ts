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
