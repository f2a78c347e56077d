/**
 * What one informer watches: a resource (group, version, plural), optionally one namespace, and
 * optional selectors. The selectors are passed to the API server verbatim on LIST and WATCH.
 */
export interface ResourceSpec {
  /** API group; `''` for the core group (`/api/v1`). */
  readonly group: string;
  readonly version: string;
  /** Lower-case plural resource name as in the URL, e.g. `machinedeployments`. */
  readonly plural: string;
  /** Watch one namespace; omit (or `''`) for all namespaces or cluster-scoped resources. */
  readonly namespace?: string | undefined;
  readonly labelSelector?: string | undefined;
  readonly fieldSelector?: string | undefined;
}

/**
 * The collection URL path of a resource, the one place where API paths are built.
 * @example resourcePath({ group: '', version: 'v1', plural: 'secrets', namespace: 'a' })
 *   // '/api/v1/namespaces/a/secrets'
 */
export function resourcePath(spec: ResourceSpec): string {
  const base =
    spec.group === ''
      ? `/api/${encodeURIComponent(spec.version)}`
      : `/apis/${encodeURIComponent(spec.group)}/${encodeURIComponent(spec.version)}`;
  const namespace = spec.namespace ? `/namespaces/${encodeURIComponent(spec.namespace)}` : '';
  return `${base}${namespace}/${encodeURIComponent(spec.plural)}`;
}

/**
 * The identity of a spec: two specs with the same key are served by one shared informer.
 * JSON rather than a joined string, so that no selector text can make two specs collide.
 */
export function resourceKey(spec: ResourceSpec): string {
  return JSON.stringify([
    spec.group,
    spec.version,
    spec.plural,
    spec.namespace ?? '',
    spec.labelSelector ?? '',
    spec.fieldSelector ?? '',
  ]);
}

/** A readable name of a spec for metrics and logs, e.g. `machines.cluster.x-k8s.io/v1beta1 -n default`. */
export function describeResource(spec: ResourceSpec): string {
  const parts = [`${spec.plural}.${spec.group === '' ? 'core' : spec.group}/${spec.version}`];
  if (spec.namespace) parts.push(`-n ${spec.namespace}`);
  if (spec.labelSelector) parts.push(`-l ${spec.labelSelector}`);
  if (spec.fieldSelector) parts.push(`--field-selector ${spec.fieldSelector}`);
  return parts.join(' ');
}
