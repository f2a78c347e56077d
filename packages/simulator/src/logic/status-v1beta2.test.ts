import { describe, expect, it } from 'vitest';
import type {
  Cluster,
  DCSCluster,
  KubeadmControlPlane,
  Machine,
  MachineDeployment,
  MachineSet,
} from '@dcs/domain';
import { clusterV2Status } from './cluster-status';
import { deploymentV2Status, rollingOutCondition } from './deployment-status';
import {
  deletingForSummary,
  drainConditionMessage,
  drainHeader,
  listToString,
  timedDrainResult,
  machineV2Conditions,
  type MachineV2Input,
} from './machine-status';
import { machineSetV2Status, machineUpToDate, staleMachinesMessage } from './machineset-status';
import { NODE_NOT_READY_MESSAGE } from './node-desired';
import type { V2Condition } from './v1beta2';

/**
 * The v1beta2 status functions against the cases of Cluster API v1.14.0's
 * machine_controller_status_test.go, machineset_controller_status_test.go and
 * machinedeployment_status_test.go that the simulation reaches.
 */

const NOW = '2026-12-01T10:00:00Z';

function machine(o: {
  name?: string;
  providerID?: string;
  bootstrapReady?: boolean;
  infraReady?: boolean;
  nodeRef?: string;
  deleting?: boolean;
  conditions?: V2Condition[];
  version?: string;
}): Machine {
  return {
    apiVersion: 'cluster.x-k8s.io/v1beta1',
    kind: 'Machine',
    metadata: {
      name: o.name ?? 'm1',
      namespace: 'ns',
      generation: 2,
      creationTimestamp: '2026-12-01T09:00:00Z',
      ...(o.deleting ? { deletionTimestamp: '2026-12-01T09:30:00Z' } : {}),
    },
    spec: {
      clusterName: 'c',
      version: o.version ?? 'v1.34.1',
      bootstrap: { configRef: { kind: 'KubeadmConfig', name: 'm1' } },
      infrastructureRef: { kind: 'DCSMachine', name: 'm1' },
      ...(o.providerID ? { providerID: o.providerID } : {}),
    },
    status: {
      bootstrapReady: o.bootstrapReady ?? false,
      infrastructureReady: o.infraReady ?? false,
      ...(o.nodeRef ? { nodeRef: { kind: 'Node', name: o.nodeRef } } : {}),
      ...(o.conditions ? { v1beta2: { conditions: o.conditions } } : {}),
    },
  };
}

const input = (m: Machine, o: Partial<MachineV2Input> = {}): MachineV2Input => ({
  m,
  bootstrap: { kind: 'KubeadmConfig', exists: true },
  infra: { kind: 'DCSMachine', exists: true },
  cluster: { infrastructureProvisioned: true, controlPlaneInitialized: true, paused: false },
  nodeReady: undefined,
  generation: m.metadata.generation ?? 0,
  nowISO: NOW,
  ...o,
});

const brief = (conditions: V2Condition[]) =>
  Object.fromEntries(conditions.map((c) => [c.type, `${c.status}/${c.reason}`]));
const get = (conditions: V2Condition[], type: string) => conditions.find((c) => c.type === type);

describe('machineV2Conditions (setBootstrapReadyCondition … setAvailableCondition)', () => {
  it('provisioning: bootstrap and infrastructure not ready, waiting for the providerID', () => {
    const c = machineV2Conditions(input(machine({})));
    expect(brief(c)).toEqual({
      Available: 'False/NotReady',
      Ready: 'False/NotReady',
      BootstrapConfigReady: 'False/NotReady',
      InfrastructureReady: 'False/NotReady',
      NodeHealthy: 'Unknown/InspectionFailed',
      NodeReady: 'Unknown/InspectionFailed',
      Paused: 'False/NotPaused',
      Deleting: 'False/NotDeleting',
    });
    expect(get(c, 'Ready')?.message).toBe(
      [
        '* BootstrapConfigReady: KubeadmConfig status.ready is false',
        '* InfrastructureReady: DCSMachine status.ready is false',
        '* NodeHealthy: Waiting for DCSMachine to report spec.providerID',
      ].join('\n'),
    );
    for (const x of c) expect(x).toMatchObject({ observedGeneration: 2, lastTransitionTime: NOW });
  });

  it('the cluster not initialized yet: the node is not inspected', () => {
    const c = machineV2Conditions(
      input(machine({ bootstrapReady: true }), {
        cluster: { infrastructureProvisioned: true, controlPlaneInitialized: false, paused: false },
      }),
    );
    expect(get(c, 'NodeReady')).toMatchObject({
      status: 'Unknown',
      reason: 'InspectionFailed',
      message: 'Waiting for Cluster control plane to be initialized',
    });
  });

  it('providerID set, no Node yet', () => {
    const c = machineV2Conditions(
      input(machine({ bootstrapReady: true, infraReady: true, providerID: 'dcs://vm-1' })),
    );
    expect(get(c, 'NodeHealthy')?.message).toBe(
      'Waiting for a Node with spec.providerID dcs://vm-1 to exist',
    );
    expect(get(c, 'Ready')).toMatchObject({
      status: 'Unknown',
      reason: 'ReadyUnknown',
      message: '* NodeHealthy: Waiting for a Node with spec.providerID dcs://vm-1 to exist',
    });
  });

  it('the Node registered, not Ready: NodeReady and NodeHealthy False quoting the kubelet', () => {
    const c = machineV2Conditions(
      input(
        machine({
          bootstrapReady: true,
          infraReady: true,
          providerID: 'dcs://vm-1',
          nodeRef: 'n1',
        }),
        { nodeReady: { status: 'False', message: NODE_NOT_READY_MESSAGE } },
      ),
    );
    expect(get(c, 'NodeReady')).toMatchObject({
      status: 'False',
      reason: 'NodeNotReady',
      message: `* Node.Ready: ${NODE_NOT_READY_MESSAGE}`,
    });
    expect(get(c, 'NodeHealthy')).toMatchObject({ status: 'False', reason: 'NodeNotHealthy' });
    expect(get(c, 'Ready')?.message).toBe(
      `* NodeHealthy:\n  * Node.Ready: ${NODE_NOT_READY_MESSAGE}`,
    );
  });

  it('running: every condition True (Deleting, Paused False), Available once Ready', () => {
    const c = machineV2Conditions(
      input(
        machine({
          bootstrapReady: true,
          infraReady: true,
          providerID: 'dcs://vm-1',
          nodeRef: 'n1',
        }),
        {
          nodeReady: { status: 'True', message: '' },
          upToDate: { type: 'UpToDate', status: 'True', reason: 'UpToDate', message: '' },
        },
      ),
    );
    expect(brief(c)).toEqual({
      Available: 'True/Available',
      Ready: 'True/Ready',
      UpToDate: 'True/UpToDate',
      BootstrapConfigReady: 'True/Ready',
      InfrastructureReady: 'True/Ready',
      NodeHealthy: 'True/NodeHealthy',
      NodeReady: 'True/NodeReady',
      Paused: 'False/NotPaused',
      Deleting: 'False/NotDeleting',
    });
    expect(get(c, 'Ready')?.message).toBe('');
  });

  it('deleting, draining: Deleting True DrainingNode with the Pods; Ready names the stage only', () => {
    const m = machine({
      bootstrapReady: true,
      infraReady: true,
      providerID: 'dcs://vm-1',
      nodeRef: 'node-abcde',
      deleting: true,
    });
    const message = drainConditionMessage(
      '2026-12-01T09:30:05Z',
      timedDrainResult('node-abcde', true),
    );
    const c = machineV2Conditions(
      input(m, {
        nodeReady: { status: 'True', message: '' },
        deleting: { reason: 'DrainingNode', message },
        deletingForMs: 60_000,
        drainingForMs: 55_000,
      }),
    );
    expect(get(c, 'Deleting')).toMatchObject({ status: 'True', reason: 'DrainingNode', message });
    expect(get(c, 'Ready')).toMatchObject({
      status: 'False',
      reason: 'NotReady',
      message: '* Deleting: Machine deletion in progress, stage: DrainingNode',
    });
  });

  it('deleting, the infrastructure gone: info, not an issue, for Ready', () => {
    const m = machine({ bootstrapReady: true, infraReady: true, deleting: true });
    const c = machineV2Conditions(
      input(m, {
        infra: { kind: 'DCSMachine', exists: false },
        bootstrap: { kind: 'KubeadmConfig', exists: false },
        deleting: {
          reason: 'WaitingForBootstrapDeletion',
          message: 'Waiting for KubeadmConfig to be deleted',
        },
      }),
    );
    expect(get(c, 'InfrastructureReady')).toMatchObject({
      status: 'False',
      reason: 'ObjectDeleted',
      message: 'DCSMachine has been deleted',
    });
    expect(get(c, 'Ready')?.message).toBe(
      '* Deleting: Machine deletion in progress, stage: WaitingForBootstrapDeletion',
    );
  });
});

describe('drain messages (EvictionResult.ConditionMessage, calculateDeletingConditionForSummary)', () => {
  it('the header alone before the first eviction; the held Pod and its budget while stuck', () => {
    expect(drainHeader('2024-10-09T16:13:59Z')).toBe(
      'Drain not completed yet (started at 2024-10-09T16:13:59Z):',
    );
    expect(
      drainConditionMessage('2024-10-09T16:13:59Z', timedDrainResult('worker-x1y2z', true)),
    ).toBe(
      "Drain not completed yet (started at 2024-10-09T16:13:59Z):\n* Pods with eviction failed:\n  * Cannot evict pod as it would violate the pod's disruption budget. The disruption budget drain-stuck-worker-x1y2z needs 1 healthy pods and has 1 currently: default/web-x1y2z",
    );
    expect(
      drainConditionMessage('2024-10-09T16:13:59Z', timedDrainResult('worker-x1y2z', false)),
    ).toBe(
      'Drain not completed yet (started at 2024-10-09T16:13:59Z):\n* Pods with deletionTimestamp that still exist: default/web-x1y2z',
    );
  });

  it('ConditionMessage: lists cut at 3 Pods, errors sorted, at most 5, the rest counted', () => {
    expect(listToString(['a', 'b', 'c'], 3)).toBe('a, b, c');
    expect(listToString(['a', 'b', 'c', 'd', 'e'], 3)).toBe('a, b, c, ... (2 more)');
    const failed = new Map<string, string[]>();
    for (const e of ['e6', 'e2', 'e1', 'e4', 'e3', 'e5', 'e7'])
      failed.set(e, e === 'e7' ? ['x/p7a', 'x/p7b'] : [`x/p${e}`]);
    const msg = drainConditionMessage('2024-10-09T16:13:59Z', {
      podsDeletionTimestampSet: ['a/1', 'a/2', 'a/3', 'a/4'],
      podsFailedEviction: failed,
      podsToTriggerEvictionLater: ['b/1'],
    });
    expect(msg).toBe(
      [
        'Drain not completed yet (started at 2024-10-09T16:13:59Z):',
        '* Pods with deletionTimestamp that still exist: a/1, a/2, a/3, ... (1 more)',
        '* Pods with eviction failed:',
        '  * e1: x/pe1',
        '  * e2: x/pe2',
        '  * e3: x/pe3',
        '  * e4: x/pe4',
        '  * e5: x/pe5',
        '  * ... (2 more errors applying to 3 Pods)',
        '* After above Pods have been removed from the Node, the following Pods will be evicted: b/1',
      ].join('\n'),
    );
    expect(
      drainConditionMessage('t', {
        podsDeletionTimestampSet: [],
        podsFailedEviction: new Map(),
        podsToTriggerEvictionLater: [],
      }),
    ).toBe('');
  });

  it('past 15 minutes of deletion and 5 of draining, the delay reasons', () => {
    const stuck = {
      type: 'Deleting',
      status: 'True' as const,
      reason: 'DrainingNode',
      message: drainConditionMessage(
        '2024-10-09T16:13:59Z',
        timedDrainResult('worker-x1y2z', true),
      ),
    };
    // Upstream's quirk: it looks for "cannot evict pod" in lowercase, the 429 says "Cannot", so a
    // budget's refusal is never named as the delay; a Pod not terminating never either (v1.14's
    // message says "Pods with deletionTimestamp that still exist").
    const lower = { ...stuck, message: stuck.message.replace('Cannot evict', 'cannot evict') };
    expect(deletingForSummary(stuck, 10 * 60_000, 9 * 60_000).message).toBe(
      'Machine deletion in progress, stage: DrainingNode',
    );
    expect(deletingForSummary(stuck, 16 * 60_000, 4 * 60_000).message).toBe(
      'Machine deletion in progress since more than 15m, stage: DrainingNode',
    );
    expect(deletingForSummary(stuck, 16 * 60_000, 6 * 60_000).message).toBe(
      'Machine deletion in progress since more than 15m, stage: DrainingNode',
    );
    expect(deletingForSummary(lower, 16 * 60_000, 6 * 60_000).message).toBe(
      'Machine deletion in progress since more than 15m, stage: DrainingNode, delay likely due to PodDisruptionBudgets',
    );
  });

  it('aggregateStaleMachines: the machines deleting for 15 minutes, sorted, at most three', () => {
    const stale = (name: string) =>
      machine({
        name,
        deleting: true,
        conditions: [
          {
            type: 'Deleting',
            status: 'True',
            reason: 'DrainingNode',
            message: drainConditionMessage(
              '2024-10-09T16:13:59Z',
              timedDrainResult('n', true),
            ).replace('Cannot evict', 'cannot evict'),
          },
        ],
      });
    const machines = [stale('m4'), stale('m2'), stale('m1'), stale('m3'), machine({ name: 'm5' })];
    expect(
      staleMachinesMessage(
        machines,
        () => 20 * 60_000,
        () => 10 * 60_000,
      ),
    ).toBe(
      'Machines m1, m2, m3, ... (1 more) are in deletion since more than 15m, delay likely due to PodDisruptionBudgets',
    );
    expect(
      staleMachinesMessage(
        [stale('m1')],
        () => 20 * 60_000,
        () => 60_000,
      ),
    ).toBe('Machine m1 is in deletion since more than 15m');
    expect(
      staleMachinesMessage(
        machines,
        () => 60_000,
        () => 60_000,
      ),
    ).toBe('');
  });
});

const template = (version: string, infra = 'tpl-a') => ({
  metadata: {},
  spec: {
    clusterName: 'c',
    version,
    bootstrap: {
      configRef: {
        apiVersion: 'bootstrap.cluster.x-k8s.io/v1beta1',
        kind: 'KubeadmConfigTemplate',
        name: 'boot',
      },
    },
    infrastructureRef: {
      apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1',
      kind: 'DCSMachineTemplate',
      name: infra,
    },
  },
});

const md = (version: string, infra?: string, replicas = 2): MachineDeployment => ({
  apiVersion: 'cluster.x-k8s.io/v1beta1',
  kind: 'MachineDeployment',
  metadata: { name: 'md', namespace: 'ns', generation: 4 },
  spec: { clusterName: 'c', replicas, template: template(version, infra) },
});

const ms = (version: string, replicas: number, infra?: string): MachineSet => ({
  apiVersion: 'cluster.x-k8s.io/v1beta1',
  kind: 'MachineSet',
  metadata: { name: 'md-abc', namespace: 'ns', generation: 1 },
  spec: { clusterName: 'c', replicas, selector: {}, template: template(version, infra) },
});

describe('UpToDate (mdutil.MachineTemplateUpToDate condition messages)', () => {
  it('the same template: up to date; a new version or template: not, saying what is required', () => {
    expect(machineUpToDate(ms('v1.34.1', 1), md('v1.34.1'))).toMatchObject({
      status: 'True',
      reason: 'UpToDate',
    });
    expect(machineUpToDate(ms('v1.34.1', 1), md('v1.35.0'))).toEqual({
      type: 'UpToDate',
      status: 'False',
      reason: 'NotUpToDate',
      message: '* Version v1.34.1, v1.35.0 required',
    });
    expect(machineUpToDate(ms('v1.34.1', 1), md('v1.35.0', 'tpl-b'))?.message).toBe(
      '* Version v1.34.1, v1.35.0 required\n* DCSMachine is not up-to-date',
    );
  });
});

describe('MachineSet and MachineDeployment v1beta2 status', () => {
  const ready = (name: string, upToDate: boolean): Machine =>
    machine({
      name,
      conditions: [
        { type: 'Available', status: 'True', reason: 'Available', message: '' },
        { type: 'Ready', status: 'True', reason: 'Ready', message: '' },
        upToDate
          ? { type: 'UpToDate', status: 'True', reason: 'UpToDate', message: '' }
          : {
              type: 'UpToDate',
              status: 'False',
              reason: 'NotUpToDate',
              message: '* Version v1.34.1, v1.35.0 required',
            },
      ],
    });
  const base = {
    clusterPaused: false,
    wallNow: Date.parse('2026-12-01T10:00:00Z'),
    deletingFor: () => undefined,
    drainingFor: () => undefined,
    nowISO: NOW,
  };

  it('a set scaling up: ScalingUp with the numbers, the counters from the machines', () => {
    const s = machineSetV2Status({ ...base, ms: ms('v1.34.1', 3), machines: [ready('a', true)] });
    expect(s).toMatchObject({ readyReplicas: 1, availableReplicas: 1, upToDateReplicas: 1 });
    const by = Object.fromEntries((s.conditions ?? []).map((c) => [c.type, c]));
    expect(by.ScalingUp).toMatchObject({
      status: 'True',
      reason: 'ScalingUp',
      message: 'Scaling up from 1 to 3 replicas',
    });
    expect(by.ScalingDown).toMatchObject({ status: 'False', reason: 'NotScalingDown' });
    expect(by.MachinesReady).toMatchObject({ status: 'True', reason: 'Ready' });
    expect(by.Deleting).toMatchObject({ status: 'False', reason: 'NotDeleting' });
    expect(s.conditions?.every((c) => c.observedGeneration === 1)).toBe(true);
  });

  it('an empty set: MachinesReady and MachinesUpToDate True with NoReplicas', () => {
    const s = machineSetV2Status({ ...base, ms: ms('v1.34.1', 0), machines: [] });
    const by = Object.fromEntries((s.conditions ?? []).map((c) => [c.type, c]));
    expect(by.MachinesReady).toMatchObject({ status: 'True', reason: 'NoReplicas' });
    expect(by.MachinesUpToDate).toMatchObject({ status: 'True', reason: 'NoReplicas' });
  });

  it('RollingOut: how many are not up to date and why, a version change first', () => {
    const other = machine({
      name: 'c',
      conditions: [
        {
          type: 'UpToDate',
          status: 'False',
          reason: 'NotUpToDate',
          message: '* DCSMachine is not up-to-date\n* Version v1.34.1, v1.35.0 required',
        },
      ],
    });
    expect(rollingOutCondition([ready('a', false), ready('b', true), other])).toEqual({
      type: 'RollingOut',
      status: 'True',
      reason: 'RollingOut',
      message:
        'Rolling out 2 not up-to-date replicas\n* Version v1.34.1, v1.35.0 required\n* DCSMachine is not up-to-date',
    });
    expect(rollingOutCondition([ready('b', true)])).toMatchObject({
      status: 'False',
      reason: 'NotRollingOut',
    });
  });

  it('a deployment below its availability: NotAvailable with the numbers; the counters summed from the sets', () => {
    const set = ms('v1.34.1', 2);
    set.status = {
      replicas: 2,
      v1beta2: { readyReplicas: 1, availableReplicas: 1, upToDateReplicas: 2 },
    };
    const s = deploymentV2Status({
      ...base,
      md: md('v1.34.1'),
      state: { replicas: 2, strategy: 'RollingUpdate', maxSurge: 1, maxUnavailable: 0 },
      sets: [set],
      machines: [ready('a', true)],
    });
    expect(s).toMatchObject({ readyReplicas: 1, availableReplicas: 1, upToDateReplicas: 2 });
    expect(s.conditions?.find((c) => c.type === 'Available')).toMatchObject({
      status: 'False',
      reason: 'NotAvailable',
      message:
        '1 available replicas, at least 2 required (spec.strategy.rollout.maxUnavailable is 0, spec.replicas is 2)',
      observedGeneration: 4,
    });
  });
});

describe('Cluster v1beta2 (cluster_controller_status.go)', () => {
  const cluster = {
    apiVersion: 'cluster.x-k8s.io/v1beta1',
    kind: 'Cluster',
    metadata: { name: 'c', namespace: 'ns', generation: 1 },
    spec: {
      infrastructureRef: { kind: 'DCSCluster', name: 'c' },
      controlPlaneRef: { kind: 'KubeadmControlPlane', name: 'c-cp' },
    },
  } as Cluster;
  const kcpWith = (conditions: V2Condition[]) =>
    ({
      apiVersion: 'controlplane.cluster.x-k8s.io/v1beta1',
      kind: 'KubeadmControlPlane',
      metadata: { name: 'c-cp', namespace: 'ns' },
      spec: { replicas: 3 },
      status: {
        replicas: 3,
        v1beta2: { conditions, readyReplicas: 3, availableReplicas: 3, upToDateReplicas: 1 },
      },
    }) as unknown as KubeadmControlPlane;
  const initialized = {
    infrastructureReady: true,
    conditions: [{ type: 'ControlPlaneInitialized', status: 'True' as const }],
  };

  it('no pools: WorkersAvailable NoWorkers; the control plane rolling out shows on the Cluster', () => {
    const s = clusterV2Status({
      cluster,
      status: initialized,
      infra: {} as DCSCluster,
      kcp: kcpWith([
        { type: 'Available', status: 'True', reason: 'Available', message: '' },
        {
          type: 'RollingOut',
          status: 'True',
          reason: 'RollingOut',
          message: 'Rolling out 2 not up-to-date replicas\n* Version v1.33.4, v1.34.1 required',
        },
      ]),
      deployments: [],
      nowISO: NOW,
    });
    const by = Object.fromEntries((s.conditions ?? []).map((c) => [c.type, c]));
    expect(by.WorkersAvailable).toMatchObject({ status: 'True', reason: 'NoWorkers' });
    expect(by.ControlPlaneAvailable).toMatchObject({ status: 'True', reason: 'Available' });
    expect(by.RollingOut).toEqual(
      expect.objectContaining({
        status: 'True',
        reason: 'RollingOut',
        message:
          '* KubeadmControlPlane c-cp:\n  * Rolling out 2 not up-to-date replicas\n    * Version v1.33.4, v1.34.1 required',
      }),
    );
    expect(by.Available).toMatchObject({ status: 'True', reason: 'Available' });
    expect(s.controlPlane).toEqual({
      desiredReplicas: 3,
      replicas: 3,
      readyReplicas: 3,
      availableReplicas: 3,
      upToDateReplicas: 1,
    });
  });

  it('a pool not available: WorkersAvailable and Available False, naming the pool', () => {
    const pool = md('v1.34.1');
    pool.status = {
      v1beta2: {
        conditions: [
          {
            type: 'Available',
            status: 'False',
            reason: 'NotAvailable',
            message: '0 available replicas, at least 2 required',
          },
        ],
      },
    };
    const s = clusterV2Status({
      cluster,
      status: initialized,
      infra: {} as DCSCluster,
      kcp: kcpWith([{ type: 'Available', status: 'True', reason: 'Available', message: '' }]),
      deployments: [pool],
      nowISO: NOW,
    });
    const by = Object.fromEntries((s.conditions ?? []).map((c) => [c.type, c]));
    expect(by.WorkersAvailable).toMatchObject({
      status: 'False',
      reason: 'NotAvailable',
      message: '* MachineDeployment md: 0 available replicas, at least 2 required',
    });
    expect(by.Available).toMatchObject({
      status: 'False',
      reason: 'NotAvailable',
      message:
        '* WorkersAvailable:\n  * MachineDeployment md: 0 available replicas, at least 2 required',
    });
  });
});
