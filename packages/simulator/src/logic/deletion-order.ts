import { ANNOTATION_DELETE_MACHINE, type DeletePolicy, type Machine } from '@dcs/domain';
import { isFalse } from './conditions';

/**
 * Which machines a MachineSet deletes when it scales down: Cluster API v1.10's delete priority
 * functions (internal/controllers/machineset/machineset_delete_policy.go). Machines already
 * being deleted come first, then those annotated `cluster.x-k8s.io/delete-machine`
 * (R-MD-6, O-SCALE-DOWN-TARGETED), then unhealthy ones, then the deletePolicy's order; equal
 * priorities are broken by name, so "Random" is in fact deterministic.
 */

const MUST_DELETE = 100;
const SHOULD_DELETE = 75;
const BETTER_DELETE = 50;
const COULD_DELETE = 20;
const MUST_NOT_DELETE = 0;
const SECONDS_PER_TEN_DAYS = 864_000;

export const MACHINE_HEALTH_CHECK_SUCCEEDED = 'HealthCheckSucceeded';
export const NODE_HEALTHY = 'NodeHealthy';

/** isMachineHealthy: a node, no failure, NodeHealthy and the health check not False. */
export function isMachineHealthy(m: Machine): boolean {
  if (!m.status?.nodeRef) return false;
  if (m.status.failureReason || m.status.failureMessage) return false;
  if (isFalse(m.status.conditions, NODE_HEALTHY)) return false;
  return !isFalse(m.status.conditions, MACHINE_HEALTH_CHECK_SUCCEEDED);
}

function common(m: Machine): number | undefined {
  if (m.metadata.deletionTimestamp) return MUST_DELETE;
  if (m.metadata.annotations?.[ANNOTATION_DELETE_MACHINE] !== undefined) return SHOULD_DELETE;
  if (!isMachineHealthy(m)) return BETTER_DELETE;
  return undefined;
}

function oldest(m: Machine, now: number): number {
  const first = common(m);
  if (first !== undefined) return first;
  const created = m.metadata.creationTimestamp ? Date.parse(m.metadata.creationTimestamp) : NaN;
  if (Number.isNaN(created)) return MUST_NOT_DELETE;
  const seconds = (now - created) / 1000;
  if (seconds < 0) return MUST_NOT_DELETE;
  return BETTER_DELETE * (1 - Math.exp(-seconds / SECONDS_PER_TEN_DAYS));
}

export function deletePriority(policy: DeletePolicy | undefined, m: Machine, now: number): number {
  switch (policy ?? 'Random') {
    case 'Oldest':
      return oldest(m, now);
    case 'Newest': {
      const first = common(m);
      return first ?? BETTER_DELETE - oldest(m, now);
    }
    case 'Random':
      return common(m) ?? COULD_DELETE;
  }
}

/** getMachinesToDeletePrioritized: the `diff` machines to delete, highest priority first. */
export function machinesToDelete(
  machines: readonly Machine[],
  diff: number,
  policy: DeletePolicy | undefined,
  now: number,
): Machine[] {
  if (diff <= 0) return [];
  if (diff >= machines.length) return [...machines];
  const scored = machines.map((m) => ({ m, p: deletePriority(policy, m, now) }));
  scored.sort((a, b) => {
    if (a.p === b.p) {
      const an = a.m.metadata.name ?? '';
      const bn = b.m.metadata.name ?? '';
      return an < bn ? -1 : an > bn ? 1 : 0;
    }
    return b.p - a.p;
  });
  return scored.slice(0, diff).map((s) => s.m);
}
