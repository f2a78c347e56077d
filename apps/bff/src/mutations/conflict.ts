import {
  diffObjects,
  isTestOp,
  PLAN_STALE,
  poolMergeOf,
  type DCSIpHostnamePool,
  type KindName,
  type Plan,
  type PlanStep,
  type RuleIssue,
} from '@dcs/domain';

/**
 * Three-way judgement of a stale request: the user saw `base`, someone else has since made it
 * `theirs`, the user's plan writes `yours`. The intent still applies cleanly when the fields the
 * plan writes and the fields the other change touched do not overlap; the plan is then rebased
 * onto theirs (its resourceVersions replaced by the current ones) and applied. Otherwise the user
 * gets a 409 with base, theirs and yours. Pure functions; the service does the reading.
 */

export interface StaleRef {
  kind: KindName;
  name: string;
  seen: string;
  current: string;
  /** Where the request carries that resourceVersion (dotted). */
  path: string;
}

export function staleRefs(issues: readonly RuleIssue[]): StaleRef[] {
  return issues.flatMap((i) => {
    if (i.rule !== PLAN_STALE) return [];
    const { kind, name, seen, current } = i.params;
    if (typeof kind !== 'string' || typeof name !== 'string') return [];
    if (typeof seen !== 'string' || typeof current !== 'string') return [];
    return [{ kind: kind as KindName, name, seen, current, path: i.path }];
  });
}

/** Fields that change without anyone editing the object's intent. */
const NOISE = [
  /^\/metadata\/(resourceVersion|managedFields|generation|uid|creationTimestamp)(\/|$)/,
  /^\/status(\/|$)/,
  // Cluster API's conversion-data annotation (a v1beta2-stored object read through v1beta1): a
  // copy of the whole object in the other version, rewritten by every status write. What it says
  // of the spec shows in the spec itself (issue 26 item 1: a health check's status churns).
  /^\/metadata\/annotations\/cluster\.x-k8s\.io~1conversion-data$/,
];

/** JSON pointers of the fields that differ between two versions, noise left out. */
export function changedPaths(before: unknown, after: unknown): string[] {
  return diffObjects(before, after)
    .map((c) => c.path)
    .filter((p) => !NOISE.some((n) => n.test(p)));
}

/**
 * The fields someone else wrote along a run of versions (oldest first): the union of every step's
 * changes, so that a field written and written back (replicas 3 → 5 → 3) still counts as changed.
 */
export function changedPathsAlong(versions: readonly unknown[]): string[] {
  const out = new Set<string>();
  for (let i = 1; i < versions.length; i++) {
    for (const p of changedPaths(versions[i - 1], versions[i])) out.add(p);
  }
  return [...out];
}

function leafPointers(doc: unknown, prefix = ''): string[] {
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) return [prefix];
  const entries = Object.entries(doc as Record<string, unknown>);
  if (entries.length === 0) return [prefix];
  return entries.flatMap(([k, v]) =>
    leafPointers(v, `${prefix}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`),
  );
}

/** JSON pointers a step writes on its object (a delete or a create writes all of it). */
export function writtenPaths(step: PlanStep, base?: unknown): string[] {
  switch (step.verb) {
    case 'create':
    case 'delete':
      return [''];
    case 'update':
      return changedPaths(base, step.body);
    case 'patch':
      return step.patch.type === 'json'
        ? step.patch.ops.filter((o) => !isTestOp(o)).map((o) => o.path)
        : leafPointers(step.patch.doc).filter((p) => !NOISE.some((n) => n.test(p)));
  }
}

/** Whether two pointers touch the same field: equal, or one contains the other. */
export function overlaps(a: string, b: string): boolean {
  if (a === b || a === '' || b === '') return true;
  return a.startsWith(`${b}/`) || b.startsWith(`${a}/`);
}

export function overlapping(theirs: readonly string[], yours: readonly string[]): string[] {
  return theirs.filter((t) => yours.some((y) => overlaps(t, y)));
}

/** The request with the resourceVersion at `path` (dotted; keys may contain dots) replaced. */
export function withResourceVersion(request: unknown, path: string, value: string): unknown {
  const set = (node: unknown, rest: string): unknown => {
    if (typeof node !== 'object' || node === null || Array.isArray(node)) return node;
    const record = node as Record<string, unknown>;
    if (Object.hasOwn(record, rest)) return { ...record, [rest]: value };
    for (const key of Object.keys(record)) {
      if (rest.startsWith(`${key}.`)) {
        return { ...record, [key]: set(record[key], rest.slice(key.length + 1)) };
      }
    }
    return node;
  };
  return set(request, path);
}

/** The object a plan leaves behind for `kind/name` (its preview's `after`). */
export function yoursOf(plan: Plan, kind: KindName, name: string): unknown {
  return plan.diffs.find((d) => d.kind === kind && d.name === name)?.after;
}

export function stepsOn(plan: Plan, kind: KindName, name: string): PlanStep[] {
  return plan.steps.filter((s) => s.kind === kind && s.name === name);
}

/**
 * R-POOL-4: the entries (by ip) an IP-pool request edits or removes — `update[].ip` and
 * `remove[]` of a PatchIpPoolRequest; appends name none. Read defensively: any request shape.
 */
export function poolEntriesTouched(request: unknown): string[] {
  if (typeof request !== 'object' || request === null) return [];
  const r = request as { update?: unknown; remove?: unknown };
  const ips: string[] = [];
  if (Array.isArray(r.remove)) for (const ip of r.remove) if (typeof ip === 'string') ips.push(ip);
  if (Array.isArray(r.update)) {
    for (const u of r.update) {
      const ip = (u as { ip?: unknown } | null)?.ip;
      if (typeof ip === 'string') ips.push(ip);
    }
  }
  return ips;
}

/**
 * R-POOL-4: the entries someone else changed or removed along a run of versions of an IP pool
 * (oldest first), step by step: an entry edited and edited back, or removed and added again, was
 * still touched by someone else.
 */
export function poolChangesAlong(versions: readonly DCSIpHostnamePool[]): {
  changed: string[];
  removed: string[];
} {
  const changed = new Set<string>();
  const removed = new Set<string>();
  for (let i = 1; i < versions.length; i++) {
    const before = versions[i - 1];
    const after = versions[i];
    if (!before || !after) continue;
    const step = poolMergeOf(before, after);
    for (const ip of step.changed) changed.add(ip);
    for (const ip of step.removed) removed.add(ip);
  }
  return { changed: [...changed], removed: [...removed] };
}

/**
 * The entries both the user's edit and someone else's change (since the version the user saw)
 * touch: merging over those would overwrite a change the user never saw, so they are a conflict.
 */
export function poolEntryClash(
  touched: readonly string[],
  theirs: { changed: readonly string[]; removed: readonly string[] },
): string[] {
  const other = new Set([...theirs.changed, ...theirs.removed]);
  return [...new Set(touched.filter((ip) => other.has(ip)))];
}
