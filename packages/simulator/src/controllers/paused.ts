import { ANNOTATION_PAUSED, type Cluster, type ObjectOf } from '@dcs/domain';
import { getV2, pausedCondition, setV2Conditions, v1beta2Of, PAUSED } from '../logic/v1beta2';
import type { Context } from '../runtime/context';
import type { ReconcileResult } from '../runtime/queue';
import { keyFor } from './util';

/**
 * Pausing, as Cluster API v1.14's controllers do it (`util/paused`, issue 26): an object whose
 * Cluster has `spec.paused: true`, or which carries the `cluster.x-k8s.io/paused` annotation, is
 * not reconciled at all, its deletion included; the controller only keeps its v1beta2 `Paused`
 * condition current (EnsurePausedCondition: True, reason Paused, the message naming the cause;
 * False, reason NotPaused) and returns whenever the object is paused or that condition changed.
 * Cluster API's controllers watch the Cluster for paused transitions (ClusterPausedTransitions):
 * {@link pauseDrifted} picks the objects of a cluster whose condition disagrees with it. The DCS
 * provider's and the kubeadm bootstrap provider's kinds (DCSMachine, KubeadmConfig) honour pausing
 * too (`annotations.IsPaused`) but write no v1beta2 conditions: {@link PausedKeys} remembers the
 * objects skipped, to wake them when their cluster is resumed.
 */

interface Pausable {
  metadata: { annotations?: Record<string, string> | undefined };
}

/** `annotations.IsPaused(cluster, obj)`. */
export const isPaused = (obj: Pausable, cluster: Cluster | undefined): boolean =>
  cluster?.spec?.paused === true || obj.metadata.annotations?.[ANNOTATION_PAUSED] !== undefined;

type ConditionKind =
  'Cluster' | 'MachineDeployment' | 'MachineSet' | 'Machine' | 'KubeadmControlPlane';

/**
 * EnsurePausedCondition: writes the Paused condition when it is not as it should be, and returns
 * the reconcile's answer when the controller must stop here (paused, or the condition changed:
 * the write's own event brings the next reconcile), or undefined to go on.
 */
export async function ensurePausedCondition<K extends ConditionKind>(
  ctx: Context,
  kind: K,
  obj: ObjectOf<K>,
  cluster: Cluster | undefined,
): Promise<{ stop: boolean; result?: ReconcileResult }> {
  const paused = isPaused(obj, cluster);
  const wanted = pausedCondition(cluster?.spec?.paused === true, obj.metadata.annotations, kind);
  const block = v1beta2Of(obj.status);
  const current = getV2(block?.conditions, PAUSED);
  if (
    current?.status === wanted.status &&
    current.reason === wanted.reason &&
    current.message === wanted.message
  ) {
    return { stop: paused };
  }
  // An object the controller has not written a status for yet gets its first one the usual way.
  if (!paused && !block) return { stop: false };
  const conditions = setV2Conditions(
    block?.conditions,
    [wanted],
    obj.metadata.generation ?? 0,
    ctx.clock.stamp(),
  );
  const status = { ...(obj.status ?? {}), v1beta2: { ...(block ?? {}), conditions } };
  await ctx.writer.updateStatus(kind, { ...obj, status });
  if (paused)
    ctx.log(`${kind.toLowerCase()} ${keyFor(obj)}: reconciliation paused (${wanted.message})`);
  return { stop: true, result: paused ? undefined : { requeue: true } };
}

/**
 * The objects (of one cluster) whose Paused condition disagrees with their pause state now: what
 * a Cluster change must wake (ClusterPausedTransitions), and nothing else, so that the cluster's
 * frequent status writes do not flood the queues.
 */
export function pauseDrifted<T extends Pausable & { status?: unknown }>(
  objs: readonly T[],
  cluster: Cluster,
): T[] {
  return objs.filter((o) => {
    const current = getV2(v1beta2Of(o.status)?.conditions, PAUSED);
    return (current?.status === 'True') !== isPaused(o, cluster);
  });
}

/** Keys a controller without a Paused condition skipped, by cluster, to wake on resume. */
export class PausedKeys {
  readonly #byCluster = new Map<string, Set<string>>();

  /** Records `key` as skipped when paused; says whether it is. */
  skip(key: string, clusterKey: string, obj: Pausable, cluster: Cluster | undefined): boolean {
    const set = this.#byCluster.get(clusterKey);
    if (!isPaused(obj, cluster)) {
      set?.delete(key);
      return false;
    }
    if (set) set.add(key);
    else this.#byCluster.set(clusterKey, new Set([key]));
    return true;
  }

  /** On a Cluster change: the skipped keys to reconcile again, once it is no longer paused. */
  wake(cluster: Cluster): string[] {
    if (cluster.spec?.paused === true) return [];
    const clusterKey = keyFor(cluster);
    const set = this.#byCluster.get(clusterKey);
    if (!set) return [];
    this.#byCluster.delete(clusterKey);
    return [...set];
  }
}
