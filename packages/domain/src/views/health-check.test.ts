import { describe, expect, it } from 'vitest';
import type { MachineHealthCheck } from '../schemas/capi';
import { aMachine, aMachineDeployment } from '../testing';
import { poolHealthCheckSummary, poolHealthCheckView } from './health-check';
import { buildWorkerPool, type PoolViewContext } from './nodepool';

const ctx: PoolViewContext = { now: new Date('2026-03-01T10:00:00Z') };

const md = aMachineDeployment({ spec: { replicas: 2 } });
const mhc = (o: Partial<MachineHealthCheck> = {}, name = 'demo-md-0-mhc'): MachineHealthCheck => ({
  apiVersion: 'cluster.x-k8s.io/v1beta1',
  kind: 'MachineHealthCheck',
  metadata: { name, namespace: md.metadata.namespace, resourceVersion: '9', generation: 2 },
  spec: {
    clusterName: 'demo',
    selector: { matchLabels: { 'cluster.x-k8s.io/deployment-name': 'demo-md-0' } },
    unhealthyConditions: [{ type: 'Ready', status: 'Unknown', timeout: '5m' }],
    nodeStartupTimeout: '10m0s',
    unhealthyRange: '[1-2]',
  },
  status: {
    expectedMachines: 2,
    currentHealthy: 1,
    remediationsAllowed: 1,
    observedGeneration: 2,
    targets: ['m-a', 'm-b'],
    conditions: [{ type: 'RemediationAllowed', status: 'True' }],
  },
  ...o,
});

describe('poolHealthCheckView', () => {
  it('the pool’s health check: checks in seconds, limit, counters, and per target its health and remediation (v1beta2 conditions preferred)', () => {
    const healthy = aMachine({
      metadata: { name: 'm-a' },
      status: { conditions: [{ type: 'HealthCheckSucceeded', status: 'True' }] },
    });
    const sick = aMachine({
      metadata: { name: 'm-b' },
      status: {
        conditions: [
          { type: 'HealthCheckSucceeded', status: 'False', reason: 'UnhealthyNode' },
          { type: 'OwnerRemediated', status: 'False', reason: 'WaitingForRemediation' },
        ],
        v1beta2: {
          conditions: [
            {
              type: 'HealthCheckSucceeded',
              status: 'False',
              reason: 'UnhealthyNode',
              message:
                'Health check failed: Condition Ready on Node is reporting status Unknown for more than 5m0s',
            },
          ],
        },
      },
    });
    const notTarget = aMachine({ metadata: { name: 'm-c' } });
    const v = poolHealthCheckView(md, [mhc()], [healthy, sick, notTarget]);
    expect(v).toMatchObject({
      name: 'demo-md-0-mhc',
      resourceVersion: '9',
      unhealthyNodeConditions: [{ type: 'Ready', status: 'Unknown', timeoutSeconds: 300 }],
      nodeStartupTimeoutSeconds: 600,
      limit: { kind: 'range', min: 1, max: 2 },
      expectedMachines: 2,
      currentHealthy: 1,
      remediationsAllowed: 1,
      remediationAllowed: { status: 'True' },
      stale: false,
      others: [],
    });
    expect(v?.machines.map((m) => [m.name, m.healthCheck?.status, m.remediating])).toEqual([
      ['m-b', 'False', true],
      ['m-a', 'True', false],
    ]);
    expect(v?.machines[0]?.healthCheck?.message).toContain('for more than 5m0s');
  });

  it('none for a pool no health check selects; the console’s own preferred among several, the others named; a status behind the spec is stale', () => {
    const otherPool = mhc(
      {
        spec: {
          clusterName: 'demo',
          selector: { matchLabels: { 'cluster.x-k8s.io/deployment-name': 'demo-md-1' } },
        },
      },
      'x',
    );
    expect(poolHealthCheckView(md, [otherPool], [])).toBeUndefined();
    const a = mhc({}, 'a-first');
    const own = mhc({ status: { observedGeneration: 1 } });
    const v = poolHealthCheckView(md, [a, own], []);
    expect(v?.name).toBe('demo-md-0-mhc');
    expect(v?.others).toEqual(['a-first']);
    expect(v?.stale).toBe(true);
    expect(v?.limit).toEqual({ kind: 'range', min: 1, max: 2 });
  });
});

describe('poolHealthCheckSummary (the card’s line)', () => {
  it('the pool’s own health check with its counts; held back when RemediationAllowed is False; none without one', () => {
    expect(poolHealthCheckSummary(md, [mhc()])).toEqual({
      name: 'demo-md-0-mhc',
      expectedMachines: 2,
      currentHealthy: 1,
      held: false,
    });
    const held = mhc({
      status: {
        expectedMachines: 2,
        currentHealthy: 0,
        conditions: [{ type: 'RemediationAllowed', status: 'False', reason: 'TooManyUnhealthy' }],
      },
    });
    expect(poolHealthCheckSummary(md, [held])).toMatchObject({ currentHealthy: 0, held: true });
    // Not yet reported: no counts.
    expect(poolHealthCheckSummary(md, [mhc({ status: {} })])).toEqual({
      name: 'demo-md-0-mhc',
      held: false,
    });
    const other = mhc({
      spec: {
        clusterName: 'demo',
        selector: { matchLabels: { 'cluster.x-k8s.io/deployment-name': 'x' } },
      },
    });
    expect(poolHealthCheckSummary(md, [other])).toBeUndefined();
  });

  it('is on the worker pool’s view when the health checks are given, and absent when they are not', () => {
    const o = {
      machineDeployment: md,
      machineSets: [],
      machines: [],
      dcsMachines: [],
    };
    expect(buildWorkerPool({ ...o, healthChecks: [mhc()] }, ctx).pool.healthCheck).toEqual({
      name: 'demo-md-0-mhc',
      expectedMachines: 2,
      currentHealthy: 1,
      held: false,
    });
    expect(buildWorkerPool(o, ctx).pool.healthCheck).toBeUndefined();
  });
});
