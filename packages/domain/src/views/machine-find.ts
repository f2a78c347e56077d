import { MachinePhaseSchema } from '../schemas/capi';
import { conditionTone, type ConditionView } from './conditions';
import type { MachineView } from './machine';

/**
 * Finding machines in a big cluster (issue 26, item 8): the fields a machines table filters by
 * besides its free text, and the orders it sorts in. Pure and allocation-light: both run over
 * every machine (20,000) on every stream batch.
 */

/** Cluster API's Machine phases (MachinePhase), in the order of a machine's life. */
export const MACHINE_PHASES = MachinePhaseSchema.options;

export interface MachineQuery {
  /** Any of these phases (none: every phase). */
  phases: readonly string[];
  /** A condition type the machine has in a state other than its healthy one ('' : any). */
  condition: string;
  /** Parts of the name, the Node's name and the address, each matched alone (case-insensitive). */
  name: string;
  node: string;
  ip: string;
}

export const emptyMachineQuery: MachineQuery = {
  phases: [],
  condition: '',
  name: '',
  node: '',
  ip: '',
};

const notHealthy = (c: ConditionView) => conditionTone(c) !== 'ok';

/**
 * Whether the machine has a condition of `type` that is not in its healthy state: False or
 * Unknown for Cluster API's conditions (Ready=False, NodeHealthy=Unknown…), True or Unknown for
 * those whose True is the bad state (v1beta2's Deleting, Paused…). It looks at the Machine's
 * conditions, its v1beta2 conditions and its DCSMachine's (the VM on DCS).
 */
export function hasUnhealthyCondition(m: MachineView, type: string): boolean {
  const is = (c: ConditionView) => c.type === type && notHealthy(c);
  return (
    m.conditions.some(is) ||
    (m.v1beta2Conditions?.some(is) ?? false) ||
    (m.infrastructureConditions?.some(is) ?? false)
  );
}

/**
 * The condition types some machine has in a state other than its healthy one, sorted: the
 * choices of a table's condition filter. One pass, no allocation per machine.
 */
export function unhealthyConditionTypes(machines: readonly MachineView[]): string[] {
  const types = new Set<string>();
  const add = (cs: readonly ConditionView[] | undefined) => {
    if (!cs) return;
    for (const c of cs) if (notHealthy(c)) types.add(c.type);
  };
  for (const m of machines) {
    add(m.conditions);
    add(m.v1beta2Conditions);
    add(m.infrastructureConditions);
  }
  return [...types].sort();
}

const includes = (value: string | undefined, part: string) =>
  value?.toLowerCase().includes(part) === true;

/** Whether nothing in the query narrows the list. */
export const isEmptyMachineQuery = (q: MachineQuery): boolean =>
  q.phases.length === 0 &&
  q.condition === '' &&
  q.name.trim() === '' &&
  q.node.trim() === '' &&
  q.ip.trim() === '';

/**
 * A predicate of the machines `q` keeps, prepared once per query (its strings lower-cased, its
 * phases a set), then called per machine.
 */
export function machineQueryMatcher(q: MachineQuery): (m: MachineView) => boolean {
  const phases = new Set(q.phases);
  const name = q.name.trim().toLowerCase();
  const node = q.node.trim().toLowerCase();
  const ip = q.ip.trim().toLowerCase();
  const { condition } = q;
  return (m) =>
    (phases.size === 0 || phases.has(m.phase)) &&
    (name === '' || includes(m.name, name)) &&
    (node === '' || includes(m.nodeName, node)) &&
    (ip === '' || includes(m.ip, ip)) &&
    (condition === '' || hasUnhealthyCondition(m, condition));
}

export const MACHINE_SORT_KEYS = ['name', 'phase', 'age', 'node', 'ip', 'version'] as const;
export type MachineSortKey = (typeof MACHINE_SORT_KEYS)[number];
export interface MachineSort {
  key: MachineSortKey;
  dir: 'asc' | 'desc';
}

/** The lists' own order: by name, as the API and the stream's reducer keep them. */
export const defaultMachineSort: MachineSort = { key: 'name', dir: 'asc' };

const phaseRank = new Map<string, number>(MACHINE_PHASES.map((p, i) => [p, i]));

/** `1.30.2` → `00001.00030.00002`: versions and numbers compare as numbers, as strings. */
const padNumbers = (s: string) => s.replace(/\d+/g, (d) => d.padStart(5, '0'));

/**
 * The padded IP and version of each view, kept while the view is the same object: the stream's
 * reducer keeps unchanged views' identity, so a batch pads only the machines it changed.
 */
const padded = new WeakMap<MachineView, { ip: string | undefined; version: string | undefined }>();
function paddedOf(m: MachineView) {
  let p = padded.get(m);
  if (p === undefined) {
    p = {
      ip: m.ip === undefined ? undefined : padNumbers(m.ip),
      version: m.version === undefined ? undefined : padNumbers(m.version.replace(/^v/, '')),
    };
    padded.set(m, p);
  }
  return p;
}

/**
 * The string a machine sorts by under `key`; undefined when it has none (those go last in both
 * directions). Age ascending is youngest first: the newest creationTimestamp first.
 */
function sortValue(m: MachineView, key: MachineSortKey): string | undefined {
  switch (key) {
    case 'name':
      return m.name;
    case 'phase': {
      const rank = phaseRank.get(m.phase);
      return rank === undefined ? `9${m.phase}` : String(rank);
    }
    case 'age':
      return m.createdAt;
    case 'node':
      return m.nodeName;
    case 'ip':
      return paddedOf(m).ip;
    case 'version':
      return paddedOf(m).version;
  }
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The machines in `sort`'s order, stable (machines that compare equal keep the list's order,
 * by name). Each machine's value is read once (not once per comparison); the list's own order
 * (name, ascending) returns the list itself when it is already in it.
 */
export function sortMachines(
  machines: readonly MachineView[],
  sort: MachineSort,
): readonly MachineView[] {
  const { key, dir } = sort;
  if (key === 'name' && dir === 'asc' && isSortedByName(machines)) return machines;
  const values: (string | undefined)[] = [];
  const order: number[] = [];
  for (const m of machines) {
    order.push(values.length);
    values.push(sortValue(m, key));
  }
  // Age ascending (youngest first) is creationTimestamp descending.
  const sign = (dir === 'asc') !== (key === 'age') ? 1 : -1;
  order.sort((i, j) => {
    const a = values[i];
    const b = values[j];
    if (a === undefined || b === undefined) {
      if (a !== b) return a === undefined ? 1 : -1;
      return i - j;
    }
    return sign * compare(a, b) || i - j;
  });
  const sorted: MachineView[] = [];
  for (const i of order) {
    const m = machines[i];
    if (m) sorted.push(m);
  }
  return sorted;
}

function isSortedByName(machines: readonly MachineView[]): boolean {
  let before: string | undefined;
  for (const m of machines) {
    if (before !== undefined && before > m.name) return false;
    before = m.name;
  }
  return true;
}
