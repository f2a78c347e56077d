import { describe, expect, it } from 'vitest';
import { aKubeadmControlPlane, aMachineDeployment, anIpEntry, anIpPool } from '../testing';
import { worker } from './fixtures';
import { ipPoolContextOf, ipPoolView, ipPoolsOfCluster, poolHasPersistentDisks } from './ippool';

describe('ipPoolView', () => {
  const pool = anIpPool({ entries: 4 });
  pool.metadata.resourceVersion = '42';

  it("U-6: carries the pool's own conditions when it reports any", () => {
    expect(ipPoolView(pool, [], []).conditions).toBeUndefined();
    const withConditions = anIpPool({
      status: { conditions: [{ type: 'Ready', status: 'False', severity: 'Warning' }] },
    });
    expect(ipPoolView(withConditions, [], []).conditions).toMatchObject([
      { type: 'Ready', status: 'False', problem: true },
    ]);
  });

  it('R-POOL-1: counts entries claimed by live DCSMachines and the free rest', () => {
    const claimants = [1, 2, 3].map((n) => worker(`m-${String(n)}`, { entry: n }).dcsMachine);
    const v = ipPoolView(pool, claimants, []);
    expect(v).toMatchObject({
      id: 'demo-worker-pool',
      resourceVersion: '42',
      total: 4,
      used: 3,
      free: 1,
    });
    expect(v.entries.map((e) => e.claimedBy)).toEqual(['m-1', 'm-2', 'm-3', undefined]);
  });

  it('names the Machine that owns the DCSMachine as the claimant', () => {
    const { dcsMachine } = worker('dcsm-x', { entry: 1 });
    dcsMachine.metadata.ownerReferences = [
      { apiVersion: 'cluster.x-k8s.io/v1beta1', kind: 'Machine', name: 'machine-x', uid: 'u' },
    ];
    expect(ipPoolView(pool, [dcsMachine], []).entries[0]?.claimedBy).toBe('machine-x');
  });

  it('ignores claims on another pool and ips that are not entries', () => {
    const other = worker('m-1', { entry: 1, pool: 'another-pool' }).dcsMachine;
    const stray = worker('m-9', { entry: 9 }).dcsMachine;
    expect(ipPoolView(pool, [other, stray], [])).toMatchObject({ used: 0, free: 4 });
  });

  it('keeps every entry field, NICs and persistent disks as written', () => {
    const entry = anIpEntry(1, {
      additionNic: [{ ip: '10.1.0.11', mask: '24', dvSwitchName: 'dvs-2', portGroupName: 'pg-2' }],
    });
    entry.persistentDisk = [
      { ...entry.persistentDisk?.[0], slot: 0, quantityGB: 40, isThin: true },
    ];
    const v = ipPoolView(anIpPool({ spec: { pool: [entry] } }), [], []);
    expect(v.entries[0]).toEqual({
      ip: '10.0.1.11',
      mask: '24',
      gateway: '10.0.1.1',
      dns: '10.0.0.2',
      hostname: 'worker-node-1',
      machineName: 'worker-vm-1',
      additionNic: [{ ip: '10.1.0.11', mask: '24', dvSwitchName: 'dvs-2', portGroupName: 'pg-2' }],
      persistentDisk: [
        {
          slot: 0,
          quantityGB: 40,
          datastoreClusterName: 'ds-cluster-1',
          path: '/var/cpaas',
          format: 'xfs',
          isThin: true,
        },
      ],
    });
  });

  it('R-POOL-1: lists the MachineDeployments that use it, their demand and surge', () => {
    const a = aMachineDeployment({ metadata: { name: 'a' }, spec: { replicas: 2 } });
    const b = aMachineDeployment({
      metadata: { name: 'b' },
      spec: { replicas: 4, strategy: { rollingUpdate: { maxSurge: '50%', maxUnavailable: 0 } } },
    });
    const v = ipPoolView(pool, [], [b, a]);
    expect(v.consumers).toEqual([
      {
        kind: 'MachineDeployment',
        deployment: 'a',
        cluster: 'demo',
        machineTemplate: 'a-template',
        replicas: 2,
        maxSurge: 0,
        maxSurgeResolved: 0,
      },
      {
        kind: 'MachineDeployment',
        deployment: 'b',
        cluster: 'demo',
        machineTemplate: 'b-template',
        replicas: 4,
        maxSurge: '50%',
        maxSurgeResolved: 2,
      },
    ]);
    expect(v).toMatchObject({ demand: 6, demandWithSurge: 8 });
  });

  it('R-POOL-1: counts the KubeadmControlPlane whose machine template names the pool, first', () => {
    const md = aMachineDeployment({ metadata: { name: 'a' }, spec: { replicas: 2 } });
    const kcp = aKubeadmControlPlane();
    const v = ipPoolView(pool, [], [md, kcp]);
    expect(v.consumers[0]).toEqual({
      kind: 'KubeadmControlPlane',
      deployment: 'demo-control-plane',
      cluster: 'demo',
      machineTemplate: 'demo-control-plane-template',
      replicas: 3,
      maxSurgeResolved: 1,
    });
    expect(v).toMatchObject({ demand: 5, demandWithSurge: 6 });
    const noSurge = aKubeadmControlPlane({
      spec: { rolloutStrategy: { rollingUpdate: { maxSurge: 0 } } },
    });
    expect(ipPoolView(pool, [], [noSurge]).consumers[0]).toMatchObject({
      maxSurge: 0,
      maxSurgeResolved: 0,
    });
  });

  it('reports persistent disk status through dcs-fields', () => {
    const p = anIpPool({
      status: {
        persistentDiskStatus: [
          { ip: '10.0.1.11', slot: 0, volumeName: 'vol-1', machineName: 'm-1', phase: 'Attached' },
        ],
      },
    });
    expect(ipPoolView(p, [], []).persistentDiskStatus).toEqual([
      { ip: '10.0.1.11', slot: 0, volumeName: 'vol-1', machineName: 'm-1', phase: 'Attached' },
    ]);
    expect(poolHasPersistentDisks(p)).toBe(true);
  });

  it('R-POOL-5: gives the rules the claims and consumers they need', () => {
    const claimants = [worker('m-1', { entry: 1 }).dcsMachine];
    const md = aMachineDeployment();
    const ctx = ipPoolContextOf(pool, ipPoolView(pool, claimants, [md]));
    expect(ctx).toMatchObject({
      name: 'demo-worker-pool',
      resourceVersion: '42',
      claims: [{ ip: '10.0.1.11', machine: 'm-1' }],
      consumers: [{ deployment: 'demo-md-0', replicas: 3, maxSurge: 0 }],
    });
    expect(ctx.entries).toBe(pool.spec?.pool);
  });
});

describe('ipPoolsOfCluster', () => {
  const view = (name: string, consumers: Parameters<typeof ipPoolView>[2]) =>
    ipPoolView(anIpPool({ metadata: { name } }), [], consumers);

  it("R-POOL-1: a cluster's tab lists the pools its control plane or worker pools use, and the namespace's others apart", () => {
    const mine = view('dev-west-workers', [
      aMachineDeployment({ metadata: { name: 'dev-west-md' }, spec: { clusterName: 'dev-west' } }),
    ]);
    const mineByControlPlane = view('dev-west-cp', [
      aKubeadmControlPlane({
        metadata: { labels: { 'cluster.x-k8s.io/cluster-name': 'dev-west' } },
      }),
    ]);
    const theirs = view('prod-east-workers', [
      aMachineDeployment({ metadata: { name: 'prod-md' }, spec: { clusterName: 'prod-east' } }),
    ]);
    const unused = view('spare', []);
    const split = ipPoolsOfCluster([mine, mineByControlPlane, theirs, unused], 'dev-west');
    expect(split.used.map((p) => p.name)).toEqual(['dev-west-workers', 'dev-west-cp']);
    expect(split.others.map((p) => p.name)).toEqual(['prod-east-workers', 'spare']);
  });

  it('a pool shared by two clusters is used by each', () => {
    const shared = view('shared', [
      aMachineDeployment({ metadata: { name: 'a-md' }, spec: { clusterName: 'a' } }),
      aMachineDeployment({ metadata: { name: 'b-md' }, spec: { clusterName: 'b' } }),
    ]);
    expect(ipPoolsOfCluster([shared], 'a').used).toHaveLength(1);
    expect(ipPoolsOfCluster([shared], 'b').used).toHaveLength(1);
    expect(ipPoolsOfCluster([shared], 'c').others).toHaveLength(1);
  });
});
