import { describe, expect, it } from 'vitest';
import { LABEL_DEPLOYMENT_NAME } from '../labels';
import { aMachine } from '../testing';
import { machineView, type MachineView } from './machine';
import { scaleUpProgress, type ScaleUpStart } from './scale-follow';

const NOW = new Date('2026-01-01T01:00:00Z');
const APPLIED = Date.parse('2026-01-01T00:50:00Z');
const AFTER = '2026-01-01T00:50:05Z';

const view = (
  name: string,
  o: { phase?: string; deleting?: boolean; created?: string; pool?: string } = {},
): MachineView =>
  machineView(
    aMachine({
      metadata: {
        name,
        creationTimestamp: o.created ?? AFTER,
        labels: { [LABEL_DEPLOYMENT_NAME]: o.pool ?? 'demo-md-0' },
        ...(o.deleting ? { deletionTimestamp: '2026-01-01T00:59:00Z' } : {}),
      },
      ...(o.phase ? { status: { phase: o.phase } } : {}),
    }),
    undefined,
    NOW,
  );

const start = (expected: number): ScaleUpStart => ({
  poolId: 'demo-md-0',
  before: ['md-0-a', 'md-0-b'],
  appliedAt: APPLIED,
  expected,
});

describe('scaleUpProgress', () => {
  it('O-SCALE-UP: counts only the machines that were not there before, until each is ready', () => {
    const p = scaleUpProgress(start(2), [
      view('md-0-a'),
      view('md-0-b'),
      view('md-0-d', { phase: 'Provisioning' }),
      view('md-0-c'),
    ]);
    expect(p.machines.map((m) => m.name)).toEqual(['md-0-c', 'md-0-d']);
    expect(p.ready).toBe(1);
    expect(p.done).toBe(false);
  });

  it('O-SCALE-UP: is done once every machine asked for is ready', () => {
    const p = scaleUpProgress(start(2), [view('md-0-a'), view('md-0-c'), view('md-0-d')]);
    expect(p).toMatchObject({ ready: 2, expected: 2, done: true });
  });

  it('O-SCALE-UP: leaves out machines being deleted, and waits while none has appeared', () => {
    expect(scaleUpProgress(start(1), [view('md-0-c', { deleting: true })])).toMatchObject({
      machines: [],
      ready: 0,
      done: false,
    });
  });

  it('O-SCALE-UP: waits, counting nothing, while the pool’s machines are not loaded', () => {
    expect(scaleUpProgress(start(1), undefined)).toEqual({
      machines: [],
      ready: 0,
      expected: 1,
      done: false,
    });
  });

  it('O-SCALE-UP: a new machine carries the pool’s deployment-name label', () => {
    const p = scaleUpProgress(start(1), [view('other-x', { pool: 'demo-md-1' })]);
    expect(p.machines).toEqual([]);
  });

  it('O-SCALE-UP: a new machine was created after the apply, within the clock slack', () => {
    const machines = [
      view('md-0-old', { created: '2026-01-01T00:40:00Z' }),
      view('md-0-skew', { created: '2026-01-01T00:49:30Z' }),
      view('md-0-new'),
    ];
    expect(scaleUpProgress(start(2), machines).machines.map((m) => m.name)).toEqual([
      'md-0-new',
      'md-0-skew',
    ]);
    expect(scaleUpProgress(start(2), machines, 0).machines.map((m) => m.name)).toEqual([
      'md-0-new',
    ]);
  });
});
