import type { MachineView } from './machine';

/** Where the machines an O-SCALE-UP asked for are, after it was applied. */
export interface ScaleUpProgress {
  /** The pool's machines that were not there when the change was previewed, by name. */
  machines: MachineView[];
  /** How many of them are ready (Running, their node Ready and healthy). */
  ready: number;
  /** How many new machines the change asked for. */
  expected: number;
  /** Every machine asked for is ready. */
  done: boolean;
}

/**
 * O-SCALE-UP followed until its machines are ready: the pool's machines now, less the ones it had
 * before (`before`, their names), less any being deleted, count as the new ones.
 */
export function scaleUpProgress(
  before: readonly string[],
  machines: readonly MachineView[],
  expected: number,
): ScaleUpProgress {
  const old = new Set(before);
  const fresh = machines
    .filter((m) => !old.has(m.name) && !m.deleting)
    .sort((a, b) => a.name.localeCompare(b.name));
  const ready = fresh.filter((m) => m.ready).length;
  return { machines: fresh, ready, expected, done: ready >= expected };
}
