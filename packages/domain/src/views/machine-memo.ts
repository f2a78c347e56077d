import type { Machine } from '../schemas/capi';
import type { DCSMachine } from '../schemas/dcs';
import { diagnosisDueAt } from './diagnosis';
import { machineView, type MachineView, type MachineViewOptions } from './machine';

interface Memo {
  dcsMachine: DCSMachine | undefined;
  options: MachineViewOptions;
  /** Epoch ms from which the view may read differently with the clock alone (diagnosisDueAt). */
  validUntil: number;
  view: MachineView;
}

/**
 * Remembers each machine's view between rebuilds (issue 14: a pool of 100 machines was rebuilt
 * in full for every event of one of them, which was most of the stream's event-to-client time).
 *
 * A view is a function of the Machine, its DCSMachine, the options and the clock. Cached objects
 * are immutable (an update replaces them), so identity says whether the first two changed; the
 * options are small and compared by value; and the clock matters only from the machine's next
 * diagnosis deadline on, so a remembered view is reused only before it. The result is the same
 * object, which also lets a caller skip comparing it with what it sent before.
 */
export class MachineViewMemo {
  #byMachine = new WeakMap<Machine, Memo>();

  view(
    machine: Machine,
    dcsMachine: DCSMachine | undefined,
    now: Date,
    options: MachineViewOptions = {},
  ): MachineView {
    const hit = this.#byMachine.get(machine);
    if (
      hit !== undefined &&
      hit.dcsMachine === dcsMachine &&
      sameOptions(hit.options, options) &&
      now.getTime() < hit.validUntil
    )
      return hit.view;
    const view = machineView(machine, dcsMachine, now, options);
    const due = diagnosisDueAt(machine, dcsMachine, now, options);
    this.#byMachine.set(machine, {
      dcsMachine,
      options,
      validUntil: due ?? Number.POSITIVE_INFINITY,
      view,
    });
    return view;
  }
}

/**
 * Options compare shallowly: each value is a number, a boolean or an object the caller keeps
 * while it is unchanged (the IP pool's entry views), so identity is enough and a changed entry
 * only costs a rebuild.
 */
function sameOptions(a: MachineViewOptions, b: MachineViewOptions): boolean {
  const keys = Object.keys(a) as (keyof MachineViewOptions)[];
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((k) => Object.hasOwn(b, k) && a[k] === b[k]);
}

/** A view through the memo when the caller keeps one, else built afresh. */
export function machineViewVia(
  memo: MachineViewMemo | undefined,
  machine: Machine,
  dcsMachine: DCSMachine | undefined,
  now: Date,
  options: MachineViewOptions = {},
): MachineView {
  return memo
    ? memo.view(machine, dcsMachine, now, options)
    : machineView(machine, dcsMachine, now, options);
}
