import { describe, expect, it } from 'vitest';
import { aCoreEvent, aMachine, anAuditRecord, anEventsV1Event } from '../testing';
import { AUDIT_RECORD_ANNOTATION, AUDIT_REPORTING_CONTROLLER } from './record';
import { machinePhaseFact, mergeTimeline, timelineFacets, type MachinePhaseFact } from './timeline';

const provisioning = (name: string, since: string): MachinePhaseFact => ({
  name,
  phase: 'Provisioning',
  since,
});

describe('mergeTimeline (issue 12, audit timeline)', () => {
  it('merges a console record, controller Events of both APIs and machine phases, newest first', () => {
    const entries = mergeTimeline({
      records: [anAuditRecord()],
      events: [aCoreEvent()],
      eventsV1: [anEventsV1Event()],
      machines: [
        provisioning('m5', '2026-01-01T10:02:10Z'),
        {
          ...provisioning('m6', '2026-01-01T10:02:40Z'),
          stuck: { code: 'placement-stall', since: '2026-01-01T10:05:00Z' },
        },
      ],
    });
    expect(entries.map((e) => e.text)).toEqual([
      '1 machine stuck (placement-stall) since 2026-01-01T10:05:00Z: m6',
      'MachineDeployment/demo-md-0 ScalingReplicaSet: Scaled up MachineSet demo-md-0-abc12 to 6',
      '2 machines Provisioning: m5, m6',
      'MachineDeployment/demo-md-0 SuccessfulCreate: Created MachineSet demo-md-0-abc12',
      'alice O-SCALE-UP MachineDeployment demo-md-0 4 → 6: applied',
    ]);
    expect(entries.find((e) => e.kind === 'stuck')?.severity).toBe('warning');
  });

  it('machines in one phase more than a minute apart are separate entries', () => {
    const entries = mergeTimeline({
      records: [],
      machines: [
        provisioning('a', '2026-01-01T10:00:00Z'),
        provisioning('b', '2026-01-01T10:05:00Z'),
      ],
    });
    expect(entries.map((e) => e.machines)).toEqual([['b'], ['a']]);
  });

  it('a deleting machine is shown as Deleting since its deletionTimestamp', () => {
    const m = aMachine({
      metadata: { name: 'gone', deletionTimestamp: '2026-01-01T11:00:00Z' },
      status: { phase: 'Running', lastUpdated: '2026-01-01T09:00:00Z' },
    });
    const [e] = mergeTimeline({ records: [], machines: [machinePhaseFact(m)] });
    expect(e).toMatchObject({ kind: 'deleting', phase: 'Deleting', machines: ['gone'] });
  });

  it('an Event the console wrote for a record shown is not shown twice; one whose record is gone is', () => {
    const announce = (id: string) =>
      anEventsV1Event({
        metadata: { uid: `ev-${id}`, annotations: { [AUDIT_RECORD_ANNOTATION]: id } },
        reportingController: AUDIT_REPORTING_CONTROLLER,
        reason: 'Applied',
      });
    const coreCopy = aCoreEvent({
      metadata: { uid: 'core-r-0001', annotations: { [AUDIT_RECORD_ANNOTATION]: 'r-0001' } },
      reportingComponent: AUDIT_REPORTING_CONTROLLER,
    });
    const entries = mergeTimeline({
      records: [anAuditRecord()],
      events: [coreCopy],
      eventsV1: [announce('r-0001'), announce('dropped')],
    });
    expect(entries.map((e) => e.id)).toEqual(['event:ev-dropped', 'record:r-0001']);
  });

  it('filters by user, operation (id or action) and time range', () => {
    const input = {
      records: [
        anAuditRecord({ id: '1', user: 'alice', time: '2026-01-01T10:00:00Z' }),
        anAuditRecord({
          id: '2',
          user: 'bob',
          operation: 'O-UPGRADE-K8S',
          action: 'nodepool.upgrade',
          time: '2026-01-01T11:00:00Z',
        }),
        anAuditRecord({ id: '3', user: 'alice', time: '2026-01-01T12:00:00Z' }),
      ],
      events: [aCoreEvent({ lastTimestamp: '2026-01-01T11:30:00Z' })],
    };
    const ids = (f: Parameters<typeof mergeTimeline>[1]) =>
      mergeTimeline(input, f).map((e) => e.id);
    expect(ids({ user: 'alice' })).toEqual(['record:3', 'record:1']);
    expect(ids({ operation: 'O-UPGRADE-K8S' })).toEqual(['record:2']);
    expect(ids({ operation: 'nodepool.upgrade' })).toEqual(['record:2']);
    expect(ids({ since: '2026-01-01T10:30:00Z', until: '2026-01-01T11:30:00Z' })).toEqual([
      'event:ev-1',
      'record:2',
    ]);
    expect(ids({ limit: 1 })).toEqual(['record:3']);
    expect(timelineFacets(mergeTimeline(input))).toEqual({
      users: ['alice', 'bob'],
      operations: ['O-SCALE-UP', 'O-UPGRADE-K8S'],
    });
  });

  it('failed, refused and conflicting operations are warnings; previews and applies are not', () => {
    const severities = mergeTimeline({
      records: ['applied', 'dry-run', 'conflict', 'failed', 'Forbidden'].map((result, i) =>
        anAuditRecord({ id: String(i), result, time: `2026-01-01T10:0${String(i)}:00Z` }),
      ),
    }).map((e) => [e.result, e.severity]);
    expect(severities).toEqual([
      ['Forbidden', 'warning'],
      ['failed', 'warning'],
      ['conflict', 'warning'],
      ['dry-run', 'normal'],
      ['applied', 'normal'],
    ]);
  });
});
