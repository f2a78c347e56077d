import type { JsonObject } from './json';
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
 */
export interface StorageView {
  rt: ResourceType;
  /** This API's shape to the stored one (before a write is committed). */
  toStorage(obj: KubeObject): KubeObject;
  /** The stored shape to this API's (for every read, list and watch event). */
  fromStorage(obj: KubeObject): KubeObject;
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
  /** Stored as another resource and converted (see StorageView); absent: stored as itself. */
  storedAs?: StorageView;
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
  if (builtin?.storedAs) rt.storedAs = builtin.storedAs;
  return rt;
}

/** The resources served, by group/version/plural, in registration order (discovery keeps it). */
export class Registry {
  private readonly byKey = new Map<string, ResourceType>();
  private readonly byGvr = new Map<string, ResourceType>();

  add(rt: ResourceType): void {
    const gvr = `${rt.group}/${rt.version}/${rt.plural}`;
    if (this.byGvr.has(gvr)) throw new Error(`kind registered twice: ${gvr}`);
    if (this.byKey.has(rt.key)) {
      throw new Error(
        `${rt.key} is registered in two versions; one version per resource is served`,
      );
    }
    this.byKey.set(rt.key, rt);
    this.byGvr.set(gvr, rt);
  }

  lookup(group: string, version: string, plural: string): ResourceType | undefined {
    return this.byGvr.get(`${group}/${version}/${plural}`);
  }

  byStorageKey(key: string): ResourceType | undefined {
    return this.byKey.get(key);
  }

  /** The resource of an object's apiVersion and kind (for ownerReferences and seeding). */
  byApiVersionKind(apiVersion: string, kind: string): ResourceType | undefined {
    for (const rt of this.byKey.values())
      if (rt.apiVersion === apiVersion && rt.kind === kind) return rt;
    return undefined;
  }

  all(): ResourceType[] {
    return [...this.byKey.values()];
  }

  /** Group versions in order of first registration; the core group ("") is served at /api. */
  groupVersions(): { group: string; version: string; resources: ResourceType[] }[] {
    const out = new Map<string, { group: string; version: string; resources: ResourceType[] }>();
    for (const rt of this.byKey.values()) {
      const k = `${rt.group}/${rt.version}`;
      let gv = out.get(k);
      if (!gv) {
        gv = { group: rt.group, version: rt.version, resources: [] };
        out.set(k, gv);
      }
      gv.resources.push(rt);
    }
    return [...out.values()];
  }
}

/** Reads an object's top-level field as a JSON object, for code that walks kind-specific parts. */
export function section(obj: KubeObject, key: string): JsonObject | undefined {
  const v = Object.hasOwn(obj, key) ? obj[key] : undefined;
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as JsonObject) : undefined;
}
