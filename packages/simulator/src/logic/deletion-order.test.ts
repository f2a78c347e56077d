import { describe, expect, it } from 'vitest';
import { aMachine } from '@dcs/domain/testing';
import { ANNOTATION_DELETE_MACHINE, type Machine } from '@dcs/domain';
import { isMachineHealthy, machinesToDelete } from './deletion-order';

const now = Date.parse('2026-01-11T00:00:00Z');
const m = (
  name: string,
  created: string,
  o: Partial<{
    deleting: boolean;
    annotated: boolean;
    unhealthy: 'noNode' | 'failed' | 'nodeFalse';
  }> = {},
): Machine => {
  const base = aMachine({ metadata: { name, creationTimestamp: created } });
  if (o.deleting) base.metadata.deletionTimestamp = '2026-01-10T00:00:00Z';
  if (o.annotated) base.metadata.annotations = { [ANNOTATION_DELETE_MACHINE]: 'true' };
  if (base.status && o.unhealthy === 'noNode') delete base.status.nodeRef;
  if (base.status && o.unhealthy === 'failed') base.status.failureReason = 'CreateError';
  if (base.status && o.unhealthy === 'nodeFalse') {
    base.status.conditions = [
      { type: 'NodeHealthy', status: 'False', severity: 'Warning', reason: 'NodeConditionsFailed' },
    ];
  }
  return base;
};
const names = (ms: Machine[]) => ms.map((x) => x.metadata.name);

describe('MachineSet deletion order (Cluster API delete priorities)', () => {
  const fleet = [
    m('e-old', '2026-01-01T00:00:00Z'),
    m('d-new', '2026-01-09T00:00:00Z'),
    m('c-mid', '2026-01-05T00:00:00Z'),
    m('b-unhealthy', '2026-01-05T00:00:00Z', { unhealthy: 'noNode' }),
    m('a-annotated', '2026-01-05T00:00:00Z', { annotated: true }),
    m('z-deleting', '2026-01-05T00:00:00Z', { deleting: true }),
  ];

  it('deleting first, then delete-machine annotated (O-SCALE-DOWN-TARGETED), then unhealthy', () => {
    expect(names(machinesToDelete(fleet, 3, 'Random', now))).toEqual([
      'z-deleting',
      'a-annotated',
      'b-unhealthy',
    ]);
  });

  it('Random breaks ties by name (deterministic, as in Cluster API)', () => {
    expect(names(machinesToDelete(fleet, 5, 'Random', now)).slice(3)).toEqual(['c-mid', 'd-new']);
  });

  it('Oldest deletes the oldest healthy machines next', () => {
    expect(names(machinesToDelete(fleet, 5, 'Oldest', now)).slice(3)).toEqual(['e-old', 'c-mid']);
  });

  it('Newest deletes the newest healthy machines next', () => {
    expect(names(machinesToDelete(fleet, 5, 'Newest', now)).slice(3)).toEqual(['d-new', 'c-mid']);
  });

  it('R-MD-6: annotating more machines than the scale-down leaves the rest alive, by name', () => {
    const annotated = [
      m('x', '2026-01-01T00:00:00Z', { annotated: true }),
      m('w', '2026-01-01T00:00:00Z', { annotated: true }),
      m('v', '2026-01-01T00:00:00Z'),
    ];
    expect(names(machinesToDelete(annotated, 1, 'Random', now))).toEqual(['w']);
  });

  it('takes all machines when asked for as many, none when asked for none', () => {
    expect(machinesToDelete(fleet, 6, 'Random', now)).toHaveLength(6);
    expect(machinesToDelete(fleet, 0, 'Random', now)).toEqual([]);
  });

  it.each(['noNode', 'failed', 'nodeFalse'] as const)('a machine with %s is unhealthy', (how) => {
    expect(isMachineHealthy(m('x', '2026-01-01T00:00:00Z', { unhealthy: how }))).toBe(false);
  });
});
