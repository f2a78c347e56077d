import { describe, expect, it } from 'vitest';
import { Timeline, changedStamps, conditionPath } from './timeline';

const WALL = Date.UTC(2026, 5, 1, 12, 0, 10, 500);
/** A clock at time scale 60 that started at WALL - 10.5 s, simulated time = wall time then. */
const simAt = (wall: number) => WALL - 10_500 + (wall - (WALL - 10_500)) * 60;

describe('timeline', () => {
  it('a stamp this process wrote is read back at the simulated instant it was written', () => {
    const t = new Timeline(simAt, () => WALL);
    t.record('u1', conditionPath('Ready'), '2026-06-01T12:00:10Z', 123_456);
    const obj = {
      metadata: { uid: 'u1' },
      status: {
        conditions: [
          { type: 'Ready', status: 'True' as const, lastTransitionTime: '2026-06-01T12:00:10Z' },
        ],
      },
    };
    expect(t.since(obj, 'Ready')).toBe(123_456);
  });

  it('a stamp written elsewhere stands for the latest instant of its second that has passed', () => {
    const t = new Timeline(simAt, () => WALL);
    // Written in the current second: at most now.
    expect(t.at('u2', 'deletion/x', '2026-06-01T12:00:10Z')).toBe(simAt(WALL));
    // An earlier second: its last millisecond.
    expect(t.at('u2', 'deletion/x', '2026-06-01T12:00:05Z')).toBe(
      simAt(Date.UTC(2026, 5, 1, 12, 0, 5, 999)),
    );
    expect(t.at('u2', 'deletion/x', undefined)).toBeUndefined();
  });

  it('a status write changes the stamps of the conditions that moved and of the deletion fields', () => {
    const before = {
      conditions: [
        { type: 'A', status: 'True', lastTransitionTime: 't0' },
        { type: 'B', status: 'False', lastTransitionTime: 't0' },
      ],
    };
    const after = {
      conditions: [
        { type: 'A', status: 'True', lastTransitionTime: 't0' },
        { type: 'B', status: 'True', lastTransitionTime: 't1' },
        { type: 'C', status: 'True', lastTransitionTime: 't1' },
      ],
      deletion: { nodeDrainStartTime: 't1' },
    };
    expect(changedStamps(before, after)).toEqual([
      ['conditions/B', 't1'],
      ['conditions/C', 't1'],
      ['deletion/nodeDrainStartTime', 't1'],
    ]);
  });

  it('writing the same stamp again keeps the first instant', () => {
    const t = new Timeline(simAt, () => WALL);
    t.record('u', 'p', 's', 1);
    t.record('u', 'p', 's', 2);
    expect(t.at('u', 'p', 's')).toBe(1);
    t.record('u', 'p', 's2', 3);
    expect(t.at('u', 'p', 's2')).toBe(3);
  });
});
