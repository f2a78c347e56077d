import type { KubeObject } from '../src/kube-object';

/** A minimal object for unit tests of the cache. */
export function obj(
  name: string,
  rv: string,
  extra: { namespace?: string; uid?: string; labels?: Record<string, string> } = {},
): KubeObject {
  return {
    apiVersion: 'cluster.x-k8s.io/v1beta1',
    kind: 'Machine',
    metadata: {
      name,
      namespace: extra.namespace ?? 'default',
      uid: extra.uid ?? `uid-${name}`,
      resourceVersion: rv,
      ...(extra.labels ? { labels: extra.labels } : {}),
    },
  };
}
