/**
 * The public shapes of the server: what a caller registers (kinds, admission hooks, tokens) and
 * the objects it stores. `KindRegistration` is shaped so that a kinds table entry
 * (group, version, plural, kind, singular, scope, shortNames, categories, subresources,
 * printerColumns) spreads into it unchanged, plus the schema and what the table cannot say.
 */

import type { JsonObject } from './json';

export type Scope = 'Namespaced' | 'Cluster';

export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

export interface ObjectMeta {
  name?: string;
  generateName?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string | null;
  deletionTimestamp?: string;
  deletionGracePeriodSeconds?: number;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  ownerReferences?: OwnerReference[];
  finalizers?: string[];
  managedFields?: JsonObject[];
  [key: string]: unknown;
}

export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: ObjectMeta;
  [key: string]: unknown;
}

export interface PrinterColumn {
  name: string;
  type: 'string' | 'integer' | 'number' | 'boolean' | 'date';
  /** A JSONPath into the object, e.g. `.status.phase` or `.metadata.labels['a\.b/c']`. */
  jsonPath: string;
  description?: string;
  format?: string;
  /** 0 = shown by `kubectl get`; > 0 = only with `-o wide` (kubectl decides; the server sends all). */
  priority?: number;
}

/** One entry of `x-kubernetes-validations` (apiextensions/v1 ValidationRule). */
export interface ValidationRule {
  rule: string;
  message?: string;
  messageExpression?: string;
  reason?:
    'FieldValueInvalid' | 'FieldValueForbidden' | 'FieldValueRequired' | 'FieldValueDuplicate';
  fieldPath?: string;
  optionalOldSelf?: boolean;
}

/** A structural OpenAPI v3 schema, as in a CRD's `openAPIV3Schema`. */
export interface JSONSchemaProps {
  type?: 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean';
  description?: string;
  properties?: Record<string, JSONSchemaProps>;
  additionalProperties?: JSONSchemaProps | boolean;
  items?: JSONSchemaProps;
  required?: string[];
  enum?: unknown[];
  format?: string;
  default?: unknown;
  nullable?: boolean;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: boolean;
  exclusiveMaximum?: boolean;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minItems?: number;
  maxItems?: number;
  minProperties?: number;
  maxProperties?: number;
  uniqueItems?: boolean;
  anyOf?: JSONSchemaProps[];
  oneOf?: JSONSchemaProps[];
  allOf?: JSONSchemaProps[];
  not?: JSONSchemaProps;
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-embedded-resource'?: boolean;
  'x-kubernetes-list-type'?: 'atomic' | 'set' | 'map';
  'x-kubernetes-list-map-keys'?: string[];
  'x-kubernetes-map-type'?: 'atomic' | 'granular';
  /** CEL rules (`src/cel.ts`). */
  'x-kubernetes-validations'?: ValidationRule[];
  /** Built-in kinds: how a strategic merge patch merges this list. */
  'x-kubernetes-patch-strategy'?: string;
  'x-kubernetes-patch-merge-key'?: string;
}

export interface ScalePaths {
  /** e.g. `.spec.replicas` */
  specReplicasPath: string;
  /** e.g. `.status.replicas` */
  statusReplicasPath: string;
  /** e.g. `.status.selector`: a string selector, or a LabelSelector object (formatted for Scale). */
  labelSelectorPath?: string;
}

export interface KindRegistration {
  group: string;
  version: string;
  kind: string;
  plural: string;
  singular?: string;
  scope: Scope;
  shortNames?: readonly string[];
  categories?: readonly string[];
  subresources?: { status?: boolean; scale?: boolean };
  printerColumns?: readonly PrinterColumn[];
  /** The schema of the whole object; without one every field is kept as sent. */
  openAPIV3Schema?: JSONSchemaProps;
  /** Field selectors beyond metadata.name/namespace, e.g. `status.phase` (or `.status.phase`). */
  selectableFields?: readonly string[];
  /** Where the scale subresource reads and writes; defaults to spec/status `.replicas`. */
  scale?: ScalePaths;
  /** Defaults to `${kind}List`. */
  listKind?: string;
}

/**
 * One version of a kind served with several, as one entry of a CRD's `spec.versions`: each
 * version has its own schema, printer columns, subresources and selectable fields.
 */
export interface KindVersion {
  /** e.g. `v1beta2`. */
  name: string;
  /** Requests to an unserved version are 404; objects stored in it are still read (converted). */
  served: boolean;
  /** Exactly one version is the storage version: every write is stored in it. */
  storage: boolean;
  /** Every request to this version gets a `Warning: 299` header, as kube-apiserver sends. */
  deprecated?: boolean;
  /** The warning's text; default `<group>/<version> <Kind> is deprecated; use <group>/<newer> <Kind>`. */
  deprecationWarning?: string;
  openAPIV3Schema?: JSONSchemaProps;
  printerColumns?: readonly PrinterColumn[];
  subresources?: { status?: boolean; scale?: boolean };
  scale?: ScalePaths;
  selectableFields?: readonly string[];
}

/**
 * What a conversion webhook does, as a function: `objects` (each in its own apiVersion, possibly
 * different ones) converted to `desiredAPIVersion`, in the same order. It may throw: the request
 * that needed the conversion is answered as kube-apiserver answers a failing webhook (500,
 * `conversion webhook for <group>/<version>, Kind=<Kind> failed: <message>`). As upstream, only
 * the labels and annotations of what it returns are kept of its metadata (`restoreObjectMeta`),
 * and its answer must hold as many objects, each of `desiredAPIVersion` and the same kind.
 * Called synchronously, with objects the server does not keep (it may change them).
 */
export type ConversionCallback = (objects: KubeObject[], desiredAPIVersion: string) => KubeObject[];

/**
 * A kind served in several versions, like a CustomResourceDefinition with `spec.versions` and a
 * conversion webhook (`convert`). Without `convert`, versions convert as the `None` strategy does
 * (only apiVersion changes). The names (plural, singular, kind, shortNames, categories, listKind)
 * and the scope are shared by every version, as in a CRD.
 */
export interface MultiVersionKindRegistration {
  group: string;
  kind: string;
  plural: string;
  singular?: string;
  scope: Scope;
  shortNames?: readonly string[];
  categories?: readonly string[];
  listKind?: string;
  versions: readonly KindVersion[];
  convert?: ConversionCallback;
}

/** Either registration: one version (`version`), or several (`versions`). */
export type AnyKindRegistration = KindRegistration | MultiVersionKindRegistration;

export interface UserInfo {
  username: string;
  uid?: string;
  groups: string[];
  extra?: Record<string, string[]>;
}

export interface TokenEntry {
  token: string;
  user: string;
  uid?: string;
  groups?: string[];
}

export type AdmissionOperation = 'CREATE' | 'UPDATE' | 'DELETE';

export interface AdmissionRequest {
  operation: AdmissionOperation;
  kind: { group: string; version: string; kind: string };
  resource: { group: string; version: string; resource: string };
  subResource?: string;
  name: string;
  namespace?: string;
  /** The object as it would be stored (absent on DELETE). Mutating hooks may change it in place. */
  object?: KubeObject;
  /** The stored object before the change (UPDATE, DELETE). */
  oldObject?: KubeObject;
  userInfo: UserInfo;
  dryRun: boolean;
}

export type AdmissionResult =
  | { allowed: true; warnings?: string[] }
  | {
      allowed: false;
      /** Shown after `admission webhook "<name>" denied the request: `. */
      message: string;
      /** A rule id such as `R-MD-2`: prefixed to the message and carried as the cause's reason. */
      rule?: string;
      /** The field the denial is about, e.g. `spec.replicas` (carried in the cause). */
      field?: string;
      /** HTTP code; 403 (Forbidden) by default, 422 (Invalid) when a field is named. */
      code?: number;
      warnings?: string[];
      /**
       * The webhook's own Status, answered as kube-apiserver answers a denial
       * (`webhookerrors.ToStatusErr`): its code (at least 400), reason and details as they are,
       * its message after `admission webhook "<name>" denied the request: `. When set, `rule`,
       * `field` and `code` are not used. Cluster API's webhooks answer `apierrors.NewInvalid`.
       */
      status?: AdmissionStatus;
    };

/** What a webhook's `AdmissionResponse.result` carries. */
export interface AdmissionStatus {
  code: number;
  reason?: string;
  message?: string;
  details?: {
    name?: string;
    group?: string;
    kind?: string;
    causes?: { reason?: string; message?: string; field?: string }[];
  };
}

export interface AdmissionMatch {
  /** API group and kind, e.g. `{group: 'cluster.x-k8s.io', kind: 'MachineDeployment'}`; `*` for any. */
  kinds?: readonly { group: string; kind: string }[];
  operations?: readonly AdmissionOperation[];
  /** Also called for writes to these subresources (`status`, `scale`); main resource only by default. */
  subresources?: readonly string[];
}

/**
 * An admission hook plays a webhook. A mutating hook (`mutate`) runs first and may change
 * `request.object` in place (defaulting); a validating hook (`validate`) runs after the schema
 * validation, as kube-apiserver orders them.
 */
export interface AdmissionHook {
  name: string;
  match?: AdmissionMatch;
  /**
   * For kinds served in several versions: the versions this hook takes objects in, in order of
   * preference, as a webhook's rules name apiVersions (`matchPolicy: Equivalent`): the request's
   * `object`, `oldObject`, `kind` and `resource` are converted to the first of them the kind has,
   * and what a mutating hook changes is converted back. Without it, a hook gets the kind's
   * storage version. Kinds with one version (and the two Event APIs) are sent as requested.
   */
  versions?: readonly string[];
  /**
   * With `versions`, how a mutating hook's change reaches an object of another version:
   * `convert` (the default, kube-apiserver's way with a webhook registered for another version)
   * converts the whole mutated object back; `patch` applies only what the hook changed, as the
   * JSON patch a webhook of the request's own version would send. `patch` is for a hook that
   * stands for such a webhook (Cluster API ≥ v1.11 registers its webhooks for v1beta2), so that the
   * round trip through the other version (a missing field filled with its zero value there, an
   * empty object dropped) does not change what the request carried.
   */
  changes?: 'convert' | 'patch';
  /**
   * Changes `request.object` in place. May deny the request as `validate` does (a defaulting
   * webhook that cannot decode the object refuses it before any validation runs).
   */
  mutate?: (
    request: AdmissionRequest,
  ) => AdmissionResult | undefined | Promise<AdmissionResult | undefined>;
  validate?: (request: AdmissionRequest) => AdmissionResult | Promise<AdmissionResult>;
}
