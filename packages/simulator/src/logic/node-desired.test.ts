import { describe, expect, it } from 'vitest';
import { aMachine, controlPlaneLabels } from '@dcs/domain/testing';
import type { Machine } from '@dcs/domain';
import { nodeInputsChanged } from './node-desired';

/**
 * The kubelet's predicate: a Machine change wakes the kubelet only when it can change the Node
 * (issue 14: the kubelet reconciled on every Machine write, 8 times per machine).
 */

const info = (m: Machine) => ({ kubeletVersion: m.spec?.version ?? '' });
const changed = (before: Machine, after: Machine) => nodeInputsChanged(before, after, info);
const withCondition = (m: Machine, type: string, status: 'True' | 'False', reason?: string) =>
  ({
    ...m,
    status: {
      ...m.status,
      conditions: [
        ...(m.status?.conditions ?? []).filter((c) => c.type !== type),
        { type, status, lastTransitionTime: '2026-12-01T00:00:05Z', ...(reason ? { reason } : {}) },
      ],
    },
  }) as Machine;
const withoutNode = (m: Machine): Machine => ({
  ...m,
  status: { ...m.status, nodeRef: undefined },
});

describe('nodeInputsChanged (the kubelet predicate)', () => {
  const running = aMachine();

  it('ignores what leaves the Node as it is: other conditions, phase, timestamps, resourceVersion', () => {
    const next: Machine = {
      ...withCondition(running, 'BootstrapReady', 'False', 'Whatever'),
      metadata: { ...running.metadata, resourceVersion: '99' },
    };
    next.status = { ...next.status, phase: 'Provisioned', lastUpdated: '2026-12-01T00:01:00Z' };
    expect(changed(running, next)).toBe(false);
  });

  it('ignores every change of a Machine that has no Node before and after', () => {
    const a = withoutNode(running);
    const b = withCondition(
      { ...a, spec: { ...a.spec, providerID: 'dcs://other' } } as Machine,
      'NodeHealthy',
      'False',
      'WaitingForNodeRef',
    );
    expect(changed(a, b)).toBe(false);
  });

  it('wakes on the nodeRef being set or renamed', () => {
    expect(changed(withoutNode(running), running)).toBe(true);
    const renamed = {
      ...running,
      status: { ...running.status, nodeRef: { apiVersion: 'v1', kind: 'Node', name: 'other' } },
    } as Machine;
    expect(changed(running, renamed)).toBe(true);
  });

  it('wakes on readiness: NodeHealthy turning True or False (the Node Ready condition and the not-ready taint)', () => {
    const notReady = withCondition(running, 'NodeHealthy', 'False', 'NodeConditionsFailed');
    expect(changed(notReady, running)).toBe(true);
    expect(changed(running, notReady)).toBe(true);
  });

  it('wakes on deletion and on the drain starting (cordon)', () => {
    const deleting: Machine = {
      ...running,
      metadata: { ...running.metadata, deletionTimestamp: '2026-12-01T00:02:00Z' },
    };
    expect(changed(running, deleting)).toBe(true);
    const draining: Machine = {
      ...deleting,
      status: { ...deleting.status, deletion: { nodeDrainStartTime: '2026-12-01T00:02:01Z' } },
    };
    expect(changed(deleting, draining)).toBe(true);
  });

  it('wakes on what the Node carries from the Machine: version (NodeSystemInfo), addresses, providerID, control-plane label, cluster', () => {
    const variants: Machine[] = [
      { ...running, spec: { ...running.spec, version: 'v1.34.1' } } as Machine,
      {
        ...running,
        status: { ...running.status, addresses: [{ type: 'InternalIP', address: '10.0.1.12' }] },
      },
      { ...running, spec: { ...running.spec, providerID: 'dcs://moved' } } as Machine,
      {
        ...running,
        metadata: {
          ...running.metadata,
          labels: { ...running.metadata.labels, ...controlPlaneLabels() },
        },
      },
      { ...running, spec: { ...running.spec, clusterName: 'other' } } as Machine,
    ];
    for (const v of variants) expect(changed(running, v)).toBe(true);
  });
});
