import type { AuditRecord } from '../audit/record';
import type { EventsV1Event } from '../audit/timeline';
import type { KubeEvent } from '../schemas/core';
import { deepMerge, type DeepPartial } from './builders';

/** Builders of the audit timeline's inputs (issue 12): console records and both kinds of Event. */

export function anAuditRecord(o?: DeepPartial<AuditRecord>): AuditRecord {
  return deepMerge<AuditRecord>(
    {
      id: 'r-0001',
      time: '2026-01-01T10:02:00.000Z',
      user: 'alice',
      action: 'nodepool.scale',
      operation: 'O-SCALE-UP',
      namespace: 'cpaas-system',
      cluster: 'demo',
      pool: 'demo-md-0',
      target: { kind: 'MachineDeployment', name: 'demo-md-0' },
      objects: ['patch MachineDeployment/demo-md-0'],
      diff: [
        {
          object: 'MachineDeployment/demo-md-0',
          path: '/spec/replicas',
          change: 'replace',
          before: '4',
          after: '6',
        },
      ],
      replicas: { from: 4, to: 6 },
      dryRun: false,
      result: 'applied',
    },
    o,
  );
}

export function aCoreEvent(o?: DeepPartial<KubeEvent>): KubeEvent {
  return deepMerge<KubeEvent>(
    {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: 'demo-md-0.1', namespace: 'cpaas-system', uid: 'ev-1' },
      involvedObject: { kind: 'MachineDeployment', name: 'demo-md-0', namespace: 'cpaas-system' },
      reason: 'SuccessfulCreate',
      message: 'Created MachineSet demo-md-0-abc12',
      type: 'Normal',
      count: 1,
      lastTimestamp: '2026-01-01T10:02:05Z',
    },
    o,
  );
}

export function anEventsV1Event(o?: DeepPartial<EventsV1Event>): EventsV1Event {
  return deepMerge<EventsV1Event>(
    {
      apiVersion: 'events.k8s.io/v1',
      kind: 'Event',
      metadata: { name: 'demo-md-0.2', namespace: 'cpaas-system', uid: 'ev-2' },
      eventTime: '2026-01-01T10:03:00.000000Z',
      regarding: { kind: 'MachineDeployment', name: 'demo-md-0', namespace: 'cpaas-system' },
      reason: 'ScalingReplicaSet',
      note: 'Scaled up MachineSet demo-md-0-abc12 to 6',
      type: 'Normal',
      action: 'Scale',
      reportingController: 'cluster.x-k8s.io/machinedeployment-controller',
      reportingInstance: 'capi-controller-manager-0',
    },
    o,
  );
}
