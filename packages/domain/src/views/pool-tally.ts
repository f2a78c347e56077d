import type { Severity } from '../rules/issue';
import type { DiagnosisCode } from './diagnosis';
import type { MachineFacts, MachineView } from './machine';
import type { ViewMessageKey } from './messages';
import { viewProblem, type ViewProblem } from './problem';
import { LiveCounts, RolloutTally } from './rollout';
import { compareStrings } from './util';

/**
 * One machine of a pool as the pool's card counts it: its view, its facts, and whether it is of
 * the pool's current template. What a pool built incrementally keeps per machine (issue 14): a
 * machine's event rebuilds its own entry, and the card is counted from the entries.
 */
export interface PoolMachine {
  view: MachineView;
  facts: MachineFacts;
  upToDate: boolean;
}

/**
 * A pool's machines' entries (PoolMachine) with everything its card counts of them, kept as
 * entries come and go (issue 28): a machine's status event takes its old entry's share out and
 * its new one's in, and the card reads the counts, instead of walking the pool's machines. The
 * full rebuild makes the same tally from the pool's entries in one pass (PoolTally.of), so that
 * both count alike by construction; the property tests check them against each other.
 *
 * Entries are keyed by their view's name (one Machine per name in a namespace). The parts of the
 * card that list machines (the problems name the first few) keep their names in name order.
 */
export class PoolTally {
  readonly #entries = new Map<string, PoolMachine>();
  /** The entries' names in name order (compareStrings), as the card lists its machines. */
  readonly #names = new SortedNames();
  /** Live machines by MachineSet: a worker pool's rollout and replicas. */
  readonly rollout = new RolloutTally();
  /** Live machines of the current template (the entries' upToDate): the control plane's. */
  readonly upToDate = new LiveCounts();
  readonly #status = {
    deleting: 0,
    liveReady: 0,
    liveFailed: 0,
    liveStuck: 0,
    liveNotReady: 0,
    liveComingUp: 0,
    /** Any machine, deleting or not: the card's badges. */
    stuck: 0,
    failed: 0,
  };
  readonly #byCode = new Map<DiagnosisCode, { names: SortedNames; errors: number }>();
  /** Per PodDisruptionBudget, the machines it holds and what each reported of it. */
  readonly #byBudget = new Map<
    string,
    { names: SortedNames; reports: Map<string, { needs: number; has: number }> }
  >();
  /** How many entries were counted in or out: a test's proof that an event is O(1). */
  #touched = 0;

  /** The tally of these entries (a later one of the same name replaces the earlier). */
  static of(entries: Iterable<PoolMachine>): PoolTally {
    const t = new PoolTally();
    for (const e of entries) t.#entries.set(e.view.name, e);
    const names = [...t.#entries.keys()].sort(compareStrings);
    t.#names.reset(names);
    // In name order: the per-problem lists below are appended to, never inserted into.
    for (const name of names) {
      const e = t.#entries.get(name);
      if (e) t.#add(e);
    }
    return t;
  }

  get size(): number {
    return this.#entries.size;
  }

  /** Entries counted in or out since the tally was made. */
  get touched(): number {
    return this.#touched;
  }

  get(name: string): PoolMachine | undefined {
    return this.#entries.get(name);
  }

  has(name: string): boolean {
    return this.#entries.has(name);
  }

  names(): IterableIterator<string> {
    return this.#entries.keys();
  }

  /** Adds the entry, or replaces the one of its name. */
  set(entry: PoolMachine): void {
    const name = entry.view.name;
    const before = this.#entries.get(name);
    if (before === entry) return;
    if (before) this.#remove(before);
    else this.#names.insert(name);
    this.#entries.set(name, entry);
    this.#add(entry);
  }

  delete(name: string): boolean {
    const before = this.#entries.get(name);
    if (!before) return false;
    this.#remove(before);
    this.#entries.delete(name);
    this.#names.remove(name);
    return true;
  }

  /** The entries' machine views in name order. */
  views(): MachineView[] {
    const out: MachineView[] = [];
    for (const name of this.#names.all) {
      const e = this.#entries.get(name);
      if (e) out.push(e.view);
    }
    return out;
  }

  /** What poolStatus and the badges count of the machines' views. */
  statusCounts(): PoolStatusCounts {
    const s = this.#status;
    return {
      machines: this.#entries.size,
      deleting: s.deleting,
      ready: s.liveReady,
      failed: s.liveFailed,
      stuck: s.liveStuck,
      notReady: s.liveNotReady,
      notReadyComingUp: s.liveComingUp,
      stuckMachines: s.stuck,
      failedMachines: s.failed,
    };
  }

  /**
   * One problem per diagnosis code, naming the first machines by name (T-1), in the order their
   * codes first appear among the machines in name order.
   */
  machineProblems(): ViewProblem[] {
    const out: { first: string; problem: ViewProblem }[] = [];
    for (const [code, c] of this.#byCode) {
      const names = c.names.all;
      const first = names[0];
      if (first === undefined) continue;
      const listed = names.slice(0, LISTED_MACHINES);
      const more = names.length - listed.length;
      const severity: Severity = c.errors > 0 ? 'error' : 'warning';
      out.push({
        first,
        problem: viewProblem(
          code,
          severity,
          diagnosisProblemKey[code],
          { count: names.length, machines: listed.join(', ') + (more > 0 ? ` (+${more})` : '') },
          this.#entries.get(first)?.view.diagnosis?.rule,
        ),
      });
    }
    return out.sort((a, b) => compareStrings(a.first, b.first)).map((p) => p.problem);
  }

  /**
   * Issue 26 item 6: one problem per PodDisruptionBudget refusing the drain of the pool's
   * deleting machines, with the needs/has the first of them (by name) reported and the machines
   * it holds in name order.
   */
  drainProblems(): ViewProblem[] {
    const out: { first: string; order: number; problem: ViewProblem }[] = [];
    for (const [budget, b] of this.#byBudget) {
      const names = b.names.all;
      const first = names[0];
      const report = first !== undefined ? b.reports.get(first) : undefined;
      if (first === undefined || !report) continue;
      const listed = names.slice(0, LISTED_MACHINES);
      const more = names.length - listed.length;
      const order =
        this.#entries.get(first)?.view.drainBlockedBy?.findIndex((r) => r.name === budget) ?? 0;
      out.push({
        first,
        order,
        problem: viewProblem('drain-blocked', 'warning', 'view.problem.drainBlocked', {
          budget,
          needs: report.needs,
          has: report.has,
          count: names.length,
          machines: listed.join(', ') + (more > 0 ? ` (+${more})` : ''),
        }),
      });
    }
    return out
      .sort((a, b) => compareStrings(a.first, b.first) || a.order - b.order)
      .map((p) => p.problem);
  }

  #add(e: PoolMachine): void {
    this.#count(e, 1);
    this.rollout.add(e.facts);
    if (e.upToDate) this.upToDate.add(e.facts);
  }

  #remove(e: PoolMachine): void {
    this.#count(e, -1);
    this.rollout.remove(e.facts);
    if (e.upToDate) this.upToDate.remove(e.facts);
  }

  /** Counts the entry's view in (+1) or out (−1). */
  #count(e: PoolMachine, by: 1 | -1): void {
    this.#touched++;
    const v = e.view;
    const s = this.#status;
    const code = v.diagnosis?.code;
    const failed = code === 'vm-failed';
    const stuck = code !== undefined && !failed;
    if (failed) s.failed += by;
    if (stuck) s.stuck += by;
    if (v.deleting) s.deleting += by;
    else {
      if (v.ready) s.liveReady += by;
      else {
        s.liveNotReady += by;
        if (COMING_UP.has(v.phase)) s.liveComingUp += by;
      }
      if (failed) s.liveFailed += by;
      if (stuck) s.liveStuck += by;
    }
    if (v.diagnosis) {
      let c = this.#byCode.get(v.diagnosis.code);
      if (!c) {
        c = { names: new SortedNames(), errors: 0 };
        this.#byCode.set(v.diagnosis.code, c);
      }
      if (v.diagnosis.severity === 'error') c.errors += by;
      if (by > 0) c.names.insert(v.name);
      else {
        c.names.remove(v.name);
        if (c.names.all.length === 0) this.#byCode.delete(v.diagnosis.code);
      }
    }
    for (const r of v.drainBlockedBy ?? []) {
      let b = this.#byBudget.get(r.name);
      if (!b) {
        b = { names: new SortedNames(), reports: new Map() };
        this.#byBudget.set(r.name, b);
      }
      if (by > 0) {
        b.names.insert(v.name);
        // The machine's first report of the budget, as drainProblems read it.
        if (!b.reports.has(v.name)) b.reports.set(v.name, { needs: r.needs, has: r.has });
      } else {
        b.names.remove(v.name);
        b.reports.delete(v.name);
        if (b.names.all.length === 0) this.#byBudget.delete(r.name);
      }
    }
  }
}

/** What a pool's status (poolStatus) and badges count of its machines' views. */
export interface PoolStatusCounts {
  machines: number;
  /** Machines being deleted. */
  deleting: number;
  /** Of the live machines (not being deleted): Ready; failed (vm-failed); stuck (diagnosed). */
  ready: number;
  failed: number;
  stuck: number;
  /** Live and not Ready, and of those coming up (Pending, Provisioning, Provisioned). */
  notReady: number;
  notReadyComingUp: number;
  /** Any machine, deleting or not: the badges. */
  stuckMachines: number;
  failedMachines: number;
}

const COMING_UP: ReadonlySet<string> = new Set(['Pending', 'Provisioning', 'Provisioned']);

/** How many machine names a pool problem lists; the machines' own views carry the rest. */
const LISTED_MACHINES = 5;

const diagnosisProblemKey: Record<DiagnosisCode, ViewMessageKey> = {
  'placement-stall': 'view.problem.placementStall',
  'early-failure': 'view.problem.earlyFailure',
  'waiting-for-ip': 'view.problem.waitingForIp',
  'vm-failed': 'view.problem.vmFailed',
  'node-not-healthy': 'view.problem.nodeNotHealthy',
};

/** Names in compareStrings order, a name possibly more than once (a budget listed twice). */
class SortedNames {
  #names: string[] = [];

  get all(): readonly string[] {
    return this.#names;
  }

  reset(sorted: string[]): void {
    this.#names = sorted;
  }

  insert(name: string): void {
    const names = this.#names;
    const last = names[names.length - 1];
    // Appending is the common case (the full rebuild adds in name order).
    if (last === undefined || compareStrings(last, name) <= 0) names.push(name);
    else names.splice(this.#upperBound(name), 0, name);
  }

  /** Removes one occurrence of `name`, if any. */
  remove(name: string): void {
    const i = this.#upperBound(name) - 1;
    if (i >= 0 && this.#names[i] === name) this.#names.splice(i, 1);
  }

  /** The first index whose name sorts after `name`. */
  #upperBound(name: string): number {
    const names = this.#names;
    let lo = 0;
    let hi = names.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compareStrings(names[mid] ?? '', name) <= 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
