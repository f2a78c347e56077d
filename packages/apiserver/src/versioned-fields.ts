/**
 * Managed fields of a kind served in several versions, as structured-merge-diff's `Updater` keeps
 * them with a version converter: an entry's field set stays in the version its manager wrote it
 * in (it is never converted), and a change made through another version is compared in each
 * manager's own version (the old and the new object converted to it) to find what it took from
 * that manager. An update takes those fields over; an apply that changes a field another
 * version's manager owns is a conflict unless forced. Entries of the request's own version are
 * handled by `patch/apply.ts` as for a kind with one version.
 */
import { clone, isObject, put, type JsonObject } from './json';
import {
  conflictError,
  serverSideApply,
  trackUpdate,
  type ApplyConflict,
  type ApplyOptions,
} from './patch/apply';
import {
  changedPaths,
  fromFieldsV1,
  toFieldsV1,
  valueAt,
  type FieldPath,
} from './patch/managed-fields';
import type { JSONSchemaProps, KubeObject } from './types';

/** How an object of the request's version is seen in another version of its kind, and back. */
export interface VersionView {
  /** `obj` in `apiVersion`, with that version's schema; undefined: the kind has no such version. */
  to(
    obj: KubeObject,
    apiVersion: string,
  ): { obj: KubeObject; schema: JSONSchemaProps | undefined } | undefined;
  /** `obj`, in `apiVersion`, in the request's version. */
  from(obj: KubeObject, apiVersion: string): KubeObject;
}

interface UpdateOptions {
  manager: string;
  apiVersion: string;
  schema: JSONSchemaProps | undefined;
  subresource?: string;
}

function entryVersion(e: JsonObject): string {
  return typeof e.apiVersion === 'string' ? e.apiVersion : '';
}

function withEntries(obj: KubeObject, entries: JsonObject[]): KubeObject {
  return { ...obj, metadata: { ...obj.metadata, managedFields: entries } };
}

/** Without managed fields (what the comparison in another version compares). */
function bare(obj: KubeObject): KubeObject {
  const { managedFields: _mf, ...metadata } = obj.metadata;
  return { ...obj, metadata };
}

function overlaps(a: FieldPath, b: FieldPath): boolean {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return false;
  return true;
}

interface Settled {
  /** Each other-version entry after the change (undefined: it owns nothing any more). */
  entries: Map<JsonObject, JsonObject | undefined>;
  conflicts: ApplyConflict[];
  /** Apply: fields the change removed that another version's manager owns, by version. */
  owned: Map<string, FieldPath[]>;
}

/**
 * What the change `old` → `next` (in the request's version) does to the entries of `others`:
 * in each of their versions, the fields it modified, added or removed are taken from them
 * (upstream's `conflicts` and `removed`), and the modified and added ones they owned are the
 * conflicts of an apply. An entry whose version the kind no longer has is dropped, as upstream
 * drops a manager whose version is missing.
 */
function settle(
  others: JsonObject[],
  old: KubeObject,
  next: KubeObject,
  view: VersionView,
  mode: 'update' | 'apply',
): Settled {
  /** In each version: the object before and after, and the paths modified or added. */
  const byVersion = new Map<
    string,
    { before: KubeObject; after: KubeObject; changed: FieldPath[] } | undefined
  >();
  const compareIn = (apiVersion: string) => {
    if (byVersion.has(apiVersion)) return byVersion.get(apiVersion);
    const before = view.to(bare(old), apiVersion);
    const after = view.to(bare(next), apiVersion);
    const cmp =
      before && after
        ? {
            before: before.obj,
            after: after.obj,
            changed: changedPaths(before.obj, after.obj, after.schema),
          }
        : undefined;
    byVersion.set(apiVersion, cmp);
    return cmp;
  };
  const out: Settled = { entries: new Map(), conflicts: [], owned: new Map() };
  for (const e of others) {
    const apiVersion = entryVersion(e);
    const cmp = compareIn(apiVersion);
    if (!cmp) {
      out.entries.set(e, undefined);
      continue;
    }
    const owned = fromFieldsV1(isObject(e.fieldsV1) ? e.fieldsV1 : {});
    const kept: FieldPath[] = [];
    for (const p of owned) {
      const removed = valueAt(cmp.before, p) !== undefined && valueAt(cmp.after, p) === undefined;
      if (removed) {
        // An update takes what it removed (upstream's `removed`). An apply removes only what
        // its applier no longer applies, and upstream keeps what another manager owns
        // (`addBackOwnedItems`): it stays, and stays theirs.
        if (mode === 'apply') {
          kept.push(p);
          out.owned.set(apiVersion, [...(out.owned.get(apiVersion) ?? []), p]);
        }
        continue;
      }
      if (!cmp.changed.some((c) => overlaps(c, p))) {
        kept.push(p);
        continue;
      }
      // Modified or added: taken by an update, a conflict for an apply (unless forced).
      const manager = typeof e.manager === 'string' ? e.manager : '';
      const operation = e.operation === 'Apply' ? 'Apply' : 'Update';
      out.conflicts.push({
        manager,
        operation,
        apiVersion,
        ...(typeof e.time === 'string' ? { time: e.time } : {}),
        ...(typeof e.subresource === 'string' ? { subresource: e.subresource } : {}),
        path: p,
      });
    }
    out.entries.set(e, kept.length ? { ...e, fieldsV1: toFieldsV1(kept) } : undefined);
  }
  return out;
}

function key(e: JsonObject): string {
  return JSON.stringify([e.manager, e.operation, e.subresource ?? '']);
}

/**
 * The entries in the order they had (each other-version entry where it was, each entry of the
 * request's version where it was, as the shared code left it), then the new ones.
 */
function merge(
  original: readonly JsonObject[],
  same: readonly JsonObject[],
  others: Map<JsonObject, JsonObject | undefined>,
): JsonObject[] {
  const sameByKey = new Map(same.map((e) => [key(e), e]));
  const out: JsonObject[] = [];
  for (const e of original) {
    if (others.has(e)) {
      const settled = others.get(e);
      if (settled) out.push(settled);
      continue;
    }
    const now = sameByKey.get(key(e));
    if (now) {
      out.push(now);
      sameByKey.delete(key(e));
    }
  }
  out.push(...sameByKey.values());
  return out;
}

function split(
  entries: readonly JsonObject[],
  apiVersion: string,
): { same: JsonObject[]; others: JsonObject[] } {
  const same: JsonObject[] = [];
  const others: JsonObject[] = [];
  for (const e of entries) (entryVersion(e) === apiVersion ? same : others).push(e);
  return { same, others };
}

/**
 * `trackUpdate` for a kind with several versions: `next.metadata.managedFields` becomes the
 * entries after the update (`old` → `next`, in `o.apiVersion`) by manager `o.manager`.
 */
export function trackUpdateInVersions(
  old: KubeObject,
  next: KubeObject,
  o: UpdateOptions,
  view: VersionView | undefined,
): void {
  const entries = old.metadata.managedFields ?? [];
  const { same, others } = split(entries, o.apiVersion);
  if (!view || others.length === 0) {
    next.metadata.managedFields = entries;
    trackUpdate(old, next, o);
    return;
  }
  next.metadata.managedFields = same;
  trackUpdate(withEntries(old, same), next, o);
  const settled = settle(others, old, next, view, 'update');
  next.metadata.managedFields = merge(entries, next.metadata.managedFields ?? [], settled.entries);
}

/** `serverSideApply` for a kind with several versions (see the file's comment). */
export function applyInVersions(
  live: KubeObject,
  applied: KubeObject,
  o: ApplyOptions,
  view: VersionView | undefined,
): KubeObject {
  const entries = live.metadata.managedFields ?? [];
  const { same, others } = split(entries, o.apiVersion);
  if (!view || others.length === 0) return serverSideApply(live, applied, o);
  // serverSideApply merges into the object it is given: the comparison needs it as it was.
  const before = clone(bare(live));
  const merged = serverSideApply(withEntries(live, same), applied, { ...o, otherManagers: true });
  const settled = settle(others, before, merged, view, 'apply');
  // Upstream: a field applied over another version's manager conflicts unless forced; forced,
  // the applier takes it over.
  if (settled.conflicts.length > 0 && !o.force) throw conflictError(settled.conflicts);
  const result = restoreOwned(merged, before, settled.owned, view);
  result.metadata.managedFields = merge(
    entries,
    merged.metadata.managedFields ?? [],
    settled.entries,
  );
  return result;
}

/**
 * `merged` with the fields of `owned` (paths in each version) put back as `before` had them:
 * in that version, from the first missing level of each path down (a removed leaf exactly; a
 * removed container whole, as it was).
 */
function restoreOwned(
  merged: KubeObject,
  before: KubeObject,
  owned: Map<string, FieldPath[]>,
  view: VersionView,
): KubeObject {
  let out = merged;
  for (const [apiVersion, paths] of owned) {
    const target = view.to(bare(out), apiVersion);
    const source = view.to(before, apiVersion);
    if (!target || !source) continue;
    for (const p of paths) restoreAt(target.obj, source.obj, p);
    out = { ...view.from(target.obj, apiVersion), metadata: { ...out.metadata } };
  }
  return out;
}

function restoreAt(target: unknown, source: unknown, path: FieldPath): void {
  let t = target;
  let s = source;
  for (const seg of path) {
    if (seg === '.') return;
    const sv = valueAt(s, [seg]);
    if (sv === undefined) return;
    const tv = valueAt(t, [seg]);
    if (tv === undefined) {
      if (seg.startsWith('f:') && isObject(t)) put(t, seg.slice(2), clone(sv));
      else if (Array.isArray(t)) t.push(clone(sv));
      return;
    }
    t = tv;
    s = sv;
  }
}
