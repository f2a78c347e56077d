import { LABEL_CLUSTER_NAME, LABEL_SET_NAME, type MachineSet } from '@dcs/domain';

/** Label selectors as the controllers use them: matchLabels only (what Cluster API writes). */

export type Labels = Record<string, string>;

export function matchesLabels(
  labels: Labels | undefined,
  selector: Labels | null | undefined,
): boolean {
  if (!selector) return true;
  for (const [k, v] of Object.entries(selector)) if (labels?.[k] !== v) return false;
  return true;
}

/** The selector as `status.selector` and `?labelSelector=` write it: `a=b,c=d`, keys sorted. */
export function selectorString(selector: Labels | null | undefined): string {
  return Object.entries(selector ?? {})
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join(',');
}

/**
 * A MachineSet's selector after Cluster API's webhook defaulting (machineset webhook Default):
 * the set's name when none was given, and the cluster name always.
 */
export function effectiveSetSelector(ms: MachineSet): Labels {
  const given = ms.spec?.selector.matchLabels ?? {};
  const base: Labels = Object.keys(given).length
    ? { ...given }
    : { [LABEL_SET_NAME]: ms.metadata.name ?? '' };
  return { ...base, [LABEL_CLUSTER_NAME]: ms.spec?.clusterName ?? '' };
}
