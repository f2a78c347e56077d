import { describe, expect, it } from 'vitest';
import { aCoreEvent, aMachine, anAuditRecord, anEventsV1Event } from '../testing';
import { AUDIT_RECORD_ANNOTATION, AUDIT_REPORTING_CONTROLLER } from './record';
import {
  machinePhaseFact,
  machineTransitions,
  mergeTimeline,
  nodeRefTimes,
  timelineFacets,
  TIMELINE_GROUP_NAMES_MAX,
  type MachinePhaseFact,
} from './timeline';

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

  it('an Event read through both APIs (a real API server serves one Event as core/v1 and events.k8s.io/v1, same uid) is one entry', () => {
    const core = aCoreEvent({
      metadata: { name: 'demo-md-0.9', uid: 'ev-9' },
      reason: 'ScalingReplicaSet',
      message: 'Scaled up MachineSet demo-md-0-abc12 to 6',
      lastTimestamp: '2026-01-01T10:03:00Z',
    });
    const v1 = anEventsV1Event({ metadata: { name: 'demo-md-0.9', uid: 'ev-9' } });
    const entries = mergeTimeline({ records: [], events: [core], eventsV1: [v1] });
    expect(entries.map((e) => e.text)).toEqual([
      'MachineDeployment/demo-md-0 ScalingReplicaSet: Scaled up MachineSet demo-md-0-abc12 to 6',
    ]);
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

/** A machine of the scale at 10:00: created, bootstrap data at :05, VM at 10:02, node at 10:04. */
const lifecycle = (name: string, o: Parameters<typeof aMachine>[0] = {}) =>
  aMachine({
    ...o,
    metadata: { name, creationTimestamp: '2026-01-01T10:00:00Z', ...o.metadata },
    status: {
      phase: 'Running',
      lastUpdated: '2026-01-01T10:04:00Z',
      conditions: [
        { type: 'Ready', status: 'True', lastTransitionTime: '2026-01-01T10:04:30Z' },
        { type: 'BootstrapReady', status: 'True', lastTransitionTime: '2026-01-01T10:00:05Z' },
        { type: 'InfrastructureReady', status: 'True', lastTransitionTime: '2026-01-01T10:02:00Z' },
        { type: 'NodeHealthy', status: 'True', lastTransitionTime: '2026-01-01T10:04:30Z' },
      ],
      ...o.status,
    },
  });

/** A machine still waiting: no provider ID, no nodeRef. */
const unprovisioned = (name: string, status: Parameters<typeof aMachine>[0] = {}) => {
  const m = aMachine({
    metadata: { name, creationTimestamp: '2026-01-01T10:00:00Z' },
    spec: { providerID: '' },
    status: { infrastructureReady: false, conditions: [], ...status.status },
  });
  delete m.status?.nodeRef;
  return m;
};

const clock = (ts: readonly { phase: string; time: string }[]) =>
  ts.map((t) => `${t.phase}@${t.time.slice(11, 19)}`);

describe('machineTransitions (issue 12: machine phase transitions from what the cluster keeps)', () => {
  it('a Running machine: Pending at creation, Provisioning and Provisioned from its conditions, Running at lastUpdated', () => {
    expect(clock(machineTransitions(lifecycle('m1')))).toEqual([
      'Pending@10:00:00',
      'Provisioning@10:00:05',
      'Provisioned@10:02:00',
      'Running@10:04:00',
    ]);
  });

  it('a deleting machine: Running from the SuccessfulSetNodeRef Event, else from NodeHealthy turning True; Deleting at its deletionTimestamp', () => {
    const m = lifecycle('m1', {
      metadata: { deletionTimestamp: '2026-01-01T11:00:00Z' },
      status: { phase: 'Deleting', lastUpdated: '2026-01-01T11:00:01Z' },
    });
    const event = aCoreEvent({
      metadata: { uid: 'ev-noderef' },
      involvedObject: { kind: 'Machine', name: 'm1' },
      reason: 'SuccessfulSetNodeRef',
      message: 'm1',
      firstTimestamp: '2026-01-01T10:03:50Z',
      lastTimestamp: '2026-01-01T10:03:50Z',
    });
    const at = nodeRefTimes([event]).get('m1');
    expect(at).toBe('2026-01-01T10:03:50Z');
    expect(clock(machineTransitions(m, at).slice(3))).toEqual([
      'Running@10:03:50',
      'Deleting@11:00:00',
    ]);
    // The Event expired (an hour by default): the node's health is the first later record.
    expect(clock(machineTransitions(m).slice(3, 4))).toEqual(['Running@10:04:30']);
  });

  it('nodeRefTimes reads both Event APIs, Machines only, and keeps the first setting of each', () => {
    const v1 = (name: string, eventTime: string) =>
      anEventsV1Event({
        metadata: { uid: `v1-${name}-${eventTime}` },
        regarding: { kind: 'Machine', name },
        reason: 'SuccessfulSetNodeRef',
        eventTime,
      });
    const times = nodeRefTimes(
      [
        aCoreEvent({
          involvedObject: { kind: 'DCSMachine', name: 'x' },
          reason: 'SuccessfulSetNodeRef',
        }),
      ],
      [v1('a', '2026-01-01T10:05:00Z'), v1('a', '2026-01-01T10:04:00Z'), v1('b', 'not a time')],
    );
    expect([...times]).toEqual([['a', '2026-01-01T10:04:00Z']]);
  });

  it('reads the Cluster API v1beta2 conditions (BootstrapConfigReady, NodeReady) when the v1beta1 ones are absent', () => {
    const m = lifecycle('m2', {
      metadata: { deletionTimestamp: '2026-01-01T11:00:00Z' },
      status: {
        phase: 'Deleting',
        conditions: [],
        v1beta2: {
          conditions: [
            {
              type: 'BootstrapConfigReady',
              status: 'True',
              lastTransitionTime: '2026-01-01T10:00:07Z',
            },
            {
              type: 'InfrastructureReady',
              status: 'True',
              lastTransitionTime: '2026-01-01T10:02:07Z',
            },
            { type: 'NodeReady', status: 'True', lastTransitionTime: '2026-01-01T10:04:07Z' },
          ],
        },
      },
    });
    expect(clock(machineTransitions(m))).toEqual([
      'Pending@10:00:00',
      'Provisioning@10:00:07',
      'Provisioned@10:02:07',
      'Running@10:04:07',
      'Deleting@11:00:00',
    ]);
  });

  it('a phase skipped in one reconcile (bootstrap and VM ready together) is left out', () => {
    const together = lifecycle('m3', {
      status: {
        conditions: [
          { type: 'BootstrapReady', status: 'True', lastTransitionTime: '2026-01-01T10:02:00Z' },
          {
            type: 'InfrastructureReady',
            status: 'True',
            lastTransitionTime: '2026-01-01T10:02:00Z',
          },
        ],
      },
    });
    expect(machineTransitions(together).map((t) => t.phase)).toEqual([
      'Pending',
      'Provisioned',
      'Running',
    ]);
  });

  it('a new machine waiting for its bootstrap data is Pending only; one waiting for its VM is Provisioning since lastUpdated', () => {
    const pending = unprovisioned('p', {
      status: {
        phase: 'Pending',
        conditions: [
          { type: 'BootstrapReady', status: 'False', lastTransitionTime: '2026-01-01T10:00:00Z' },
        ],
      },
    });
    pending.status = { ...pending.status, bootstrapReady: false };
    expect(clock(machineTransitions(pending))).toEqual(['Pending@10:00:00']);
    const waiting = unprovisioned('w', {
      status: { phase: 'Provisioning', bootstrapReady: true, lastUpdated: '2026-01-01T10:00:09Z' },
    });
    expect(clock(machineTransitions(waiting))).toEqual([
      'Pending@10:00:00',
      'Provisioning@10:00:09',
    ]);
  });

  it('a Failed machine shows Failed at lastUpdated after the phases it reached', () => {
    const failed = lifecycle('f', {
      status: {
        phase: 'Failed',
        lastUpdated: '2026-01-01T10:06:00Z',
        failureReason: 'CreateError',
      },
    });
    expect(machineTransitions(failed).map((t) => t.phase)).toEqual([
      'Pending',
      'Provisioning',
      'Provisioned',
      'Running',
      'Failed',
    ]);
  });
});

describe('machine transitions on the timeline (issue 12)', () => {
  it('"2 machines Provisioning at 10:02; 1 Running at 10:04; 1 stuck at VM placement since 10:05", from the Machines alone', () => {
    const running = lifecycle('a', {
      status: {
        conditions: [
          { type: 'BootstrapReady', status: 'True', lastTransitionTime: '2026-01-01T10:02:00Z' },
          {
            type: 'InfrastructureReady',
            status: 'True',
            lastTransitionTime: '2026-01-01T10:03:00Z',
          },
        ],
      },
    });
    const stuck = unprovisioned('b', {
      status: {
        phase: 'Provisioning',
        bootstrapReady: true,
        lastUpdated: '2026-01-01T10:02:20Z',
        conditions: [
          { type: 'BootstrapReady', status: 'True', lastTransitionTime: '2026-01-01T10:02:20Z' },
        ],
      },
    });
    const entries = mergeTimeline({
      records: [],
      machines: [
        machinePhaseFact(running),
        {
          ...machinePhaseFact(stuck),
          stuck: { code: 'placement-stall', since: '2026-01-01T10:05:00Z' },
        },
      ],
    });
    expect(entries.map((e) => e.text)).toEqual([
      '1 machine stuck (placement-stall) since 2026-01-01T10:05:00Z: b',
      '1 machine Running: a',
      '1 machine Provisioned: a',
      '2 machines Provisioning: a, b',
      '2 machines Pending: a, b',
    ]);
    expect(entries[3]).toMatchObject({ kind: 'phase', phase: 'Provisioning', count: 2 });
  });

  it('a 200-machine scale is a handful of entries, each naming at most TIMELINE_GROUP_NAMES_MAX machines', () => {
    const machines = Array.from({ length: 200 }, (_, i) =>
      machinePhaseFact(
        lifecycle(`m${String(i).padStart(3, '0')}`, {
          // Running spread over 10:04:00–10:04:59: one minute, one entry.
          status: { lastUpdated: `2026-01-01T10:04:${String(i % 60).padStart(2, '0')}Z` },
        }),
      ),
    );
    const entries = mergeTimeline({ records: [], machines });
    expect(entries.map((e) => [e.phase, e.count])).toEqual([
      ['Running', 200],
      ['Provisioned', 200],
      ['Provisioning', 200],
      ['Pending', 200],
    ]);
    const first = entries[0];
    expect(first?.machines).toHaveLength(TIMELINE_GROUP_NAMES_MAX);
    expect(first?.text).toMatch(/^200 machines Running: m000, .* \(\+180 more\)$/);
  });

  it('a steady trickle is one entry per minute, not one endless group (anchored at the first time of the group)', () => {
    const facts: MachinePhaseFact[] = Array.from({ length: 10 }, (_, i) => ({
      name: `t${String(i)}`,
      phase: 'Running',
      transitions: [
        {
          phase: 'Running',
          time: new Date(Date.parse('2026-01-01T10:00:00Z') + i * 40_000).toISOString(),
        },
      ],
    }));
    const entries = mergeTimeline({ records: [], machines: facts });
    // 40 s apart over 6 minutes: groups of two (0 s and 40 s within a minute, 80 s not).
    expect(entries.map((e) => e.count)).toEqual([2, 2, 2, 2, 2]);
  });
});
