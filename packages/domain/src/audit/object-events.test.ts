import { describe, expect, it } from 'vitest';
import { aCoreEvent, anEventsV1Event } from '../testing';
import { objectEvents } from './object-events';

/** Issue 26, item 7: the Events of one object's page. */
describe('objectEvents', () => {
  const drain = aCoreEvent({
    metadata: { name: 'm1.1', uid: 'ev-drain' },
    involvedObject: { kind: 'Machine', name: 'm1' },
    type: 'Warning',
    reason: 'FailedDrain',
    message: 'Cannot evict pod as it would violate the pod’s disruption budget',
    count: 3,
    lastTimestamp: '2026-01-01T10:05:00Z',
  });
  const nodeRef = aCoreEvent({
    metadata: { name: 'm1.2', uid: 'ev-noderef' },
    involvedObject: { kind: 'Machine', name: 'm1' },
    reason: 'SuccessfulSetNodeRef',
    message: 'worker-1',
    lastTimestamp: '2026-01-01T10:01:00Z',
  });
  // The same Event as events.k8s.io/v1 lists it (one store on a real API server).
  const nodeRefV1 = anEventsV1Event({
    metadata: { name: 'm1.2', uid: 'ev-noderef' },
    regarding: { kind: 'Machine', name: 'm1' },
    reason: 'SuccessfulSetNodeRef',
    note: 'worker-1',
    eventTime: '2026-01-01T10:01:00.000000Z',
  });
  const created = anEventsV1Event({
    metadata: { name: 'm1.3', uid: 'ev-v1-only' },
    regarding: { kind: 'Machine', name: 'm1' },
    reason: 'MachineCreated',
    note: 'created',
    eventTime: '2026-01-01T10:00:00.000000Z',
  });
  const input = { events: [nodeRef, drain], eventsV1: [nodeRefV1, created] };

  it('merges both Event APIs, one entry per Event, newest first, with the facets of all', () => {
    const view = objectEvents(input);
    expect(view.entries.map((e) => e.reason)).toEqual([
      'FailedDrain',
      'SuccessfulSetNodeRef',
      'MachineCreated',
    ]);
    expect(view.entries[0]).toMatchObject({ severity: 'warning', count: 3 });
    expect(view.facets).toEqual({
      types: { Normal: 2, Warning: 1 },
      reasons: ['FailedDrain', 'MachineCreated', 'SuccessfulSetNodeRef'],
    });
    expect(view.matching).toBe(3);
  });

  it('filters by type and by reason; the facets stay those of every Event', () => {
    const warnings = objectEvents(input, { type: 'Warning' });
    expect(warnings.entries.map((e) => e.reason)).toEqual(['FailedDrain']);
    expect(warnings.facets.types).toEqual({ Normal: 2, Warning: 1 });
    const normal = objectEvents(input, { type: 'Normal', reason: 'MachineCreated' });
    expect(normal.entries.map((e) => e.reason)).toEqual(['MachineCreated']);
    expect(objectEvents(input, { type: 'Warning', reason: 'MachineCreated' }).entries).toEqual([]);
  });

  it('keeps the newest `limit`, and says how many matched', () => {
    const view = objectEvents(input, { limit: 1 });
    expect(view.entries.map((e) => e.reason)).toEqual(['FailedDrain']);
    expect(view.matching).toBe(3);
  });
});
