import {
  LABEL_CLUSTER_NAME,
  intOrPercentProblem,
  scaledValue,
  type IntOrString,
  type Machine,
  type MachineDeployment,
  type MachineSet,
  type ObjectOf,
} from '@dcs/domain';
import { isFalse, setConditions, trueCondition } from '../logic/conditions';
import { HEALTH_CHECK_SUCCEEDED, OWNER_REMEDIATED } from '../logic/machine-status';
import { NODE_HEALTHY, machinesToDelete } from '../logic/deletion-order';
import {
  cloneFromTemplate,
  desiredMachine,
  ownerRef,
  refTo,
  withSetTimeouts,
  type TemplateObject,
} from '../logic/machine-desired';
import { ANNOTATION_DISABLE_MACHINE_CREATE } from '../logic/machineset-desired';
import {
  isMachineAvailable,
  isMachineReady,
  machineSetStatus,
  machineSetV2Status,
  machineUpToDate,
} from '../logic/machineset-status';
import { DRAIN_START_PATH } from '../logic/timeline';
import { UP_TO_DATE, getV2, setV2Conditions, v1beta2Of, v2 } from '../logic/v1beta2';
import { seeded } from '../logic/random';
import { BY_CLUSTER, BY_OWNER, indexKey } from '../runtime/caches';
import { isAlreadyExists } from '../runtime/client';
import { splitKey, watch, type Context, type Controller } from '../runtime/context';
import type { ReconcileResult } from '../runtime/queue';
import { ensurePausedCondition, pauseDrifted } from './paused';
import { SUMMARY_BATCH_SIM_MS, errorMessage, keyFor, same } from './util';

/**
 * Cluster API's MachineSet controller (v1.10): creates machines with their bootstrap config and
 * infrastructure machine cloned from the templates, deletes surplus machines in Cluster API's
 * deletion order, propagates the node timeouts to its machines in place, and reports the set's
 * status.
 */

const COMPONENT = 'machineset-controller';

/** Marked by a MachineHealthCheck for its owner to remediate (collections.IsUnhealthyAndOwnerRemediated). */
export const isToRemediate = (m: Machine): boolean =>
  !m.metadata.deletionTimestamp &&
  isFalse(m.status?.conditions, HEALTH_CHECK_SUCCEEDED) &&
  isFalse(m.status?.conditions, OWNER_REMEDIATED);

/**
 * reconcileUnhealthyMachines' budget: the MachineDeployment's `strategy.remediation.maxInFlight`
 * (scaled against its replicas, rounded up; unset: every marked machine at once), less the
 * machines already being remediated (deleting, OwnerRemediated set).
 */
export function remediationBudget(
  owned: readonly Machine[],
  md: MachineDeployment | undefined,
): number {
  const maxInFlight = (
    md?.spec?.strategy as { remediation?: { maxInFlight?: IntOrString } } | undefined
  )?.remediation?.maxInFlight;
  if (maxInFlight === undefined || intOrPercentProblem(maxInFlight))
    return Number.POSITIVE_INFINITY;
  const max = scaledValue(maxInFlight, md?.spec?.replicas ?? 1, true);
  const inFlight = owned.filter(
    (m) =>
      m.metadata.deletionTimestamp &&
      m.status?.conditions?.some((c) => c.type === OWNER_REMEDIATED),
  ).length;
  return Math.max(0, max - inFlight);
}
/** Machines created in parallel within one reconcile. */
const CREATE_PARALLELISM = 8;

interface Templated {
  apiVersion: string;
  kind: string;
  metadata: TemplateObject['metadata'];
  spec?: TemplateObject['spec'];
}

export function machineSetController(ctx: Context): Controller {
  const sets = ctx.caches.get('MachineSet');
  const machines = ctx.caches.get('Machine');
  const infraTemplates = ctx.caches.get('DCSMachineTemplate');
  const bootstrapTemplates = ctx.caches.get('KubeadmConfigTemplate');
  const deployments = ctx.caches.get('MachineDeployment');
  const clusters = ctx.caches.get('Cluster');
  /** Per set, how many names were drawn: the next name comes from the seed and this count. */
  const drawn = new Map<string, number>();

  async function createMachine(ms: MachineSet, key: string): Promise<Machine> {
    const ns = ms.metadata.namespace ?? '';
    const spec = ms.spec?.template?.spec;
    const infraRef = spec?.infrastructureRef;
    const infraTemplate = infraRef?.name
      ? infraTemplates.get(infraRef.namespace ?? ns, infraRef.name)
      : undefined;
    if (!infraTemplate)
      throw new Error(`DCSMachineTemplate ${infraRef?.name ?? '(none)'} not found`);
    const bootRef = spec?.bootstrap.configRef;
    const bootTemplate = bootRef?.name
      ? bootstrapTemplates.get(bootRef.namespace ?? ns, bootRef.name)
      : undefined;
    if (bootRef?.name && !bootTemplate)
      throw new Error(`KubeadmConfigTemplate ${bootRef.name} not found`);

    for (;;) {
      const n = drawn.get(key) ?? 0;
      drawn.set(key, n + 1);
      const machine = desiredMachine(ms, seeded(ctx.options.randomSeed, 'machine', key, n));
      const name = machine.metadata.name ?? '';
      const owner = ownerRef(ms, false);
      const clone = (template: Templated) =>
        cloneFromTemplate({
          template,
          name,
          namespace: ns,
          clusterName: ms.spec?.clusterName ?? '',
          labels: machine.metadata.labels ?? {},
          annotations: machine.metadata.annotations ?? {},
          owner,
        });
      try {
        if (bootTemplate) {
          const config = await ctx.writer.create(
            'KubeadmConfig',
            clone(bootTemplate) as ObjectOf<'KubeadmConfig'>,
          );
          machine.spec = {
            ...(machine.spec ?? { clusterName: '', infrastructureRef: {} }),
            bootstrap: { configRef: refTo(config) },
          };
        }
        const infra = await ctx.writer.create(
          'DCSMachine',
          clone(infraTemplate) as ObjectOf<'DCSMachine'>,
        );
        if (machine.spec) machine.spec.infrastructureRef = refTo(infra);
        const created = await ctx.writer.create('Machine', machine);
        ctx.events.emit(ms, 'Normal', 'SuccessfulCreate', `Created machine "${name}"`, COMPONENT);
        return created;
      } catch (e) {
        // A name already taken (a restart drew it before): draw the next one.
        if (isAlreadyExists(e)) continue;
        throw e;
      }
    }
  }

  async function reconcile(key: string): Promise<ReconcileResult | undefined> {
    const { namespace, name } = splitKey(key);
    let ms = sets.get(namespace, name);
    if (!ms?.spec) return undefined;
    const clusterName = ms.spec.clusterName;
    const pause = await ensurePausedCondition(
      ctx,
      'MachineSet',
      ms,
      clusters.get(namespace, clusterName),
    );
    if (pause.stop) return pause.result;
    if (ms.metadata.deletionTimestamp) return undefined;
    if (ms.metadata.labels?.[LABEL_CLUSTER_NAME] !== clusterName) {
      ms = await ctx.writer.update('MachineSet', {
        ...ms,
        metadata: {
          ...ms.metadata,
          labels: { ...(ms.metadata.labels ?? {}), [LABEL_CLUSTER_NAME]: clusterName },
        },
      });
    }
    const set = ms;
    let owned = set.metadata.uid ? machines.byIndex(BY_OWNER, set.metadata.uid) : [];

    // Remediation (reconcileUnhealthyMachines): a machine a MachineHealthCheck marked for its
    // owner is deleted; the replica count then brings its replacement once it is gone.
    const toRemediate = owned.filter(isToRemediate);
    if (toRemediate.length > 0) {
      const ownerRef = set.metadata.ownerReferences?.find(
        (r) => r.controller && r.kind === 'MachineDeployment',
      );
      const owner = ownerRef ? deployments.get(set.metadata.namespace, ownerRef.name) : undefined;
      const budget = remediationBudget(owned, owner);
      for (const m of toRemediate.slice(0, Number.isFinite(budget) ? budget : undefined)) {
        const s = m.status ?? {};
        const block = v1beta2Of(s) ?? {};
        const stamp = ctx.clock.stamp();
        await ctx.writer.updateStatus('Machine', {
          ...m,
          status: {
            ...s,
            conditions: setConditions(s.conditions, [trueCondition(OWNER_REMEDIATED)], stamp),
            v1beta2: {
              ...block,
              conditions: setV2Conditions(
                block.conditions,
                [v2(OWNER_REMEDIATED, 'False', 'MachineDeleting', 'Machine is deleting')],
                m.metadata.generation ?? 0,
                stamp,
              ),
            },
          },
        });
        const current = machines.get(m.metadata.namespace, m.metadata.name ?? '') ?? m;
        await ctx.writer.delete('Machine', current);
        ctx.log(`machineset ${key}: deleted unhealthy machine ${m.metadata.name ?? ''}`);
      }
      owned = set.metadata.uid ? machines.byIndex(BY_OWNER, set.metadata.uid) : owned;
    }
    const desired = set.spec?.replicas ?? 1;
    const diff = owned.length - desired;
    let creationError: string | undefined;

    if (diff < 0 && set.metadata.annotations?.[ANNOTATION_DISABLE_MACHINE_CREATE] !== 'true') {
      const created: Machine[] = [];
      let remaining = -diff;
      while (remaining > 0 && !creationError) {
        const batch = Math.min(CREATE_PARALLELISM, remaining);
        remaining -= batch;
        const results = await Promise.allSettled(
          Array.from({ length: batch }, () => createMachine(set, key)),
        );
        for (const r of results) {
          if (r.status === 'fulfilled') created.push(r.value);
          else {
            creationError = errorMessage(r.reason);
            ctx.events.emit(
              set,
              'Warning',
              'FailedCreate',
              `Failed to create machine: ${creationError}`,
              COMPONENT,
            );
          }
        }
      }
      owned = [...owned, ...created];
    } else if (diff > 0) {
      // Ages come from creationTimestamp, which the API server writes on the wall clock.
      const victims = machinesToDelete(owned, diff, set.spec?.deletePolicy, ctx.clock.wallNow());
      for (const m of victims) {
        if (m.metadata.deletionTimestamp) continue;
        await ctx.writer.delete('Machine', m);
        ctx.events.emit(
          set,
          'Normal',
          'SuccessfulDelete',
          `Deleted machine "${m.metadata.name ?? ''}"`,
          COMPONENT,
        );
      }
      owned = set.metadata.uid ? machines.byIndex(BY_OWNER, set.metadata.uid) : owned;
    }

    // In-place propagation: the set's node timeouts reach every machine it owns.
    for (const m of owned) {
      const updated = withSetTimeouts(set, m);
      if (updated) await ctx.writer.update('Machine', updated);
    }

    // The UpToDate condition of the machines (the Machine controller sets it at its own writes;
    // this catches a template change of the deployment, which the machines do not watch).
    const mdRef = set.metadata.ownerReferences?.find(
      (r) => r.controller && r.kind === 'MachineDeployment',
    );
    const md = mdRef ? deployments.get(set.metadata.namespace, mdRef.name) : undefined;
    const upToDate = machineUpToDate(set, md, ctx.clock.wallNow());
    const nowISO = ctx.clock.stamp();
    if (upToDate) {
      for (const m of owned) {
        if (m.metadata.deletionTimestamp || !m.status) continue;
        const c = getV2(v1beta2Of(m.status)?.conditions, UP_TO_DATE);
        if (!c || (c.status === upToDate.status && c.message === upToDate.message)) continue;
        const block = v1beta2Of(m.status) ?? {};
        await ctx.writer.updateStatus('Machine', {
          ...m,
          status: {
            ...m.status,
            v1beta2: {
              ...block,
              conditions: setV2Conditions(
                block.conditions,
                [upToDate],
                m.metadata.generation ?? 0,
                nowISO,
              ),
            },
          },
        });
      }
      owned = set.metadata.uid ? machines.byIndex(BY_OWNER, set.metadata.uid) : owned;
    }

    const now = ctx.clock.now();
    const readySince = (m: Machine) => ctx.timeline.since(m, NODE_HEALTHY);
    const status = machineSetStatus({
      ms: set,
      machines: owned,
      now,
      nowISO,
      readySince,
      ...(creationError ? { creationError } : {}),
    });
    status.v1beta2 = machineSetV2Status({
      ms: set,
      machines: owned,
      clusterPaused: Boolean(clusters.get(set.metadata.namespace, clusterName)?.spec?.paused),
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
    if (!same(status, set.status)) await ctx.writer.updateStatus('MachineSet', { ...set, status });

    if (creationError) return { requeueAfterMs: 30_000 };
    // minReadySeconds: look again when the next ready machine becomes available.
    const minReady = set.spec?.minReadySeconds ?? 0;
    if (
      minReady > 0 &&
      owned.some((m) => isMachineReady(m) && !isMachineAvailable(m, minReady, now, readySince))
    ) {
      return { requeueAfterMs: 1000 };
    }
    return undefined;
  }

  return {
    name: 'machineset',
    primary: 'MachineSet',
    batchSimMs: SUMMARY_BATCH_SIM_MS,
    concurrency: 8,
    watches: [
      watch('Machine', (m) => {
        const owner = m.metadata.ownerReferences?.find(
          (r) => r.controller && r.kind === 'MachineSet',
        );
        return owner ? [`${m.metadata.namespace ?? ''}/${owner.name}`] : [];
      }),
      // ClusterPausedTransitions: the sets whose Paused condition the cluster changes.
      watch('Cluster', (c) =>
        pauseDrifted(
          sets.byIndex(BY_CLUSTER, indexKey(c.metadata.namespace, c.metadata.name ?? '')),
          c,
        ).map(keyFor),
      ),
    ],
    reconcile,
  };
}
