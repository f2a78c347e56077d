import { machineNodeOf, nodesByName, type MachineView } from '@dcs/domain';
import { Alert, Box, Stack, Typography } from '@mui/material';
import { memo, useCallback, useDeferredValue, useMemo } from 'react';
import { useClusterContext, type Permission } from '../../../api/get-cluster-context';
import { ActionButton } from '../../../components/ActionButton';
import { FreshnessIndicator } from '../../../components/FreshnessIndicator';
import { PageLoading } from '../../../components/PageLoading';
import { useI18n } from '../../../i18n/context';
import { providerGates } from '../../../lib/provider-gates';
import { useMachines } from '../api/get-machines';
import { filterMachines } from './machine-filter';
import { MachineFilterBar } from './MachineFilterBar';
import { NodesTable } from './NodesTable';
import {
  useConditionChoices,
  useMachineFilter,
  useSameArray,
  useSortedMachines,
} from './use-machine-filter';
import { useMachineRows } from './use-machine-rows';
import { useMachineSelection } from './use-machine-selection';
import { ErrorAlert } from '../../../components/ErrorAlert';

/** U-1 Nodes: every machine of the cluster; select machines of one pool to delete exactly them. */
export function NodesTab({
  namespace,
  cluster,
  onDeleteSelected,
}: {
  namespace: string;
  cluster: string;
  onDeleteSelected: (poolId: string, machines: MachineView[]) => void;
}) {
  const { t } = useI18n();
  const machines = useMachines(namespace, cluster);
  const context = useClusterContext(namespace, cluster);
  // Issue 26 item 8: the filter and the order are in the address (a shared link opens this view).
  const { filter, setFilter, onSort } = useMachineFilter();
  const deferred = useDeferredValue(filter);
  // The list and the Nodes the rows show, deferred together: a batch's rows render in the
  // background, each joined with its Node as of the same moment (issue 14).
  const {
    list: all,
    nodes: nodesData,
    nodesError,
  } = useMachineRows(namespace, cluster, machines.data);
  // The same join as the table's rows: "Problems only" counts a machine's Node (issue 12).
  const nodeOf = useMemo(() => {
    if (nodesData?.status !== 'ok') return undefined;
    const byName = nodesByName(nodesData.nodes);
    return (m: MachineView) => machineNodeOf(m, byName);
  }, [nodesData]);
  const filtered = useMemo(
    () => filterMachines(all ?? [], deferred, nodeOf),
    [all, deferred, nodeOf],
  );
  const shown = useSortedMachines(filtered, deferred.sort);
  const conditions = useConditionChoices(all, filter.condition);
  // Both run on every stream batch over every machine (20,000): no allocation per machine, and
  // nothing at all while nothing is selected. The list is sorted by name, and a pool's machines
  // share its name's prefix: a set insertion per run of one pool, not per machine.
  const poolIds = useMemo(() => {
    const ids = new Set<string>();
    let last: string | undefined;
    for (const m of all ?? []) {
      if (m.poolId === last) continue;
      last = m.poolId;
      if (last) ids.add(last);
    }
    return [...ids].sort();
  }, [all]);
  const pools = useSameArray(poolIds);
  const { selected, selectedMachines, guard, onToggle, onToggleAll } = useMachineSelection(
    all,
    shown,
  );
  const gates = providerGates(context.data?.validation.providerVersion);

  const onDelete = useCallback(() => {
    if (guard.poolId) onDeleteSelected(guard.poolId, guard.deletable);
  }, [guard, onDeleteSelected]);
  const onClearMachineSet = useCallback(() => {
    setFilter((f) => ({ ...f, machineSet: '' }));
  }, [setFilter]);

  const blockedReason =
    selectedMachines.length === 0
      ? t('nodes.selectFirst')
      : guard.blocked
        ? t(`nodes.guard.${guard.blocked}`)
        : gates.webWorkflow
          ? undefined
          : t('gate.short', { version: gates.version ?? '?' });

  // The bars above the table are memoized on plain props (strings, the filter, stable
  // callbacks): a stream batch re-renders the tab, and a bar whose props are the same (the usual
  // case: an upsert changes neither the counts nor the pools) is skipped. Re-rendering the pool
  // select re-creates one MenuItem per pool, and every MUI element re-serializes its styles.
  return (
    <Box>
      <NodesTitleBar
        deleteLabel={
          selectedMachines.length > 0
            ? t('nodes.deleteSelectedCount', { count: selectedMachines.length })
            : t('nodes.deleteSelected')
        }
        permission={context.data?.permissions.deleteMachines ?? context.data?.permissions.scalePool}
        blockedReason={blockedReason}
        onDelete={onDelete}
      />
      <MachineFilterBar
        filter={filter}
        setFilter={setFilter}
        pools={pools}
        conditions={conditions}
        onClearMachineSet={onClearMachineSet}
        count={t('nodes.count', {
          shown: shown.length,
          total: all?.length ?? 0,
          selected: selectedMachines.length,
        })}
      />
      {selectedMachines.length > 0 && guard.blocked && (
        <Alert severity="info" sx={{ mb: 1 }}>
          {t(`nodes.guard.${guard.blocked}`)}
        </Alert>
      )}
      {machines.isPending && <PageLoading />}
      {machines.isError && <ErrorAlert error={machines.error} />}
      {all && (
        <NodesTable
          machines={shown}
          selected={selected}
          onToggle={onToggle}
          onToggleAll={onToggleAll}
          label={t('nodes.tableLabel', { cluster })}
          sort={filter.sort}
          onSort={onSort}
          nodes={nodesData}
          nodesError={nodesError}
        />
      )}
    </Box>
  );
}

const NodesTitleBar = memo(function NodesTitleBar({
  deleteLabel,
  permission,
  blockedReason,
  onDelete,
}: {
  deleteLabel: string;
  permission: Permission | undefined;
  blockedReason: string | undefined;
  onDelete: () => void;
}) {
  const { t } = useI18n();
  return (
    <Stack
      direction="row"
      spacing={2}
      sx={{ alignItems: 'center', mb: 2, flexWrap: 'wrap', rowGap: 1 }}
    >
      <Typography variant="h2" sx={{ mr: 'auto' }}>
        {t('tabs.nodes')}
      </Typography>
      <FreshnessIndicator />
      <ActionButton
        variant="outlined"
        color="error"
        label={deleteLabel}
        permission={permission}
        blockedReason={blockedReason}
        onClick={onDelete}
      />
    </Stack>
  );
});
