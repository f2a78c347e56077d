import { CapiConversionError, isObject, type Json, type JsonObject } from './json';

/**
 * References between objects. v1beta1 holds a `corev1.ObjectReference` (`apiVersion, kind,
 * name, namespace, uid, resourceVersion, fieldPath`); v1beta2 a `ContractVersionedObjectReference`
 * (`apiGroup, kind, name`): the version is whatever the referenced provider's CRD says its
 * contract is served as. Upstream (`api/core/v1beta1/conversion.go`,
 * `convertToContractVersionedObjectReference` / `convertToObjectReference`) keeps the group of
 * the apiVersion one way (`schema.ParseGroupVersion`, refusing more than one `/`), and rebuilds
 * the apiVersion the other way by asking the cluster (`apiVersionGetter`, the CRD's contract
 * label), with the namespace of the referring object.
 */

/** (group, kind) → the apiVersion a v1beta1 reference names; throws when it cannot say. */
export type RefApiVersionOf = (group: string, kind: string) => string;

/**
 * What the apiVersion getter of a Cluster API v1.14 management cluster running the DCS provider
 * answers: Cluster API's own kinds at v1beta2 (their CRDs' `cluster.x-k8s.io/v1beta2` contract
 * label), the DCS kinds at `infrastructure.cluster.x-k8s.io/v1beta1` (the provider keeps its
 * version, CAPI-VERSIONS.md). Another group is refused as upstream refuses it (no CRD to ask).
 */
export const defaultRefApiVersionOf: RefApiVersionOf = (group, kind) => {
  switch (group) {
    case 'cluster.x-k8s.io':
    case 'bootstrap.cluster.x-k8s.io':
    case 'controlplane.cluster.x-k8s.io':
      return `${group}/v1beta2`;
    case 'infrastructure.cluster.x-k8s.io':
      return `${group}/v1beta1`;
    default:
      throw new Error(`failed to convert object: no apiVersion is known for ${kind}.${group}`);
  }
};

/** `schema.ParseGroupVersion(apiVersion).Group`. */
export function groupOf(apiVersion: string, path: string): string {
  if (apiVersion === '' || apiVersion === 'v1') return '';
  const parts = apiVersion.split('/');
  if (parts.length === 1) return '';
  if (parts.length === 2) return parts[0] ?? '';
  throw new CapiConversionError(
    `${path}.apiVersion`,
    `failed to convert object: failed to parse apiVersion: unexpected GroupVersion string: ${apiVersion}`,
  );
}

const str = (v: Json | undefined): string => (typeof v === 'string' ? v : '');

/** v1beta1 ObjectReference → v1beta2 ContractVersionedObjectReference (Go's empty strings omitted). */
export function toContractRef(ref: Json | undefined, path: string): JsonObject | undefined {
  if (!isObject(ref)) return undefined;
  const out: JsonObject = {};
  const apiGroup = groupOf(str(ref.apiVersion), path);
  if (apiGroup !== '') out.apiGroup = apiGroup;
  if (str(ref.kind) !== '') out.kind = str(ref.kind);
  if (str(ref.name) !== '') out.name = str(ref.name);
  return out;
}

/** `ContractVersionedObjectReference.IsDefined()`: any of its three fields set. */
export const isDefinedRef = (ref: Json | undefined): ref is JsonObject =>
  isObject(ref) && (str(ref.apiGroup) !== '' || str(ref.kind) !== '' || str(ref.name) !== '');

/** v1beta2 ContractVersionedObjectReference → v1beta1 ObjectReference in `namespace`. */
export function toObjectRef(
  ref: JsonObject,
  namespace: string,
  apiVersionOf: RefApiVersionOf,
  path: string,
): JsonObject {
  let apiVersion: string;
  try {
    apiVersion = apiVersionOf(str(ref.apiGroup), str(ref.kind));
  } catch (e) {
    throw new CapiConversionError(path, e instanceof Error ? e.message : String(e));
  }
  const out: JsonObject = {};
  if (apiVersion !== '') out.apiVersion = apiVersion;
  if (str(ref.kind) !== '') out.kind = str(ref.kind);
  if (namespace !== '') out.namespace = namespace;
  if (str(ref.name) !== '') out.name = str(ref.name);
  return out;
}
