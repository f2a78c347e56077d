import {
  sortMachines,
  unhealthyConditionTypes,
  type MachineSortKey,
  type MachineView,
} from '@dcs/domain';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from '../../../lib/routing';
import type { MachineFilter } from './machine-filter';
import { filterFromSearch, filterToSearch } from './machine-filter-url';

/**
 * A machines table's filter and order, kept in the address (issue 26 item 8): read from it when
 * the table mounts, and every change written back with `replace` (no Back step per keystroke), so
 * that the address bar's link opens the same view. The state, not the address, feeds the fields:
 * a navigation is a transition, and a field fed from it would lag behind the keys.
 */
export function useMachineFilter() {
  const [params, setParams] = useSearchParams();
  const [filter, setFilter] = useState<MachineFilter>(() => filterFromSearch(params));
  const search = params.toString();
  useEffect(() => {
    const next = filterToSearch(filter, new URLSearchParams(search));
    if (next.toString() !== search) setParams(next, { replace: true });
  }, [filter, search, setParams]);
  // Sorting by a column's header: the same column again reverses it.
  const onSort = useCallback((key: MachineSortKey) => {
    setFilter((f) => ({
      ...f,
      sort: { key, dir: f.sort.key === key && f.sort.dir === 'asc' ? 'desc' : 'asc' },
    }));
  }, []);
  return { filter, setFilter, onSort };
}

/**
 * The list in the filter's order, sorted again only when the list or the order changes (a
 * stream batch, a header's click): 20,000 machines take 5-15 ms (`machine-find.test.ts`), in the
 * deferred render.
 */
export function useSortedMachines(
  machines: readonly MachineView[],
  sort: MachineFilter['sort'],
): readonly MachineView[] {
  const { key, dir } = sort;
  return useMemo(() => sortMachines(machines, { key, dir }), [machines, key, dir]);
}

/**
 * The choices of the condition filter: every type some machine has unhealthy, plus the one
 * chosen (a shared link's, before the list is there). The same array while they are the same,
 * so that a memoized bar skips a stream batch.
 */
export function useConditionChoices(
  machines: readonly MachineView[] | undefined,
  chosen: string,
): readonly string[] {
  const types = useMemo(() => {
    const found = unhealthyConditionTypes(machines ?? []);
    return chosen && !found.includes(chosen) ? [...found, chosen].sort() : found;
  }, [machines, chosen]);
  return useSameArray(types);
}

/** `next`, or the array returned before when it holds the same items: memoized props stay equal. */
export function useSameArray<T>(next: readonly T[]): readonly T[] {
  const kept = useRef(next);
  const before = kept.current;
  if (before !== next && !(before.length === next.length && before.every((x, i) => x === next[i])))
    kept.current = next;
  return kept.current;
}
