import {
  conditionGroup,
  machineNodeOf,
  nodesByName,
  sortConditionGroups,
  type MachineView,
} from '@dcs/domain';
import { Alert, Box, Button, Stack, Typography } from '@mui/material';
import { memo, useCallback, useDeferredValue, useMemo } from 'react';
import { Link as RouterLink, useParams } from '../../lib/routing';
import { useClusterContext, type Permission } from '../../api/get-cluster-context';
import { FreshnessIndicator } from '../../components/FreshnessIndicator';
import { PageLoading } from '../../components/PageLoading';
import { ObjectEvents } from '../../features/events/components/ObjectEvents';
import { ConditionsTable } from '../../features/conditions/components/ConditionsTable';
import { V1Beta2Conditions } from '../../features/conditions/components/V1Beta2Conditions';
import { usePoolMachines } from '../../features/machines/api/get-pool-machines';
import { DiagnosisPanel } from '../../features/machines/components/DiagnosisPanel';
import { NodesTable } from '../../features/machines/components/NodesTable';
import { useMachineRows } from '../../features/machines/components/use-machine-rows';
import { useMachineSelection } from '../../features/machines/components/use-machine-selection';
import { filterMachines, hasProblem } from '../../features/machines/components/machine-filter';
import { MachineFilterBar } from '../../features/machines/components/MachineFilterBar';
import {
  useConditionChoices,
  useMachineFilter,
  useSortedMachines,
} from '../../features/machines/components/use-machine-filter';
import { useNodePools } from '../../features/node-pools/api/get-node-pools';
import { PoolCard } from '../../features/node-pools/components/PoolCard';
import { Timeline } from '../../features/timeline/components/Timeline';
import { ActionButton } from '../../components/ActionButton';
import { useI18n } from '../../i18n/context';
import { machineConditionsPath, poolConditionsPath, poolPath, poolsPath } from '../../lib/paths';
import { providerGates } from '../../lib/provider-gates';
import { usePoolDialogs } from './usePoolDialogs';

/** Deep link of one pool: its card, its machines, its events. */
export function PoolRoute() {
  const { namespace = '', cluster = '', pool: poolId = '' } = useParams();
  const { t } = useI18n();
  const pools = useNodePools(namespace, cluster);
  const context = useClusterContext(namespace, cluster);
  const { onAction, onDeleteMachines, dialog } = usePoolDialogs(namespace, cluster);
  const pool = pools.data?.find((p) => p.id === poolId);
  const gates = providerGates(context.data?.validation.providerVersion);

  if (pools.isPending) return <PageLoading />;
  if (!pool) return <Alert severity="warning">{t('pool.notFound', { name: poolId })}</Alert>;
  return (
    <Box>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', mb: 2 }}>
        <Button component={RouterLink} to={poolsPath(namespace, cluster)}>
          ← {t('tabs.nodePools')}
        </Button>
        <Box sx={{ flexGrow: 1 }} />
        <FreshnessIndicator />
      </Stack>
      <Box sx={{ maxWidth: 720, mb: 3 }}>
        <PoolCard
          pool={pool}
          permissions={context.data?.permissions}
          gatedReason={
            gates.webWorkflow ? undefined : t('gate.short', { version: gates.version ?? '?' })
          }
          onAction={onAction}
        />
      </Box>
      <PoolMachines
        namespace={namespace}
        cluster={cluster}
        poolId={pool.id}
        poolName={pool.name}
        worker={pool.kind === 'worker'}
        permission={context.data?.permissions.deleteMachines ?? context.data?.permissions.scalePool}
        onDeleteMachines={onDeleteMachines}
      />
      <ObjectEvents
        namespace={namespace}
        source={{ pool: { cluster, pool: poolId } }}
        title={t('pool.events')}
        follow={pool}
      />
      {/* Issue 12: the audit timeline. */}
      <Timeline scope={{ namespace, cluster, pool: poolId }} />
      {dialog}
    </Box>
  );
}

/**
 * The pool's machines (issue 14: a pool of 5,000 machines under 200 events/s). Its own component,
 * memoized on plain props, and the only one of the page that reads the machine list: a stream
 * batch re-renders it alone, not the pool's card, events or timeline. The rows render in the
 * background, joined with their Nodes as of one moment (`useMachineRows`, as the Nodes tab);
 * the header is memoized and its callbacks stable, so a batch re-renders only changed rows.
 */
const PoolMachines = memo(function PoolMachines({
  namespace,
  cluster,
  poolId,
  poolName,
  worker,
  permission,
  onDeleteMachines,
}: {
  namespace: string;
  cluster: string;
  poolId: string;
  poolName: string;
  /** A worker pool's machines may be deleted one by one (O-SCALE-DOWN-TARGETED). */
  worker: boolean;
  permission: Permission | undefined;
  onDeleteMachines: (poolId: string, machines: MachineView[]) => void;
}) {
  const { t } = useI18n();
  const machines = usePoolMachines(namespace, cluster, poolId);
  // Issue 12: the cluster's Nodes (one query per cluster, shared with the Nodes tab), joined per row.
  const { list, nodes, nodesError } = useMachineRows(namespace, cluster, machines.data);
  // Issue 26 item 8: filtered and sorted as the Nodes tab's, in the address too (its pool is
  // this page's: a pool in the address is not read here).
  const { filter, setFilter, onSort } = useMachineFilter();
  const deferred = useDeferredValue(filter);
  const nodeOf = useMemo(() => {
    if (nodes?.status !== 'ok') return undefined;
    const byName = nodesByName(nodes.nodes);
    return (m: MachineView) => machineNodeOf(m, byName);
  }, [nodes]);
  const filtered = useMemo(
    () => (list ? filterMachines(list, { ...deferred, pool: '' }, nodeOf) : undefined),
    [list, deferred, nodeOf],
  );
  const sorted = useSortedMachines(filtered ?? noMachines, deferred.sort);
  const conditions = useConditionChoices(list, filter.condition);
  const { selected, selectedMachines, guard, onToggle, onToggleAll } = useMachineSelection(
    list,
    sorted,
  );
  const onDelete = useCallback(() => {
    onDeleteMachines(poolId, guard.deletable);
  }, [onDeleteMachines, poolId, guard]);

  return (
    <>
      <PoolMachinesHeader
        title={t('pool.machines')}
        deleteLabel={
          worker ? t('nodes.deleteSelectedCount', { count: selectedMachines.length }) : undefined
        }
        permission={permission}
        blockedReason={
          selectedMachines.length === 0
            ? t('nodes.selectFirst')
            : guard.blocked
              ? t(`nodes.guard.${guard.blocked}`)
              : undefined
        }
        onDelete={onDelete}
      />
      <MachineFilterBar
        filter={filter}
        setFilter={setFilter}
        conditions={conditions}
        count={t('nodes.count', {
          shown: sorted.length,
          total: list?.length ?? 0,
          selected: selectedMachines.length,
        })}
      />
      {list ? (
        <Box sx={{ mb: 3 }}>
          <NodesTable
            machines={sorted}
            selected={selected}
            onToggle={onToggle}
            onToggleAll={onToggleAll}
            label={t('pool.machinesOf', { name: poolName })}
            sort={filter.sort}
            onSort={onSort}
            nodes={nodes}
            nodesError={nodesError}
          />
        </Box>
      ) : (
        <PageLoading />
      )}
    </>
  );
});

const noMachines: readonly MachineView[] = [];

/** The title of the machines and "Delete selected machines" (worker pools): plain props, memoized. */
const PoolMachinesHeader = memo(function PoolMachinesHeader({
  title,
  deleteLabel,
  permission,
  blockedReason,
  onDelete,
}: {
  title: string;
  /** Absent: no delete button (the control plane). */
  deleteLabel: string | undefined;
  permission: Permission | undefined;
  blockedReason: string | undefined;
  onDelete: () => void;
}) {
  return (
    <Stack direction="row" spacing={2} sx={{ alignItems: 'center', mb: 1 }}>
      <Typography variant="h3" component="h3" sx={{ mr: 'auto' }}>
        {title}
      </Typography>
      {deleteLabel !== undefined && (
        <ActionButton
          size="small"
          variant="outlined"
          color="error"
          label={deleteLabel}
          permission={permission}
          blockedReason={blockedReason}
          onClick={onDelete}
        />
      )}
    </Stack>
  );
});

/** U-6 for a pool: its own conditions, then every machine's, machines with problems first. */
export function PoolConditionsRoute() {
  const { namespace = '', cluster = '', pool: poolId = '' } = useParams();
  const { t } = useI18n();
  const pools = useNodePools(namespace, cluster);
  const machines = usePoolMachines(namespace, cluster, poolId);
  const pool = pools.data?.find((p) => p.id === poolId);
  const ordered = useMemo(
    () => [...(machines.data ?? [])].sort((a, b) => Number(hasProblem(b)) - Number(hasProblem(a))),
    [machines.data],
  );
  // The rollout's MachineSets that report conditions, those with problems first.
  const machineSets = useMemo(() => {
    const rollout = pools.data?.find((p) => p.id === poolId)?.rollout;
    const sets = rollout ? [rollout.newMachineSet, ...rollout.oldMachineSets] : [];
    return sortConditionGroups(
      sets.flatMap((s) =>
        s?.conditions ? [conditionGroup('MachineSet', s.name, s.conditions)] : [],
      ),
    );
  }, [pools.data, poolId]);
  if (pools.isPending) return <PageLoading />;
  if (!pool) return <Alert severity="warning">{t('pool.notFound', { name: poolId })}</Alert>;
  const name = pool.kind === 'control-plane' ? t('pool.controlPlane') : pool.name;
  const poolKind = pool.kind === 'control-plane' ? 'KubeadmControlPlane' : 'MachineDeployment';
  return (
    <Box>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', mb: 2 }}>
        <Button component={RouterLink} to={poolPath(namespace, cluster, poolId)}>
          ← {name}
        </Button>
        <Box sx={{ flexGrow: 1 }} />
        <FreshnessIndicator />
      </Stack>
      <Typography variant="h2" sx={{ mb: 2 }}>
        {t('conditions.titleOf', { name })}
      </Typography>
      <ConditionsTable
        conditions={pool.conditions}
        object={{ kind: poolKind, name: pool.name }}
        title={t('conditions.ofObject', { kind: poolKind, name: pool.name })}
      />
      <V1Beta2Conditions conditions={pool.v1beta2?.conditions} kind={poolKind} name={pool.name} />
      {machineSets.map((g) => (
        <ConditionsTable
          key={g.name}
          conditions={g.conditions}
          object={{ kind: g.kind, name: g.name }}
          title={t('conditions.ofObject', { kind: g.kind, name: g.name })}
        />
      ))}
      {ordered.map((m) => (
        <Box key={m.id} id={`machine-${m.name}`}>
          {m.diagnosis && <DiagnosisPanel diagnosis={m.diagnosis} />}
          <ConditionsTable
            conditions={m.conditions}
            object={{ kind: 'Machine', name: m.name }}
            title={t('conditions.ofObject', { kind: 'Machine', name: m.name })}
          />
          {m.dcsMachineName && m.infrastructureConditions && (
            <ConditionsTable
              conditions={m.infrastructureConditions}
              object={{ kind: 'DCSMachine', name: m.dcsMachineName }}
              title={t('conditions.ofObject', { kind: 'DCSMachine', name: m.dcsMachineName })}
            />
          )}
          <Button
            size="small"
            component={RouterLink}
            to={machineConditionsPath(namespace, cluster, m.name)}
            sx={{ mt: -2, mb: 2 }}
          >
            {t('conditions.machineLink', { name: m.name })}
          </Button>
        </Box>
      ))}
      <Typography variant="body2" color="text.secondary">
        {t('conditions.deepLink')}: <code>{poolConditionsPath(namespace, cluster, poolId)}</code>
      </Typography>
    </Box>
  );
}
