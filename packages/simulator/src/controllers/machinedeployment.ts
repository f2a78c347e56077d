import {
  ANNOTATION_DESIRED_REPLICAS,
  ANNOTATION_MAX_REPLICAS,
  ANNOTATION_REVISION,
  LABEL_CLUSTER_NAME,
  type MachineDeployment,
  type MachineSet,
} from '@dcs/domain';
import { deploymentStatus, deploymentV2Status } from '../logic/deployment-status';
import { DRAIN_START_PATH } from '../logic/timeline';
import {
  ANNOTATION_DISABLE_MACHINE_CREATE,
  deploymentState,
  findNewMachineSet,
  newMachineSet,
  untilRolloutAfter,
  updatedMachineSet,
} from '../logic/machineset-desired';
import { seeded } from '../logic/random';
import {
  initialNewMachineSetReplicas,
  maxSurgeOf,
  planRollout,
  type MachineSetState,
  type ScaleStep,
} from '../logic/rollout';
import { BY_CLUSTER, BY_OWNER, BY_TEMPLATE, indexKey } from '../runtime/caches';
import { isAlreadyExists } from '../runtime/client';
import { splitKey, watch, type Context, type Controller } from '../runtime/context';
import type { ReconcileResult } from '../runtime/queue';
import { ensurePausedCondition, pauseDrifted } from './paused';
import { keyFor, same, withOwner } from './util';

/**
 * Cluster API's MachineDeployment controller (v1.10): one MachineSet per machine template,
 * rolling updates (RollingUpdate: maxSurge / maxUnavailable; OnDelete), revisions, old-set
 * cleanup and the deployment's status. The decisions are the pure port in logic/rollout.ts.
 */

const COMPONENT = 'machinedeployment-controller';
/** Cluster API's webhook default for spec.revisionHistoryLimit. */
const DEFAULT_REVISION_HISTORY_LIMIT = 1;

function stateOf(ms: MachineSet, machines: { total: number; deleting: number }): MachineSetState {
  return {
    name: ms.metadata.name ?? '',
    createdAt: Date.parse(ms.metadata.creationTimestamp ?? '') || 0,
    replicas: ms.spec?.replicas ?? 0,
    statusReplicas: ms.status?.replicas ?? 0,
    availableReplicas: ms.status?.availableReplicas ?? 0,
    readyReplicas: ms.status?.readyReplicas ?? 0,
    machines: machines.total,
    deletingMachines: machines.deleting,
    machineCreationDisabled:
      ms.metadata.annotations?.[ANNOTATION_DISABLE_MACHINE_CREATE] === 'true',
  };
}

export function machineDeploymentController(ctx: Context): Controller {
  const mds = ctx.caches.get('MachineDeployment');
  const sets = ctx.caches.get('MachineSet');
  const machines = ctx.caches.get('Machine');
  const infraTemplates = ctx.caches.get('DCSMachineTemplate');
  const bootstrapTemplates = ctx.caches.get('KubeadmConfigTemplate');

  const machineCounts = (ms: MachineSet) => {
    const owned = ms.metadata.uid ? machines.byIndex(BY_OWNER, ms.metadata.uid) : [];
    return {
      total: owned.length,
      deleting: owned.filter((m) => m.metadata.deletionTimestamp).length,
    };
  };

  const templatesExist = (md: MachineDeployment): boolean => {
    const spec = md.spec?.template.spec;
    const ns = md.metadata.namespace;
    const infra = spec?.infrastructureRef;
    if (!infra?.name || !infraTemplates.get(infra.namespace ?? ns, infra.name)) return false;
    const boot = spec?.bootstrap.configRef;
    return !boot?.name || Boolean(bootstrapTemplates.get(boot.namespace ?? ns, boot.name));
  };

  /** Labels and owner the Cluster API controller puts on every MachineDeployment. */
  async function ensureClusterLink(md: MachineDeployment): Promise<MachineDeployment | undefined> {
    const clusterName = md.spec?.clusterName ?? '';
    const cluster = ctx.caches.get('Cluster').get(md.metadata.namespace, clusterName);
    const labels = { ...(md.metadata.labels ?? {}), [LABEL_CLUSTER_NAME]: clusterName };
    const owners = cluster?.metadata.uid
      ? withOwner(md.metadata.ownerReferences, {
          apiVersion: cluster.apiVersion,
          kind: 'Cluster',
          name: clusterName,
          uid: cluster.metadata.uid,
        })
      : md.metadata.ownerReferences;
    if (same(labels, md.metadata.labels) && same(owners, md.metadata.ownerReferences))
      return undefined;
    return ctx.writer.update('MachineDeployment', {
      ...md,
      metadata: { ...md.metadata, labels, ...(owners ? { ownerReferences: owners } : {}) },
    });
  }

  async function scale(
    md: MachineDeployment,
    ms: MachineSet,
    steps: ScaleStep[],
    disable: boolean | undefined,
  ): Promise<MachineSet> {
    const state = deploymentState(md);
    const last = steps.at(-1);
    const annotations: Record<string, string> = {
      ...(ms.metadata.annotations ?? {}),
      [ANNOTATION_DESIRED_REPLICAS]: String(state.replicas),
      [ANNOTATION_MAX_REPLICAS]: String(state.replicas + maxSurgeOf(state)),
    };
    if (disable === true) annotations[ANNOTATION_DISABLE_MACHINE_CREATE] = 'true';
    if (disable === false) Reflect.deleteProperty(annotations, ANNOTATION_DISABLE_MACHINE_CREATE);
    const spec = ms.spec ? { ...ms.spec, ...(last ? { replicas: last.to } : {}) } : ms.spec;
    const next: MachineSet = {
      ...ms,
      metadata: { ...ms.metadata, annotations },
      ...(spec ? { spec } : {}),
    };
    if (same(next, ms)) return ms;
    const out = await ctx.writer.update('MachineSet', next);
    for (const s of steps) {
      ctx.events.emit(
        md,
        'Normal',
        'SuccessfulScale',
        `Scaled MachineSet ${keyFor(ms)}: ${s.from} -> ${s.to}`,
        COMPONENT,
      );
    }
    return out;
  }

  async function reconcile(key: string): Promise<ReconcileResult | undefined> {
    const { namespace, name } = splitKey(key);
    let md = mds.get(namespace, name);
    if (!md?.spec) return undefined;
    // Paused (its Cluster's spec.paused, its own annotation): only the Paused condition is kept.
    const pause = await ensurePausedCondition(
      ctx,
      'MachineDeployment',
      md,
      ctx.caches.get('Cluster').get(md.metadata.namespace, md.spec.clusterName),
    );
    if (pause.stop) return pause.result;
    if (md.metadata.deletionTimestamp) return undefined;
    md = (await ensureClusterLink(md)) ?? md;
    const state = deploymentState(md);
    let owned = md.metadata.uid ? sets.byIndex(BY_OWNER, md.metadata.uid) : [];
    // O-RESTART: rolloutAfter and creationTimestamp are wall-clock times.
    let newMS = findNewMachineSet(md, owned, ctx.clock.wallNow());
    // By uid, not by reference: a write replaces the object but not the set.
    const isNew = (ms: MachineSet) => newMS !== undefined && ms.metadata.uid === newMS.metadata.uid;
    const oldOf = () => owned.filter((ms) => !isNew(ms) && !ms.metadata.deletionTimestamp);

    if (newMS) {
      const updated = updatedMachineSet(md, newMS, oldOf());
      if (updated) newMS = await ctx.writer.update('MachineSet', updated);
    } else {
      if (!templatesExist(md)) {
        ctx.log(
          `machinedeployment ${key}: waiting for its machine and bootstrap templates to exist`,
        );
        return { requeueAfterMs: 30_000 };
      }
      const old = oldOf();
      const replicas = initialNewMachineSetReplicas(
        state,
        old.map((ms) => stateOf(ms, machineCounts(ms))),
      );
      const rng = seeded(
        ctx.options.randomSeed,
        'machineset',
        key,
        md.metadata.generation ?? 0,
        owned.length,
      );
      try {
        newMS = await ctx.writer.create('MachineSet', newMachineSet(md, old, replicas, rng));
      } catch (e) {
        if (isAlreadyExists(e)) return { requeue: true };
        ctx.events.emit(
          md,
          'Warning',
          'FailedCreate',
          `Failed to create MachineSet: ${String(e)}`,
          COMPONENT,
        );
        throw e;
      }
      ctx.events.emit(
        md,
        'Normal',
        'SuccessfulCreate',
        `Created MachineSet ${keyFor(newMS)}`,
        COMPONENT,
      );
    }
    owned = [...oldOf(), newMS];

    // The deployment carries its newest set's revision.
    const revision = newMS.metadata.annotations?.[ANNOTATION_REVISION];
    if (revision && md.metadata.annotations?.[ANNOTATION_REVISION] !== revision) {
      md = await ctx.writer.update('MachineDeployment', {
        ...md,
        metadata: {
          ...md.metadata,
          annotations: { ...(md.metadata.annotations ?? {}), [ANNOTATION_REVISION]: revision },
        },
      });
    }

    const old = oldOf();
    if (!md.spec?.paused) {
      const plan = planRollout(
        state,
        stateOf(newMS, machineCounts(newMS)),
        old.map((ms) => stateOf(ms, machineCounts(ms))),
      );
      if (plan.error) ctx.log(`machinedeployment ${key}: ${plan.error}`);
      const targets = [newMS, ...old];
      for (const ms of targets) {
        const steps = plan.steps.filter((s) => s.machineSet === ms.metadata.name);
        // OnDelete: old sets stop creating machines; the new set may (cleanupDisableMachineCreateAnnotation).
        const disable = isNew(ms)
          ? false
          : plan.disableCreation.includes(ms.metadata.name ?? '') || undefined;
        const written = await scale(md, ms, steps, disable);
        if (isNew(ms)) newMS = written;
        owned = owned.map((x) => (x.metadata.uid === ms.metadata.uid ? written : x));
      }
    }

    await cleanupOldSets(md, oldOf());

    const nowISO = ctx.clock.stamp();
    const status = deploymentStatus(md, state, owned, newMS, nowISO);
    const now = ctx.clock.now();
    const cluster = ctx.caches
      .get('Cluster')
      .get(md.metadata.namespace, md.spec?.clusterName ?? '');
    status.v1beta2 = deploymentV2Status({
      md,
      state,
      sets: owned,
      machines: owned.flatMap((ms) =>
        ms.metadata.uid ? machines.byIndex(BY_OWNER, ms.metadata.uid) : [],
      ),
      clusterPaused: Boolean(cluster?.spec?.paused),
      wallNow: ctx.clock.wallNow(),
      deletingFor: (m) => {
        const at = ctx.timeline.at(
          m.metadata.uid,
          'metadata/deletionTimestamp',
          m.metadata.deletionTimestamp,
        );
        return at === undefined ? undefined : now - at;
      },
      drainingFor: (m) => {
        const at = ctx.timeline.at(
          m.metadata.uid,
          DRAIN_START_PATH,
          m.status?.deletion?.nodeDrainStartTime,
        );
        return at === undefined ? undefined : now - at;
      },
      nowISO,
    });
    if (!same(status, md.status)) {
      await ctx.writer.updateStatus('MachineDeployment', { ...md, status });
    }
    // A restart scheduled for later (rolloutAfter still to come): wake when it is due.
    const wake = untilRolloutAfter(md.spec?.rolloutAfter, ctx.clock);
    return wake === undefined ? undefined : { requeueAfterMs: wake };
  }

  /** cleanupDeployment: keep revisionHistoryLimit old sets that are fully scaled down. */
  async function cleanupOldSets(md: MachineDeployment, old: MachineSet[]): Promise<void> {
    const status = md.status;
    const state = deploymentState(md);
    const complete =
      status?.updatedReplicas === state.replicas &&
      status.replicas === state.replicas &&
      status.availableReplicas === state.replicas &&
      (status.observedGeneration ?? 0) >= (md.metadata.generation ?? 0);
    if (!complete) return;
    const limit = md.spec?.revisionHistoryLimit ?? DEFAULT_REVISION_HISTORY_LIMIT;
    const alive = old
      .filter((ms) => !ms.metadata.deletionTimestamp)
      .sort(
        (a, b) =>
          Date.parse(a.metadata.creationTimestamp ?? '') -
          Date.parse(b.metadata.creationTimestamp ?? ''),
      );
    let diff = alive.length - limit;
    for (const ms of alive) {
      if (diff <= 0) break;
      diff--;
      if ((ms.status?.replicas ?? 0) !== 0 || (ms.spec?.replicas ?? 0) !== 0) continue;
      if ((ms.metadata.generation ?? 0) > (ms.status?.observedGeneration ?? 0)) continue;
      await ctx.writer.delete('MachineSet', ms);
      ctx.events.emit(
        md,
        'Normal',
        'SuccessfulDelete',
        `Deleted MachineSet "${ms.metadata.name ?? ''}"`,
        COMPONENT,
      );
    }
  }

  return {
    name: 'machinedeployment',
    primary: 'MachineDeployment',
    watches: [
      watch('MachineSet', (ms) => {
        const owner = ms.metadata.ownerReferences?.find(
          (r) => r.controller && r.kind === 'MachineDeployment',
        );
        return owner ? [`${ms.metadata.namespace ?? ''}/${owner.name}`] : [];
      }),
      watch('DCSMachineTemplate', (t) =>
        mds
          .byIndex(
            BY_TEMPLATE,
            indexKey(t.metadata.namespace, `DCSMachineTemplate/${t.metadata.name ?? ''}`),
          )
          .map(keyFor),
      ),
      watch('KubeadmConfigTemplate', (t) =>
        mds
          .byIndex(
            BY_TEMPLATE,
            indexKey(t.metadata.namespace, `KubeadmConfigTemplate/${t.metadata.name ?? ''}`),
          )
          .map(keyFor),
      ),
      watch('Cluster', (c) => {
        const own = mds.byIndex(BY_CLUSTER, indexKey(c.metadata.namespace, c.metadata.name ?? ''));
        const unlinked = own.filter(
          (md) => !md.metadata.ownerReferences?.some((r) => r.kind === 'Cluster'),
        );
        // ClusterPausedTransitions: the deployments whose Paused condition the cluster changes.
        return [...new Set([...unlinked, ...pauseDrifted(own, c)].map(keyFor))];
      }),
    ],
    reconcile,
  };
}
