import type { KubeObject } from './kube-object';

/** The store key of an object: `namespace/name`, or just `name` for cluster-scoped objects. */
export function keyOf(namespace: string | undefined, name: string): string {
  return namespace ? `${namespace}/${name}` : name;
}

/** The store key of an object, or `undefined` when the object has no name (never stored). */
export function objectKey(obj: KubeObject): string | undefined {
  const metadata = obj.metadata;
  if (!metadata?.name) return undefined;
  return keyOf(metadata.namespace, metadata.name);
}

/** The object's resourceVersion. Opaque: compared for equality only, never parsed or ordered. */
export function versionOf(obj: KubeObject): string | undefined {
  return obj.metadata?.resourceVersion ?? undefined;
}
