import { describe, expect, it } from 'vitest';
import type { Machine, MachineHealthCheck, Node } from '@dcs/domain';
import { targetHealth, type TargetInput } from './health-check';

// Upstream's healthCheckTargets (machinehealthcheck_targets.go, v1.14.0) sorts each target into
// one of three lists; only the healthy one is counted in status.currentHealthy.

const T0 = Date.parse('2026-01-01T00:00:00Z');
const iso = (simMs: number) => new Date(T0 + simMs).toISOString();

const mhc: MachineHealthCheck = {
  apiVersion: 'cluster.x-k8s.io/v1beta1',
  kind: 'MachineHealthCheck',
  metadata: { name: 'p-mhc', namespace: 'default' },
  spec: {
    clusterName: 'c',
    selector: {},
    nodeStartupTimeout: '10m',
    unhealthyConditions: [
      { type: 'Ready', status: 'False', timeout: '60s' },
      { type: 'Ready', status: 'Unknown', timeout: '60s' },
    ],
  },
};

const machine = (nodeName?: string): Machine => ({
  apiVersion: 'cluster.x-k8s.io/v1beta1',
  kind: 'Machine',
  metadata: { name: 'm', namespace: 'default', creationTimestamp: iso(0) },
  spec: { clusterName: 'c', bootstrap: {}, infrastructureRef: {} },
  ...(nodeName ? { status: { nodeRef: { kind: 'Node', name: nodeName } } } : {}),
});

const node = (ready: 'True' | 'False' | 'Unknown', since: number): Node => ({
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name: 'n' },
  status: { conditions: [{ type: 'Ready', status: ready, lastTransitionTime: iso(since) }] },
});

const judge = (over: Partial<TargetInput>) =>
  targetHealth({
    machine: machine('n'),
    node: node('True', 0),
    mhc,
    now: 100_000,
    simAt: (s) => Date.parse(s) - T0,
    startupFrom: 0,
    ...over,
  });

describe('targetHealth: upstream’s three lists', () => {
  it('a Node that is Ready is healthy', () => {
    expect(judge({})).toEqual({ verdict: 'healthy' });
  });

  it('a Node NotReady for less than the timeout is pending, not healthy: looked at again when it runs out', () => {
    expect(judge({ node: node('False', 90_000) })).toEqual({
      verdict: 'pending',
      nextCheckMs: 50_000,
    });
  });

  it('a Node NotReady past the timeout is unhealthy, with upstream’s message', () => {
    expect(judge({ node: node('Unknown', 10_000) })).toMatchObject({
      verdict: 'unhealthy',
      reason: 'UnhealthyNode',
      v2Reason: 'UnhealthyNode',
      message: 'Condition Ready on Node is reporting status Unknown for more than 1m0s',
    });
  });

  it('a machine whose Node has not registered is pending within the start-up timeout, unhealthy past it', () => {
    expect(judge({ machine: machine(), node: undefined, now: 60_000 })).toEqual({
      verdict: 'pending',
      nextCheckMs: 540_000,
    });
    expect(judge({ machine: machine(), node: undefined, now: 600_001 })).toMatchObject({
      verdict: 'unhealthy',
      reason: 'NodeStartupTimeout',
      message: 'Node failed to report startup in 10m0s',
    });
  });

  it('a disabled start-up timeout: a machine without a Node is never remediated, nor counted healthy', () => {
    const noTimeout = {
      ...mhc,
      spec: { ...mhc.spec, nodeStartupTimeout: '0s' },
    } as MachineHealthCheck;
    expect(judge({ machine: machine(), node: undefined, mhc: noTimeout, now: 10_000_000 })).toEqual(
      {
        verdict: 'pending',
      },
    );
  });

  it('before the cluster can be judged: a machine with a Node counts healthy, one without is pending', () => {
    expect(judge({ startupFrom: undefined, node: node('False', 0) })).toEqual({
      verdict: 'healthy',
    });
    expect(judge({ startupFrom: undefined, machine: machine(), node: undefined })).toEqual({
      verdict: 'pending',
    });
  });

  it('a Node that was deleted is unhealthy even before the cluster can be judged', () => {
    expect(judge({ node: undefined, startupFrom: undefined })).toMatchObject({
      verdict: 'unhealthy',
      reason: 'NodeNotFound',
      v2Reason: 'NodeDeleted',
      message: 'Node n has been deleted',
    });
  });
});
