import { LABEL_CLUSTER_NAME, LABEL_DEPLOYMENT_NAME, LABEL_SET_NAME } from '../labels';
import type { KubeadmConfigTemplate } from '../schemas/bootstrap';
import type { Cluster, Machine, MachineDeployment, MachineSet } from '../schemas/capi';
import type { KubeadmControlPlane } from '../schemas/controlplane';
import type { DCSIpHostnamePool, DCSMachine, DCSMachineTemplate } from '../schemas/dcs';
import {
  aBootstrapTemplate,
  aCluster,
  aDCSMachine,
  aKubeadmControlPlane,
  aMachine,
  aMachineDeployment,
  aMachineSet,
  aMachineTemplate,
  anIpEntry,
  anIpPool,
  controlPlaneLabels,
} from '../testing';

/**
 * Test data of the views' tests, built from the shared builders (`../testing`). Not exported
 * from the package: it only arranges builder output into whole pools.
 */

/** The builders stamp every object 2026-01-01T00:00:00Z; "now" is an hour later. */
export const CREATED = '2026-01-01T00:00:00Z';
export const NOW = new Date('2026-01-01T01:00:00Z');
export const minutesAfterCreation = (m: number) =>
  new Date(Date.parse(CREATED) + m * 60_000).toISOString();

export interface MachinePair {
  machine: Machine;
  dcsMachine: DCSMachine;
}

export interface WorkerOptions {
  deployment?: string;
  set?: string;
  cluster?: string;
  pool?: string;
  /** Entry number of the IP pool it holds (ip 10.0.1.(10+n)); 0 = holds none. */
  entry?: number;
  version?: string;
}

/** A Running, Ready worker machine and its DCSMachine, holding IP pool entry `entry`. */
export function worker(name: string, o: WorkerOptions = {}): MachinePair {
  const deployment = o.deployment ?? 'demo-md-0';
  const set = o.set ?? `${deployment}-abc12`;
  const cluster = o.cluster ?? 'demo';
  const entry = o.entry ?? 0;
  const ip = entry > 0 ? `10.0.1.${10 + entry}` : undefined;
  const machine = aMachine({
    metadata: {
      name,
      labels: {
        [LABEL_CLUSTER_NAME]: cluster,
        [LABEL_DEPLOYMENT_NAME]: deployment,
        [LABEL_SET_NAME]: set,
      },
    },
    spec: { clusterName: cluster, version: o.version ?? 'v1.33.4' },
  });
  if (machine.status) {
    machine.status.addresses = ip ? [{ type: 'InternalIP', address: ip }] : [];
  }
  const dcsMachine = aDCSMachine({
    metadata: { name, labels: { [LABEL_CLUSTER_NAME]: cluster } },
    spec: { ipHostPoolRef: { name: o.pool ?? 'demo-worker-pool' } },
  });
  if (dcsMachine.status) {
    dcsMachine.status.networkConfig = ip ? { ip } : {};
  }
  return { machine, dcsMachine };
}

/** A control-plane machine of `cluster`, Running and Ready. */
export function controlPlaneMachine(name: string, cluster = 'demo', entry = 0): MachinePair {
  const pair = worker(name, { cluster, entry, pool: `${cluster}-cp-pool` });
  pair.machine.metadata.labels = controlPlaneLabels(cluster);
  return pair;
}

/** Turns a machine into one still Provisioning since `since`, its VM `vmState` on DCS. */
export function provisioning(
  pair: MachinePair,
  o: { since?: string; cdRomFile?: boolean; vmState?: string } = {},
): MachinePair {
  const since = o.since ?? CREATED;
  pair.machine.metadata.creationTimestamp = since;
  pair.machine.status = {
    phase: 'Provisioning',
    lastUpdated: since,
    bootstrapReady: true,
    infrastructureReady: false,
    conditions: [
      {
        type: 'Ready',
        status: 'False',
        severity: 'Warning',
        reason: 'WaitingForInfrastructure',
        lastTransitionTime: since,
      },
      { type: 'BootstrapReady', status: 'True', lastTransitionTime: since },
      {
        type: 'InfrastructureReady',
        status: 'False',
        severity: 'Info',
        reason: 'WaitingForInfrastructure',
        lastTransitionTime: since,
      },
      {
        type: 'NodeHealthy',
        status: 'False',
        severity: 'Info',
        reason: 'WaitingForNodeRef',
        lastTransitionTime: since,
      },
    ],
  };
  pair.dcsMachine.metadata.creationTimestamp = since;
  const ip = pair.dcsMachine.status?.networkConfig?.ip;
  pair.dcsMachine.status = {
    ready: false,
    ...(ip ? { networkConfig: { ip } } : {}),
    ...(o.cdRomFile === false ? {} : { cdRomFile: `/iso/${pair.machine.metadata.name ?? ''}.iso` }),
    vmState: o.vmState ?? 'creating',
  };
  return pair;
}

export interface PoolOptions {
  name?: string;
  cluster?: string;
  replicas?: number;
  /** How many machines exist (default: replicas). */
  machines?: number;
  /** IP pool entries (default: replicas). */
  entries?: number;
  maxSurge?: number | string;
  maxUnavailable?: number | string;
  pool?: string;
  /** Index of the first IP entry the pool's machines hold (so pools can share one IP pool). */
  firstEntry?: number;
}

/** The objects of one pool, one array per kind (the shape of an ObjectSet). */
export interface PoolObjects {
  clusters: Cluster[];
  kubeadmControlPlanes: KubeadmControlPlane[];
  machineDeployments: MachineDeployment[];
  machineSets: MachineSet[];
  machines: Machine[];
  dcsMachines: DCSMachine[];
  machineTemplates: DCSMachineTemplate[];
  bootstrapTemplates: KubeadmConfigTemplate[];
  ipPools: DCSIpHostnamePool[];
}

export interface WorkerPoolFixture {
  md: MachineDeployment;
  ms: MachineSet;
  pairs: MachinePair[];
  objects: PoolObjects;
}

/** A healthy worker pool with every object it references, in ObjectSet form. */
export function healthyWorkerPool(o: PoolOptions = {}): WorkerPoolFixture {
  const name = o.name ?? 'demo-md-0';
  const cluster = o.cluster ?? 'demo';
  const replicas = o.replicas ?? 3;
  const count = o.machines ?? replicas;
  const pool = o.pool ?? 'demo-worker-pool';
  const first = o.firstEntry ?? 1;
  const setName = `${name}-abc12`;
  const md = aMachineDeployment({
    metadata: { name },
    spec: {
      clusterName: cluster,
      replicas,
      strategy: {
        type: 'RollingUpdate',
        rollingUpdate: { maxSurge: o.maxSurge ?? 0, maxUnavailable: o.maxUnavailable ?? 1 },
      },
    },
  });
  const ms = aMachineSet({
    metadata: {
      name: setName,
      labels: { [LABEL_DEPLOYMENT_NAME]: name },
      annotations: { 'machinedeployment.clusters.x-k8s.io/revision': '1' },
    },
    spec: { clusterName: cluster, replicas },
  });
  const pairs = Array.from({ length: count }, (_, i) =>
    worker(`${setName}-m${i + 1}`, {
      deployment: name,
      set: setName,
      cluster,
      pool,
      entry: first + i,
    }),
  );
  return {
    md,
    ms,
    pairs,
    objects: {
      clusters: [aCluster({ metadata: { name: cluster } })],
      kubeadmControlPlanes: [],
      machineDeployments: [md],
      machineSets: [ms],
      machines: pairs.map((p) => p.machine),
      dcsMachines: pairs.map((p) => p.dcsMachine),
      machineTemplates: [
        aMachineTemplate({
          metadata: { name: `${name}-template` },
          spec: { template: { spec: { ipHostPoolRef: { name: pool } } } },
        }),
      ],
      bootstrapTemplates: [aBootstrapTemplate({ metadata: { name: `${name}-kct` } })],
      ipPools: [
        anIpPool({
          metadata: { name: pool },
          spec: { pool: Array.from({ length: o.entries ?? replicas }, (_, i) => anIpEntry(i + 1)) },
        }),
      ],
    },
  };
}

/** A cluster's control plane: its KubeadmControlPlane, 3 Ready machines and its template. */
export function healthyControlPlane(cluster = 'demo', version = 'v1.33.4') {
  const kcp = aKubeadmControlPlane({
    metadata: { labels: { [LABEL_CLUSTER_NAME]: cluster } },
    spec: { version },
    status: { version },
  });
  const pairs = [1, 2, 3].map((i) => {
    const pair = controlPlaneMachine(`${cluster}-control-plane-${String(i)}`, cluster);
    if (pair.machine.spec) pair.machine.spec.version = version;
    return pair;
  });
  const template = aMachineTemplate({
    metadata: { name: `${cluster}-control-plane-template` },
    spec: {
      template: {
        spec: {
          vmTemplateName: `alauda-os-k8s-${version}`,
          ipHostPoolRef: { name: `${cluster}-cp-pool` },
        },
      },
    },
  });
  return { kcp, pairs, template };
}
