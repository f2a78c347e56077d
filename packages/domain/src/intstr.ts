import type { IntOrString } from './schemas/meta';

/**
 * maxSurge / maxUnavailable as Cluster API resolves them (R-MD-2): an int, or a percentage string;
 * a bare numeric string is not valid. Percentages of the desired replicas round up for maxSurge
 * and down for maxUnavailable; if both come out 0, maxUnavailable becomes 1 (the fence post).
 */

export type IntOrPercentProblem = 'negative' | 'notPercent' | 'badPercent' | 'notInteger';

/** Why a value is not a valid int-or-percent, or undefined when it is valid. */
export function intOrPercentProblem(value: IntOrString): IntOrPercentProblem | undefined {
  if (typeof value === 'number') {
    if (!Number.isInteger(value)) return 'notInteger';
    return value < 0 ? 'negative' : undefined;
  }
  // "-1" typed into a text field is a negative number, not a string problem.
  if (!value.endsWith('%')) return /^-\d+$/.test(value.trim()) ? 'negative' : 'notPercent';
  const body = value.slice(0, -1);
  if (!/^\d+$/.test(body)) return /^-\d+$/.test(body) ? 'negative' : 'badPercent';
  return undefined;
}

/** Cluster API's GetScaledValueFromIntOrPercent; throws on a value intOrPercentProblem rejects. */
export function scaledValue(value: IntOrString, total: number, roundUp: boolean): number {
  const problem = intOrPercentProblem(value);
  if (problem) throw new Error(`invalid value for IntOrString: ${String(value)} (${problem})`);
  if (typeof value === 'number') return value;
  const percent = Number(value.slice(0, -1));
  const exact = (percent * total) / 100;
  return roundUp ? Math.ceil(exact) : Math.floor(exact);
}

/** MachineDeployment defaults (Cluster API v1beta1 webhook): maxSurge 1, maxUnavailable 0. */
export const DEFAULT_MAX_SURGE: IntOrString = 1;
export const DEFAULT_MAX_UNAVAILABLE: IntOrString = 0;

/** Cluster API's ResolveFenceposts: the surge and unavailability a rollout may use. */
export function resolveFenceposts(
  maxSurge: IntOrString | undefined,
  maxUnavailable: IntOrString | undefined,
  desired: number,
): { maxSurge: number; maxUnavailable: number } {
  const surge = scaledValue(maxSurge ?? DEFAULT_MAX_SURGE, desired, true);
  const unavailable = scaledValue(maxUnavailable ?? DEFAULT_MAX_UNAVAILABLE, desired, false);
  if (surge === 0 && unavailable === 0) return { maxSurge: 0, maxUnavailable: 1 };
  return { maxSurge: surge, maxUnavailable: unavailable };
}
