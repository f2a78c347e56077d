import { describe, expect, it } from 'vitest';
import type { KubeadmControlPlane, Machine } from '@dcs/domain';
import {
  REMEDIATE_MACHINE_ANNOTATION,
  REMEDIATION_FOR_ANNOTATION,
  REMEDIATION_IN_PROGRESS_ANNOTATION,
  canSafelyRemediate,
  lastRemediation,
  parseRemediationData,
  pickForRemediation,
  planRemediation,
  remediatingCondition,
  type RemediationInput,
} from './kcp-remediation';
import type { V2Condition } from './v1beta2';

// Upstream's reconcileUnhealthyMachines (controlplane/kubeadm/internal/controllers/remediation.go,
// v1.14.0): which machine, each precondition with its reasons, the deletion and its annotation.

const T0 = Date.parse('2026-01-01T00:00:00Z');
const iso = (simMs: number) => new Date(T0 + simMs).toISOString().replace('.000Z', 'Z');
const NOW = 7_200_000; // two hours in

const COMPONENTS = [
  'APIServerPodHealthy',
  'ControllerManagerPodHealthy',
  'SchedulerPodHealthy',
  'EtcdPodHealthy',
  'EtcdMemberHealthy',
];

interface Opts {
  created?: number;
  node?: boolean;
  unhealthy?: boolean;
  /** OwnerRemediated False (the health check asked the owner to remediate). */
  marked?: boolean;
  /** Component conditions that are not True. */
  broken?: string[];
  deleting?: boolean;
  annotations?: Record<string, string>;
}

function machine(name: string, o: Opts = {}): Machine {
  const unhealthy = o.unhealthy ?? o.marked ?? false;
  const v2s: V2Condition[] = [];
  if (o.node ?? true) {
    for (const t of COMPONENTS) {
      v2s.push({
        type: t,
        status: o.broken?.includes(t) ? 'False' : 'True',
        reason: o.broken?.includes(t) ? 'NotHealthy' : 'Healthy',
        message: '',
      });
    }
  }
  v2s.push({
    type: 'HealthCheckSucceeded',
    status: unhealthy ? 'False' : 'True',
    reason: unhealthy ? 'UnhealthyNode' : 'HealthCheckSucceeded',
    message: '',
  });
  if (o.marked) {
    v2s.push({
      type: 'OwnerRemediated',
      status: 'False',
      reason: 'WaitingForRemediation',
      message: 'Waiting for remediation',
    });
  }
  return {
    apiVersion: 'cluster.x-k8s.io/v1beta1',
    kind: 'Machine',
    metadata: {
      name,
      namespace: 'default',
      creationTimestamp: iso(o.created ?? 0),
      ...(o.deleting ? { deletionTimestamp: iso(NOW - 1000) } : {}),
      ...(o.annotations ? { annotations: o.annotations } : {}),
    },
    spec: { clusterName: 'c', bootstrap: {}, infrastructureRef: {} },
    status: {
      ...((o.node ?? true) ? { nodeRef: { kind: 'Node', name: `node-${name}` } } : {}),
      conditions: [
        { type: 'HealthCheckSucceeded', status: unhealthy ? 'False' : 'True' },
        ...(o.marked
          ? [
              {
                type: 'OwnerRemediated',
                status: 'False' as const,
                reason: 'WaitingForRemediation',
                severity: 'Warning' as const,
              },
            ]
          : []),
      ],
      v1beta2: { conditions: v2s },
    },
  };
}

const kcp = (
  o: { annotations?: Record<string, string>; strategy?: Record<string, unknown> } = {},
): KubeadmControlPlane => ({
  apiVersion: 'controlplane.cluster.x-k8s.io/v1beta1',
  kind: 'KubeadmControlPlane',
  metadata: {
    name: 'cp',
    namespace: 'default',
    ...(o.annotations ? { annotations: o.annotations } : {}),
  },
  spec: {
    replicas: 3,
    version: 'v1.34.1',
    machineTemplate: { infrastructureRef: { name: 't' } },
    ...(o.strategy ? { remediationStrategy: o.strategy } : {}),
  },
});

const plan = (machines: Machine[], over: Partial<RemediationInput> = {}) =>
  planRemediation({
    kcp: kcp(),
    machines,
    initialized: true,
    now: NOW,
    nowISO: iso(NOW),
    simAt: (s) => Date.parse(s) - T0,
    ...over,
  });

const healthyPair = () => [machine('b', { created: 10 }), machine('c', { created: 20 })];

describe('pickForRemediation: the most broken machine first', () => {
  it('the remediate-machine annotation beats everything', () => {
    const a = machine('a', { node: false });
    const b = machine('b', { annotations: { [REMEDIATE_MACHINE_ANNOTATION]: '' }, created: 50 });
    expect(pickForRemediation([a, b])?.metadata.name).toBe('b');
  });

  it('then a machine without a Node', () => {
    const a = machine('a', { broken: ['EtcdMemberHealthy'] });
    const b = machine('b', { node: false, created: 50 });
    expect(pickForRemediation([a, b])?.metadata.name).toBe('b');
  });

  it('then an unhealthy etcd member, then etcd pod, before the API server, controller manager and scheduler', () => {
    const api = machine('api', { broken: ['APIServerPodHealthy'] });
    const pod = machine('pod', { broken: ['EtcdPodHealthy'], created: 50 });
    const member = machine('member', { broken: ['EtcdMemberHealthy'], created: 60 });
    expect(pickForRemediation([api, pod, member])?.metadata.name).toBe('member');
    expect(pickForRemediation([api, pod])?.metadata.name).toBe('pod');
    const sched = machine('sched', { broken: ['SchedulerPodHealthy'] });
    const cm = machine('cm', { broken: ['ControllerManagerPodHealthy'], created: 50 });
    expect(pickForRemediation([sched, cm, api])?.metadata.name).toBe('api');
    expect(pickForRemediation([sched, cm])?.metadata.name).toBe('cm');
  });

  it('with external etcd the etcd conditions do not count', () => {
    const api = machine('api', { broken: ['APIServerPodHealthy'], created: 50 });
    const member = machine('member', { broken: ['EtcdMemberHealthy'] });
    expect(pickForRemediation([member, api], false)?.metadata.name).toBe('api');
  });

  it('else the oldest, then the name', () => {
    expect(
      pickForRemediation([machine('y', { created: 5 }), machine('z', { created: 1 })])?.metadata
        .name,
    ).toBe('z');
    expect(pickForRemediation([machine('y'), machine('x')])?.metadata.name).toBe('x');
  });
});

describe('planRemediation: preconditions, in upstream’s order', () => {
  it('nothing marked: nothing to do; a machine healthy again has OwnerRemediated cleared', () => {
    const back = machine('a', { marked: true });
    const v2 = back.status?.v1beta2 as { conditions: V2Condition[] };
    const hcs = v2.conditions.find((c) => c.type === 'HealthCheckSucceeded');
    if (hcs) hcs.status = 'True';
    const p = plan([back, ...healthyPair()]);
    expect(p.outcome).toEqual({ type: 'none' });
    expect(p.clearOwnerRemediated).toEqual([{ name: 'a', v1: false, v2: true }]);
  });

  it('remediates: deletes, OwnerRemediated RemediationInProgress / MachineDeleting, the annotation {machine, timestamp, retryCount 0}', () => {
    const p = plan([machine('a', { marked: true }), ...healthyPair()]);
    expect(p.outcome).toMatchObject({
      type: 'remediate',
      machine: 'a',
      condition: {
        v1: { type: 'OwnerRemediated', status: 'False', reason: 'RemediationInProgress' },
        v2: { status: 'False', reason: 'MachineDeleting', message: 'Machine is deleting' },
      },
    });
    if (p.outcome.type !== 'remediate') throw new Error('not remediated');
    expect(JSON.parse(p.outcome.annotation)).toEqual({
      machine: 'a',
      timestamp: iso(NOW),
      retryCount: 0,
    });
  });

  it('the KCP being deleted: nothing (reconcileDelete runs instead)', () => {
    const deleting = { ...kcp(), metadata: { ...kcp().metadata, deletionTimestamp: iso(NOW) } };
    expect(
      plan([machine('a', { marked: true }), ...healthyPair()], { kcp: deleting }).outcome,
    ).toEqual({ type: 'none' });
  });

  it('the picked machine already deleting: nothing', () => {
    expect(
      plan([machine('a', { marked: true, deleting: true }), ...healthyPair()]).outcome,
    ).toEqual({ type: 'none' });
  });

  it('another remediation in progress: nothing; a stale annotation (a machine newer than it) is dropped and remediation goes on', () => {
    const annotation = JSON.stringify({ machine: 'old', timestamp: iso(NOW), retryCount: 0 });
    const inProgress = kcp({ annotations: { [REMEDIATION_IN_PROGRESS_ANNOTATION]: annotation } });
    const ms = [machine('a', { marked: true }), ...healthyPair()];
    expect(plan(ms, { kcp: inProgress })).toMatchObject({
      dropStaleAnnotation: false,
      outcome: { type: 'none' },
    });
    const stale = kcp({
      annotations: {
        [REMEDIATION_IN_PROGRESS_ANNOTATION]: JSON.stringify({
          machine: 'old',
          timestamp: iso(15),
          retryCount: 0,
        }),
      },
    });
    expect(plan(ms, { kcp: stale })).toMatchObject({
      dropStaleAnnotation: true,
      outcome: { type: 'remediate', machine: 'a' },
    });
  });

  it('an unreadable annotation fails the reconcile', () => {
    const bad = kcp({ annotations: { [REMEDIATION_IN_PROGRESS_ANNOTATION]: '{nope' } });
    expect(plan([machine('a', { marked: true })], { kcp: bad }).outcome.type).toBe('error');
  });

  it('a topology version not yet propagated: RemediationDeferred', () => {
    expect(
      plan([machine('a', { marked: true }), ...healthyPair()], { topologyVersion: 'v1.35.0' })
        .outcome,
    ).toMatchObject({
      type: 'blocked',
      condition: {
        v1: { reason: 'WaitingForRemediation', severity: 'Warning' },
        v2: {
          reason: 'RemediationDeferred',
          message:
            "KubeadmControlPlane can't remediate while waiting for a version upgrade to v1.35.0 to be propagated from Cluster.spec.topology",
        },
      },
    });
  });

  it('one machine only (initialized): CannotBeRemediated; not initialized, it is remediated anyway', () => {
    const one = [machine('a', { marked: true })];
    expect(plan(one).outcome).toMatchObject({
      type: 'blocked',
      condition: {
        v1: {
          reason: 'WaitingForRemediation',
          message: "KubeadmControlPlane can't remediate if current replicas are less or equal to 1",
        },
        v2: { reason: 'CannotBeRemediated' },
      },
    });
    expect(plan(one, { initialized: false }).outcome).toMatchObject({ type: 'remediate' });
  });

  it('a healthy machine still provisioning (no Node: a scale up): RemediationDeferred', () => {
    const ms = [machine('a', { marked: true }), ...healthyPair(), machine('d', { node: false })];
    expect(plan(ms).outcome).toMatchObject({
      type: 'blocked',
      condition: {
        v1: {
          message:
            'KubeadmControlPlane waiting for control plane machine provisioning to complete before triggering remediation',
        },
        v2: {
          reason: 'RemediationDeferred',
          message:
            'KubeadmControlPlane waiting for control plane Machine provisioning to complete before triggering remediation',
        },
      },
    });
  });

  it('a machine deleting (a rollout or another remediation finishing): RemediationDeferred', () => {
    const ms = [machine('a', { marked: true }), ...healthyPair(), machine('d', { deleting: true })];
    expect(plan(ms).outcome).toMatchObject({
      type: 'blocked',
      condition: {
        v2: {
          reason: 'RemediationDeferred',
          message:
            'KubeadmControlPlane waiting for control plane Machine deletion to complete before triggering remediation',
        },
      },
    });
  });

  it('etcd would lose quorum (3 members, another unhealthy): CannotBeRemediated', () => {
    const ms = [
      machine('a', { marked: true }),
      machine('b', { broken: ['EtcdMemberHealthy'] }),
      machine('c'),
    ];
    expect(plan(ms).outcome).toMatchObject({
      type: 'blocked',
      machine: 'a',
      condition: {
        v1: {
          reason: 'WaitingForRemediation',
          message:
            "KubeadmControlPlane can't remediate this Machine because this could result in loosing Kubernetes control plane components or in etcd quorum loss",
        },
        v2: { reason: 'CannotBeRemediated' },
      },
    });
  });

  it('no machine left that the health check finds healthy to take etcd leadership: CannotBeRemediated', () => {
    const ms = [
      machine('a', { marked: true }),
      machine('b', { unhealthy: true }),
      machine('c', { unhealthy: true }),
    ];
    expect(plan(ms).outcome).toMatchObject({
      type: 'blocked',
      machine: 'a',
      condition: {
        v1: { reason: 'RemediationFailed', severity: 'Warning' },
        v2: {
          reason: 'CannotBeRemediated',
          message:
            "KubeadmControlPlane can't remediate this Machine because there is no healthy Machine to forward etcd leadership to",
        },
      },
    });
  });

  it('retryPeriod not passed for a replacement: RemediationDeferred, looked at again when it ends', () => {
    const last = JSON.stringify({ machine: 'old', timestamp: iso(NOW - 60_000), retryCount: 1 });
    const ms = [
      machine('a', { marked: true, annotations: { [REMEDIATION_FOR_ANNOTATION]: last } }),
      ...healthyPair(),
    ];
    const p = plan(ms, { kcp: kcp({ strategy: { retryPeriod: '10m' } }) });
    expect(p.outcome).toMatchObject({
      type: 'blocked',
      recheckMs: 540_000,
      condition: {
        v1: { reason: 'WaitingForRemediation' },
        v2: {
          reason: 'RemediationDeferred',
          message:
            "KubeadmControlPlane can't remediate this machine because the operation already failed in the latest 10m0s (RetryPeriodSeconds)",
        },
      },
    });
  });

  it('past retryPeriod, within minHealthyPeriod: a retry, its count carried and raised', () => {
    const last = JSON.stringify({ machine: 'old', timestamp: iso(NOW - 700_000), retryCount: 1 });
    const ms = [
      machine('a', { marked: true, annotations: { [REMEDIATION_FOR_ANNOTATION]: last } }),
      ...healthyPair(),
    ];
    const p = plan(ms, { kcp: kcp({ strategy: { retryPeriod: '10m', maxRetry: 3 } }) });
    if (p.outcome.type !== 'remediate') throw new Error(p.outcome.type);
    expect(parseRemediationData(p.outcome.annotation)?.retryCount).toBe(2);
  });

  it('maxRetry reached: CannotBeRemediated', () => {
    const last = JSON.stringify({ machine: 'old', timestamp: iso(NOW - 700_000), retryCount: 3 });
    const ms = [
      machine('a', { marked: true, annotations: { [REMEDIATION_FOR_ANNOTATION]: last } }),
      ...healthyPair(),
    ];
    expect(
      plan(ms, { kcp: kcp({ strategy: { retryPeriod: '10m', maxRetry: 3 } }) }).outcome,
    ).toMatchObject({
      type: 'blocked',
      condition: {
        v2: {
          reason: 'CannotBeRemediated',
          message:
            "KubeadmControlPlane can't remediate this machine because the operation already failed 3 times (MaxRetry)",
        },
      },
    });
  });

  it('past minHealthyPeriod (default 1h) the machine was healthy long enough: a new sequence, count 0', () => {
    const last = JSON.stringify({ machine: 'old', timestamp: iso(NOW - 3_700_000), retryCount: 3 });
    const ms = [
      machine('a', { marked: true, annotations: { [REMEDIATION_FOR_ANNOTATION]: last } }),
      ...healthyPair(),
    ];
    const p = plan(ms, { kcp: kcp({ strategy: { retryPeriod: '10m', maxRetry: 3 } }) });
    if (p.outcome.type !== 'remediate') throw new Error(p.outcome.type);
    expect(parseRemediationData(p.outcome.annotation)?.retryCount).toBe(0);
  });
});

describe('canSafelyRemediate', () => {
  it('5 members tolerate one more unhealthy; 3 do not', () => {
    const t = machine('t', { marked: true });
    const five = [t, machine('b', { broken: ['EtcdMemberHealthy'] }), machine('c'), machine('d')];
    expect(canSafelyRemediate([...five, machine('e')], t, true)).toBe(true);
    expect(
      canSafelyRemediate(
        [t, machine('b', { broken: ['EtcdMemberHealthy'] }), machine('c')],
        t,
        true,
      ),
    ).toBe(false);
  });

  it('no other machine with healthy components: not safe; a target without a Node removes no member', () => {
    const t = machine('t', { marked: true });
    expect(
      canSafelyRemediate([t, machine('b', { broken: ['APIServerPodHealthy'] })], t, true),
    ).toBe(false);
    const noNode = machine('t', { marked: true, node: false });
    expect(canSafelyRemediate([noNode, machine('b')], noNode, true)).toBe(true);
  });
});

describe('the KCP’s Remediating and lastRemediation', () => {
  it('Remediating False with the unhealthy machines not to be remediated, True with the OwnerRemediated messages', () => {
    expect(remediatingCondition(healthyPair())).toEqual({
      type: 'Remediating',
      status: 'False',
      reason: 'NotRemediating',
      message: '',
    });
    expect(
      remediatingCondition([machine('a', { unhealthy: true }), ...healthyPair()]).message,
    ).toBe('Machine a is not healthy (not to be remediated by KubeadmControlPlane)');
    expect(remediatingCondition([machine('a', { marked: true }), ...healthyPair()])).toEqual({
      type: 'Remediating',
      status: 'True',
      reason: 'Remediating',
      message: '* Machine a: Waiting for remediation',
    });
  });

  it('lastRemediation: the one in progress, else the newest on a machine', () => {
    const a = JSON.stringify({ machine: 'x', timestamp: iso(10_000), retryCount: 0 });
    const b = JSON.stringify({ machine: 'y', timestamp: iso(20_000), retryCount: 1 });
    const ms = [
      machine('m1', { annotations: { [REMEDIATION_FOR_ANNOTATION]: b } }),
      machine('m2', { annotations: { [REMEDIATION_FOR_ANNOTATION]: a } }),
    ];
    expect(lastRemediation(kcp(), ms)?.machine).toBe('y');
    expect(
      lastRemediation(kcp({ annotations: { [REMEDIATION_IN_PROGRESS_ANNOTATION]: a } }), ms)
        ?.machine,
    ).toBe('x');
  });
});
