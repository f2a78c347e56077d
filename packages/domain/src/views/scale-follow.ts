import type { MachineView } from './machine';

/** Where the machines an O-SCALE-UP asked for are, after it was applied. */
export interface ScaleUpProgress {
  /** The pool's new machines (see `scaleUpProgress`), by name. */
  machines: MachineView[];
  /** How many of them are ready (Running, their node Ready and healthy). */
  ready: number;
  /** How many new machines the change asked for. */
  expected: number;
  /** Every machine asked for is ready. */
  done: boolean;
}

/** What an applied O-SCALE-UP is followed from. */
export interface ScaleUpStart {
  /** The worker pool's id, its MachineDeployment's name: new machines carry it as their label. */
  poolId: string;
  /** The pool's machines when the change was previewed, by name: from a loaded list, never a guess. */
  before: readonly string[];
  /** When the server acknowledged the apply (ms since the epoch, the browser's clock). */
  appliedAt: number;
  /** How many machines the change adds. */
  expected: number;
}

/**
 * How far the browser's clock may be ahead of the API server's: a machine created by the scale-up
 * must not be missed because its creationTimestamp (server time) reads earlier than `appliedAt`.
 */
export const SCALE_FOLLOW_CLOCK_SLACK_MS = 60_000;

/**
 * O-SCALE-UP followed until its machines are ready. A machine is new when it belongs to the pool
 * (its `cluster.x-k8s.io/deployment-name` label, as every machine of the pool's MachineSets
 * carries), was not in the list the preview saw, is not being deleted, and was created after the
 * apply was acknowledged (creationTimestamp ≥ appliedAt − clock slack) — so that a machine of a
 * concurrent rollout or of someone else's change made earlier is not taken for one. Until the
 * pool's machines are loaded (`machines` undefined) it waits, and counts nothing.
 */
export function scaleUpProgress(
  start: ScaleUpStart,
  machines: readonly MachineView[] | undefined,
  clockSlackMs = SCALE_FOLLOW_CLOCK_SLACK_MS,
): ScaleUpProgress {
  const old = new Set(start.before);
  const since = start.appliedAt - clockSlackMs;
  const fresh = (machines ?? [])
    .filter((m) => {
      const created = m.createdAt === undefined ? Number.NaN : Date.parse(m.createdAt);
      return m.poolId === start.poolId && !old.has(m.name) && !m.deleting && created >= since;
    })
    .sort((a, b) => a.name.localeCompare(b.name));
  const ready = fresh.filter((m) => m.ready).length;
  return { machines: fresh, ready, expected: start.expected, done: ready >= start.expected };
}
