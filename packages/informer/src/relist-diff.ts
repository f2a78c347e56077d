import type { KubeObject } from './kube-object';
import type { Delta } from './delta';
import { versionOf } from './object-key';

/**
 * What changed between the cache and a fresh LIST, as the deltas a watch would have delivered:
 * DELETED for what vanished, ADDED for what is new, MODIFIED for what changed. An object whose
 * uid changed was deleted and re-created under the same name while we were away: DELETED then
 * ADDED, so consumers never mistake a new object for an update of the old one. resourceVersions
 * are compared for equality only (they are opaque). Deletions come first so that a consumer
 * never sees two objects under one name.
 */
export function diffRelist<T extends KubeObject>(
  cached: ReadonlyMap<string, T>,
  fresh: ReadonlyMap<string, T>,
): Delta<T>[] {
  const deleted: Delta<T>[] = [];
  const changed: Delta<T>[] = [];
  for (const [key, old] of cached) {
    if (!fresh.has(key))
      deleted.push({ type: 'DELETED', object: old, old, finalStateUnknown: true });
  }
  for (const [key, object] of fresh) {
    const old = cached.get(key);
    if (!old) {
      changed.push({ type: 'ADDED', object });
    } else if (isRecreated(old, object)) {
      deleted.push({ type: 'DELETED', object: old, old, finalStateUnknown: true });
      changed.push({ type: 'ADDED', object });
    } else if (!isSameVersion(old, object)) {
      changed.push({ type: 'MODIFIED', object, old });
    }
  }
  return [...deleted, ...changed];
}

function isRecreated(a: KubeObject, b: KubeObject): boolean {
  const uidA = a.metadata?.uid;
  const uidB = b.metadata?.uid;
  return uidA !== undefined && uidB !== undefined && uidA !== uidB;
}

/** Without a resourceVersion we cannot prove equality, so the object counts as changed. */
export function isSameVersion(a: KubeObject, b: KubeObject): boolean {
  const rv = versionOf(a);
  return rv !== undefined && rv === versionOf(b);
}
