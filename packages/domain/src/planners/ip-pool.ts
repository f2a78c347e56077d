import type {
  CreateIpPoolRequest,
  EntryFieldsInput,
  EntryOwnField,
  PatchIpPoolRequest,
} from '../requests';
import type { ValidationContext } from '../rules/context';
import { poolEntryField, withinJsonBounds } from './bounds';
import type { RuleIssue } from '../rules/issue';
import { validateCreateIpPool, validatePatchIpPool } from '../rules/validators';
import type { AdditionNic, DCSIpHostnamePool, IpPoolEntry, PersistentDisk } from '../schemas/dcs';
import { mergeIssues, planIssue, PLAN_NOT_FOUND, poolChangedIssue } from './issues';
import {
  addOp,
  jsonClone,
  jsonEqual,
  pointer,
  removeOp,
  replaceOp,
  testOp,
  testResourceVersion,
  type InvertOptions,
  type JsonPatchOp,
} from './json-patch';
import { planMessage, type PlanMessage } from './messages';
import { API_INFRASTRUCTURE, createStep, finishPlan, jsonPatchStep, newMetadata } from './objects';
import type { CreateStep, PatchStep, Plan } from './plan';

/**
 * IP pool edits (R-POOL-4): never a merge patch of `spec.pool`, which would replace the whole
 * list with what the browser had. Every edit is a JSON patch that first tests the resourceVersion
 * the user saw, then touches only what the user changed: appends at the end, removals and
 * updates by index, each index guarded by a test of that entry's ip. Every other entry, its
 * persistentDisk blocks and their isThin included, is left exactly as the server has it.
 */

/** The undo of a pool edit tests entries by ip and disks by slot, not by their whole value. */
export const poolIdentity: InvertOptions = {
  identityOf: (v) => {
    if (typeof v !== 'object' || v === null) return undefined;
    const r = v as Record<string, unknown>;
    if (typeof r.ip === 'string') return { path: '/ip', value: r.ip };
    if (typeof r.slot === 'number') return { path: '/slot', value: r.slot };
    return undefined;
  },
};

export interface PoolEdit {
  append: readonly IpPoolEntry[];
  remove: readonly string[];
  update: PatchIpPoolRequest['update'];
}

export interface PoolEditOps {
  /** Starts with the resourceVersion test; only that test when nothing changes. */
  ops: JsonPatchOp[];
  issues: RuleIssue[];
  counts: { appended: number; removed: number; updated: number };
  /** ips of entries whose NICs or disks change (for R-NIC-2 / R-DISK-6 notes). */
  nicsChanged: string[];
  disksAppended: string[];
}

const entryPath = (i: number, ...rest: (string | number)[]) => pointer('spec', 'pool', i, ...rest);

/** Optional strings of an entry and of an extra NIC: left empty, they are not set (R-POOL-3, R-NIC-1). */
const OPTIONAL_ENTRY_STRINGS = ['dns', 'hostname', 'machineName'] as const;
const OPTIONAL_NIC_STRINGS = ['ip', 'mask', 'gateway', 'dns'] as const;

function withoutEmpty<T extends Record<string, unknown>>(o: T, fields: readonly string[]): T {
  const out: Record<string, unknown> = { ...o };
  for (const f of fields) {
    // eslint-disable-next-line @typescript-eslint/no-dynamic-delete -- one of the fixed fields above
    if (out[f] === '') delete out[f];
  }
  return out as T;
}

/** An extra NIC as it is written: an optional value left empty is left out, never `""`. */
export function nicAsWritten(nic: AdditionNic): AdditionNic {
  return withoutEmpty(jsonClone(nic), OPTIONAL_NIC_STRINGS);
}

/**
 * An entry as it is written (O-CREATE-POOL, O-CREATE-IP-POOL, appends): the rules read an empty
 * dns, hostname or NIC address as "not set" (forms send `""` for a field left blank), so the
 * object says "not set" too. `ip: ""` on an extra NIC would ask the provider for a static
 * address it cannot configure (issue 11). Required fields (ip, mask, gateway, and a NIC's switch
 * and port group) are kept as given: the rules refuse them empty.
 */
export function entryAsWritten(entry: IpPoolEntry): IpPoolEntry {
  const out = withoutEmpty(jsonClone(entry), OPTIONAL_ENTRY_STRINGS);
  if (out.additionNic) out.additionNic = out.additionNic.map(nicAsWritten);
  return out;
}

const emptyToUndefined = <T>(a: readonly T[] | undefined) => (a?.length ? a : undefined);

function diskOps(
  i: number,
  existing: readonly PersistentDisk[] | undefined,
  wanted: readonly PersistentDisk[],
): { ops: JsonPatchOp[]; appended: boolean } {
  const ops: JsonPatchOp[] = [];
  const current = existing ?? [];
  // Changes of disks that exist (R-DISK-4 says so, R-DISK-3 refuses some): field by field, each
  // disk guarded by its slot (R-DISK-1: (ip, slot) is its identity). Fields the request leaves
  // out stay as they are; a disk the request leaves out stays too (R-DISK-2).
  current.forEach((disk, j) => {
    const w = wanted.find((d) => d.slot === disk.slot);
    if (!w) return;
    const changed = Object.entries(w).filter(
      ([k, v]) => k !== 'slot' && v !== undefined && !jsonEqual(disk[k], v),
    );
    if (!changed.length) return;
    ops.push(testOp(entryPath(i, 'persistentDisk', j, 'slot'), disk.slot));
    for (const [k, v] of changed)
      ops.push(addOp(entryPath(i, 'persistentDisk', j, k), jsonClone(v)));
  });
  const added = wanted.filter((d) => !current.some((c) => c.slot === d.slot)).map(jsonClone);
  if (added.length) {
    if (existing === undefined) ops.push(addOp(entryPath(i, 'persistentDisk'), added));
    else for (const d of added) ops.push(addOp(entryPath(i, 'persistentDisk', '-'), d));
  }
  return { ops, appended: added.length > 0 };
}

const REQUIRED_FIELDS: ReadonlySet<EntryOwnField> = new Set(['ip', 'mask', 'gateway']);
// The ip last: the entry's guard tests the old one first. (Not the requests' list: a value import
// of that module would bring zod into the web's first load, issue 14.)
const FIELD_ORDER: readonly EntryOwnField[] = [
  'mask',
  'gateway',
  'dns',
  'hostname',
  'machineName',
  'ip',
];

/**
 * An entry's own fields (issue 12), each as it changes: replaced behind a test of its old value,
 * added when it was not set, removed when an optional one is cleared; the ip last, since the
 * entry's guard tests the old one first. A required field cleared writes nothing (R-POOL-3 says
 * so); an unchanged one neither.
 */
function entryFieldOps(i: number, entry: IpPoolEntry, set: EntryFieldsInput): JsonPatchOp[] {
  const ops: JsonPatchOp[] = [];
  for (const f of FIELD_ORDER) {
    const value = set[f];
    const current = entry[f];
    if (value === undefined || value === current) continue;
    const path = entryPath(i, f);
    if (value === '') {
      if (!REQUIRED_FIELDS.has(f) && current !== undefined)
        ops.push(testOp(path, current), removeOp(path));
    } else if (current === undefined) ops.push(addOp(path, value));
    else if (f === 'ip') ops.push(replaceOp(path, value));
    else ops.push(testOp(path, current), replaceOp(path, value));
  }
  return ops;
}

/**
 * The JSON patch ops of an edit of `current` (R-POOL-4), guarded by a test of `resourceVersion`
 * (see {@link poolEditBase}) and, at every index they touch, of that entry's ip.
 */
export function ipPoolEditOps(
  current: DCSIpHostnamePool,
  resourceVersion: string,
  edit: PoolEdit,
): PoolEditOps {
  const pool = current.spec?.pool;
  const entries = pool ?? [];
  const name = current.metadata.name ?? '';
  const ops: JsonPatchOp[] = [testResourceVersion(resourceVersion)];
  const issues: RuleIssue[] = [];
  const nicsChanged: string[] = [];
  const disksAppended: string[] = [];
  let updated = 0;
  // Each ip's index in the pool as it is, the first where an ip repeats: linear (issue 25, item 6).
  const indexOf = new Map<string, number>();
  entries.forEach((e, i) => {
    if (!indexOf.has(e.ip)) indexOf.set(e.ip, i);
  });

  // An ip the pool does not hold is said once per list, however often the list names it.
  const firstMiss = () => {
    const missing = new Set<string>();
    return (ip: string): boolean => missing.size < missing.add(ip).size;
  };
  const updateMissing = firstMiss();
  const removeMissing = firstMiss();

  // Updates first, by the indices of the pool as it is; removals after, from the highest index.
  edit.update.forEach((u, k) => {
    const i = indexOf.get(u.ip) ?? -1;
    const entry = entries[i];
    if (!entry) {
      if (updateMissing(u.ip))
        issues.push(
          planIssue(PLAN_NOT_FOUND, 'error', `update.${k}.ip`, 'plan.issue.entryNotFound', {
            pool: name,
            ip: u.ip,
          }),
        );
      return;
    }
    const entryOps: JsonPatchOp[] = [];
    const nics = u.additionNic?.map(nicAsWritten);
    if (
      nics !== undefined &&
      !jsonEqual(emptyToUndefined(entry.additionNic), emptyToUndefined(nics))
    ) {
      entryOps.push(
        nics.length
          ? addOp(entryPath(i, 'additionNic'), nics)
          : removeOp(entryPath(i, 'additionNic')),
      );
      nicsChanged.push(u.ip);
    }
    const disks = u.persistentDisk ? diskOps(i, entry.persistentDisk, u.persistentDisk) : undefined;
    if (disks?.appended) disksAppended.push(u.ip);
    if (disks) entryOps.push(...disks.ops);
    if (u.set) entryOps.push(...entryFieldOps(i, entry, u.set));
    // One guard per entry: the index must still hold this ip.
    if (entryOps.length) {
      ops.push(testOp(entryPath(i, 'ip'), u.ip), ...entryOps);
      updated++;
    }
  });

  const removals: { i: number; ip: string }[] = [];
  const removing = new Set<number>();
  edit.remove.forEach((ip, k) => {
    const i = indexOf.get(ip) ?? -1;
    if (i < 0) {
      if (removeMissing(ip))
        issues.push(
          planIssue(PLAN_NOT_FOUND, 'error', `remove.${k}`, 'plan.issue.entryNotFound', {
            pool: name,
            ip,
          }),
        );
    } else if (!removing.has(i)) {
      removing.add(i);
      removals.push({ i, ip });
    }
  });
  removals.sort((a, b) => b.i - a.i);
  for (const { i, ip } of removals)
    ops.push(testOp(entryPath(i, 'ip'), ip), removeOp(entryPath(i)));

  const appended = edit.append.map(entryAsWritten);
  if (appended.length) {
    if (pool) for (const e of appended) ops.push(addOp(pointer('spec', 'pool', '-'), e));
    else if (current.spec) ops.push(addOp(pointer('spec', 'pool'), appended));
    else ops.push(addOp(pointer('spec'), { pool: appended }));
  }
  return {
    ops,
    issues,
    counts: { appended: appended.length, removed: removals.length, updated },
    nicsChanged,
    disksAppended,
  };
}

/**
 * The resourceVersion an edit of `current` is tested against: the pool's own, which the preview
 * shows and every index was computed on. R-POOL-4: when the user saw an older one, the intent
 * (append these, remove those ips, change that entry) is re-applied to the current entries, never
 * a list the browser had; the rules warn that it changed meanwhile, and the diff shows the result.
 */
export const poolEditBase = (current: DCSIpHostnamePool, seenResourceVersion: string): string =>
  current.metadata.resourceVersion ?? seenResourceVersion;

/** The step that appends `entries` to `current` (O-CREATE-POOL, O-SCALE-UP), or none. */
export function appendToIpPoolStep(
  current: DCSIpHostnamePool,
  entries: readonly IpPoolEntry[],
  seenResourceVersion: string,
): PatchStep | undefined {
  if (!entries.length) return undefined;
  const { ops } = ipPoolEditOps(current, poolEditBase(current, seenResourceVersion), {
    append: entries,
    remove: [],
    update: [],
  });
  return jsonPatchStep(
    current,
    'DCSIpHostnamePool',
    ops,
    planMessage('plan.step.appendIpPool', {
      name: current.metadata.name ?? '',
      count: entries.length,
      existing: current.spec?.pool?.length ?? 0,
    }),
    { invert: poolIdentity },
  );
}

/** The create step of a new pool with `entries`. */
export function createIpPoolStep(
  name: string,
  namespace: string,
  entries: readonly IpPoolEntry[],
  clusterName?: string,
): CreateStep {
  const body: DCSIpHostnamePool = {
    apiVersion: API_INFRASTRUCTURE,
    kind: 'DCSIpHostnamePool',
    metadata: newMetadata(name, namespace, clusterName),
    spec: { pool: entries.map(entryAsWritten) },
  };
  return createStep(
    'DCSIpHostnamePool',
    body,
    planMessage('plan.step.createIpPool', { name, count: entries.length }),
  );
}

/** Creation of a standalone IP pool (`POST /namespaces/{ns}/ippools`). */
/** O-CREATE-IP-POOL, within the JSON bounds (bounds.ts). */
export function planCreateIpPool(req: CreateIpPoolRequest, ctx: ValidationContext): Plan {
  return withinJsonBounds(
    {
      operation: 'O-CREATE-IP-POOL',
      namespace: ctx.namespace,
      target: { kind: 'DCSIpHostnamePool', name: req.name },
    },
    () => createIpPoolPlan(req, ctx),
    poolEntryField('entries'),
  );
}

function createIpPoolPlan(req: CreateIpPoolRequest, ctx: ValidationContext): Plan {
  return finishPlan({
    operation: 'O-CREATE-IP-POOL',
    namespace: ctx.namespace,
    target: { kind: 'DCSIpHostnamePool', name: req.name },
    steps: [createIpPoolStep(req.name, ctx.namespace, req.entries)],
    issues: validateCreateIpPool(req, ctx),
    known: [],
    effects: { created: [{ kind: 'DCSIpHostnamePool', name: req.name }] },
  });
}

/**
 * An edit of an existing pool (`PATCH /namespaces/{ns}/ippools/{name}`): appends, removals of
 * unclaimed entries (R-POOL-6), NIC and disk updates (R-NIC-*, R-DISK-*), in one JSON patch.
 */
/** O-EDIT-IP-POOL, within the JSON bounds (bounds.ts). */
export function planPatchIpPool(
  poolName: string,
  req: PatchIpPoolRequest,
  current: DCSIpHostnamePool,
  ctx: ValidationContext,
): Plan {
  return withinJsonBounds(
    {
      operation: 'O-EDIT-IP-POOL',
      namespace: ctx.namespace,
      target: { kind: 'DCSIpHostnamePool', name: poolName },
    },
    () => patchIpPoolPlan(poolName, req, current, ctx),
    (kind) => (kind === 'DCSIpHostnamePool' && req.append.length > 0 ? 'append' : undefined),
  );
}

function patchIpPoolPlan(
  poolName: string,
  req: PatchIpPoolRequest,
  current: DCSIpHostnamePool,
  ctx: ValidationContext,
): Plan {
  const edit = ipPoolEditOps(current, poolEditBase(current, req.resourceVersion), req);
  const changes = edit.ops.length > 1;
  const claimed = new Set(ctx.ipPools.find((p) => p.name === poolName)?.claims.map((c) => c.ip));
  const notes: PlanMessage[] = [];
  if (edit.nicsChanged.some((ip) => claimed.has(ip)))
    notes.push(planMessage('plan.effect.nicNotHotUpdated'));
  if (edit.disksAppended.some((ip) => claimed.has(ip))) {
    notes.push(planMessage('plan.effect.diskAttachedNotMounted'));
  }
  if (
    edit.counts.removed &&
    req.remove.some((ip) => current.spec?.pool?.find((e) => e.ip === ip)?.persistentDisk?.length)
  ) {
    notes.push(planMessage('plan.effect.volumesKept'));
  }
  const steps = changes
    ? [
        jsonPatchStep(
          current,
          'DCSIpHostnamePool',
          edit.ops,
          planMessage('plan.step.editIpPool', { name: poolName, ...edit.counts }),
          { invert: poolIdentity },
        ),
      ]
    : [];
  return finishPlan({
    operation: 'O-EDIT-IP-POOL',
    namespace: ctx.namespace,
    target: { kind: 'DCSIpHostnamePool', name: poolName },
    steps,
    issues: mergeIssues(validatePatchIpPool(poolName, req, ctx), [
      ...poolChangedIssue(
        poolName,
        req.resourceVersion,
        current.metadata.resourceVersion,
        'resourceVersion',
      ),
      ...edit.issues,
    ]),
    known: [current],
    effects: notes.length ? { notes } : {},
  });
}
