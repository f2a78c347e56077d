import type { Machine } from '../schemas/capi';
import type { DCSMachine, DCSMachineTemplate } from '../schemas/dcs';
import type { IpPoolView } from './ippool';
import { workerPoolRuleProblems } from './pool-rules';
import type { ViewProblem } from './problem';
import { diagnosisDueAt } from './diagnosis';
import {
  machineFacts,
  machineView,
  type MachineFacts,
  type MachineView,
  type MachineViewOptions,
} from './machine';

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
  #facts = new WeakMap<Machine, MachineFacts>();
  #rules = new WeakMap<
    DCSMachineTemplate,
    { ipPool: IpPoolView | undefined; providerVersion: string | undefined; problems: ViewProblem[] }
  >();

  /**
   * A worker pool's rule problems (pool-rules.ts), kept while its template, IP pool view and the
   * provider's version are the same objects: checking every IP pool entry's disks is the most
   * expensive part of a pool's card, and a machine's event changes none of its inputs.
   */
  poolRuleProblems(
    template: DCSMachineTemplate | undefined,
    ipPool: IpPoolView | undefined,
    providerVersion: string | undefined,
  ): ViewProblem[] {
    if (!template) return workerPoolRuleProblems(template, ipPool, providerVersion);
    const hit = this.#rules.get(template);
    if (hit !== undefined && hit.ipPool === ipPool && hit.providerVersion === providerVersion)
      return hit.problems;
    const problems = workerPoolRuleProblems(template, ipPool, providerVersion);
    this.#rules.set(template, { ipPool, providerVersion, problems });
    return problems;
  }

  /** What a pool's counts read of the machine; a function of the (immutable) Machine alone. */
  facts(machine: Machine): MachineFacts {
    let f = this.#facts.get(machine);
    if (!f) {
      f = machineFacts(machine);
      this.#facts.set(machine, f);
    }
    return f;
  }

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

/** A machine's facts through the memo when the caller keeps one, else derived afresh. */
export function machineFactsVia(memo: MachineViewMemo | undefined, machine: Machine): MachineFacts {
  return memo ? memo.facts(machine) : machineFacts(machine);
}
