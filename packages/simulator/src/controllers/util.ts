import { LABEL_CONTROL_PLANE, type Condition, type OwnerReference } from '@dcs/domain';
import { sameJson } from '../logic/names';
import { keyOf } from '../runtime/cache';

/** Small helpers shared by the controllers. */

/**
 * The batch window of controllers that summarize many objects (a MachineSet's hundred machines,
 * a pool's entries): their status follows the members within 15 simulated seconds (250 ms of
 * real time at --time-scale 60), not once per member change.
 */
export const SUMMARY_BATCH_SIM_MS = 15_000;

export const keyFor = (o: {
  metadata: { namespace?: string | undefined; name?: string | undefined };
}) => keyOf(o.metadata.namespace, o.metadata.name);

/** Equal as JSON with sorted keys: a status write is needed only when this is false. */
export const same = sameJson;

export function hasOwner(
  refs: readonly OwnerReference[] | undefined,
  uid: string | undefined,
): boolean {
  return uid !== undefined && (refs ?? []).some((r) => r.uid === uid);
}

/** Owner references with `ref` added (or replacing one of the same uid). */
export function withOwner(
  refs: readonly OwnerReference[] | undefined,
  ref: OwnerReference,
): OwnerReference[] {
  return [...(refs ?? []).filter((r) => r.uid !== ref.uid), ref];
}

export const conditionOf = (conditions: readonly Condition[] | undefined, type: string) =>
  conditions?.find((c) => c.type === type);

/** Milliseconds left until `start + duration`, at least 0. */
export const remaining = (start: number, duration: number, now: number) =>
  Math.max(0, start + duration - now);

export function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/**
 * Work-queue priority for the control plane's objects (they carry the control-plane label).
 * Asked at every enqueue, by the queue's own key: no split and rebuilt key per call.
 */
export function controlPlaneFirst(cache: {
  getByKey(key: string): { metadata: { labels?: Record<string, string> | undefined } } | undefined;
}): (key: string) => boolean {
  return (key) => cache.getByKey(key)?.metadata.labels?.[LABEL_CONTROL_PLANE] !== undefined;
}
