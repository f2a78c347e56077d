import { describe, expect, it } from 'vitest';
import { aKubeadmControlPlane, aMachine, controlPlaneLabels } from '@dcs/domain/testing';
import type { KubeadmConfigSpec, KubeadmControlPlane, Machine } from '@dcs/domain';
import { trueCondition } from './conditions';
import {
  bootstrapConfigMatches,
  kcpNextAction,
  kcpStatus,
  kcpV2Status,
  machineComponentConditions,
  machineV2ComponentConditions,
  rolloutReason,
  type KcpMachine,
} from './kcp';
import { setV2Conditions, v2 } from './v1beta2';

const now = Date.parse('2026-02-01T00:00:00Z');
const kcp = (version = 'v1.33.4', template = 'demo-control-plane-template') =>
  aKubeadmControlPlane({
    spec: { version, machineTemplate: { infrastructureRef: { name: template } } },
  });

function cp(
  name: string,
  o: {
    version?: string;
    template?: string;
    created?: string;
    healthy?: boolean;
    deleting?: boolean;
  } = {},
): KcpMachine {
  const m: Machine = aMachine({
    metadata: {
      name,
      labels: controlPlaneLabels(),
      creationTimestamp: o.created ?? '2026-01-01T00:00:00Z',
    },
    spec: { version: o.version ?? 'v1.33.4' },
  });
  if (o.deleting) m.metadata.deletionTimestamp = '2026-01-31T00:00:00Z';
  if (m.status) {
    m.status.conditions = [
      ...(m.status.conditions ?? []),
      ...(o.healthy === false ? [] : machineComponentConditions(m)),
    ];
  }
  return { machine: m, infraTemplate: o.template ?? 'demo-control-plane-template' };
}

describe('KubeadmControlPlane decisions (O-UPGRADE-CP)', () => {
  it('initializes with one machine, then scales up one at a time after preflight checks', () => {
    expect(kcpNextAction(kcp(), [], now)).toEqual({ type: 'create', init: true });
    const first = cp('a');
    expect(kcpNextAction(kcp(), [first], now)).toEqual({ type: 'create', init: false });
    const joining = cp('b', { healthy: false });
    if (joining.machine.status) delete joining.machine.status.nodeRef;
    const wait = kcpNextAction(kcp(), [first, joining], now);
    expect(wait).toMatchObject({ type: 'wait', requeueMs: 15_000 });
    expect(wait.type === 'wait' && wait.message).toMatch(
      /Machine b does not have a corresponding Node yet/,
    );
  });

  it('an upgrade first adds one machine (maxSurge 1), then deletes the oldest outdated one', () => {
    const machines = [
      cp('a', { created: '2026-01-01T00:00:00Z' }),
      cp('b', { created: '2026-01-02T00:00:00Z' }),
      cp('c', { created: '2026-01-03T00:00:00Z' }),
    ];
    const up = kcp('v1.34.1', 'cp-1-34');
    expect(kcpNextAction(up, machines, now)).toEqual({ type: 'create', init: false });
    const withNew = [
      ...machines,
      cp('d', { version: 'v1.34.1', template: 'cp-1-34', created: '2026-01-04T00:00:00Z' }),
    ];
    expect(kcpNextAction(up, withNew, now)).toEqual({ type: 'delete', machine: 'a' });
  });

  it('waits while a machine is being deleted, and deletes nothing more meanwhile (one at a time)', () => {
    const machines = [
      cp('a', { deleting: true }),
      cp('b'),
      cp('c'),
      cp('d', { version: 'v1.34.1' }),
    ];
    expect(kcpNextAction(kcp('v1.34.1'), machines, now)).toMatchObject({
      type: 'wait',
      requeueMs: 30_000,
    });
  });

  it('a machine with unhealthy components blocks the next step', () => {
    const sick = cp('b');
    if (sick.machine.status) {
      sick.machine.status.conditions = (sick.machine.status.conditions ?? []).map((c) =>
        c.type === 'EtcdMemberHealthy'
          ? {
              ...c,
              status: 'False' as const,
              severity: 'Error' as const,
              message: 'etcd member down',
            }
          : c,
      );
    }
    const a = kcpNextAction(kcp('v1.34.1'), [cp('a'), sick, cp('c')], now);
    expect(a.type === 'wait' && a.message).toMatch(
      /Machine b reports EtcdMemberHealthy condition is false \(Error, etcd member down\)/,
    );
  });
});

describe('KubeadmControlPlane rolls its machines when kubeadmConfigSpec changes (O-EDIT-CP-CONFIG)', () => {
  const patch = (policy: boolean) =>
    `{"apiVersion":"kubelet.config.k8s.io/v1beta1","kind":"KubeletConfiguration"${policy ? ',"imagePullCredentialsVerificationPolicy":"NeverVerify"' : ''}}`;
  const spec = (content: string) => ({
    format: 'ignition' as const,
    files: [{ path: '/etc/kubernetes/patches/kubeletconfiguration0+strategic.json', content }],
    initConfiguration: { nodeRegistration: { kubeletExtraArgs: { 'node-ip': 'NODE_IP' } } },
    joinConfiguration: { nodeRegistration: { kubeletExtraArgs: { 'node-ip': 'NODE_IP' } } },
    clusterConfiguration: { clusterName: 'demo' },
  });
  const withSpec = (content: string) => {
    const k = kcp();
    if (k.spec) k.spec.kubeadmConfigSpec = spec(content);
    return k;
  };
  // What the KCP controller writes on each machine's KubeadmConfig (controllers/kcp.ts).
  const initConfig = (content: string) => {
    const rest: KubeadmConfigSpec = spec(content);
    delete rest.joinConfiguration;
    return rest;
  };
  const joinConfig = (content: string) => {
    const rest: KubeadmConfigSpec = spec(content);
    delete rest.initConfiguration;
    delete rest.clusterConfiguration;
    return {
      ...rest,
      joinConfiguration: { ...rest.joinConfiguration, controlPlane: {} },
    };
  };

  it('O-EDIT-CP-CONFIG: machines made from the current kubeadmConfigSpec are up to date, init and join alike', () => {
    const k = withSpec(patch(false));
    expect(bootstrapConfigMatches(k, initConfig(patch(false)))).toBe(true);
    expect(bootstrapConfigMatches(k, joinConfig(patch(false)))).toBe(true);
    // clusterConfiguration is compared apart by KCP (an annotation), not through the KubeadmConfig.
    const other = withSpec(patch(false));
    if (other.spec?.kubeadmConfigSpec)
      other.spec.kubeadmConfigSpec.clusterConfiguration = { clusterName: 'x' };
    expect(bootstrapConfigMatches(other, joinConfig(patch(false)))).toBe(true);
  });

  it('O-EDIT-CP-CONFIG: a changed kubelet patch (R-BOOT-1) makes every machine outdated, and KCP rolls them one at a time', () => {
    const k = withSpec(patch(true));
    const machines = ['a', 'b', 'c'].map((n, i) => ({
      ...cp(n, { created: `2026-01-0${String(i + 1)}T00:00:00Z` }),
      bootstrapConfig: i === 0 ? initConfig(patch(false)) : joinConfig(patch(false)),
    }));
    for (const m of machines) expect(rolloutReason(k, m, now)).toMatch(/KubeadmConfig is outdated/);
    expect(kcpNextAction(k, machines, now)).toEqual({ type: 'create', init: false });
    const fresh = {
      ...cp('d', { created: '2026-01-04T00:00:00Z' }),
      bootstrapConfig: joinConfig(patch(true)),
    };
    expect(rolloutReason(k, fresh, now)).toBeUndefined();
    expect(kcpNextAction(k, [...machines, fresh], now)).toEqual({ type: 'delete', machine: 'a' });
  });

  it('O-EDIT-CP-CONFIG: new preKubeadmCommands or SSH users roll the control plane too; a machine without its KubeadmConfig is not taken as outdated', () => {
    const k = withSpec(patch(false));
    if (k.spec?.kubeadmConfigSpec) k.spec.kubeadmConfigSpec.preKubeadmCommands = ['echo hi'];
    expect(bootstrapConfigMatches(k, joinConfig(patch(false)))).toBe(false);
    expect(rolloutReason(k, { ...cp('a'), bootstrapConfig: undefined }, now)).toBeUndefined();
  });
});

describe('KubeadmControlPlane status and conditions (U-6)', () => {
  const nowISO = '2026-02-01T00:00:00Z';
  it('reports an upgrade in progress with the reasons Cluster API uses', () => {
    const machines = [
      cp('a'),
      cp('b'),
      cp('c'),
      cp('d', { version: 'v1.34.1', template: 'cp-1-34', healthy: false }),
    ];
    const d = machines[3];
    if (d?.machine.status) d.machine.status.conditions = [trueCondition('Ready')];
    const s = kcpStatus({
      kcp: kcp('v1.34.1', 'cp-1-34'),
      machines,
      certificatesReady: true,
      selector: 'x',
      now,
      nowISO,
    });
    const c = (type: string) => s.conditions?.find((x) => x.type === type);
    expect(c('MachinesSpecUpToDate')).toMatchObject({
      status: 'False',
      reason: 'RollingUpdateInProgress',
      severity: 'Warning',
      message: 'Rolling 3 replicas with outdated spec (1 replicas up to date)',
    });
    expect(c('Resized')).toMatchObject({
      status: 'False',
      reason: 'ScalingDown',
      message: 'Scaling down control plane to 3 replicas (actual 4)',
    });
    expect(c('ControlPlaneComponentsHealthy')).toMatchObject({
      status: 'Unknown',
      reason: 'ControlPlaneComponentsUnknown',
    });
    expect(c('EtcdClusterHealthy')?.message).toBe(
      'Following machines are reporting unknown etcd member status: d',
    );
    expect(c('Available')?.status).toBe('True');
    expect(c('CertificatesAvailable')?.status).toBe('True');
    expect(c('Ready')).toMatchObject({
      status: 'False',
      reason: 'RollingUpdateInProgress',
      severity: 'Warning',
    });
    expect(s).toMatchObject({
      replicas: 4,
      updatedReplicas: 1,
      readyReplicas: 3,
      unavailableReplicas: 1,
      version: 'v1.33.4',
      initialized: true,
      ready: true,
    });
  });

  it('before kubeadm init: Available False WaitingForKubeadmInit, Resized ScalingUp', () => {
    const s = kcpStatus({
      kcp: aKubeadmControlPlane({ status: { initialized: false, conditions: [] } }),
      machines: [],
      certificatesReady: false,
      selector: '',
      now,
      nowISO,
    });
    const c = (type: string) => s.conditions?.find((x) => x.type === type);
    expect(c('Available')).toMatchObject({
      status: 'False',
      reason: 'WaitingForKubeadmInit',
      severity: 'Info',
    });
    expect(c('Resized')).toMatchObject({
      reason: 'ScalingUp',
      message: 'Scaling up control plane to 3 replicas (actual 0)',
    });
    expect(s.initialized).toBe(false);
  });
});

describe('KubeadmControlPlane v1beta2 (controllers/status.go setAvailableCondition, UpToDate)', () => {
  const withV2 = (k: KubeadmControlPlane, m: KcpMachine): Machine => {
    const conditions = setV2Conditions(
      undefined,
      [
        ...machineV2ComponentConditions(k, m, now),
        v2('Ready', 'True', 'Ready'),
        v2('Available', 'True', 'Available'),
      ],
      1,
      '2026-02-01T00:00:00Z',
    );
    return { ...m.machine, status: { ...m.machine.status, v1beta2: { conditions } } };
  };
  const input = (k: KubeadmControlPlane, machines: Machine[]) => ({
    kcp: k,
    machines,
    initialized: true,
    certificatesReady: true,
    clusterPaused: false,
    wallNow: now,
    deletingFor: () => undefined,
    drainingFor: () => undefined,
    nowISO: '2026-02-01T00:00:00Z',
  });
  const byType = (conditions: readonly { type: string }[] | undefined) =>
    Object.fromEntries((conditions ?? []).map((c) => [c.type, c]));

  it('three healthy members: Available, the components and etcd healthy, all up to date', () => {
    const k = kcp();
    const s = kcpV2Status(
      input(
        k,
        ['a', 'b', 'c'].map((n) => withV2(k, cp(n))),
      ),
    );
    const c = byType(s.conditions);
    expect(c.Available).toMatchObject({ status: 'True', reason: 'Available' });
    expect(c.EtcdClusterHealthy).toMatchObject({ status: 'True', reason: 'Healthy' });
    expect(c.ControlPlaneComponentsHealthy).toMatchObject({ status: 'True', reason: 'Healthy' });
    expect(s).toMatchObject({ readyReplicas: 3, availableReplicas: 3, upToDateReplicas: 3 });
  });

  it('one of three etcd members healthy: below quorum, NotAvailable saying so', () => {
    const k = kcp();
    const healthy = withV2(k, cp('a'));
    const sick = ['b', 'c'].map((n) => {
      const m = cp(n, { healthy: false });
      // The node not healthy: its static pods and etcd member are not running yet.
      if (m.machine.status)
        m.machine.status.conditions = m.machine.status.conditions?.filter(
          (c) => c.type !== 'NodeHealthy',
        );
      return withV2(k, m);
    });
    const s = kcpV2Status(input(k, [healthy, ...sick]));
    expect(byType(s.conditions).Available).toMatchObject({
      status: 'False',
      reason: 'NotAvailable',
      message:
        '* 1 of 3 etcd members is healthy, at least 2 healthy member required for etcd quorum',
    });
    expect(byType(s.conditions).EtcdClusterHealthy).toMatchObject({
      status: 'False',
      reason: 'NotHealthy',
    });
  });

  it('a version change: the machines are not up to date, the control plane rolling out', () => {
    const old = kcp('v1.33.4');
    const next = kcp('v1.34.1');
    const machines = ['a', 'b'].map((n) => withV2(next, cp(n)));
    expect(machines[0]?.status?.v1beta2).toBeDefined();
    const upToDate = machineV2ComponentConditions(next, cp('a'), now).find(
      (c) => c.type === 'UpToDate',
    );
    expect(upToDate).toEqual(
      v2('UpToDate', 'False', 'NotUpToDate', '* Version v1.33.4, v1.34.1 required'),
    );
    expect(byType(kcpV2Status(input(next, machines)).conditions).RollingOut).toMatchObject({
      status: 'True',
      reason: 'RollingOut',
      message: 'Rolling out 2 not up-to-date replicas\n* Version v1.33.4, v1.34.1 required',
    });
    expect(
      machineV2ComponentConditions(old, cp('a'), now).find((c) => c.type === 'UpToDate')?.status,
    ).toBe('True');
  });

  it('not initialized yet: NotAvailable, the components not inspected', () => {
    const k = kcp();
    const s = kcpV2Status({ ...input(k, []), initialized: false });
    const c = byType(s.conditions);
    expect(c.Available).toMatchObject({
      status: 'False',
      message: 'Control plane not yet initialized',
    });
    expect(c.Initialized).toMatchObject({ status: 'False', reason: 'NotInitialized' });
    expect(c.EtcdClusterHealthy).toMatchObject({ status: 'Unknown', reason: 'InspectionFailed' });
  });
});
