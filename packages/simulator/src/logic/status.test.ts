import { describe, expect, it } from 'vitest';
import {
  aCluster,
  aDCSCluster,
  aKubeadmControlPlane,
  aMachine,
  aMachineDeployment,
  aMachineSet,
} from '@dcs/domain/testing';
import type { Machine } from '@dcs/domain';
import { clusterStatus } from './cluster-status';
import { deploymentStatus } from './deployment-status';
import { machinePhase, withMachineReady } from './machine-status';
import { machineSetStatus } from './machineset-status';
import { deploymentState } from './machineset-desired';
import { falseCondition, trueCondition } from './conditions';

const nowISO = '2026-02-01T00:00:00Z';
const now = Date.parse(nowISO);

describe('Machine phase (Pending → Provisioning → Provisioned → Running, Deleting, Failed)', () => {
  const base = (): Machine => ({
    apiVersion: 'cluster.x-k8s.io/v1beta1',
    kind: 'Machine',
    metadata: { name: 'm' },
    spec: { clusterName: 'c', bootstrap: {}, infrastructureRef: {} },
  });
  it.each([
    ['Pending', {}, {}],
    ['Provisioning', { bootstrapReady: true }, {}],
    [
      'Provisioned',
      { bootstrapReady: true, infrastructureReady: true },
      { providerID: 'dcs://vm' },
    ],
    [
      'Running',
      { bootstrapReady: true, infrastructureReady: true, nodeRef: { name: 'n' } },
      { providerID: 'dcs://vm' },
    ],
    ['Failed', { bootstrapReady: true, failureReason: 'CreateError' }, {}],
  ] as const)('%s', (phase, status, spec) => {
    const m = base();
    m.status = { ...status };
    m.spec = { clusterName: 'c', bootstrap: {}, infrastructureRef: {}, ...spec };
    expect(machinePhase(m)).toBe(phase);
  });

  it('Deleting wins over everything', () => {
    const m = base();
    m.metadata.deletionTimestamp = nowISO;
    m.status = { failureReason: 'x' };
    expect(machinePhase(m)).toBe('Deleting');
  });

  it('Ready counts provisioning steps until the machine has a providerID', () => {
    const m = base();
    const c = withMachineReady(
      m,
      [
        trueCondition('BootstrapReady'),
        falseCondition('InfrastructureReady', 'WaitingForInfrastructure', 'Info'),
      ],
      nowISO,
    );
    expect(c[0]).toMatchObject({
      type: 'Ready',
      status: 'False',
      reason: 'WaitingForInfrastructure',
      message: '1 of 2 completed',
    });
  });
});

describe('MachineSet and MachineDeployment status', () => {
  const ready = (name: string): Machine => aMachine({ metadata: { name } });
  const provisioning = (name: string): Machine => {
    const m = aMachine({ metadata: { name } });
    m.status = {
      phase: 'Provisioning',
      conditions: [falseCondition('Ready', 'WaitingForInfrastructure', 'Info', '1 of 2 completed')],
    };
    return m;
  };

  it('counts replicas, ready and available, and says it is scaling up', () => {
    const ms = aMachineSet({ spec: { replicas: 3 }, status: { conditions: [] } });
    const s = machineSetStatus({ ms, machines: [ready('a'), provisioning('b')], now, nowISO });
    expect(s).toMatchObject({
      replicas: 2,
      readyReplicas: 1,
      availableReplicas: 1,
      fullyLabeledReplicas: 2,
    });
    const c = (type: string) => s.conditions?.find((x) => x.type === type);
    expect(c('Resized')).toMatchObject({
      status: 'False',
      reason: 'ScalingUp',
      severity: 'Warning',
      message: 'Scaling up MachineSet to 3 replicas (actual 2)',
    });
    expect(c('MachinesReady')).toMatchObject({
      status: 'False',
      reason: 'WaitingForInfrastructure @ Machine/b',
    });
    expect(c('Ready')).toMatchObject({ status: 'False', reason: 'ScalingUp' });
  });

  it('a machine being deleted is ready but not available', () => {
    const deleting = ready('a');
    deleting.metadata.deletionTimestamp = nowISO;
    const s = machineSetStatus({
      ms: aMachineSet({ spec: { replicas: 0 } }),
      machines: [deleting],
      now,
      nowISO,
    });
    expect(s).toMatchObject({ replicas: 1, readyReplicas: 1, availableReplicas: 0 });
  });

  it('minReadySeconds delays availability', () => {
    const m = ready('a');
    if (m.status?.conditions)
      m.status.conditions = [
        { type: 'NodeHealthy', status: 'True', lastTransitionTime: '2026-01-31T23:59:50Z' },
      ];
    const s = machineSetStatus({
      ms: aMachineSet({ spec: { replicas: 1, minReadySeconds: 30 } }),
      machines: [m],
      now,
      nowISO,
    });
    expect(s).toMatchObject({ readyReplicas: 1, availableReplicas: 0 });
  });

  it('the deployment sums its sets and reports Available / phase as Cluster API does', () => {
    const md = aMachineDeployment({ spec: { replicas: 3 }, status: { conditions: [] } });
    const oldSet = aMachineSet({
      metadata: { name: 'old' },
      spec: { replicas: 2 },
      status: { replicas: 2, readyReplicas: 2, availableReplicas: 2 },
    });
    const newSet = aMachineSet({
      metadata: { name: 'new' },
      spec: { replicas: 1 },
      status: {
        replicas: 1,
        readyReplicas: 0,
        availableReplicas: 0,
        conditions: [falseCondition('Ready', 'ScalingUp', 'Warning', 'x')],
      },
    });
    const s = deploymentStatus(md, deploymentState(md), [oldSet, newSet], newSet, nowISO);
    expect(s).toMatchObject({
      replicas: 3,
      updatedReplicas: 1,
      readyReplicas: 2,
      availableReplicas: 2,
      unavailableReplicas: 1,
      phase: 'ScalingUp',
    });
    const c = (type: string) => s.conditions?.find((x) => x.type === type);
    expect(c('Available')?.status).toBe('True');
    expect(c('MachineSetReady')).toMatchObject({ status: 'False', reason: 'ScalingUp' });
    const md1 = aMachineDeployment({
      spec: {
        replicas: 3,
        strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } },
      },
      status: { conditions: [] },
    });
    const s1 = deploymentStatus(md1, deploymentState(md1), [oldSet, newSet], newSet, nowISO);
    expect(s1.conditions?.find((x) => x.type === 'Available')).toMatchObject({
      status: 'False',
      reason: 'WaitingForAvailableMachines',
      message: 'Minimum availability requires 3 replicas, current 2 available',
    });
  });
});

describe('status.selector is the effective selector, never empty (upstream: 1–4096 characters)', () => {
  it('a deployment with matchLabels null reports the defaulted cluster and deployment names', () => {
    const md = aMachineDeployment({
      metadata: { name: 'pool-a' },
      spec: { clusterName: 'east', selector: { matchLabels: null } },
    });
    const s = deploymentStatus(md, deploymentState(md), [], undefined, nowISO);
    expect(s.selector).toBe(
      'cluster.x-k8s.io/cluster-name=east,cluster.x-k8s.io/deployment-name=pool-a',
    );
  });

  it('a given selector is kept and the cluster name added, as the webhook defaults it', () => {
    const md = aMachineDeployment({ metadata: { name: 'pool-a' }, spec: { clusterName: 'east' } });
    if (md.spec) md.spec.selector = { matchLabels: { 'pool.name': 'a' } };
    expect(deploymentStatus(md, deploymentState(md), [], undefined, nowISO).selector).toBe(
      'cluster.x-k8s.io/cluster-name=east,pool.name=a',
    );
  });

  it('a MachineSet with an empty selector reports its set name and cluster name', () => {
    const ms = aMachineSet({ metadata: { name: 'set-1' }, spec: { clusterName: 'east' } });
    // The builder merges labels into its default selector; this set has none at all.
    if (ms.spec) ms.spec.selector = { matchLabels: {} };
    const s = machineSetStatus({ ms, machines: [], now, nowISO });
    expect(s.selector).toBe('cluster.x-k8s.io/cluster-name=east,cluster.x-k8s.io/set-name=set-1');
  });
});

describe('Cluster status', () => {
  it('Provisioning until the infrastructure is ready, then Provisioned; conditions mirror DCSCluster and KCP', () => {
    const cluster = aCluster({ status: { phase: '', conditions: [] } });
    const s = clusterStatus(cluster, aDCSCluster({ status: { ready: false } }), undefined, nowISO);
    expect(s.phase).toBe('Provisioning');
    expect(s.conditions?.find((c) => c.type === 'ControlPlaneInitialized')).toMatchObject({
      status: 'False',
      reason: 'WaitingForControlPlaneProviderInitialized',
    });
    const kcp = aKubeadmControlPlane();
    const s2 = clusterStatus(cluster, aDCSCluster(), kcp, nowISO);
    expect(s2).toMatchObject({
      phase: 'Provisioned',
      infrastructureReady: true,
      controlPlaneReady: true,
    });
    expect(s2.conditions?.find((c) => c.type === 'Ready')?.status).toBe('True');
  });
});
