import type { Machine, MachineDeployment } from '../schemas/capi';

/**
 * Small pure helpers of the views, not part of the package's API: timestamps (RFC 3339 strings
 * as epoch ms), ordering, and two Cluster API facts about machines and deployments.
 */

export function parseTime(value: string | undefined): number | undefined {
  if (!value) return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : ms;
}

/** The latest of the given timestamps that parse, or undefined when none does. */
export function latestTime(...values: (string | undefined)[]): number | undefined {
  let latest: number | undefined;
  for (const v of values) {
    const ms = parseTime(v);
    if (ms !== undefined && (latest === undefined || ms > latest)) latest = ms;
  }
  return latest;
}

export const MINUTE_MS = 60_000;

/** Whole minutes between `since` and `now`, never negative. */
export function minutesBetween(since: number, now: number): number {
  return Math.max(0, Math.floor((now - since) / MINUTE_MS));
}

/** Code-unit order of strings: the same on every platform and locale, so views are stable. */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** `{[key]: value}` when value is defined, else `{}`: keeps absent fields absent from the JSON. */
export function optional<K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, V>);
}

export function isMachineDeleting(machine: Machine): boolean {
  return machine.metadata.deletionTimestamp !== undefined || machine.status?.phase === 'Deleting';
}

/** MachineDeployment replicas as Cluster API defaults them. */
export const replicasOf = (md: MachineDeployment): number => md.spec?.replicas ?? 1;
