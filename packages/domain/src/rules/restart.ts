import type { RuleId } from './issue';

/**
 * Rollout restart (issue 26 item 4, O-RESTART): Cluster API's `rolloutAfter` (v1beta1
 * MachineDeployment and KubeadmControlPlane `spec.rolloutAfter`; v1beta2 `spec.rollout.after`).
 * Upstream (v1.14): once the time has passed, a MachineDeployment's MachineSets created before it
 * no longer count as up to date, so a new MachineSet is created and the machines are rolled as for
 * a template change, under the deployment's strategy (`mdutil.FindNewAndOldMachineSets`); a
 * KubeadmControlPlane replaces every machine created before it, one at a time
 * (`collections.ShouldRolloutAfter`: `creationTimestamp < rolloutAfter < now`). A time in the
 * future schedules the restart; a change of the spec before that time rolls anyway. What the
 * console offers and refuses, project-defined ids (DOMAIN.md names no rule for restarts):
 *
 * - **R-RESTART-1** (error) A restart replaces machines: a pool without any (`spec.replicas` 0)
 *   has nothing to restart.
 * - **R-RESTART-2** (error) Not while the pool is changing: its controller has not caught up with
 *   its spec, machines are being created, replaced or deleted, or a restart already due has not
 *   finished. A restart then would replace the replacements just made too; wait for the change
 *   to finish.
 * - **R-RESTART-3** (error) "At a time" is an RFC 3339 timestamp later than the console server's
 *   clock (a time already past would start at once and replace only the machines older than it:
 *   that is "Restart now").
 * - **R-RESTART-4** (warning) A restart is already scheduled (rolloutAfter later than now): the
 *   object holds one time, so this one replaces it.
 * - **R-RESTART-5** (warning) A MachineDeployment with the OnDelete strategy: Cluster API creates
 *   the new MachineSet, but replaces a machine only once someone deletes it.
 * - **R-RESTART-6** (warning) A MachineDeployment whose own `spec.paused` is true holds its
 *   rollout until that is unset (Cluster API's deployment pause, not the console's O-PAUSE).
 *
 * The surge a restart needs is judged as for upgrades: R-MD-3 (a pool relying on persistent disks
 * that surges) and R-POOL-1 (an IP pool without a spare entry for the surge) warn; R-PAUSE-1 warns
 * of a paused cluster or pool, as for every plan.
 */
export const R_RESTART_NO_MACHINES: RuleId = 'R-RESTART-1';
export const R_RESTART_CHANGING: RuleId = 'R-RESTART-2';
export const R_RESTART_TIME: RuleId = 'R-RESTART-3';
export const R_RESTART_REPLACES_SCHEDULED: RuleId = 'R-RESTART-4';
export const R_RESTART_ON_DELETE: RuleId = 'R-RESTART-5';
export const R_RESTART_DEPLOYMENT_PAUSED: RuleId = 'R-RESTART-6';

/** A time as Kubernetes reads it (RFC 3339), in ms since the epoch; undefined if it is none. */
export function parseRfc3339(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  // metav1.Time: RFC 3339 with a zone ("Z" or ±hh:mm), optional fraction; nothing else.
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/i.test(value)) {
    return undefined;
  }
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : ms;
}

/** A time as Kubernetes writes it (metav1.Time: RFC 3339, UTC, whole seconds). */
export function formatRfc3339(ms: number): string {
  return `${new Date(Math.floor(ms / 1000) * 1000).toISOString().slice(0, 19)}Z`;
}

/**
 * Upstream's expiry of rolloutAfter for an object created at `createdAt` (a MachineSet for a
 * MachineDeployment, a Machine for a KubeadmControlPlane): the time has passed
 * (`rolloutAfter < now`) and the object was created before it. Unset or unreadable times never
 * expire anything. An object without a creation time counts as created before.
 */
export function rolloutAfterExpired(
  rolloutAfter: string | undefined,
  createdAt: string | undefined,
  now: number,
): boolean {
  const after = parseRfc3339(rolloutAfter);
  if (after === undefined || !(after < now)) return false;
  const created = parseRfc3339(createdAt);
  return created === undefined || created < after;
}
