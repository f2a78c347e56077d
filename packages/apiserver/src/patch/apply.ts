/**
 * Server-side apply (application/apply-patch+yaml) with field ownership tracked in
 * metadata.managedFields. What is kept from the real algorithm: an applier owns the fields of its
 * applied configuration; fields it applied before and no longer applies are removed unless another
 * manager also owns them; applying a value over a field another manager owns is a 409 conflict
 * unless `force=true`, which takes the field over; updates (PUT/PATCH) record their manager as
 * the owner of what they changed. Left out: per-version field sets and structured-merge-diff's
 * handling of atomic maps and nested list reordering.
 */
import { timestampNow } from '../clock';
import { clone, deepEqual, isObject, type JsonObject } from '../json';
import { ApiError } from '../status';
import type { JSONSchemaProps, KubeObject } from '../types';
import {
  addPaths,
  applyMerge,
  changedPaths,
  fieldSet,
  fromFieldsV1,
  isLeafIn,
  leafPaths,
  removeAt,
  renderPath,
  toFieldsV1,
  valueAt,
  type FieldPath,
} from './managed-fields';

interface Entry {
  manager: string;
  operation: 'Apply' | 'Update';
  apiVersion: string;
  time: string;
  fieldsType: 'FieldsV1';
  fieldsV1: JsonObject;
  subresource?: string;
}

interface Owned {
  entry: Entry;
  paths: Map<string, FieldPath>;
}

const now = timestampNow;

function readEntries(obj: KubeObject | undefined): Owned[] {
  const raw = obj?.metadata.managedFields ?? [];
  const out: Owned[] = [];
  for (const e of raw) {
    if (!isObject(e) || typeof e.manager !== 'string') continue;
    const entry: Entry = {
      manager: e.manager,
      operation: e.operation === 'Apply' ? 'Apply' : 'Update',
      apiVersion: typeof e.apiVersion === 'string' ? e.apiVersion : '',
      time: typeof e.time === 'string' ? e.time : now(),
      fieldsType: 'FieldsV1',
      fieldsV1: isObject(e.fieldsV1) ? e.fieldsV1 : {},
    };
    if (typeof e.subresource === 'string') entry.subresource = e.subresource;
    out.push({
      entry,
      paths: new Map(fromFieldsV1(entry.fieldsV1).map((p) => [JSON.stringify(p), p])),
    });
  }
  return out;
}

function writeEntries(obj: KubeObject, owned: Owned[]): void {
  const entries = owned
    .filter((o) => o.paths.size > 0)
    .map((o) => ({ ...o.entry, fieldsV1: toFieldsV1(o.paths.values()) }));
  if (entries.length) obj.metadata.managedFields = entries;
  else delete obj.metadata.managedFields;
}

function isPrefix(prefix: FieldPath, path: FieldPath): boolean {
  return prefix.length <= path.length && prefix.every((s, i) => s === path[i]);
}

export interface ApplyOptions {
  manager: string;
  force: boolean;
  apiVersion: string;
  schema: JSONSchemaProps | undefined;
  subresource?: string;
  /** The object has managers this call is not given (those of other versions of its kind). */
  otherManagers?: boolean;
}

/** The object after applying `applied` over `live` (undefined when the apply creates). */
export function serverSideApply(
  live: KubeObject | undefined,
  applied: KubeObject,
  o: ApplyOptions,
): KubeObject {
  const owned = readEntries(live);
  if (live && !o.otherManagers && owned.every((e) => e.paths.size === 0)) {
    const before = beforeFirstApply(live, o);
    if (before) owned.push(before);
  }
  const mine = owned.find((e) => e.entry.manager === o.manager && e.entry.operation === 'Apply');
  const newPaths = new Map(leafPaths(applied, o.schema).map((p) => [JSON.stringify(p), p]));

  if (live) {
    const conflicts: (ApplyConflict & { entry: Entry })[] = [];
    for (const [k, p] of newPaths) {
      // The same value applied again is no conflict: the field is then owned by both.
      if (deepEqual(valueAt(live, p), valueAt(applied, p))) continue;
      for (const other of owned) {
        if (other === mine) continue;
        const hit = other.paths.has(k) || [...other.paths.values()].some((op) => isPrefix(p, op));
        if (hit) conflicts.push(conflictWith(other.entry, p));
      }
    }
    if (conflicts.length && !o.force) throw conflictError(conflicts);
    // Forced: the conflicting fields are taken from their owners, and only those (a field
    // applied with the value it has stays shared, as structured-merge-diff's Apply leaves it).
    for (const c of conflicts) {
      const other = owned.find((e) => e.entry === c.entry);
      if (!other) continue;
      other.paths.delete(JSON.stringify(c.path));
      for (const [k, op] of other.paths) if (isPrefix(c.path, op)) other.paths.delete(k);
    }
  }

  const fresh: KubeObject = { apiVersion: applied.apiVersion, kind: applied.kind, metadata: {} };
  if (applied.metadata.name !== undefined) fresh.metadata.name = applied.metadata.name;
  if (applied.metadata.namespace !== undefined)
    fresh.metadata.namespace = applied.metadata.namespace;
  if (applied.metadata.generateName !== undefined)
    fresh.metadata.generateName = applied.metadata.generateName;
  const result = live ?? fresh;
  if (mine) {
    // Fields this manager applied before and no longer applies go, unless someone else owns them.
    for (const [k, p] of mine.paths) {
      if (newPaths.has(k)) continue;
      const ownedElsewhere = owned.some((e) => e !== mine && e.paths.has(k));
      if (ownedElsewhere) continue;
      removeAt(result, p);
      // Containers emptied by the removal go too, unless the new configuration still sets them.
      for (let n = p.length - 1; n > 0; n--) {
        const prefix = p.slice(0, n);
        const v = valueAt(result, prefix);
        const empty =
          (Array.isArray(v) && v.length === 0) || (isObject(v) && Object.keys(v).length === 0);
        if (!empty || [...newPaths.values()].some((q) => isPrefix(prefix, q))) break;
        removeAt(result, prefix);
      }
    }
  }
  const { metadata: appliedMeta, ...rest } = applied;
  applyMerge(result, rest, o.schema);
  for (const key of ['labels', 'annotations', 'finalizers', 'ownerReferences'] as const) {
    if (appliedMeta[key] !== undefined) {
      result.metadata[key] = applyMerge(result.metadata[key], appliedMeta[key], undefined) as never;
    }
  }
  const entry: Entry = {
    manager: o.manager,
    operation: 'Apply',
    apiVersion: o.apiVersion,
    time: now(),
    fieldsType: 'FieldsV1',
  } as Entry;
  entry.fieldsV1 = {};
  if (o.subresource) entry.subresource = o.subresource;
  const next = owned.filter((e) => e !== mine);
  next.push({ entry, paths: newPaths });
  writeEntries(result, next);
  return result;
}

/**
 * The manager kube-apiserver gives the fields of an object that has no managed fields when it is
 * first applied (skipnonapplied.go: an update from an empty object to the live one by
 * "before-first-apply"), so that the applier conflicts with what is there instead of silently
 * taking it over.
 */
export const BEFORE_FIRST_APPLY = 'before-first-apply';

function beforeFirstApply(live: KubeObject, o: ApplyOptions): Owned | undefined {
  const bare = { ...live, metadata: { ...live.metadata, managedFields: undefined } };
  const paths = fromFieldsV1(fieldSet(bare, o.schema));
  if (paths.length === 0) return undefined;
  const entry: Entry = {
    manager: BEFORE_FIRST_APPLY,
    operation: 'Update',
    apiVersion: o.apiVersion,
    time: now(),
    fieldsType: 'FieldsV1',
    fieldsV1: {},
  };
  if (o.subresource) entry.subresource = o.subresource;
  return { entry, paths: new Map(paths.map((p) => [JSON.stringify(p), p])) };
}

/**
 * The managed fields an update starts from, as the field manager's decodeLiveOrNew reads them: a
 * request that sends `managedFields: []` or `[{}]` resets them (`'reset'`); one that sends entries
 * that decode replaces the live ones with them (managed fields can be written directly); one that
 * sends none, or entries that do not decode, keeps the live ones. A subresource request always
 * keeps the live ones.
 */
export function managedFieldsSent(
  sent: unknown,
  subresource: string,
): 'reset' | JsonObject[] | undefined {
  if (subresource || !Array.isArray(sent)) return undefined;
  if (sent.length === 0) return 'reset';
  const first: unknown = sent[0];
  if (sent.length === 1 && isObject(first) && Object.keys(first).length === 0) return 'reset';
  const decodes = sent.every(
    (e) =>
      isObject(e) &&
      typeof e.manager === 'string' &&
      (e.operation === 'Apply' || e.operation === 'Update') &&
      e.fieldsType === 'FieldsV1' &&
      (e.fieldsV1 === undefined || isObject(e.fieldsV1)),
  );
  return decodes ? (sent as JsonObject[]) : undefined;
}

/**
 * Managed fields in kube-apiserver's order (sortEncodedManagedFields): appliers before updaters,
 * then by time to the second, manager, apiVersion and subresource.
 */
export function sortManagedFields(entries: JsonObject[]): JsonObject[] {
  const seconds = (t: unknown) => {
    const ms = typeof t === 'string' ? Date.parse(t) : NaN;
    return Number.isNaN(ms) ? 0 : Math.floor(ms / 1000);
  };
  const str = (v: unknown) => (typeof v === 'string' ? v : '');
  const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return [...entries].sort(
    (p, q) =>
      cmp(str(p.operation), str(q.operation)) ||
      seconds(p.time) - seconds(q.time) ||
      cmp(str(p.manager), str(q.manager)) ||
      cmp(str(p.apiVersion), str(q.apiVersion)) ||
      cmp(str(p.subresource), str(q.subresource)),
  );
}

/** Records the manager of a PUT/PATCH as owner of the fields it changed. */
export function trackUpdate(
  old: KubeObject | undefined,
  next: KubeObject,
  o: {
    manager: string;
    apiVersion: string;
    schema: JSONSchemaProps | undefined;
    subresource?: string;
  },
): void {
  const newCopy = { ...next, metadata: { ...next.metadata, managedFields: undefined } };
  if (!old) {
    // A create: its manager owns every field it sets, and nobody else owns anything.
    const fieldsV1 = fieldSet(newCopy, o.schema);
    if (Object.keys(fieldsV1).length === 0) {
      delete next.metadata.managedFields;
      return;
    }
    const entry: Entry = {
      manager: o.manager,
      operation: 'Update',
      apiVersion: o.apiVersion,
      time: now(),
      fieldsType: 'FieldsV1',
      fieldsV1,
    };
    if (o.subresource) entry.subresource = o.subresource;
    next.metadata.managedFields = [{ ...entry }];
    return;
  }
  const oldCopy = { ...old, metadata: { ...old.metadata, managedFields: undefined } };
  const changed = changedPaths(oldCopy, newCopy, o.schema);
  if (changed.length > 0 && rewritesOwnFields(old, next, changed, o)) return;
  if (changed.length > 0 && addsOwnFields(old, next, changed, o)) return;
  trackUpdateByPathSets(old, next, changed, o);
}

/**
 * The general case of {@link trackUpdate}: every entry read into a set of paths, the changed
 * paths taken from whoever owned them and given to the writer's entry, every entry written back.
 * Exported for the test that checks the two shortcuts above against it.
 */
export function trackUpdateByPathSets(
  old: KubeObject,
  next: KubeObject,
  changed: FieldPath[],
  o: { manager: string; apiVersion: string; subresource?: string },
): void {
  const owned = readEntries(old);
  if (changed.length === 0) {
    writeEntries(next, owned);
    return;
  }
  const keys = new Map(changed.map((p) => [JSON.stringify(p), p]));
  for (const e of owned) for (const k of keys.keys()) e.paths.delete(k);
  let mine = owned.find(
    (e) =>
      e.entry.manager === o.manager &&
      e.entry.operation === 'Update' &&
      e.entry.subresource === o.subresource,
  );
  if (!mine) {
    const entry: Entry = {
      manager: o.manager,
      operation: 'Update',
      apiVersion: o.apiVersion,
      time: now(),
      fieldsType: 'FieldsV1',
      fieldsV1: {},
    };
    if (o.subresource) entry.subresource = o.subresource;
    mine = { entry, paths: new Map() };
    owned.push(mine);
  }
  mine.entry.time = now();
  for (const [k, p] of keys) mine.paths.set(k, p);
  writeEntries(next, owned);
}

/**
 * The common update: a manager changes fields it already owns and nobody else does. Ownership
 * stays as it is but for that entry's time, so the stored entries are kept instead of being
 * read into path sets and written back (what the general case does, with the same result).
 */
function rewritesOwnFields(
  old: KubeObject,
  next: KubeObject,
  changed: FieldPath[],
  o: { manager: string; subresource?: string },
): boolean {
  const entries = old.metadata.managedFields ?? [];
  let mine = -1;
  for (const [i, e] of entries.entries()) {
    if (!isObject(e) || typeof e.manager !== 'string' || !isObject(e.fieldsV1)) return false;
    const isMine =
      e.manager === o.manager && e.operation === 'Update' && e.subresource === o.subresource;
    if (isMine) mine = i;
    const owns = isMine
      ? changed.every((p) => isLeafIn(e.fieldsV1, p))
      : !changed.some((p) => isLeafIn(e.fieldsV1, p));
    if (!owns) return false;
  }
  const entry = entries[mine];
  if (!entry) return false;
  const updated = [...entries];
  updated[mine] = { ...entry, time: now() };
  next.metadata.managedFields = updated;
  return true;
}

/**
 * The next most common update: a manager changes fields nobody else owns, some of them new to it
 * (a status write that adds a condition or a nodeRef). Only that manager's entry changes (its
 * fields gain the changed paths, its time is now, or it is added at the end), so the other
 * entries are kept instead of being read into path sets and written back, which is what most of
 * the general case costs. Anything the general case would also rewrite elsewhere (another owner
 * of a changed path, an entry it would drop or normalize) falls through to it.
 */
function addsOwnFields(
  old: KubeObject,
  next: KubeObject,
  changed: FieldPath[],
  o: { manager: string; apiVersion: string; subresource?: string },
): boolean {
  const entries = old.metadata.managedFields ?? [];
  let mine = -1;
  for (const [i, e] of entries.entries()) {
    if (!isObject(e) || typeof e.manager !== 'string' || !isObject(e.fieldsV1)) return false;
    if (e.manager === o.manager && e.operation === 'Update' && e.subresource === o.subresource) {
      if (mine >= 0) return false;
      mine = i;
    } else if (
      Object.keys(e.fieldsV1).length === 0 ||
      changed.some((p) => isLeafIn(e.fieldsV1, p))
    ) {
      return false;
    }
  }
  const updated = [...entries];
  const entry = entries[mine];
  if (entry) {
    updated[mine] = {
      ...entry,
      time: now(),
      fieldsV1: addPaths(clone(entry.fieldsV1 as JsonObject), changed),
    };
  } else {
    const added: Entry = {
      manager: o.manager,
      operation: 'Update',
      apiVersion: o.apiVersion,
      time: now(),
      fieldsType: 'FieldsV1',
      fieldsV1: toFieldsV1(changed),
    };
    if (o.subresource) added.subresource = o.subresource;
    updated.push({ ...added });
  }
  next.metadata.managedFields = updated;
  return true;
}

/** A field an apply would take from another manager, and that manager's entry. */
export interface ApplyConflict {
  manager: string;
  operation: 'Apply' | 'Update';
  apiVersion: string;
  time?: string;
  subresource?: string;
  path: FieldPath;
}

function conflictWith(e: Entry, path: FieldPath): ApplyConflict & { entry: Entry } {
  const c: ApplyConflict & { entry: Entry } = {
    entry: e,
    manager: e.manager,
    operation: e.operation,
    apiVersion: e.apiVersion,
    time: e.time,
    path,
  };
  if (e.subresource) c.subresource = e.subresource;
  return c;
}

/**
 * A manager as kube-apiserver's conflict messages print it (fieldmanager's printManager): an
 * applier by its name, an updater with the API version and time of its update, a subresource's
 * writer with the subresource.
 */
function printManager(e: Omit<ApplyConflict, 'path'>): string {
  let s = JSON.stringify(e.manager);
  if (e.subresource) s += ` with subresource ${JSON.stringify(e.subresource)}`;
  if (e.operation === 'Update') s += ` using ${e.apiVersion}${e.time ? ` at ${e.time}` : ''}`;
  return s;
}

/**
 * The 409 of an apply that conflicts, worded as kube-apiserver words it (fieldmanager's
 * NewConflictError): one conflict on one line, several grouped by manager in name order, each
 * field on a line of its own; a cause per conflict.
 */
export function conflictError(conflicts: readonly ApplyConflict[]): ApiError {
  let message: string;
  const [only] = conflicts;
  if (conflicts.length === 1 && only) {
    message = `Apply failed with 1 conflict: conflict with ${printManager(only)}: ${renderPath(only.path)}`;
  } else {
    const byManager = new Map<string, { entry: ApplyConflict; paths: FieldPath[] }>();
    for (const c of conflicts) {
      const key = JSON.stringify([c.manager, c.operation, c.subresource ?? '']);
      const group = byManager.get(key) ?? { entry: c, paths: [] };
      group.paths.push(c.path);
      byManager.set(key, group);
    }
    const groups = [...byManager.values()].sort((a, b) =>
      a.entry.manager < b.entry.manager ? -1 : a.entry.manager > b.entry.manager ? 1 : 0,
    );
    const lines = groups.flatMap((g) => [
      `conflicts with ${printManager(g.entry)}:`,
      ...g.paths.map((p) => `- ${renderPath(p)}`),
    ]);
    message = `Apply failed with ${conflicts.length} conflicts: ${lines.join('\n')}`;
  }
  return new ApiError(409, 'Conflict', message, {
    causes: conflicts.map((c) => ({
      reason: 'FieldManagerConflict',
      message: `conflict with ${printManager(c)}`,
      field: renderPath(c.path),
    })),
  });
}
