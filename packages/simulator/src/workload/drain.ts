import type { KubeObject, ServerClient } from '@dcs/apiserver';
import type { EvictionResult } from '../logic/machine-status';

/**
 * Cluster API's drain of a Node (internal/controllers/machine/drain, v1.14) against a workload
 * cluster's API server: cordon, list the Node's Pods (`spec.nodeName`), skip DaemonSet Pods whose
 * DaemonSet exists, mirror Pods and those labelled `cluster.x-k8s.io/drain: skip`, and evict the
 * others through the Eviction subresource (Pods already terminating are waited for). The Machine
 * controller turns the result into its condition message and comes back 20 s later.
 */

const MIRROR_ANNOTATION = 'kubernetes.io/config.mirror';
const DRAIN_LABEL = 'cluster.x-k8s.io/drain';

const key = (p: KubeObject) => `${p.metadata.namespace ?? ''}/${p.metadata.name ?? ''}`;
const codeOf = (e: unknown): number | undefined =>
  typeof e === 'object' && e !== null && 'code' in e && typeof e.code === 'number'
    ? e.code
    : undefined;

/** Whether the drain skips the Pod (GetPodsForEviction's filters that decide Skip). */
function skipped(c: ServerClient, p: KubeObject): boolean {
  const phase = (p.status as { phase?: string } | undefined)?.phase;
  const finished = phase === 'Succeeded' || phase === 'Failed';
  const ref = p.metadata.ownerReferences?.find((r) => r.controller);
  if (ref?.kind === 'DaemonSet' && !finished) {
    const ds = c.get({
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      name: ref.name,
      namespace: p.metadata.namespace ?? '',
    });
    // An orphaned DaemonSet Pod is drained (with a warning upstream).
    if (ds) return true;
  }
  if (p.metadata.annotations?.[MIRROR_ANNOTATION] !== undefined) return true;
  if (p.metadata.labels?.[DRAIN_LABEL] === 'skip') return true;
  return false;
}

/** The text upstream keys a failed eviction by: a 429's message with its causes. */
function failureText(e: unknown): string {
  const message = e instanceof Error ? e.message : String(e);
  if (codeOf(e) !== 429) return message;
  const causes =
    (e as { details?: { causes?: { message?: string }[] } }).details?.causes?.map(
      (x) => x.message ?? '',
    ) ?? [];
  return causes.length ? `${message} ${causes.join(',')}` : message;
}

/**
 * One round of the drain of `nodeName`: 'done' when nothing is left to drain (or the Node is
 * gone: upstream skips the drain then), else what was evicted and what was refused.
 */
export async function drainNode(
  c: ServerClient,
  nodeName: string,
): Promise<EvictionResult | 'done'> {
  const node = c.get({ apiVersion: 'v1', kind: 'Node', name: nodeName });
  if (!node) return 'done';
  // CordonNode.
  if ((node.spec as { unschedulable?: boolean } | undefined)?.unschedulable !== true) {
    try {
      await c.update({ ...node, spec: { ...(node.spec ?? {}), unschedulable: true } });
    } catch (e) {
      // The kubelet wrote the Node meanwhile; it cordons it too once the drain has started.
      if (codeOf(e) !== 409) throw e;
    }
  }
  const pods = c
    .list('v1', 'Pod')
    .filter((p) => (p.spec as { nodeName?: string } | undefined)?.nodeName === nodeName)
    .filter((p) => !skipped(c, p))
    .sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  if (pods.length === 0) return 'done';
  const deleting = pods.filter((p) => typeof p.metadata.deletionTimestamp === 'string');
  const toEvict = pods.filter((p) => typeof p.metadata.deletionTimestamp !== 'string');
  const result = {
    podsDeletionTimestampSet: deleting.map(key),
    podsFailedEviction: new Map<string, string[]>(),
    podsToTriggerEvictionLater: [] as string[],
  };
  for (const p of toEvict) {
    try {
      // GracePeriodSeconds -1: the Pod's own terminationGracePeriodSeconds.
      await c.evict(p.metadata.namespace ?? '', p.metadata.name ?? '');
      result.podsDeletionTimestampSet.push(key(p));
    } catch (e) {
      if (codeOf(e) === 404) continue;
      const text = failureText(e);
      result.podsFailedEviction.set(text, [...(result.podsFailedEviction.get(text) ?? []), key(p)]);
    }
  }
  return result;
}
