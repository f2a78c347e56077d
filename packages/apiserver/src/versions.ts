/**
 * Kinds served in several versions, as apiextensions-apiserver serves a CRD with `spec.versions`
 * and a conversion webhook: resolving a registration into one ResourceType per version sharing a
 * VersionSet, kube-aware version priority (discovery's order), the deprecation warning's default
 * text, and the conversion call with the checks upstream makes of a webhook's answer.
 */
import { clone, isObject, removeKey, type JsonObject } from './json';
import { resolveKind, type Registry, type ResourceType, type VersionSet } from './registry';
import type { Operations, WriteContext } from './operations';
import type { Store } from './store/store';
import { ApiError } from './status';
import { compareVersionPriority } from './version-priority';
import type {
  AnyKindRegistration,
  ConversionCallback,
  KindRegistration,
  KubeObject,
  MultiVersionKindRegistration,
} from './types';

/**
 * apiextensions-apiserver's `defaultDeprecationWarning`: `<group>/<version> <Kind> is
 * deprecated`, and `; use <group>/<newer> <Kind>` naming the highest-priority served,
 * non-deprecated version that sorts after the deprecated one.
 */
export function defaultDeprecationWarning(
  reg: MultiVersionKindRegistration,
  version: string,
): string {
  const msg = `${reg.group}/${version} ${reg.kind} is deprecated`;
  const newer = reg.versions
    .filter((v) => v.served && !v.deprecated && compareVersionPriority(v.name, version) < 0)
    .map((v) => v.name)
    .sort(compareVersionPriority);
  const best = newer[0];
  return best === undefined ? msg : `${msg}; use ${reg.group}/${best} ${reg.kind}`;
}

export function isMultiVersion(reg: AnyKindRegistration): reg is MultiVersionKindRegistration {
  return 'versions' in reg && Array.isArray(reg.versions);
}

/** A single-version registration as the multi-version form (for an update that adds versions). */
export function asMultiVersion(reg: AnyKindRegistration): MultiVersionKindRegistration {
  if (isMultiVersion(reg)) return reg;
  const one: MultiVersionKindRegistration = {
    group: reg.group,
    kind: reg.kind,
    plural: reg.plural,
    scope: reg.scope,
    versions: [
      {
        name: reg.version,
        served: true,
        storage: true,
        ...(reg.openAPIV3Schema ? { openAPIV3Schema: reg.openAPIV3Schema } : {}),
        ...(reg.printerColumns ? { printerColumns: reg.printerColumns } : {}),
        ...(reg.subresources ? { subresources: reg.subresources } : {}),
        ...(reg.scale ? { scale: reg.scale } : {}),
        ...(reg.selectableFields ? { selectableFields: reg.selectableFields } : {}),
      },
    ],
  };
  if (reg.singular !== undefined) one.singular = reg.singular;
  if (reg.shortNames) one.shortNames = reg.shortNames;
  if (reg.categories) one.categories = reg.categories;
  if (reg.listKind !== undefined) one.listKind = reg.listKind;
  return one;
}

/**
 * A conversion failed: the 500 kube-apiserver answers when a conversion webhook fails. The
 * callback's fault, not the server's: logged as one line, without a stack.
 */
export class ConversionError extends ApiError {
  constructor(message: string) {
    super(500, 'InternalError', `Internal error occurred: ${message}`, { causes: [{ message }] });
  }
}

/** Refuses what the CRD validation refuses of `spec.versions`. */
function checkVersions(reg: MultiVersionKindRegistration): void {
  const what = `${reg.plural}.${reg.group}`;
  if (reg.versions.length === 0) throw new Error(`${what}: at least one version is required`);
  const names = new Set<string>();
  for (const v of reg.versions) {
    if (!/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(v.name))
      throw new Error(`${what}: version name ${JSON.stringify(v.name)} is not a DNS-1035 label`);
    if (names.has(v.name)) throw new Error(`${what}: version ${v.name} is listed twice`);
    names.add(v.name);
  }
  const storage = reg.versions.filter((v) => v.storage);
  if (storage.length !== 1)
    throw new Error(`${what}: must have exactly one version marked as storage version`);
  if (!reg.versions.some((v) => v.served))
    throw new Error(`${what}: must serve at least one version`);
}

/**
 * The conversion as apiextensions-apiserver's crConverter makes it: objects already in the
 * desired version are not sent; the webhook's answer must hold as many objects, each of the
 * desired apiVersion and the kind; of the metadata it returns only labels and annotations are
 * kept (`restoreObjectMeta`), the rest is the original's. A failure is a 500 InternalError worded
 * as upstream's.
 */
function webhookConvert(
  reg: { group: string; kind: string },
  callback: ConversionCallback | undefined,
  objects: KubeObject[],
  from: ResourceType,
  to: ResourceType,
): KubeObject[] {
  const gvk = `${reg.group}/${from.version}, Kind=${reg.kind}`;
  const fail = (message: string) => new ConversionError(message);
  const out: KubeObject[] = [];
  const send: { at: number; obj: KubeObject }[] = [];
  objects.forEach((o, i) => {
    if (o.apiVersion === to.apiVersion) out[i] = o;
    else send.push({ at: i, obj: o });
  });
  if (send.length === 0) return out;
  // The None strategy: only apiVersion changes.
  if (!callback) {
    for (const { at, obj } of send) out[at] = { ...obj, apiVersion: to.apiVersion };
    return out;
  }
  let answer: unknown;
  try {
    // The callback gets copies: what it does to them cannot reach a stored version.
    answer = callback(
      send.map((s) => clone(s.obj)),
      to.apiVersion,
    );
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    throw fail(`conversion webhook for ${gvk} failed: ${why}`);
  }
  if (!Array.isArray(answer))
    throw fail(`conversion webhook for ${gvk} failed: no objects were returned`);
  if (answer.length !== send.length)
    throw fail(
      `conversion webhook for ${gvk} returned ${answer.length} objects, expected ${send.length}`,
    );
  for (let i = 0; i < send.length; i++) {
    const { at, obj: original } = send[i] as { at: number; obj: KubeObject };
    const converted: unknown = answer[i];
    const invalid = (why: string) =>
      fail(`conversion webhook for ${gvk} returned invalid converted object at index ${i}: ${why}`);
    if (!isObject(converted)) throw invalid('not an object');
    if (converted.apiVersion !== to.apiVersion)
      throw invalid(
        `expected apiVersion ${JSON.stringify(to.apiVersion)}, got ${JSON.stringify(converted.apiVersion)}`,
      );
    if (converted.kind !== original.kind)
      throw invalid(
        `expected kind ${JSON.stringify(original.kind)}, got ${JSON.stringify(converted.kind)}`,
      );
    out[at] = {
      ...converted,
      metadata: restoreObjectMeta(original, converted, invalid),
    } as KubeObject;
  }
  return out;
}

/** The original's metadata with the converted object's labels and annotations (upstream's rule). */
function restoreObjectMeta(
  original: KubeObject,
  converted: JsonObject,
  invalid: (why: string) => ApiError,
): KubeObject['metadata'] {
  const meta: KubeObject['metadata'] = { ...original.metadata };
  const cm = converted.metadata;
  if (cm !== undefined && !isObject(cm)) throw invalid('invalid metadata: not an object');
  for (const key of ['labels', 'annotations'] as const) {
    const v = isObject(cm) ? cm[key] : undefined;
    if (v === undefined || v === null) {
      removeKey(meta, key);
      continue;
    }
    if (!isObject(v) || Object.values(v).some((x) => typeof x !== 'string'))
      throw invalid(`invalid metadata of type ${key}: must be a map of strings`);
    meta[key] = v as Record<string, string>;
  }
  return meta;
}

/**
 * One ResourceType per version of `reg`, all in one VersionSet (`existing` when the kind is
 * updated: the objects stored before keep it). Returns the set and its served members.
 */
export function resolveVersions(
  reg: MultiVersionKindRegistration,
  existing?: VersionSet,
): { set: VersionSet; served: ResourceType[] } {
  checkVersions(reg);
  const members: ResourceType[] = [];
  let storage: ResourceType | undefined;
  for (const v of reg.versions) {
    const single: KindRegistration = {
      group: reg.group,
      version: v.name,
      kind: reg.kind,
      plural: reg.plural,
      scope: reg.scope,
      ...(reg.singular !== undefined ? { singular: reg.singular } : {}),
      ...(reg.shortNames ? { shortNames: reg.shortNames } : {}),
      ...(reg.categories ? { categories: reg.categories } : {}),
      ...(reg.listKind !== undefined ? { listKind: reg.listKind } : {}),
      ...(v.subresources ? { subresources: v.subresources } : {}),
      ...(v.printerColumns ? { printerColumns: v.printerColumns } : {}),
      ...(v.openAPIV3Schema ? { openAPIV3Schema: v.openAPIV3Schema } : {}),
      ...(v.selectableFields ? { selectableFields: v.selectableFields } : {}),
      ...(v.scale ? { scale: v.scale } : {}),
    };
    const rt = resolveKind(single);
    if (v.deprecated)
      rt.deprecationWarning = v.deprecationWarning ?? defaultDeprecationWarning(reg, v.name);
    members.push(rt);
    if (v.storage) storage = rt;
  }
  // checkVersions saw exactly one.
  if (!storage) throw new Error(`${reg.plural}.${reg.group}: no storage version`);
  const callback = reg.convert;
  const convert: VersionSet['convert'] = (objects, from, to) =>
    webhookConvert(reg, callback, objects, from, to);
  // Members of before that this update no longer lists stay known (objects may be stored in
  // them; the update refuses dropping a version that still holds objects), after the new ones.
  const kept = (existing?.members ?? []).filter(
    (old) => !members.some((m) => m.apiVersion === old.apiVersion),
  );
  const set: VersionSet = existing ?? {
    key: `${reg.group}/${reg.plural}`,
    storage,
    members: [],
    keepsStoredVersion: true,
    admitInStorageVersion: true,
    convert,
  };
  set.members = [...members, ...kept];
  set.storage = storage;
  set.convert = convert;
  for (const rt of members) rt.versions = set;
  const served = members.filter((_, i) => reg.versions[i]?.served === true);
  return { set, served };
}

/**
 * A kind's update, as a CRD's update takes effect (see `ApiServer.updateKind`). Checked before
 * anything changes: the registration itself, the scope (immutable), and that every version
 * objects are stored in is still listed (upstream refuses a CRD whose `spec.versions` drops one
 * of its `status.storedVersions`).
 */
export function updateKind(registry: Registry, store: Store, reg: AnyKindRegistration): void {
  const multi = asMultiVersion(reg);
  const key = `${multi.group}/${multi.plural}`;
  const current = registry.byStorageKey(key);
  if (!current || current.builtin) throw new Error(`no kind ${key} is registered`);
  if (current.scope !== multi.scope)
    throw new Error(
      `${multi.plural}.${multi.group}: spec.scope: Invalid value: field is immutable`,
    );
  // Upstream allows renaming the kind; the objects stored here keep theirs, so it is refused.
  if (current.kind !== multi.kind)
    throw new Error(`${multi.plural}.${multi.group}: spec.names.kind cannot change here`);
  checkVersions(multi);
  const listed = new Set(multi.versions.map((v) => `${multi.group}/${v.name}`));
  for (const apiVersion of store.storedVersions(key)) {
    if (!listed.has(apiVersion)) {
      throw new Error(
        `${multi.plural}.${multi.group}: status.storedVersions: Invalid value: objects are stored in ${apiVersion}, which must appear in spec.versions`,
      );
    }
  }
  const { set, served } = resolveVersions(multi, current.versions);
  // A kind registered with one version joins the set it now has, with the objects stored in it.
  current.versions ??= set;
  registry.replaceVersions(key, set.storage, served);
  store.endWatches(key);
}

/** See `ApiServer.migrateStorageVersion`. */
export async function migrateStorageVersion(
  registry: Registry,
  store: Store,
  ops: Operations,
  key: string,
  ctx: WriteContext,
): Promise<number> {
  const storage = registry.byStorageKey(key);
  if (!storage) throw new Error(`no kind ${key} is registered`);
  let rewritten = 0;
  for (const s of store.list(storage)) {
    for (let attempt = 0; ; attempt++) {
      const current = store.get(storage, s.namespace || undefined, s.name);
      if (!current || current.base.rt.apiVersion === storage.apiVersion) break;
      try {
        await ops.update(storage, current.namespace || undefined, current.name, current.object(), {
          ...ctx,
          warnings: [],
        });
        rewritten++;
        break;
      } catch (e) {
        // Written meanwhile (then it is in the storage version) or gone: look again.
        if (e instanceof ApiError && (e.code === 409 || e.code === 404) && attempt < 5) continue;
        throw e;
      }
    }
  }
  return rewritten;
}
