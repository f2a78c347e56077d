import type { KubeConfigLike } from './kubeconfig';
import { type ResourceSpec, resourcePath } from './resource';

/**
 * The URL of a resource collection on the current cluster, with the spec's selectors and the
 * given query parameters (undefined ones left out). The server URL may carry a path prefix
 * (API proxies do that), so it is prepended as text, not resolved.
 */
export function collectionUrl(
  kc: KubeConfigLike,
  spec: ResourceSpec,
  query: Readonly<Record<string, string | undefined>>,
): URL {
  const cluster = kc.getCurrentCluster();
  if (!cluster) throw new Error('the kubeconfig has no current cluster');
  const url = new URL(cluster.server.replace(/\/+$/, '') + resourcePath(spec));
  const params: Record<string, string | undefined> = {
    labelSelector: spec.labelSelector,
    fieldSelector: spec.fieldSelector,
    ...query,
  };
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined && value !== '') url.searchParams.set(name, value);
  }
  return url;
}
