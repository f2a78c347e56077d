import type { Condition, KubeadmConfigSpec, KubeadmControlPlane, Machine } from '@dcs/domain';
import { normalizeKubeVersion, compareKubeVersions } from '@dcs/domain';
import {
  aggregate,
  falseCondition,
  getCondition,
  isTrue,
  setConditions,
  severityOf,
  trueCondition,
  unknownCondition,
  withSummary,
  READY,
} from './conditions';
import { remediatingCondition } from './kcp-remediation';
import { NODE_HEALTHY } from './machine-status';
import { rollingOutCondition } from './deployment-status';
import {
  machineSources,
  machinesAggregates,
  staleMachinesMessage,
  v2Counters,
} from './machineset-status';
import {
  DELETING,
  SCALING_DOWN,
  SCALING_UP,
  UP_TO_DATE,
  getV2,
  indentIfMultiline,
  isTrueV2,
  pausedCondition,
  setV2Conditions,
  v1beta2Of,
  v2,
  v2ConditionsOf,
  type V1Beta2Block,
  type V2Condition,
  type V2Update,
} from './v1beta2';

/**
 * KubeadmControlPlane as Cluster API v1.10's KCP controller decides and reports it
 * (controlplane/kubeadm/internal/controllers: controller.go reconcile, upgrade.go, scale.go,
 * status.go): rolling upgrades one machine at a time (scale up to replicas + maxSurge 1, then
 * delete the oldest outdated machine), each step gated by the preflight checks.
 */

export const KCP_AVAILABLE = 'Available';
export const CERTIFICATES_AVAILABLE = 'CertificatesAvailable';
export const MACHINES_CREATED = 'MachinesCreated';
export const MACHINES_READY = 'MachinesReady';
export const MACHINES_SPEC_UP_TO_DATE = 'MachinesSpecUpToDate';
export const RESIZED = 'Resized';
export const CONTROL_PLANE_COMPONENTS_HEALTHY = 'ControlPlaneComponentsHealthy';
export const ETCD_CLUSTER_HEALTHY = 'EtcdClusterHealthy';

/** Conditions KCP sets on its machines from the workload cluster's static pods and etcd. */
export const MACHINE_COMPONENT_CONDITIONS = [
  'APIServerPodHealthy',
  'ControllerManagerPodHealthy',
  'SchedulerPodHealthy',
  'EtcdPodHealthy',
] as const;
export const MACHINE_ETCD_MEMBER_HEALTHY = 'EtcdMemberHealthy';
const PREFLIGHT_CONDITIONS = [...MACHINE_COMPONENT_CONDITIONS, MACHINE_ETCD_MEMBER_HEALTHY];

/** Annotation KCP puts on a machine's infra object: the template it was cloned from. */
export const ANNOTATION_CLONED_FROM_NAME = 'cluster.x-k8s.io/cloned-from-name';
export const ANNOTATION_CLONED_FROM_GROUPKIND = 'cluster.x-k8s.io/cloned-from-groupkind';

/** How long KCP waits before checking again (controllers' constants). */
export const PREFLIGHT_FAILED_REQUEUE_MS = 15_000;
export const DELETE_REQUEUE_MS = 30_000;

export interface KcpMachine {
  machine: Machine;
  /** Name of the infrastructure template its DCSMachine was cloned from. */
  infraTemplate: string | undefined;
  /**
   * The spec of the machine's KubeadmConfig (its bootstrap config, made from KCP's
   * kubeadmConfigSpec when the machine was created); undefined when it is not there (then, as in
   * KCP, the machine is not taken as outdated for it).
   */
  bootstrapConfig?: KubeadmConfigSpec | undefined;
}

/** A value with its empty objects and arrays removed, as Go's `omitempty` serializes it. */
function pruned(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(pruned);
  if (v === null || typeof v !== 'object') return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) {
    const p = pruned(x);
    if (p === undefined) continue;
    if (typeof p === 'object' && p !== null && !Array.isArray(p) && Object.keys(p).length === 0)
      continue;
    if (Array.isArray(p) && p.length === 0) continue;
    out[k] = p;
  }
  return out;
}

function sameJson(a: unknown, b: unknown): boolean {
  const canon = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(canon)
      : v !== null && typeof v === 'object'
        ? Object.fromEntries(
            Object.keys(v)
              .sort()
              .map((k) => [k, canon((v as Record<string, unknown>)[k])]),
          )
        : v;
  return JSON.stringify(canon(pruned(a))) === JSON.stringify(canon(pruned(b)));
}

/**
 * KCP's matchInitOrJoinConfiguration (controlplane/kubeadm/internal/filters.go): KCP's
 * kubeadmConfigSpec, adjusted to the machine (no joinConfiguration for the first machine, no
 * initConfiguration for the others), against the machine's KubeadmConfig, both without
 * clusterConfiguration (compared apart in KCP, through an annotation the simulation does not keep)
 * and without the join-only fields (controlPlane, discovery). A change of files, users, commands or
 * the patches therefore rolls every control-plane machine, as a real KCP does.
 */
export function bootstrapConfigMatches(
  kcp: KubeadmControlPlane,
  machineConfig: KubeadmConfigSpec,
): boolean {
  const strip = (spec: KubeadmConfigSpec, keepInit: boolean, keepJoin: boolean) => {
    const rest: Record<string, unknown> = { ...spec };
    delete rest.clusterConfiguration;
    delete rest.initConfiguration;
    delete rest.joinConfiguration;
    const { initConfiguration, joinConfiguration } = spec;
    const join = joinConfiguration
      ? Object.fromEntries(
          Object.entries(joinConfiguration).filter(
            ([k]) => k !== 'controlPlane' && k !== 'discovery',
          ),
        )
      : undefined;
    return {
      ...rest,
      ...(keepInit && initConfiguration ? { initConfiguration } : {}),
      ...(keepJoin && join ? { joinConfiguration: join } : {}),
    };
  };
  const isInit = machineConfig.initConfiguration !== undefined;
  const isJoin = machineConfig.joinConfiguration !== undefined;
  return sameJson(
    strip(kcp.spec?.kubeadmConfigSpec ?? {}, isInit, isJoin),
    strip(machineConfig, isInit, isJoin),
  );
}

/** Why a control-plane machine must be replaced, or undefined when it is up to date. */
export function rolloutReason(
  kcp: KubeadmControlPlane,
  m: KcpMachine,
  now: number,
): string | undefined {
  const spec = kcp.spec;
  if (!spec) return undefined;
  const version = m.machine.spec?.version;
  if (!version || normalizeKubeVersion(version) !== normalizeKubeVersion(spec.version)) {
    return `Machine version "${version ?? ''}" is not equal to KCP version "${spec.version}"`;
  }
  const wanted = spec.machineTemplate.infrastructureRef.name;
  if (wanted && m.infraTemplate !== undefined && m.infraTemplate !== wanted) {
    return `Infrastructure template on KCP rotated from ${m.infraTemplate} to ${wanted}`;
  }
  if (m.bootstrapConfig && !bootstrapConfigMatches(kcp, m.bootstrapConfig)) {
    return 'Machine KubeadmConfig is outdated: the KubeadmControlPlane kubeadmConfigSpec changed';
  }
  const rolloutAfter = spec.rolloutAfter ? Date.parse(spec.rolloutAfter) : NaN;
  const created = m.machine.metadata.creationTimestamp
    ? Date.parse(m.machine.metadata.creationTimestamp)
    : NaN;
  // collections.ShouldRolloutAfter: creationTimestamp < rolloutAfter < reconciliationTime.
  if (!Number.isNaN(rolloutAfter) && rolloutAfter < now && created < rolloutAfter) {
    return 'rolloutAfter expired';
  }
  return undefined;
}

export type KcpAction =
  | { type: 'none' }
  | { type: 'create'; init: boolean }
  | { type: 'delete'; machine: string }
  | { type: 'wait'; requeueMs: number; message: string };

const createdAt = (m: Machine) =>
  m.metadata.creationTimestamp ? Date.parse(m.metadata.creationTimestamp) : 0;

/** preflightChecks: no machine being deleted, every machine with a node and healthy components. */
export function preflight(machines: readonly Machine[], exclude?: string): KcpAction | undefined {
  if (machines.length === 0) return undefined;
  const deleting = machines.filter((m) => m.metadata.deletionTimestamp);
  if (deleting.length) {
    return {
      type: 'wait',
      requeueMs: DELETE_REQUEUE_MS,
      message: `Waiting for machines to be deleted: ${deleting.map((m) => m.metadata.name).join(', ')}`,
    };
  }
  const errors: string[] = [];
  for (const m of machines) {
    if (m.metadata.name === exclude) continue;
    if (!m.status?.nodeRef) {
      errors.push(
        `Machine ${m.metadata.name ?? ''} does not have a corresponding Node yet (Machine.status.nodeRef not set)`,
      );
      continue;
    }
    for (const type of PREFLIGHT_CONDITIONS) {
      const c = getCondition(m.status.conditions, type);
      if (!c) errors.push(`Machine ${m.metadata.name ?? ''} does not have ${type} condition`);
      else if (c.status !== 'True') {
        errors.push(
          `Machine ${m.metadata.name ?? ''} reports ${type} condition is ${c.status === 'False' ? 'false' : 'unknown'} (${c.severity ?? 'Info'}, ${c.message ?? ''})`,
        );
      }
    }
  }
  if (!errors.length) return undefined;
  return {
    type: 'wait',
    requeueMs: PREFLIGHT_FAILED_REQUEUE_MS,
    message: `Waiting for control plane to pass preflight checks to continue reconciliation: [${errors.join(', ')}]`,
  };
}

/** selectMachineForScaleDown: annotated outdated, annotated, outdated, else all; the oldest. */
function machineForScaleDown(
  machines: readonly Machine[],
  outdated: readonly Machine[],
): Machine | undefined {
  const annotated = (ms: readonly Machine[]) =>
    ms.filter((m) => m.metadata.annotations?.['cluster.x-k8s.io/delete-machine'] !== undefined);
  const pool = annotated(outdated).length
    ? annotated(outdated)
    : annotated(machines).length
      ? annotated(machines)
      : outdated.length
        ? outdated
        : machines;
  return [...pool].sort(
    (a, b) =>
      createdAt(a) - createdAt(b) || ((a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1),
  )[0];
}

/** The next thing KCP does: upgrade first (one at a time), then initialize / scale. */
export function kcpNextAction(
  kcp: KubeadmControlPlane,
  machines: readonly KcpMachine[],
  now: number,
): KcpAction {
  const desired = kcp.spec?.replicas ?? 1;
  const all = machines.map((m) => m.machine);
  const outdated = machines.filter((m) => rolloutReason(kcp, m, now)).map((m) => m.machine);
  const maxSurge = (() => {
    const v = kcp.spec?.rolloutStrategy?.rollingUpdate?.maxSurge;
    return typeof v === 'number' ? v : 1;
  })();
  if (outdated.length) {
    if (all.length < desired + maxSurge) return preflight(all) ?? { type: 'create', init: false };
    return scaleDown(all, outdated);
  }
  if (all.length < desired) {
    if (all.length === 0) return { type: 'create', init: true };
    return preflight(all) ?? { type: 'create', init: false };
  }
  if (all.length > desired) return scaleDown(all, []);
  return { type: 'none' };
}

function scaleDown(all: readonly Machine[], outdated: readonly Machine[]): KcpAction {
  const victim = machineForScaleDown(all, outdated);
  if (!victim?.metadata.name) return { type: 'none' };
  return preflight(all, victim.metadata.name) ?? { type: 'delete', machine: victim.metadata.name };
}

/** The component conditions KCP writes on one control-plane machine, from its node's health. */
export function machineComponentConditions(m: Machine): Condition[] {
  if (!m.status?.nodeRef) return [];
  const healthy = isTrue(m.status.conditions, NODE_HEALTHY);
  const all = [...MACHINE_COMPONENT_CONDITIONS, MACHINE_ETCD_MEMBER_HEALTHY];
  return all.map((type) =>
    healthy
      ? trueCondition(type)
      : falseCondition(
          type,
          type === MACHINE_ETCD_MEMBER_HEALTHY ? 'EtcdMemberUnhealthy' : 'PodProvisioning',
          type === MACHINE_ETCD_MEMBER_HEALTHY ? 'Error' : 'Info',
          type === MACHINE_ETCD_MEMBER_HEALTHY
            ? 'Etcd member is not started yet'
            : 'Waiting to be scheduled',
        ),
  );
}

/** aggregateFromMachinesToKCP: errors, then warnings, then info, then unknown, else True. */
function fromMachines(
  machines: readonly Machine[],
  types: readonly string[],
  target: string,
  unhealthyReason: string,
  unknownReason: string,
  note: string,
): Condition {
  const bySeverity = {
    Error: [] as string[],
    Warning: [] as string[],
    Info: [] as string[],
    Unknown: [] as string[],
  };
  for (const m of machines) {
    const name = m.metadata.name ?? '';
    let worst: keyof typeof bySeverity | undefined;
    for (const type of types) {
      const c = getCondition(m.status?.conditions, type);
      if (!c || c.status === 'Unknown') worst ??= 'Unknown';
      else if (c.status === 'False') {
        const sev = severityOf(c);
        const rank = { Error: 0, Warning: 1, Info: 2, Unknown: 3 };
        if (!worst || rank[sev] < rank[worst]) worst = sev;
      }
    }
    if (worst) bySeverity[worst].push(name);
  }
  if (bySeverity.Error.length) {
    return falseCondition(
      target,
      unhealthyReason,
      'Error',
      `Following machines are reporting ${note} errors: ${bySeverity.Error.join(', ')}`,
    );
  }
  if (bySeverity.Warning.length) {
    return falseCondition(
      target,
      unhealthyReason,
      'Warning',
      `Following machines are reporting ${note} warnings: ${bySeverity.Warning.join(', ')}`,
    );
  }
  if (bySeverity.Info.length) {
    return falseCondition(
      target,
      unhealthyReason,
      'Info',
      `Following machines are reporting ${note} info: ${bySeverity.Info.join(', ')}`,
    );
  }
  if (bySeverity.Unknown.length) {
    return unknownCondition(
      target,
      unknownReason,
      `Following machines are reporting unknown ${note} status: ${bySeverity.Unknown.join(', ')}`,
    );
  }
  return trueCondition(target);
}

export interface KcpStatusInput {
  kcp: KubeadmControlPlane;
  machines: readonly KcpMachine[];
  certificatesReady: boolean;
  selector: string;
  now: number;
  nowISO: string;
}

export type KcpStatus = NonNullable<KubeadmControlPlane['status']>;

/** status.go updateStatus plus the conditions of reconcile, v1beta1. */
export function kcpStatus(input: KcpStatusInput): KcpStatus {
  const { kcp, machines, now, nowISO } = input;
  const all = machines.map((m) => m.machine);
  const desired = kcp.spec?.replicas ?? 1;
  const replicas = all.length;
  const outdated = machines.filter((m) => rolloutReason(kcp, m, now));
  const readyNodes = all.filter(
    (m) => m.status?.nodeRef && isTrue(m.status.conditions, NODE_HEALTHY),
  ).length;
  // kubeadm init has run once the first control-plane node registered (the kubeadm-config exists).
  const initialized = Boolean(kcp.status?.initialized) || all.some((m) => m.status?.nodeRef);
  const previous = kcp.status?.conditions;
  const updates: (Condition | undefined)[] = [];

  updates.push(
    input.certificatesReady
      ? trueCondition(CERTIFICATES_AVAILABLE)
      : falseCondition(
          CERTIFICATES_AVAILABLE,
          'CertificatesGenerationFailed',
          'Warning',
          'Waiting for cluster certificates',
        ),
  );
  if (outdated.length) {
    updates.push(
      falseCondition(
        MACHINES_SPEC_UP_TO_DATE,
        'RollingUpdateInProgress',
        'Warning',
        `Rolling ${outdated.length} replicas with outdated spec (${replicas - outdated.length} replicas up to date)`,
      ),
    );
  } else if (getCondition(previous, MACHINES_SPEC_UP_TO_DATE)) {
    updates.push(trueCondition(MACHINES_SPEC_UP_TO_DATE));
  }
  if (replicas < desired) {
    updates.push(
      falseCondition(
        RESIZED,
        'ScalingUp',
        'Warning',
        `Scaling up control plane to ${desired} replicas (actual ${replicas})`,
      ),
    );
  } else if (replicas > desired) {
    updates.push(
      falseCondition(
        RESIZED,
        'ScalingDown',
        'Warning',
        `Scaling down control plane to ${desired} replicas (actual ${replicas})`,
      ),
    );
    updates.push(trueCondition(MACHINES_CREATED));
  } else {
    if (all.filter((m) => isTrue(m.status?.conditions, READY)).length === replicas)
      updates.push(trueCondition(RESIZED));
    updates.push(trueCondition(MACHINES_CREATED));
  }
  updates.push(
    aggregate(
      all.map((m) => ({
        kind: 'Machine',
        name: m.metadata.name ?? '',
        conditions: m.status?.conditions,
      })),
      MACHINES_READY,
    ),
  );
  updates.push(
    initialized
      ? trueCondition(KCP_AVAILABLE)
      : falseCondition(KCP_AVAILABLE, 'WaitingForKubeadmInit', 'Info'),
  );
  const withNodes = all.filter((m) => m.status?.nodeRef);
  if (withNodes.length === 0) {
    updates.push(
      unknownCondition(
        CONTROL_PLANE_COMPONENTS_HEALTHY,
        'ControlPlaneComponentsInspectionFailed',
        'Waiting for the first control plane machine to have its status.nodeRef set',
      ),
      unknownCondition(
        ETCD_CLUSTER_HEALTHY,
        'EtcdClusterInspectionFailed',
        'Waiting for the first control plane machine to have its status.nodeRef set',
      ),
    );
  } else {
    updates.push(
      fromMachines(
        withNodes,
        MACHINE_COMPONENT_CONDITIONS,
        CONTROL_PLANE_COMPONENTS_HEALTHY,
        'ControlPlaneComponentsUnhealthy',
        'ControlPlaneComponentsUnknown',
        'control plane',
      ),
      fromMachines(
        withNodes,
        [MACHINE_ETCD_MEMBER_HEALTHY],
        ETCD_CLUSTER_HEALTHY,
        'EtcdClusterUnhealthy',
        'EtcdClusterUnknown',
        'etcd member',
      ),
    );
  }
  const conditions = withSummary(
    setConditions(previous, updates, nowISO),
    {
      conditions: [
        MACHINES_CREATED,
        MACHINES_SPEC_UP_TO_DATE,
        RESIZED,
        MACHINES_READY,
        KCP_AVAILABLE,
        CERTIFICATES_AVAILABLE,
      ],
    },
    nowISO,
  );
  const versions = all.map((m) => m.spec?.version).filter((v): v is string => Boolean(v));
  const lowest = versions.sort(compareKubeVersions)[0];
  return {
    ...kcp.status,
    selector: input.selector,
    replicas,
    updatedReplicas: replicas - outdated.length,
    readyReplicas: readyNodes,
    unavailableReplicas: replicas - readyNodes,
    ...(lowest ? { version: lowest } : {}),
    initialized,
    ready: readyNodes > 0,
    observedGeneration: kcp.metadata.generation ?? 0,
    conditions,
  };
}

// --- v1beta2 (controlplane/kubeadm/internal/controllers/status.go, v1.14.0) ---------------

/** The conditions KCP adds to every control-plane Machine's Ready (its readiness gates). */
export const KCP_READINESS_GATES = [...MACHINE_COMPONENT_CONDITIONS, MACHINE_ETCD_MEMBER_HEALTHY];

/** The v1beta2 conditions KCP sets on one machine: the static pods, the etcd member, UpToDate. */
export function machineV2ComponentConditions(
  kcp: KubeadmControlPlane,
  m: KcpMachine,
  now: number,
): V2Update[] {
  const out: V2Update[] = [];
  const reason = rolloutReason(kcp, m, now);
  out.push(
    reason
      ? v2(UP_TO_DATE, 'False', 'NotUpToDate', `* ${reasonForCondition(kcp, m, reason)}`)
      : v2(UP_TO_DATE, 'True', 'UpToDate'),
  );
  const machine = m.machine;
  if (!machine.status?.nodeRef) return out;
  if (machine.metadata.deletionTimestamp) {
    for (const type of KCP_READINESS_GATES)
      out.push(v2(type, 'False', 'Deleting', 'Machine is deleting'));
    return out;
  }
  const healthy = isTrue(machine.status.conditions, NODE_HEALTHY);
  for (const type of MACHINE_COMPONENT_CONDITIONS)
    out.push(
      healthy
        ? v2(type, 'True', 'Running')
        : v2(type, 'False', 'Provisioning', 'Waiting to be scheduled'),
    );
  out.push(
    healthy
      ? v2(MACHINE_ETCD_MEMBER_HEALTHY, 'True', 'Healthy')
      : v2(MACHINE_ETCD_MEMBER_HEALTHY, 'False', 'NotHealthy', 'Etcd member is not started yet'),
  );
  return out;
}

/** UpToDateMachines' condition messages: "Version a, b required", "<Kind> is not up-to-date". */
function reasonForCondition(kcp: KubeadmControlPlane, m: KcpMachine, reason: string): string {
  const version = m.machine.spec?.version;
  if (!version || normalizeKubeVersion(version) !== normalizeKubeVersion(kcp.spec?.version ?? ''))
    return `Version ${version ?? ''}, ${kcp.spec?.version ?? ''} required`;
  if (reason.startsWith('Infrastructure template'))
    return `${m.machine.spec?.infrastructureRef.kind ?? 'DCSMachine'} is not up-to-date`;
  if (reason.startsWith('Machine KubeadmConfig')) return 'KubeadmConfig is not up-to-date';
  return reason;
}

export interface KcpV2Input {
  kcp: KubeadmControlPlane;
  machines: readonly Machine[];
  initialized: boolean;
  certificatesReady: boolean;
  clusterPaused: boolean;
  wallNow: number;
  deletingFor: (m: Machine) => number | undefined;
  drainingFor: (m: Machine) => number | undefined;
  nowISO: string;
}

/** KCP's `status.v1beta2` (updateStatus), for a stacked etcd (one member per machine with a Node). */
export function kcpV2Status(input: KcpV2Input): V1Beta2Block {
  const { kcp, machines } = input;
  const deleting = Boolean(kcp.metadata.deletionTimestamp);
  const desired = deleting ? 0 : (kcp.spec?.replicas ?? 1);
  const current = machines.length;
  const stale = () => staleMachinesMessage(machines, input.deletingFor, input.drainingFor);
  const updates: V2Update[] = [
    input.initialized
      ? v2('Initialized', 'True', 'Initialized')
      : v2('Initialized', 'False', 'NotInitialized'),
    input.certificatesReady
      ? v2(CERTIFICATES_AVAILABLE, 'True', 'Available')
      : v2(
          CERTIFICATES_AVAILABLE,
          'False',
          'InternalError',
          'Please check controller logs for errors',
        ),
    rollingOutCondition(machines),
    current >= desired
      ? v2(SCALING_UP, 'False', 'NotScalingUp')
      : v2(
          SCALING_UP,
          'True',
          'ScalingUp',
          `Scaling up from ${String(current)} to ${String(desired)} replicas`,
        ),
  ];
  if (current > desired) {
    const s = stale();
    updates.push(
      v2(
        SCALING_DOWN,
        'True',
        'ScalingDown',
        `Scaling down from ${String(current)} to ${String(desired)} replicas${s ? `\n* ${s}` : ''}`,
      ),
    );
  } else updates.push(v2(SCALING_DOWN, 'False', 'NotScalingDown'));
  updates.push(...machinesAggregates(machines, input.wallNow));
  updates.push(remediatingCondition(machines));
  updates.push(
    deleting
      ? v2(DELETING, 'True', 'WaitingForMachineDeletion', `Deleting ${String(current)} Machines`)
      : v2(DELETING, 'False', 'NotDeleting'),
  );
  updates.push(
    pausedCondition(input.clusterPaused, kcp.metadata.annotations, 'KubeadmControlPlane'),
  );

  // The components and etcd, from the machines' conditions (reconcileControlPlaneAndMachinesConditions).
  const withNodes = machines.filter((m) => m.status?.nodeRef);
  const sources = machineSources(withNodes);
  if (!input.initialized || withNodes.length === 0) {
    const msg = 'Waiting for Cluster control plane to be initialized';
    updates.push(
      v2(CONTROL_PLANE_COMPONENTS_HEALTHY, 'Unknown', 'InspectionFailed', msg),
      v2(ETCD_CLUSTER_HEALTHY, 'Unknown', 'InspectionFailed', msg),
    );
  } else {
    const components = aggregateComponents(sources, MACHINE_COMPONENT_CONDITIONS);
    updates.push(
      components.bad
        ? v2(CONTROL_PLANE_COMPONENTS_HEALTHY, 'False', 'NotHealthy', components.message)
        : v2(CONTROL_PLANE_COMPONENTS_HEALTHY, 'True', 'Healthy'),
    );
    const etcd = aggregateComponents(sources, [MACHINE_ETCD_MEMBER_HEALTHY]);
    updates.push(
      etcd.bad
        ? v2(ETCD_CLUSTER_HEALTHY, 'False', 'NotHealthy', etcd.message)
        : v2(ETCD_CLUSTER_HEALTHY, 'True', 'Healthy'),
    );
  }

  // setAvailableCondition (stacked etcd: one voting member per machine with a Node).
  let cpHealthy = 0;
  for (const m of machines) {
    if (!m.spec?.providerID) continue;
    const c = v2ConditionsOf(m);
    if (KCP_READINESS_GATES.every((t) => isTrueV2(c, t))) cpHealthy++;
  }
  const voting = withNodes.length;
  const etcdHealthy = withNodes.filter((m) =>
    isTrueV2(v2ConditionsOf(m), MACHINE_ETCD_MEMBER_HEALTHY),
  ).length;
  const quorum = Math.floor(voting / 2) + 1;
  if (!input.initialized) {
    updates.push(v2(KCP_AVAILABLE, 'False', 'NotAvailable', 'Control plane not yet initialized'));
  } else if (!deleting && etcdHealthy >= quorum && cpHealthy >= 1 && input.certificatesReady) {
    updates.push(v2(KCP_AVAILABLE, 'True', 'Available'));
  } else {
    const messages: string[] = [];
    if (deleting) messages.push('* Control plane metadata.deletionTimestamp is set');
    if (!input.certificatesReady) messages.push('* Control plane certificates are not available');
    if (etcdHealthy < quorum) {
      messages.push(
        etcdHealthy === 0
          ? `* There are no healthy etcd member, at least ${String(quorum)} healthy member required for etcd quorum`
          : `* ${String(etcdHealthy)} of ${String(voting)} etcd members ${etcdHealthy === 1 ? 'is' : 'are'} healthy, at least ${String(quorum)} healthy member required for etcd quorum`,
      );
    }
    if (cpHealthy < 1)
      messages.push(
        '* There are no Machines with healthy control plane components, at least 1 required',
      );
    updates.push(v2(KCP_AVAILABLE, 'False', 'NotAvailable', messages.join('\n')));
  }

  const previous = v1beta2Of(kcp.status)?.conditions;
  return {
    conditions: setV2Conditions(previous, updates, kcp.metadata.generation ?? 0, input.nowISO),
    ...v2Counters(machines),
  };
}

/** The machines whose listed conditions are not all True, aggregated ("* Machine m: …"). */
function aggregateComponents(
  sources: ReturnType<typeof machineSources>,
  types: readonly string[],
): { bad: boolean; message: string } {
  const bad = sources.filter((s) => !types.every((t) => isTrueV2(s.conditions, t)));
  if (bad.length === 0) return { bad: false, message: '' };
  const lines: string[] = [];
  for (const s of bad) {
    const issues = types
      .map((t) => getV2(s.conditions, t))
      .filter((c): c is V2Condition => c !== undefined && c.status !== 'True')
      .map((c) => `* ${c.type}:${c.message ? indentIfMultiline(c.message) : ` ${c.reason}`}`);
    lines.push(
      `* Machine ${s.name}:${indentIfMultiline(issues.join('\n') || '* Condition not yet reported')}`,
    );
  }
  return { bad: true, message: lines.join('\n') };
}
