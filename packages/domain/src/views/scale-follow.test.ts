import { describe, expect, it } from 'vitest';
import { aMachine } from '../testing';
import { machineView, type MachineView } from './machine';
import { scaleUpProgress } from './scale-follow';

const NOW = new Date('2026-01-01T01:00:00Z');
const view = (name: string, phase?: string, deleting = false): MachineView =>
  machineView(
    aMachine({
      metadata: { name, ...(deleting ? { deletionTimestamp: '2026-01-01T00:59:00Z' } : {}) },
      ...(phase ? { status: { phase } } : {}),
    }),
    undefined,
    NOW,
  );

describe('scaleUpProgress', () => {
  const before = ['md-0-a', 'md-0-b'];

  it('O-SCALE-UP: counts only the machines that were not there before, until each is ready', () => {
    const p = scaleUpProgress(
      before,
      [view('md-0-a'), view('md-0-b'), view('md-0-d', 'Provisioning'), view('md-0-c')],
      2,
    );
    expect(p.machines.map((m) => m.name)).toEqual(['md-0-c', 'md-0-d']);
    expect(p.ready).toBe(1);
    expect(p.done).toBe(false);
  });

  it('O-SCALE-UP: is done once every machine asked for is ready', () => {
    const p = scaleUpProgress(before, [view('md-0-a'), view('md-0-c'), view('md-0-d')], 2);
    expect(p).toMatchObject({ ready: 2, expected: 2, done: true });
  });

  it('O-SCALE-UP: leaves out machines being deleted, and waits while none has appeared', () => {
    expect(scaleUpProgress(before, [view('md-0-c', 'Running', true)], 1)).toMatchObject({
      machines: [],
      ready: 0,
      done: false,
    });
  });
});
