import type { IpPoolView, MachineView, NodePoolView, StreamEvent } from '@dcs/domain';

/**
 * The pure part of live updates, after Headlamp's KubeList reducer: a batch of stream events
 * becomes one change set (the last event per object wins), and a change set is applied to a
 * list in one pass. Unchanged items keep their identity, so memoized rows and cards skip
 * re-rendering; a list nobody has loaded stays unloaded (the next fetch brings it whole).
 */

/** `null` = deleted. */
export type ChangeMap<T> = Map<string, T | null>;

export interface ChangeSet {
  pools: ChangeMap<NodePoolView>;
  machines: ChangeMap<MachineView>;
  ipPools: ChangeMap<IpPoolView>;
  /** A resync came: every list of the cluster is to be reloaded. */
  resync: boolean;
}

export function collectChanges(events: readonly StreamEvent[]): ChangeSet {
  const out: ChangeSet = {
    pools: new Map(),
    machines: new Map(),
    ipPools: new Map(),
    resync: false,
  };
  for (const e of events) {
    if (e.type === 'resync') {
      out.resync = true;
      continue;
    }
    if (e.type === 'delete') {
      const target =
        e.kind === 'pool' ? out.pools : e.kind === 'machine' ? out.machines : out.ipPools;
      target.set(e.id, null);
      continue;
    }
    switch (e.kind) {
      case 'pool':
        out.pools.set(e.id, e.view);
        break;
      case 'machine':
        out.machines.set(e.id, e.view);
        break;
      case 'ipPool':
        out.ipPools.set(e.id, e.view);
        break;
    }
  }
  return out;
}

export const isEmpty = (c: ChangeSet): boolean =>
  !c.resync && c.pools.size === 0 && c.machines.size === 0 && c.ipPools.size === 0;

/**
 * Applies changes to a list of views keyed by `id`: replaces, removes and adds. `belongs` limits
 * a filtered list (one pool's machines) to its members; an item that stops belonging leaves it.
 * Returns the same array when nothing in it changed.
 */
export function applyToList<T extends { id: string }>(
  list: readonly T[],
  changes: ChangeMap<T>,
  compare: (a: T, b: T) => number,
  belongs: (item: T) => boolean = () => true,
): readonly T[] {
  if (changes.size === 0) return list;
  const seen = new Set<string>();
  let changed = false;
  const next: T[] = [];
  for (const item of list) {
    if (!changes.has(item.id)) {
      next.push(item);
      continue;
    }
    seen.add(item.id);
    const update = changes.get(item.id);
    if (update && belongs(update)) {
      next.push(update);
      if (update !== item) changed = true;
    } else {
      changed = true;
    }
  }
  let added = false;
  for (const [id, update] of changes) {
    if (update && !seen.has(id) && belongs(update)) {
      next.push(update);
      added = true;
    }
  }
  if (added) next.sort(compare);
  return changed || added ? next : list;
}

const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The control-plane pool first, then workers by name: the order of the nodepools route. */
export const comparePools = (a: NodePoolView, b: NodePoolView): number =>
  a.kind !== b.kind ? (a.kind === 'control-plane' ? -1 : 1) : byName(a.name, b.name);

export const compareMachines = (a: MachineView, b: MachineView): number => byName(a.name, b.name);

export const compareIpPools = (a: IpPoolView, b: IpPoolView): number => byName(a.name, b.name);
