import {
  machineNodeOf,
  machineRowProblems,
  nodesByName,
  type ClusterNodeSummaries,
  type MachineSort,
  type MachineSortKey,
  type MachineView,
  type NodeSummary,
} from '@dcs/domain';
import WarningAmber from '@mui/icons-material/WarningAmber';
import {
  Box,
  Checkbox,
  Chip,
  Link,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TableSortLabel,
  Tooltip,
} from '@mui/material';
import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useMemo, useRef, type ReactNode } from 'react';
import { Link as RouterLink } from '../../../lib/routing';
import { PhaseChip } from '../../../components/PhaseChip';
import { useI18n } from '../../../i18n/context';
import { formatAbsolute, formatAge } from '../../../i18n/format';
import { machinePath, poolPath } from '../../../lib/paths';
import { useClock, useClockNow, type Clock } from '../../../lib/use-now';
import { NodeStateChip, nodesUnavailableText } from './NodeState';
import { RowProblemBadge } from './RowProblemBadge';

const ROW_HEIGHT = 37;

/**
 * Every machine as a table row, virtualized: only the rows in view are in the DOM, so thousands
 * of machines scroll smoothly. The table stays a real <table> (spacer rows above and below), with
 * aria-rowcount/aria-rowindex so that screen readers know the whole size.
 */
export function NodesTable({
  machines,
  selected,
  onToggle,
  onToggleAll,
  label,
  sort,
  onSort,
  nodes,
  nodesError,
}: {
  machines: readonly MachineView[];
  selected: ReadonlySet<string>;
  onToggle: (id: string) => void;
  onToggleAll: (select: boolean) => void;
  label: string;
  /** The rows' order (issue 26 item 8): the headers show it; the caller sorts `machines`. */
  sort: MachineSort;
  /** A sortable header was clicked (stable: the header is memoized). */
  onSort: (key: MachineSortKey) => void;
  /** The cluster's Nodes (issue 12): one answer joined to every row; absent while loading. */
  nodes?: ClusterNodeSummaries | undefined;
  /** Why the Nodes could not be loaded at all (the request failed). */
  nodesError?: unknown;
}) {
  const { t, locale, localize } = useI18n();
  // One map per answer, then one lookup per row (5,000 rows stay O(n)).
  const byName = useMemo(
    () => (nodes?.status === 'ok' ? nodesByName(nodes.nodes) : undefined),
    [nodes],
  );
  const nodesReason = nodesUnavailableText(nodes, nodesError, { t, locale, localize });
  const scrollRef = useRef<HTMLDivElement>(null);
  const clock = useClock(10_000);
  const virtualizer = useVirtualizer({
    count: machines.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
  });
  const items = virtualizer.getVirtualItems();
  const top = items[0]?.start ?? 0;
  const bottom = virtualizer.getTotalSize() - (items[items.length - 1]?.end ?? 0);
  // Per stream batch over every shown machine: skipped while nothing is selected.
  const allSelected =
    selected.size > 0 && machines.length > 0 && machines.every((m) => selected.has(m.id));
  const someSelected =
    selected.size > 0 && !allSelected && machines.some((m) => selected.has(m.id));

  return (
    <Box
      ref={scrollRef}
      sx={{
        // As tall as its rows, up to the window: a pool of four machines leaves no blank box.
        maxHeight: 'calc(100vh - 300px)',
        minHeight: Math.min(320, (machines.length + 1) * ROW_HEIGHT + 2),
        overflow: 'auto',
        border: 1,
        borderColor: 'divider',
        borderRadius: 1,
      }}
      tabIndex={0}
      role="region"
      aria-label={label}
    >
      <Table
        size="small"
        stickyHeader
        aria-label={label}
        aria-rowcount={machines.length + 1}
        sx={{ tableLayout: 'fixed', minWidth: 1100 }}
      >
        <NodesTableHead
          allSelected={allSelected}
          someSelected={someSelected}
          onToggleAll={onToggleAll}
          nodesReason={nodesReason}
          sortKey={sort.key}
          sortDir={sort.dir}
          onSort={onSort}
        />
        <TableBody>
          {top > 0 && (
            <tr aria-hidden style={{ height: top }}>
              <td colSpan={10} />
            </tr>
          )}
          {items.map((item) => {
            const m = machines[item.index];
            if (!m) return null;
            return (
              <MachineRow
                key={m.id}
                machine={m}
                index={item.index}
                checked={selected.has(m.id)}
                onToggle={onToggle}
                clock={clock}
                byName={byName}
                measure={virtualizer.measureElement}
              />
            );
          })}
          {bottom > 0 && (
            <tr aria-hidden style={{ height: bottom }}>
              <td colSpan={10} />
            </tr>
          )}
        </TableBody>
      </Table>
    </Box>
  );
}

/**
 * The header row, memoized: its props change only when the selection or the Nodes' availability
 * does, not on every stream batch (its checkbox, tooltip and cells would re-serialize their
 * styles each time).
 */
const NodesTableHead = memo(function NodesTableHead({
  allSelected,
  someSelected,
  onToggleAll,
  nodesReason,
  sortKey,
  sortDir,
  onSort,
}: {
  allSelected: boolean;
  someSelected: boolean;
  onToggleAll: (select: boolean) => void;
  nodesReason: string | undefined;
  sortKey: MachineSortKey;
  sortDir: 'asc' | 'desc';
  onSort: (key: MachineSortKey) => void;
}) {
  const { t } = useI18n();
  // A sortable column's header: aria-sort on the active one (TableCell's sortDirection).
  const sortable = (key: MachineSortKey, label: string, width: string, after?: ReactNode) => (
    <TableCell sx={{ width }} sortDirection={sortKey === key ? sortDir : false}>
      <TableSortLabel
        active={sortKey === key}
        // Only the sorted column shows its arrow: an arrow on every header widens each one, and
        // the Conditions column no longer fit at 1280 px (stuck-machine.spec).
        hideSortIcon
        direction={sortKey === key ? sortDir : 'asc'}
        onClick={() => {
          onSort(key);
        }}
      >
        {label}
      </TableSortLabel>
      {after}
    </TableCell>
  );
  return (
    <TableHead>
      <TableRow aria-rowindex={1}>
        <TableCell padding="checkbox">
          <Checkbox
            size="small"
            checked={allSelected}
            indeterminate={someSelected}
            onChange={(e) => {
              onToggleAll(e.target.checked);
            }}
            slotProps={{ input: { 'aria-label': t('nodes.selectAll') } }}
          />
        </TableCell>
        {sortable('name', t('nodes.name'), '17%')}
        <TableCell sx={{ width: '11%' }}>{t('nodes.pool')}</TableCell>
        {sortable('phase', t('nodes.phase'), '11%')}
        {sortable(
          'node',
          t('nodes.node'),
          '17%',
          nodesReason && (
            // Issue 12: why the Node column is empty, at its header (hover or focus).
            <Tooltip title={nodesReason}>
              <Box
                component="span"
                role="img"
                tabIndex={0}
                aria-label={nodesReason}
                data-testid="nodes-unavailable"
                sx={{ ml: 0.5, display: 'inline-flex', verticalAlign: 'text-bottom' }}
              >
                <WarningAmber fontSize="small" color="warning" />
              </Box>
            </Tooltip>
          ),
        )}
        {sortable('ip', t('nodes.ip'), '9%')}
        {sortable('version', t('nodes.version'), '7%')}
        <TableCell sx={{ width: '7%' }}>{t('nodes.kubelet')}</TableCell>
        {sortable('age', t('nodes.age'), '6%')}
        <TableCell>{t('nodes.conditions')}</TableCell>
      </TableRow>
    </TableHead>
  );
});

const MachineRow = memo(function MachineRow({
  machine: m,
  index,
  checked,
  onToggle,
  clock,
  byName,
  measure,
}: {
  machine: MachineView;
  index: number;
  checked: boolean;
  onToggle: (id: string) => void;
  /** Ages tick in their own cells: a tick does not re-render the rows. */
  clock: Clock;
  /** Undefined when the Nodes are not known (loading, or a reason at the column's header). */
  byName: ReadonlyMap<string, NodeSummary> | undefined;
  /** The virtualizer's measure: a row whose badge wraps is taller than ROW_HEIGHT. */
  measure: (row: Element | null) => void;
}) {
  const { t, locale } = useI18n();
  const joined = byName ? machineNodeOf(m, byName) : undefined;
  // Domain's one decision (issue 12), the same the "Problems only" filter reads.
  const [problem] = machineRowProblems(m, joined);
  const ready = m.conditions.find((c) => c.type === 'Ready');
  const ns = m.namespace;
  return (
    <TableRow
      hover
      selected={checked}
      aria-rowindex={index + 2}
      data-index={index}
      ref={measure}
      sx={{ height: ROW_HEIGHT }}
    >
      <TableCell padding="checkbox">
        <Checkbox
          size="small"
          checked={checked}
          onChange={() => {
            onToggle(m.id);
          }}
          slotProps={{ input: { 'aria-label': t('nodes.select', { name: m.name }) } }}
        />
      </TableCell>
      <TableCell
        sx={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}
        title={m.name}
      >
        <Link component={RouterLink} to={machinePath(ns, m.cluster, m.name)}>
          {m.name}
        </Link>
        {m.markedForDeletion && <Chip size="small" label={t('nodes.marked')} sx={{ ml: 0.5 }} />}
      </TableCell>
      <TableCell sx={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
        {m.poolId ? (
          <Link component={RouterLink} to={poolPath(ns, m.cluster, m.poolId)}>
            {m.poolId === 'control-plane' ? t('pool.controlPlane') : m.poolId}
          </Link>
        ) : (
          '—'
        )}
      </TableCell>
      <TableCell>
        <PhaseChip phase={m.phase} />
      </TableCell>
      <TableCell
        sx={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}
        title={m.nodeName}
      >
        {joined && <NodeStateChip state={joined.state} />}
        {m.nodeName ? (
          <Box component="span" sx={{ ml: joined ? 0.75 : 0 }}>
            {m.nodeName}
          </Box>
        ) : (
          !joined && '—'
        )}
      </TableCell>
      <TableCell>{m.ip ?? '—'}</TableCell>
      <TableCell>{m.version ?? '—'}</TableCell>
      <TableCell>{joined?.node?.kubeletVersion ?? '—'}</TableCell>
      <TableCell title={formatAbsolute(m.createdAt, locale)}>
        <Age iso={m.createdAt} clock={clock} />
      </TableCell>
      <TableCell sx={{ py: 0.5 }}>
        {problem ? (
          <RowProblemBadge problem={problem} />
        ) : (
          <span>{ready ? `Ready=${ready.status}` : '—'}</span>
        )}
      </TableCell>
    </TableRow>
  );
});

/** A machine's age, re-rendered alone on each tick of the table's clock. */
function Age({ iso, clock }: { iso: string | undefined; clock: Clock }) {
  const { locale } = useI18n();
  return formatAge(iso, useClockNow(clock), locale);
}
