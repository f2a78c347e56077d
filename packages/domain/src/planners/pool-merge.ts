import type { DCSIpHostnamePool } from '../schemas';
import type { RuleIssue } from '../rules/issue';
import { planIssue } from './issues';

/**
 * R-POOL-4: "on 409 Conflict re-read, re-apply the user's intent, and show the user what
 * changed". When an IP-pool edit is re-applied over someone else's change, this says what that
 * change was, entry by entry (an entry's identity is its ip): what the user's edit was merged
 * with, and kept.
 */
export interface PoolMerge {
  /** Entries someone else added since the version the user saw. */
  added: string[];
  /** Entries someone else removed. */
  removed: string[];
  /** Entries someone else changed (NICs, disks, hostname …). */
  changed: string[];
  /** Something besides the entries changed (labels, annotations, other spec fields). */
  otherFields: boolean;
}

const entriesOf = (p: DCSIpHostnamePool) =>
  new Map((p.spec?.pool ?? []).map((e) => [e.ip, JSON.stringify(e)]));

/** Stable text of a value, with object keys sorted, so that key order is no change. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (typeof v === 'object' && v !== null) {
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v);
}

export function poolMergeOf(base: DCSIpHostnamePool, current: DCSIpHostnamePool): PoolMerge {
  const before = entriesOf(base);
  const after = entriesOf(current);
  const same = (a: string | undefined, b: string | undefined) =>
    a !== undefined && b !== undefined && canonical(JSON.parse(a)) === canonical(JSON.parse(b));
  const rest = (p: DCSIpHostnamePool) => {
    const { spec, metadata, status: _s, ...top } = p;
    const { pool: _p, ...specRest } = spec ?? {};
    return canonical({
      top,
      specRest,
      labels: metadata.labels ?? {},
      annotations: metadata.annotations ?? {},
    });
  };
  return {
    added: [...after.keys()].filter((ip) => !before.has(ip)),
    removed: [...before.keys()].filter((ip) => !after.has(ip)),
    changed: [...after.keys()].filter(
      (ip) => before.has(ip) && !same(before.get(ip), after.get(ip)),
    ),
    otherFields: rest(base) !== rest(current),
  };
}

/**
 * The notice of a merge (a warning, so that it travels with the plan in the preview and in
 * Apply's answer): which pool, the versions, and what the other change held.
 */
export function poolMergedIssue(
  name: string,
  seen: string,
  current: string,
  merge: PoolMerge,
  path: string,
): RuleIssue {
  const list = (ips: readonly string[]) => (ips.length ? ips.join(', ') : '—');
  return planIssue('R-POOL-4', 'warning', path, 'plan.issue.poolMerged', {
    name,
    seen,
    current,
    added: list(merge.added),
    removed: list(merge.removed),
    changed: list(merge.changed),
  });
}
