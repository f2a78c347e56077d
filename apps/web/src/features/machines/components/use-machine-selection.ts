import type { MachineView } from '@dcs/domain';
import { useCallback, useMemo, useRef, useState } from 'react';
import { guardSelection } from './machine-filter';

const NONE: readonly MachineView[] = [];

/**
 * The machines selected in a machines table (the Nodes tab, a pool's page) and what may be done
 * with them (`guardSelection`): the one decision of both tables.
 *
 * `all` is every machine that can be selected; `shown` the rows the header's checkbox selects.
 * Both change with every stream batch, so the work per batch is nothing at all while nothing is
 * selected, and the callbacks keep their identity: the header's checkbox reads the rows when it
 * is clicked, instead of a callback that changed with them re-rendering the header every batch.
 */
export function useMachineSelection(
  all: readonly MachineView[] | undefined,
  shown: readonly MachineView[] | undefined,
) {
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const selectedMachines = useMemo(
    () => (selected.size === 0 ? NONE : (all ?? []).filter((m) => selected.has(m.id))),
    [all, selected],
  );
  const guard = useMemo(() => guardSelection(selectedMachines), [selectedMachines]);
  const onToggle = useCallback((id: string) => {
    setSelected((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  }, []);
  const shownNow = useRef(shown);
  shownNow.current = shown;
  const onToggleAll = useCallback((select: boolean) => {
    setSelected(select ? new Set((shownNow.current ?? []).map((m) => m.id)) : new Set());
  }, []);
  return { selected, selectedMachines, guard, onToggle, onToggleAll };
}
