import {
  ANNOTATION_PAUSED,
  LABEL_CONTROL_PLANE,
  parseUnhealthyRange,
  remediationDecision,
  selectorMatches,
  type Condition,
  type Machine,
  type MachineHealthCheck,
  type Node,
  type RemediationLimit,
} from '@dcs/domain';
import { CLUSTER_INFRASTRUCTURE_READY, CONTROL_PLANE_INITIALIZED } from '../logic/cluster-status';
import { falseCondition, setConditions, trueCondition } from '../logic/conditions';
import {
  SKIP_REMEDIATION_ANNOTATION,
  targetHealth,
  type TargetHealth,
} from '../logic/health-check';
import { INFRASTRUCTURE_READY, NODE_HEALTHY } from '../logic/machine-status';
import { desiredNode } from '../logic/node-desired';
import {
  HEALTH_CHECK_SUCCEEDED,
  OWNER_REMEDIATED,
  PAUSED,
  setV2Conditions,
  v1beta2Of,
  v2,
  type V2Update,
} from '../logic/v1beta2';
import { BY_CLUSTER, indexKey } from '../runtime/caches';
import { splitKey, watch, type Context, type Controller } from '../runtime/context';
import type { ReconcileResult } from '../runtime/queue';
import type { WorkloadClusters } from '../workload/clusters';
import { isPaused } from './paused';
import { keyFor, same } from './util';

/**
 * Cluster API's MachineHealthCheck controller (internal/controllers/machinehealthcheck, v1.14.0):
 * for each health check, its targets (the machines its selector matches in its cluster, less
 * those annotated `cluster.x-k8s.io/skip-remediation` or paused), each target's health from its
 * Node in the workload cluster against the unhealthy conditions' timeouts (and the node start-up
 * timeout for a machine without a Node: `logic/health-check.ts`), the Machine's
 * HealthCheckSucceeded condition, and, while remediation is allowed (the count of unhealthy
 * targets within maxUnhealthy or unhealthyRange), OwnerRemediated False on each unhealthy one
 * for its owner (the MachineSet) to remediate. Past the limit: RemediationAllowed False and
 * remediation held back. Status: expectedMachines, currentHealthy, remediationsAllowed, targets,
 * observedGeneration, RemediationAllowed in both condition lists.
 *
 * A health check with a remediation template (external remediation) is checked and reported, but
 * no OwnerRemediated is written: the simulator has no external remediator.
 *
 * Caches as controller-runtime's: health checks, Machines and Clusters from the informers; the
 * Nodes are read from the workload cluster's server in process. Upstream watches the workload
 * Nodes; here a Node changes only after its Machine does (the kubelet derives it), and a
 * reconcile that sees a Node behind its Machine looks again shortly. Nothing is kept between
 * reconciles but the caches, so a restarted controller resumes where the objects say.
 */

const COMPONENT = 'machinehealthcheck-controller';
const NODE_REF = { apiVersion: 'v1', kind: 'Node' } as const;
/** How soon to look again when a Node has not caught up with its Machine yet (simulated ms). */
const NODE_LAG_RECHECK_MS = 1000;

/** The limit of a health check's spec (an unreadable range allows nothing, as upstream). */
export function limitOfSpec(mhc: MachineHealthCheck): RemediationLimit {
  const range = mhc.spec?.unhealthyRange;
  if (typeof range === 'string' && range !== '') {
    const parsed = parseUnhealthyRange(range);
    return parsed
      ? { kind: 'range', ...parsed }
      : { kind: 'maxUnhealthy', maxUnhealthy: 'invalid' };
  }
  const max = mhc.spec?.maxUnhealthy;
  return max === undefined ? { kind: 'none' } : { kind: 'maxUnhealthy', maxUnhealthy: max };
}

/** A control plane machine is judged before its control plane is initialized (upstream's exception). */
const isControlPlane = (m: Machine) => m.metadata.labels?.[LABEL_CONTROL_PLANE] !== undefined;

function limitText(limit: RemediationLimit): string {
  if (limit.kind === 'range') return `unhealthyRange: [${String(limit.min)}-${String(limit.max)}]`;
  return `maxUnhealthy: ${limit.kind === 'none' ? '100%' : String(limit.maxUnhealthy)}`;
}

export function machineHealthCheckController(
  ctx: Context,
  workload: WorkloadClusters | undefined,
): Controller {
  const checks = ctx.caches.get('MachineHealthCheck');
  const machines = ctx.caches.get('Machine');
  const clusters = ctx.caches.get('Cluster');

  /**
   * The Machine's Node: the workload cluster's; without workload clusters, the one the kubelet
   * would report. `unreachable` while its workload cluster cannot be asked (upstream's cluster
   * cache not connected: nothing is judged, the health check is looked at again later).
   */
  async function nodeOf(
    m: Machine,
  ): Promise<{ node: Node | undefined; lagging: boolean } | 'unreachable'> {
    const name = m.status?.nodeRef?.name;
    if (!name) return { node: undefined, lagging: false };
    const healthy = m.status?.conditions?.find((c) => c.type === NODE_HEALTHY);
    if (!workload) {
      const node = desiredNode({
        machine: m,
        name,
        nodeInfo: {},
        nowISO: healthy?.lastTransitionTime ?? ctx.clock.stamp(),
      });
      return { node, lagging: false };
    }
    const wc = await workload.get(m.metadata.namespace ?? '', m.spec?.clusterName ?? '');
    if (!wc) return 'unreachable';
    const node = wc.server.client.get({ ...NODE_REF, name }) as Node | undefined;
    const ready = node?.status?.conditions?.find((c) => c.type === 'Ready')?.status === 'True';
    return { node, lagging: node !== undefined && ready !== (healthy?.status === 'True') };
  }

  async function reconcile(key: string): Promise<ReconcileResult | undefined> {
    const { namespace, name } = splitKey(key);
    const mhc = checks.get(namespace, name);
    if (!mhc?.spec || mhc.metadata.deletionTimestamp) return undefined;
    const ns = mhc.metadata.namespace ?? '';
    const clusterName = mhc.spec.clusterName;
    const cluster = clusters.get(ns, clusterName);
    if (!cluster || isPaused(mhc, cluster)) return undefined;
    const now = ctx.clock.now();
    const simAt = (iso: string) => {
      const wall = Date.parse(iso);
      return Number.isNaN(wall) ? undefined : ctx.clock.simAt(wall);
    };
    const trueSince = (conditions: readonly Condition[] | undefined, type: string) => {
      const c = conditions?.find((x) => x.type === type);
      return c?.status === 'True' && c.lastTransitionTime ? simAt(c.lastTransitionTime) : undefined;
    };
    const infraReady = trueSince(cluster.status?.conditions, CLUSTER_INFRASTRUCTURE_READY);
    const cpInitialized = trueSince(cluster.status?.conditions, CONTROL_PLANE_INITIALIZED);
    const machineInfraReadyAt = (m: Machine) =>
      trueSince(m.status?.conditions, INFRASTRUCTURE_READY);

    const targets = machines
      .byIndex(BY_CLUSTER, indexKey(ns, clusterName))
      .filter(
        (m) =>
          selectorMatches(mhc.spec?.selector, m.metadata.labels) &&
          m.metadata.annotations?.[SKIP_REMEDIATION_ANNOTATION] === undefined &&
          m.metadata.annotations?.[ANNOTATION_PAUSED] === undefined,
      )
      .sort((a, b) => (a.metadata.name ?? '').localeCompare(b.metadata.name ?? ''));

    let nextCheckMs: number | undefined;
    const soonest = (ms: number) => {
      nextCheckMs = nextCheckMs === undefined ? ms : Math.min(nextCheckMs, ms);
    };
    const judged: { m: Machine; health: TargetHealth }[] = [];
    for (const m of targets) {
      const seen = await nodeOf(m);
      if (seen === 'unreachable') return { requeueAfterMs: NODE_LAG_RECHECK_MS };
      const { node, lagging } = seen;
      if (lagging) soonest(NODE_LAG_RECHECK_MS);
      const created = m.metadata.creationTimestamp ? simAt(m.metadata.creationTimestamp) : now;
      const judgedFrom =
        infraReady === undefined || (cpInitialized === undefined && !isControlPlane(m))
          ? undefined
          : Math.max(created ?? now, infraReady, cpInitialized ?? 0, machineInfraReadyAt(m) ?? 0);
      const health = targetHealth({ machine: m, node, mhc, now, simAt, startupFrom: judgedFrom });
      if (health.verdict === 'pending' && health.nextCheckMs !== undefined) {
        soonest(health.nextCheckMs);
      }
      judged.push({ m, health });
    }
    const total = judged.length;
    // Upstream's currentHealthy: a Node, no unhealthy condition, not being deleted.
    const healthy = judged.filter(
      (j) => j.health.verdict === 'healthy' && !j.m.metadata.deletionTimestamp,
    );
    const unhealthyCount = total - healthy.length;
    const limit = limitOfSpec(mhc);
    const decision = remediationDecision(limit, total, unhealthyCount);
    const external = mhc.spec.remediationTemplate !== undefined;
    const nowISO = ctx.clock.stamp();

    for (const { m, health } of judged) {
      // Upstream patches its healthy and unhealthy lists; a pending target is left as it is.
      if (m.metadata.deletionTimestamp || health.verdict === 'pending') continue;
      await patchTarget(m, health, decision.allowed && !external, mhc, nowISO);
    }

    const message = `Remediation is not allowed, the number of not started or unhealthy machines ${
      limit.kind === 'range' ? 'is not within unhealthyRange' : 'exceeds maxUnhealthy'
    } (total: ${String(total)}, unhealthy: ${String(unhealthyCount)}, ${limitText(limit)})`;
    if (!decision.allowed) {
      ctx.events.emit(
        mhc,
        'Warning',
        'RemediationRestricted',
        `Remediation restricted due to exceeded number of unhealthy machines (total: ${String(total)}, unhealthy: ${String(unhealthyCount)}, ${limitText(limit)})`,
        COMPONENT,
      );
    }
    const allowedV1: Condition = decision.allowed
      ? trueCondition('RemediationAllowed')
      : falseCondition('RemediationAllowed', 'TooManyUnhealthy', 'Warning', message);
    const allowedV2: V2Update = decision.allowed
      ? v2('RemediationAllowed', 'True', 'RemediationAllowed')
      : v2('RemediationAllowed', 'False', 'TooManyUnhealthy', message);
    const generation = mhc.metadata.generation ?? 0;
    const block = v1beta2Of(mhc.status) ?? {};
    const status = {
      ...(mhc.status ?? {}),
      expectedMachines: total,
      currentHealthy: healthy.length,
      remediationsAllowed: decision.remediationsAllowed,
      targets: targets.map((m) => m.metadata.name ?? ''),
      observedGeneration: generation,
      conditions: setConditions(mhc.status?.conditions, [allowedV1], nowISO),
      v1beta2: {
        ...block,
        conditions: setV2Conditions(
          block.conditions,
          [allowedV2, v2(PAUSED, 'False', 'NotPaused')],
          generation,
          nowISO,
        ),
      },
    };
    if (!same(status, mhc.status)) {
      await ctx.writer.updateStatus('MachineHealthCheck', { ...mhc, status });
    }
    return nextCheckMs === undefined ? undefined : { requeueAfterMs: Math.max(nextCheckMs, 1) };
  }

  /** HealthCheckSucceeded on the target; OwnerRemediated False on an unhealthy one when allowed. */
  async function patchTarget(
    m: Machine,
    health: Exclude<TargetHealth, { verdict: 'pending' }>,
    remediate: boolean,
    mhc: MachineHealthCheck,
    nowISO: string,
  ): Promise<void> {
    const s = m.status ?? {};
    const block = v1beta2Of(s) ?? {};
    const hadOwner = s.conditions?.some((c) => c.type === OWNER_REMEDIATED) ?? false;
    let v1 = s.conditions ?? [];
    let v2s = block.conditions ?? [];
    const generation = m.metadata.generation ?? 0;
    let marked = false;
    if (health.verdict === 'healthy') {
      v1 = setConditions(v1, [trueCondition(HEALTH_CHECK_SUCCEEDED)], nowISO);
      v2s = setV2Conditions(
        v2s,
        [v2(HEALTH_CHECK_SUCCEEDED, 'True', 'HealthCheckSucceeded')],
        generation,
        nowISO,
      );
      // A machine that recovered before its owner remediated it is no longer to be remediated.
      v1 = v1.filter((c) => c.type !== OWNER_REMEDIATED);
      v2s = v2s.filter((c) => c.type !== OWNER_REMEDIATED);
    } else {
      const updatesV1: Condition[] = [
        falseCondition(HEALTH_CHECK_SUCCEEDED, health.reason, 'Warning', health.message),
      ];
      const updatesV2: V2Update[] = [
        v2(
          HEALTH_CHECK_SUCCEEDED,
          'False',
          health.v2Reason,
          `Health check failed: ${health.message}`,
        ),
      ];
      if (remediate && !hadOwner) {
        updatesV1.push(
          falseCondition(
            OWNER_REMEDIATED,
            'WaitingForRemediation',
            'Warning',
            'MachineHealthCheck failed',
          ),
        );
        updatesV2.push(
          v2(OWNER_REMEDIATED, 'False', 'WaitingForRemediation', 'Waiting for remediation'),
        );
        marked = true;
      }
      v1 = setConditions(v1, updatesV1, nowISO);
      v2s = setV2Conditions(v2s, updatesV2, generation, nowISO);
    }
    const next = { ...s, conditions: v1, v1beta2: { ...block, conditions: v2s } };
    if (same(next, m.status)) return;
    await ctx.writer.updateStatus('Machine', { ...m, status: next });
    if (marked) {
      ctx.events.emit(
        m,
        'Normal',
        'MachineMarkedUnhealthy',
        `Machine ${m.metadata.namespace ?? ''}/${m.metadata.name ?? ''} has been marked as unhealthy by ${mhc.metadata.namespace ?? ''}/${mhc.metadata.name ?? ''}`,
        COMPONENT,
      );
    }
  }

  const ofCluster = (ns: string | undefined, cluster: string | undefined) =>
    cluster ? checks.byIndex(BY_CLUSTER, indexKey(ns, cluster)).map(keyFor) : [];

  return {
    name: 'machinehealthcheck',
    primary: 'MachineHealthCheck',
    concurrency: 4,
    watches: [
      watch('Machine', (m) => ofCluster(m.metadata.namespace, m.spec?.clusterName)),
      watch('Cluster', (c) => ofCluster(c.metadata.namespace, c.metadata.name)),
    ],
    reconcile,
  };
}
