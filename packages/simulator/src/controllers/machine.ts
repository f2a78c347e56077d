import {
  LABEL_CLUSTER_NAME,
  type Condition,
  type DCSMachine,
  type KubeadmConfig,
  type Machine,
} from '@dcs/domain';
import { falseCondition, mirror, setConditions, trueCondition } from '../logic/conditions';
import { formatGoDuration, parseGoDuration } from '../logic/durations';
import { failureModes } from '../logic/failures';
import { MACHINE_FINALIZER, ownerRef } from '../logic/machine-desired';
import {
  BOOTSTRAP_READY,
  DELETING_DRAINING_NODE,
  DRAINING_SUCCEEDED,
  INFRASTRUCTURE_READY,
  NODE_HEALTHY,
  drainCompleted,
  drainConditionMessage,
  drainHeader,
  machinePhase,
  timedDrainResult,
  machineV2Conditions,
  withMachineReady,
  type DeletingStep,
  type EvictionResult,
} from '../logic/machine-status';
import { KCP_READINESS_GATES } from '../logic/kcp';
import { machineUpToDate } from '../logic/machineset-status';
import { NODE_NOT_READY_MESSAGE } from '../logic/node-desired';
import { getV2, v1beta2Of } from '../logic/v1beta2';
import { BY_CLUSTER, indexKey } from '../runtime/caches';
import { stepDuration } from '../logic/timings';
import { DRAIN_START_PATH } from '../logic/timeline';
import { splitKey, watch, type Context, type Controller } from '../runtime/context';
import type { ReconcileResult } from '../runtime/queue';
import { nodeInfoOf, nodeRefOf } from './node';
import { ensurePausedCondition, isPaused } from './paused';
import { controlPlaneFirst, remaining, same, withOwner } from './util';

/**
 * Cluster API's Machine controller (v1.10, v1beta1 status) together with the simulated workload
 * cluster's kubelet: bootstrap and infrastructure readiness mirrored from the KubeadmConfig and
 * DCSMachine, the providerID, the Node joining (nodeRef, node info) and becoming Ready
 * (NodeHealthy), the phases, and deletion: drain (bounded by nodeDrainTimeout), deleting the
 * infrastructure and bootstrap objects, deleting the Node (bounded by nodeDeletionTimeout), then
 * releasing the finalizer.
 */

const COMPONENT = 'machine-controller';
/** calculateDeletingConditionForSummary's thresholds: deleting for 15 minutes, draining for 5. */
const STALE_DELETION_MS = 15 * 60_000;
const STALE_DRAIN_MS = 5 * 60_000;
/** drainRetryInterval: a drain not completed is looked at again 20 s later (simulated). */
export const DRAIN_RETRY_MS = 20_000;

type Status = NonNullable<Machine['status']>;

export function machineController(ctx: Context): Controller {
  const machines = ctx.caches.get('Machine');
  const configs = ctx.caches.get('KubeadmConfig');
  const infras = ctx.caches.get('DCSMachine');
  const pools = ctx.caches.get('DCSIpHostnamePool');
  const clusters = ctx.caches.get('Cluster');
  const sets = ctx.caches.get('MachineSet');
  const deployments = ctx.caches.get('MachineDeployment');
  const seed = ctx.options.randomSeed;

  /** The UpToDate verdict of a MachineSet's machine (the MachineSet controller sets it too). */
  const upToDateOf = (m: Machine) => {
    const owner = m.metadata.ownerReferences?.find((r) => r.controller && r.kind === 'MachineSet');
    if (!owner) return undefined;
    const ms = sets.get(m.metadata.namespace, owner.name);
    const mdRef = ms?.metadata.ownerReferences?.find(
      (r) => r.controller && r.kind === 'MachineDeployment',
    );
    const md = mdRef ? deployments.get(m.metadata.namespace, mdRef.name) : undefined;
    return machineUpToDate(ms, md, ctx.clock.wallNow());
  };

  /** Simulated ms since the deletionTimestamp (the API server's wall-clock stamp). */
  const deletingFor = (m: Machine, now: number) => {
    const at = ctx.timeline.at(
      m.metadata.uid,
      'metadata/deletionTimestamp',
      m.metadata.deletionTimestamp,
    );
    return at === undefined ? undefined : now - at;
  };
  const drainingFor = (m: Machine, now: number) => {
    const at = ctx.timeline.at(
      m.metadata.uid,
      DRAIN_START_PATH,
      m.status?.deletion?.nodeDrainStartTime,
    );
    return at === undefined ? undefined : now - at;
  };

  const infraOf = (m: Machine) => {
    const ref = m.spec?.infrastructureRef;
    return ref?.name ? infras.get(ref.namespace ?? m.metadata.namespace, ref.name) : undefined;
  };
  const configOf = (m: Machine) => {
    const ref = m.spec?.bootstrap.configRef;
    return ref?.name ? configs.get(ref.namespace ?? m.metadata.namespace, ref.name) : undefined;
  };

  function failures(m: Machine, infra: DCSMachine | undefined) {
    const poolName = infra?.spec?.ipHostPoolRef.name;
    const pool = poolName ? pools.get(m.metadata.namespace, poolName) : undefined;
    return failureModes(
      {
        machine: m.metadata.name ?? '',
        machineAnnotations: m.metadata.annotations,
        infraAnnotations: infra?.metadata.annotations,
        pool: poolName,
        poolAnnotations: pool?.metadata.annotations,
        ip: infra?.status?.networkConfig?.ip,
      },
      ctx.options.failures,
      seed,
    );
  }

  /** The Machine is the controller of its bootstrap config and infrastructure machine (reconcileExternal). */
  async function adopt(m: Machine, obj: KubeadmConfig | DCSMachine | undefined): Promise<void> {
    if (!obj || obj.metadata.deletionTimestamp) return;
    const controller = obj.metadata.ownerReferences?.find((r) => r.controller);
    if (controller?.uid === m.metadata.uid) return;
    if (controller) return; // someone else's: Cluster API would report an error; leave it.
    const refs = withOwner(obj.metadata.ownerReferences, ownerRef(m, true));
    const labels = {
      ...(obj.metadata.labels ?? {}),
      [LABEL_CLUSTER_NAME]: m.spec?.clusterName ?? '',
    };
    const metadata = { ...obj.metadata, ownerReferences: refs, labels };
    if (obj.kind === 'KubeadmConfig')
      await ctx.writer.update('KubeadmConfig', { ...obj, metadata });
    else await ctx.writer.update('DCSMachine', { ...obj, metadata });
  }

  async function reconcile(key: string): Promise<ReconcileResult | undefined> {
    const { namespace, name } = splitKey(key);
    const m = machines.get(namespace, name);
    if (!m?.spec) return undefined;
    // Paused before anything, its deletion too (upstream's reconcileDelete waits as well).
    const pause = await ensurePausedCondition(
      ctx,
      'Machine',
      m,
      clusters.get(namespace, m.spec.clusterName),
    );
    if (pause.stop) return pause.result;
    if (m.metadata.deletionTimestamp) return reconcileDelete(m);

    // Spec and metadata: finalizer, cluster label, dataSecretName and providerID (as Cluster API patches them).
    const config = configOf(m);
    const infra = infraOf(m);
    await adopt(m, config);
    await adopt(m, infra);
    const spec = { ...m.spec, bootstrap: { ...m.spec.bootstrap } };
    const dataSecretName = config?.status?.ready ? config.status.dataSecretName : undefined;
    if (!spec.bootstrap.dataSecretName && dataSecretName)
      spec.bootstrap.dataSecretName = dataSecretName;
    const infraReadyNow = Boolean(infra?.status?.ready);
    if (infraReadyNow && infra?.spec?.providerID && !spec.providerID)
      spec.providerID = infra.spec.providerID;
    const finalizers = m.metadata.finalizers?.includes(MACHINE_FINALIZER)
      ? m.metadata.finalizers
      : [...(m.metadata.finalizers ?? []), MACHINE_FINALIZER];
    const labels = { ...(m.metadata.labels ?? {}), [LABEL_CLUSTER_NAME]: spec.clusterName };
    let current = m;
    if (
      !same(spec, m.spec) ||
      !same(finalizers, m.metadata.finalizers) ||
      !same(labels, m.metadata.labels)
    ) {
      current = await ctx.writer.update('Machine', {
        ...m,
        metadata: { ...m.metadata, finalizers, labels },
        spec,
      });
    }

    const now = ctx.clock.now();
    const nowISO = ctx.clock.stamp();
    const before = current.status ?? {};
    const status: Status = { ...before };
    const updates: Condition[] = [];
    let requeue: number | undefined;
    const soonest = (ms: number) => (requeue = requeue === undefined ? ms : Math.min(requeue, ms));

    // Bootstrap (reconcileBootstrap).
    if (current.spec?.bootstrap.dataSecretName) {
      status.bootstrapReady = true;
      updates.push(trueCondition(BOOTSTRAP_READY));
    } else {
      updates.push(
        mirror(
          config?.status?.conditions,
          BOOTSTRAP_READY,
          falseCondition('', 'WaitingForDataSecret', 'Info'),
        ),
      );
    }

    // Infrastructure (reconcileInfrastructure): the failure of the DCSMachine is the Machine's.
    if (infra) {
      updates.push(
        mirror(
          infra.status?.conditions,
          INFRASTRUCTURE_READY,
          infraReadyNow
            ? trueCondition('')
            : falseCondition('', 'WaitingForInfrastructure', 'Info'),
        ),
      );
      if (infraReadyNow) status.infrastructureReady = true;
      if (infra.status?.addresses) status.addresses = infra.status.addresses;
      const { failureReason, failureMessage } = infra.status ?? {};
      if (failureReason) status.failureReason = failureReason;
      if (failureMessage) {
        status.failureMessage = `Failure detected from referenced resource ${infra.apiVersion}, Kind=DCSMachine with name "${infra.metadata.name ?? ''}": ${failureMessage}`;
      }
    } else {
      updates.push(falseCondition(INFRASTRUCTURE_READY, 'WaitingForInfrastructure', 'Info'));
    }

    // The node (reconcileNode), simulated: kubelet joins some time after the VM runs, then turns Ready.
    if (!current.spec?.providerID || !status.infrastructureReady) {
      updates.push(falseCondition(NODE_HEALTHY, 'WaitingForNodeRef', 'Info'));
    } else if (!status.nodeRef) {
      // Measured from when this Machine first saw its infrastructure ready.
      const wasReady =
        before.conditions?.find((c) => c.type === INFRASTRUCTURE_READY)?.status === 'True';
      const infraSince = wasReady
        ? (ctx.timeline.since(current, INFRASTRUCTURE_READY) ?? now)
        : now;
      const wait = remaining(
        infraSince,
        stepDuration(ctx.options.timings, seed, name, 'nodeJoin'),
        now,
      );
      if (wait > 0) {
        updates.push(falseCondition(NODE_HEALTHY, 'NodeProvisioning', 'Warning'));
        soonest(wait);
      } else {
        const nodeRef = nodeRefOf({ ...current, status }, seed);
        status.nodeInfo = nodeInfoOf(current, seed);
        // The kubelet registers the Node in the workload cluster; the nodeRef names it by its uid.
        const uid = await ctx.kubelet?.register({ ...current, status }, nodeRef.name);
        status.nodeRef = uid ? { ...nodeRef, uid } : nodeRef;
        ctx.events.emit(
          current,
          'Normal',
          'SuccessfulSetNodeRef',
          status.nodeRef.name ?? '',
          COMPONENT,
        );
        updates.push(
          falseCondition(
            NODE_HEALTHY,
            'NodeConditionsFailed',
            'Warning',
            'Node condition Ready is False. ',
          ),
        );
        soonest(stepDuration(ctx.options.timings, seed, name, 'nodeReady'));
      }
    } else {
      const healthy = before.conditions?.find((c) => c.type === NODE_HEALTHY);
      if (healthy?.status === 'True' && failures(current, infra).has('node-unhealthy')) {
        // node-unhealthy on a running machine (issue 26 item 1): its kubelet stops reporting
        // Ready, the Node's Ready goes False (the kubelet follows NodeHealthy), and a
        // MachineHealthCheck over it counts the time from there.
        updates.push(
          falseCondition(
            NODE_HEALTHY,
            'NodeConditionsFailed',
            'Warning',
            'Node condition Ready is False. ',
          ),
        );
      } else if (healthy?.status !== 'True') {
        const notReadySince =
          healthy?.reason === 'NodeConditionsFailed'
            ? (ctx.timeline.since(current, NODE_HEALTHY) ?? now)
            : now;
        const wait = remaining(
          notReadySince,
          stepDuration(ctx.options.timings, seed, name, 'nodeReady'),
          now,
        );
        if (failures(current, infra).has('node-unhealthy') || wait > 0) {
          updates.push(
            falseCondition(
              NODE_HEALTHY,
              'NodeConditionsFailed',
              'Warning',
              'Node condition Ready is False. ',
            ),
          );
          if (wait > 0) soonest(wait);
        } else {
          updates.push(trueCondition(NODE_HEALTHY));
        }
      }
    }

    return finish(current, status, updates, nowISO, requeue);
  }

  async function finish(
    m: Machine,
    status: Status,
    updates: readonly (Condition | undefined)[],
    nowISO: string,
    requeue: number | undefined,
    deletingStep?: DeletingStep,
  ): Promise<ReconcileResult | undefined> {
    const before = m.status ?? {};
    let conditions = setConditions(before.conditions, updates, nowISO);
    conditions = withMachineReady(m, conditions, nowISO);
    const next: Status = { ...status, conditions, observedGeneration: m.metadata.generation ?? 0 };
    const phase = machinePhase({ ...m, status: next });
    next.phase = phase;
    if (phase !== before.phase) next.lastUpdated = nowISO;

    // status.v1beta2 (Cluster API ≥ 1.9 writes both).
    const cluster = clusters.get(m.metadata.namespace, m.spec?.clusterName ?? '');
    const config = configOf(m);
    const infra = infraOf(m);
    const now = ctx.clock.now();
    const healthy = next.conditions?.find((c) => c.type === NODE_HEALTHY);
    const v1beta2 = {
      ...(v1beta2Of(before) ?? {}),
      conditions: machineV2Conditions({
        m: { ...m, status: next },
        bootstrap: {
          kind: m.spec?.bootstrap.configRef?.kind ?? 'KubeadmConfig',
          exists: config !== undefined,
          ready: undefined,
        },
        infra: {
          kind: m.spec?.infrastructureRef.kind ?? 'DCSMachine',
          exists: infra !== undefined,
        },
        cluster: {
          infrastructureProvisioned: Boolean(cluster?.status?.infrastructureReady),
          controlPlaneInitialized:
            cluster?.status?.conditions?.find((c) => c.type === 'ControlPlaneInitialized')
              ?.status === 'True',
          paused: Boolean(cluster?.spec?.paused),
        },
        nodeReady: next.nodeRef
          ? healthy?.status === 'True'
            ? { status: 'True', message: '' }
            : { status: 'False', message: NODE_NOT_READY_MESSAGE }
          : undefined,
        deleting: deletingStep,
        readinessGates: m.metadata.ownerReferences?.some(
          (r) => r.controller && r.kind === 'KubeadmControlPlane',
        )
          ? KCP_READINESS_GATES
          : undefined,
        upToDate: upToDateOf(m),
        deletingForMs: m.metadata.deletionTimestamp ? deletingFor(m, now) : undefined,
        drainingForMs: next.deletion?.nodeDrainStartTime
          ? drainingFor({ ...m, status: next }, now)
          : undefined,
        generation: m.metadata.generation ?? 0,
        nowISO,
      }),
    };
    next.v1beta2 = v1beta2;
    if (!same(next, before)) await ctx.writer.updateStatus('Machine', { ...m, status: next });
    return requeue === undefined ? undefined : { requeueAfterMs: requeue };
  }

  async function reconcileDelete(m: Machine): Promise<ReconcileResult | undefined> {
    const name = m.metadata.name ?? '';
    const now = ctx.clock.now();
    const nowISO = ctx.clock.stamp();
    const status: Status = { ...(m.status ?? {}) };
    const updates: Condition[] = [];
    const infra = infraOf(m);
    const config = configOf(m);

    // 1. Drain the node, at most nodeDrainTimeout.
    // A drain that timed out is not tried again.
    const draining = m.status?.conditions?.find((c) => c.type === DRAINING_SUCCEEDED);
    const drainDone = draining?.status === 'True' || draining?.reason === 'DrainingFailed';
    if (status.nodeRef && !drainDone) {
      let started = ctx.timeline.at(
        m.metadata.uid,
        DRAIN_START_PATH,
        status.deletion?.nodeDrainStartTime,
      );
      // The drain starts: its start time, and (the first time) DrainingSucceeded False. Upstream
      // patches these, then drains in the same reconcile; here both go in one write.
      const firstRound = started === undefined;
      if (started === undefined) {
        status.deletion = { ...(status.deletion ?? {}), nodeDrainStartTime: nowISO };
        started = now;
        if (!draining) {
          updates.push(
            falseCondition(
              DRAINING_SUCCEEDED,
              'Draining',
              'Info',
              'Draining the node before deletion',
            ),
          );
        }
      }
      const timeout = parseGoDuration(m.spec?.nodeDrainTimeout) ?? 0;
      const timedOut = timeout > 0 && now >= started + timeout;
      const nodeName = status.nodeRef.name ?? '';
      const startISO = status.deletion?.nodeDrainStartTime ?? nowISO;
      // The drain itself: evictions in the workload cluster (drainNode), or, where the cluster
      // has no workload, a drain simulated by time (drain-stuck: never done).
      let result: EvictionResult | 'done' | undefined;
      let timedDone = Infinity;
      if (!timedOut) {
        const stuck = failures(m, infra).has('drain-stuck');
        const round = await ctx.kubelet?.drain(m, nodeName, stuck);
        // The workload cluster is not rebuilt yet (a restart): as upstream waits for its cluster
        // cache to connect, look again shortly and write nothing meanwhile (but the start).
        if (round === 'not-synced') {
          if (!firstRound) return { requeueAfterMs: 1_000 };
          return finish(m, status, updates, nowISO, 1_000, {
            reason: DELETING_DRAINING_NODE,
            message: drainHeader(startISO),
          });
        }
        result = round;
        if (result === undefined) {
          const drain = stuck
            ? Infinity
            : stepDuration(ctx.options.timings, ctx.options.randomSeed, name, 'drain');
          timedDone = started + drain;
          result = now < timedDone ? timedDrainResult(nodeName, stuck) : 'done';
        } else timedDone = Infinity;
      }
      if (!timedOut && result !== undefined && result !== 'done' && !drainCompleted(result)) {
        const message = drainConditionMessage(startISO, result);
        updates.push(falseCondition(DRAINING_SUCCEEDED, 'Draining', 'Info', message));
        // Upstream looks again in 20 s (drainRetryInterval); a timed drain when it ends. The
        // Ready summary notes a deletion older than 15 minutes (a drain older than 5): look
        // again then too.
        const deletedAt = ctx.timeline.at(
          m.metadata.uid,
          'metadata/deletionTimestamp',
          m.metadata.deletionTimestamp,
        );
        const notes = [
          deletedAt !== undefined ? deletedAt + STALE_DELETION_MS + 1 : Infinity,
          started + STALE_DRAIN_MS + 1,
        ].filter((t) => t > now);
        const next = Number.isFinite(timedDone) ? timedDone : now + DRAIN_RETRY_MS;
        const wakeUp = Math.min(next, timeout > 0 ? started + timeout : Infinity, ...notes) - now;
        return finish(
          m,
          status,
          updates,
          nowISO,
          Number.isFinite(wakeUp) ? Math.max(wakeUp, 500) : undefined,
          { reason: DELETING_DRAINING_NODE, message },
        );
      }
      if (timedOut) {
        ctx.events.emit(
          m,
          'Warning',
          'FailedDrainNode',
          `error draining Machine's node "${status.nodeRef.name ?? ''}": drain not completed within nodeDrainTimeout ${formatGoDuration(timeout)}, skipping`,
          COMPONENT,
        );
        updates.push(
          falseCondition(
            DRAINING_SUCCEEDED,
            'DrainingFailed',
            'Warning',
            `Drain not completed within nodeDrainTimeout (${formatGoDuration(timeout)}); deletion goes on`,
          ),
        );
      } else {
        ctx.events.emit(
          m,
          'Normal',
          'SuccessfulDrainNode',
          `success draining Machine's node "${status.nodeRef.name ?? ''}"`,
          COMPONENT,
        );
        updates.push(trueCondition(DRAINING_SUCCEEDED));
      }
    }

    // 2. Delete the infrastructure machine and the bootstrap config; wait until they are gone.
    if (infra || config) {
      if (infra && !infra.metadata.deletionTimestamp) await ctx.writer.delete('DCSMachine', infra);
      if (config && !config.metadata.deletionTimestamp)
        await ctx.writer.delete('KubeadmConfig', config);
      if (infra) {
        updates.push(
          mirror(
            infra.status?.conditions,
            INFRASTRUCTURE_READY,
            falseCondition('', 'Deleting', 'Info'),
          ),
        );
      }
      const step: DeletingStep = infra
        ? {
            reason: 'WaitingForInfrastructureDeletion',
            message: `Waiting for ${m.spec?.infrastructureRef.kind ?? 'DCSMachine'} to be deleted`,
          }
        : {
            reason: 'WaitingForBootstrapDeletion',
            message: `Waiting for ${m.spec?.bootstrap.configRef?.kind ?? 'KubeadmConfig'} to be deleted`,
          };
      return finish(m, status, updates, nowISO, undefined, step);
    }

    // 3. The VM is gone: delete the Node (it cannot fail here, so nodeDeletionTimeout never runs out),
    //    then let the Machine go.
    await ctx.kubelet?.remove(m);
    const finalizers = (m.metadata.finalizers ?? []).filter((f) => f !== MACHINE_FINALIZER);
    await ctx.writer.update('Machine', { ...m, metadata: { ...m.metadata, finalizers } });
    return undefined;
  }

  const byName = (o: {
    metadata: { namespace?: string | undefined; name?: string | undefined };
  }) => [`${o.metadata.namespace ?? ''}/${o.metadata.name ?? ''}`];

  return {
    name: 'machine',
    primary: 'Machine',
    isPriority: controlPlaneFirst(machines),
    concurrency: 16,
    // The bootstrap config and the infrastructure machine carry the Machine's name.
    watches: [
      watch('KubeadmConfig', byName),
      watch('DCSMachine', byName),
      // v1beta2 NodeReady/NodeHealthy wait for the Cluster (infrastructure, control plane
      // initialized) and Paused follows it: only the machines whose conditions say otherwise.
      watch('Cluster', (c) => {
        const provisioned = Boolean(c.status?.infrastructureReady);
        const initialized =
          c.status?.conditions?.find((x) => x.type === 'ControlPlaneInitialized')?.status ===
          'True';
        return machines
          .byIndex(BY_CLUSTER, indexKey(c.metadata.namespace, c.metadata.name ?? ''))
          .filter((m) => {
            const conditions = v1beta2Of(m.status)?.conditions;
            if (!conditions) return false;
            const node = getV2(conditions, 'NodeReady');
            const waiting =
              node?.reason === 'InspectionFailed' && node.message.startsWith('Waiting for Cluster');
            const pausedNow = getV2(conditions, 'Paused')?.status === 'True';
            return (waiting && provisioned && initialized) || pausedNow !== isPaused(m, c);
          })
          .map((m) => `${m.metadata.namespace ?? ''}/${m.metadata.name ?? ''}`);
      }),
    ],
    reconcile,
  };
}
