import type { JsonObject } from './json';
import { compareVersionPriority } from './version-priority';
import type { FieldError } from './status';
import type {
  JSONSchemaProps,
  KindRegistration,
  KubeObject,
  PrinterColumn,
  ScalePaths,
  Scope,
} from './types';

/** A custom table for a built-in kind whose columns are computed, as kube-apiserver prints them. */
export interface BuiltinTable {
  columns: readonly PrinterColumn[];
  row: (obj: KubeObject) => unknown[];
}

/**
 * A resource served through a second API, stored as another resource: kube-apiserver keeps
 * `events.k8s.io/v1` Events and `core/v1` Events as one resource (one object, one name, one
 * resourceVersion, one watch history) and converts between the two shapes on every read and
 * write. `rt` is the resource objects are stored as; the conversions are pure and total.
 * (Resolved into a `VersionSet` of the two, stored as `rt`.)
 */
export interface StorageView {
  rt: ResourceType;
  /** This API's shape to the stored one (before a write is committed). */
  toStorage(obj: KubeObject): KubeObject;
  /** The stored shape to this API's (for every read, list and watch event). */
  fromStorage(obj: KubeObject): KubeObject;
}

/**
 * The resources that are one stored resource seen through several APIs: the versions of a kind
 * registered with several (a CRD's `spec.versions`), or the two Event APIs. They share one
 * storage and watch history (`key`); an object is stored in one member's shape (its `Stored.rt`)
 * and converted for the others on every read, list, watch event and write. Mutable: a kind's
 * update (`Registry.updateKind`) changes the members and the storage version in place, so the
 * objects stored before keep finding their set.
 */
export interface VersionSet {
  /** The storage and watch-history key every member shares. */
  key: string;
  /** Where writes are stored now. */
  storage: ResourceType;
  /** Every member, served or not (an unserved version may still hold stored objects). */
  members: ResourceType[];
  /**
   * CRD versions: an object stays in the version it was stored in until written (a storage
   * version moved at run time). The Event APIs: only the storage member ever holds objects.
   */
  keepsStoredVersion: boolean;
  /** Converts objects of `from` into `to` (throws an ApiError, as a failing webhook answers). */
  convert(objects: KubeObject[], from: ResourceType, to: ResourceType): KubeObject[];
  /** Admission hooks get the storage version (CRDs) or the request's (the Event APIs). */
  admitInStorageVersion: boolean;
}

/** One object converted between two members of a set. */
export function convertOne(
  set: VersionSet,
  obj: KubeObject,
  from: ResourceType,
  to: ResourceType,
): KubeObject {
  const out = set.convert([obj], from, to)[0];
  if (out === undefined) throw new Error(`no object converted from ${from.apiVersion}`);
  return out;
}

/** The storage key of a resource: its set's, or its own. */
export function storageKey(rt: ResourceType): string {
  return rt.versions?.key ?? rt.key;
}

/** Everything the server knows about one resource, resolved from a registration. */
export interface ResourceType {
  group: string;
  version: string;
  kind: string;
  plural: string;
  singular: string;
  scope: Scope;
  shortNames: readonly string[];
  categories: readonly string[];
  listKind: string;
  apiVersion: string;
  /** `group/plural`: the key of the resource's storage and watch cache. */
  key: string;
  statusSubresource: boolean;
  scale?: ScalePaths;
  printerColumns: readonly PrinterColumn[];
  schema?: JSONSchemaProps;
  /** Field selector keys beyond metadata.name/namespace, without a leading dot. */
  selectableFields: readonly string[];
  builtin: boolean;
  /** Whether metadata.generation is kept (custom kinds and Deployment; not ConfigMap, Secret...). */
  generation: boolean;
  verbs: readonly string[];
  /** Create-only kinds that are answered, never stored (access reviews). */
  virtual: boolean;
  table?: BuiltinTable;
  /** DELETE answers the object (custom kinds) or a Status (built-in kinds), as the real server. */
  deleteReturnsObject: boolean;
  /** Built-in kinds accept strategic merge patches; custom kinds answer 415, as the real server. */
  strategicMergePatch: boolean;
  /** Extra validation beyond the schema (built-in kinds), returning field errors. */
  validate?: (obj: KubeObject, old: KubeObject | undefined) => FieldError[];
  /** Normalizes an object on write (e.g. Secret stringData into data). */
  normalize?: (obj: KubeObject) => void;
  /** One of several versions (or APIs) of one stored resource; absent: the only one. */
  versions?: VersionSet;
  /** Requests to a deprecated version carry this warning (`Warning: 299 - "..."`). */
  deprecationWarning?: string;
  /**
   * Graceful deletion (Pods): the grace period in seconds a DELETE without one gives the object
   * (`spec.terminationGracePeriodSeconds`), or 0 to delete at once (a Pod bound to no Node, or
   * finished). With a grace period the object stays, with deletionTimestamp in the future and
   * deletionGracePeriodSeconds, until a DELETE with 0 (its kubelet's) removes it.
   */
  gracefulDelete?: (obj: KubeObject) => number;
  /** Serves the `eviction` subresource (Pods: POST a policy/v1 Eviction). */
  eviction?: boolean;
}

const STORED_VERBS = [
  'create',
  'delete',
  'deletecollection',
  'get',
  'list',
  'patch',
  'update',
  'watch',
] as const;

export interface BuiltinExtras {
  generation?: boolean;
  virtual?: boolean;
  table?: BuiltinTable;
  validate?: ResourceType['validate'];
  normalize?: ResourceType['normalize'];
  storedAs?: StorageView;
  gracefulDelete?: ResourceType['gracefulDelete'];
  eviction?: boolean;
}

export function resolveKind(reg: KindRegistration, builtin?: BuiltinExtras): ResourceType {
  const isBuiltin = builtin !== undefined;
  const virtual = builtin?.virtual ?? false;
  const scale = reg.subresources?.scale
    ? (reg.scale ?? {
        specReplicasPath: '.spec.replicas',
        statusReplicasPath: '.status.replicas',
        labelSelectorPath: '.status.selector',
      })
    : undefined;
  const rt: ResourceType = {
    group: reg.group,
    version: reg.version,
    kind: reg.kind,
    plural: reg.plural,
    singular: reg.singular ?? reg.kind.toLowerCase(),
    scope: reg.scope,
    shortNames: [...(reg.shortNames ?? [])],
    categories: [...(reg.categories ?? [])],
    listKind: reg.listKind ?? `${reg.kind}List`,
    apiVersion: reg.group ? `${reg.group}/${reg.version}` : reg.version,
    key: `${reg.group}/${reg.plural}`,
    statusSubresource: reg.subresources?.status ?? false,
    printerColumns: reg.printerColumns ?? [
      { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
    ],
    selectableFields: (reg.selectableFields ?? []).map((f) => f.replace(/^\./, '')),
    builtin: isBuiltin,
    generation: builtin?.generation ?? true,
    verbs: virtual ? ['create'] : [...STORED_VERBS],
    virtual,
    deleteReturnsObject: !isBuiltin,
    strategicMergePatch: isBuiltin,
  };
  if (scale) rt.scale = scale;
  if (reg.openAPIV3Schema) rt.schema = reg.openAPIV3Schema;
  if (builtin?.table) rt.table = builtin.table;
  if (builtin?.validate) rt.validate = builtin.validate;
  if (builtin?.normalize) rt.normalize = builtin.normalize;
  if (builtin?.gracefulDelete) rt.gracefulDelete = builtin.gracefulDelete;
  if (builtin?.eviction) rt.eviction = true;
  if (builtin?.storedAs) {
    const base = builtin.storedAs.rt;
    const view = builtin.storedAs;
    const set: VersionSet = {
      key: base.key,
      storage: base,
      members: [base, rt],
      keepsStoredVersion: false,
      admitInStorageVersion: false,
      convert: (objects, from, to) => {
        if (from === to) return objects;
        return objects.map((o) => (to === base ? view.toStorage(o) : view.fromStorage(o)));
      },
    };
    base.versions = set;
    rt.versions = set;
  }
  return rt;
}

/**
 * The resources served, by group/version/plural, in registration order (discovery keeps it, but
 * for the versions of one group, which it lists in kube-aware priority order: v1beta2 before
 * v1beta1, as kube-apiserver does).
 */
export class Registry {
  /** One per stored resource: its only version, or its set's storage version. */
  private readonly byKey = new Map<string, ResourceType>();
  /** The served versions. */
  private readonly byGvr = new Map<string, ResourceType>();

  private gvr(rt: ResourceType): string {
    return `${rt.group}/${rt.version}/${rt.plural}`;
  }

  add(rt: ResourceType): void {
    const gvr = this.gvr(rt);
    if (this.byGvr.has(gvr)) throw new Error(`kind registered twice: ${gvr}`);
    if (this.byKey.has(rt.key)) {
      throw new Error(
        `${rt.key} is registered in two versions; register it once with all its versions`,
      );
    }
    this.byKey.set(rt.key, rt);
    this.byGvr.set(gvr, rt);
  }

  /** A kind with several versions (`served` of `set`'s members are served). */
  addVersions(set: VersionSet, served: readonly ResourceType[]): void {
    if (this.byKey.has(set.key)) throw new Error(`kind registered twice: ${set.key}`);
    this.byKey.set(set.key, set.storage);
    for (const rt of served) this.byGvr.set(this.gvr(rt), rt);
  }

  /** After a kind's update: its served versions are `served` (the others are 404 from now on). */
  replaceVersions(key: string, storage: ResourceType, served: readonly ResourceType[]): void {
    const old = this.byKey.get(key);
    if (!old) throw new Error(`no kind ${key} is registered`);
    for (const [gvr, rt] of this.byGvr) if (storageKey(rt) === key) this.byGvr.delete(gvr);
    this.byKey.set(key, storage);
    for (const rt of served) this.byGvr.set(this.gvr(rt), rt);
  }

  lookup(group: string, version: string, plural: string): ResourceType | undefined {
    return this.byGvr.get(`${group}/${version}/${plural}`);
  }

  /** The resource whose storage key this is (its storage version, for a kind with several). */
  byStorageKey(key: string): ResourceType | undefined {
    return this.byKey.get(key);
  }

  /** The served resource of an object's apiVersion and kind (for ownerReferences and seeding). */
  byApiVersionKind(apiVersion: string, kind: string): ResourceType | undefined {
    for (const rt of this.byGvr.values())
      if (rt.apiVersion === apiVersion && rt.kind === kind) return rt;
    return undefined;
  }

  /** One per stored resource (the storage version of a kind with several). */
  all(): ResourceType[] {
    return [...this.byKey.values()];
  }

  /**
   * Served group versions, groups in order of first registration and each group's versions in
   * kube-aware priority order (the first is the preferred version); the core group ("") is
   * served at /api.
   */
  groupVersions(): { group: string; version: string; resources: ResourceType[] }[] {
    const groups = new Map<string, Map<string, ResourceType[]>>();
    for (const rt of this.byGvr.values()) {
      let versions = groups.get(rt.group);
      if (!versions) {
        versions = new Map();
        groups.set(rt.group, versions);
      }
      const list = versions.get(rt.version) ?? [];
      list.push(rt);
      versions.set(rt.version, list);
    }
    const out: { group: string; version: string; resources: ResourceType[] }[] = [];
    for (const [group, versions] of groups) {
      const names = [...versions.keys()].sort(compareVersionPriority);
      for (const version of names)
        out.push({ group, version, resources: versions.get(version) ?? [] });
    }
    return out;
  }
}

/** Reads an object's top-level field as a JSON object, for code that walks kind-specific parts. */
export function section(obj: KubeObject, key: string): JsonObject | undefined {
  const v = Object.hasOwn(obj, key) ? obj[key] : undefined;
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as JsonObject) : undefined;
}
