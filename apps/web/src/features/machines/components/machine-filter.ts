import {
  defaultMachineSort,
  emptyMachineQuery,
  hasMachineRowProblem,
  isEmptyMachineQuery,
  machineQueryMatcher,
  type MachineNode,
  type MachineQuery,
  type MachineSort,
  type MachineView,
} from '@dcs/domain';

/**
 * What a machines table shows (the Nodes tab, a pool's page): the free text, the pool, "Problems
 * only", a MachineSet, domain's fields (phase, condition, name, node, IP: issue 26 item 8) and
 * the order. All of it is in the address (`machine-filter-url.ts`), so a link shares the view.
 */
export interface MachineFilter extends MachineQuery {
  text: string;
  pool: string;
  problemsOnly: boolean;
  /** One MachineSet's machines (a rollout's old or new set, linked from the pool card). */
  machineSet?: string;
  sort: MachineSort;
}

export const emptyFilter: MachineFilter = {
  ...emptyMachineQuery,
  text: '',
  pool: '',
  problemsOnly: false,
  sort: defaultMachineSort,
};

/** A machine's Node as the row shows it (domain's `machineNodeOf`); undefined when not known. */
export type NodeOf = (m: MachineView) => MachineNode | undefined;

/**
 * Whether a machine needs attention: domain's one decision (`hasMachineRowProblem`: a diagnosis,
 * a failure, a problem condition of the Machine or its DCSMachine, or its Node NotReady, Unknown,
 * not found, under pressure or cordoned), the same that picks the row's badge.
 */
export const hasProblem = (m: MachineView, nodeOf?: NodeOf): boolean =>
  hasMachineRowProblem(m, nodeOf?.(m));

/**
 * The machines a filter keeps, in their order (sorting is the table's: `sortMachines`). Text
 * matches name, node, IP, phase, version; the fields (phase, condition, name, node, IP) each
 * match alone.
 * `nodeOf` joins each machine to its Node, so that "Problems only" keeps a machine whose only
 * problem is its Node (issue 12).
 */
export function filterMachines(
  machines: readonly MachineView[],
  f: MachineFilter,
  nodeOf?: NodeOf,
): readonly MachineView[] {
  const text = f.text.trim().toLowerCase();
  const set = f.machineSet ?? '';
  const fields = isEmptyMachineQuery(f) ? undefined : machineQueryMatcher(f);
  if (text === '' && f.pool === '' && !f.problemsOnly && set === '' && !fields) return machines;
  return machines.filter(
    (m) =>
      (f.pool === '' || m.poolId === f.pool) &&
      (!fields || fields(m)) &&
      (set === '' || m.machineSet === set) &&
      (!f.problemsOnly || hasProblem(m, nodeOf)) &&
      (text === '' ||
        [m.name, m.nodeName, m.ip, m.phase, m.version, m.hostname].some((v) =>
          v?.toLowerCase().includes(text),
        )),
  );
}

export interface SelectionGuard {
  /** Machines that may be deleted together (one worker pool, R-MD-6). */
  deletable: MachineView[];
  /** Why the selection as a whole cannot be deleted, as a message key. */
  blocked?: 'controlPlane' | 'severalPools' | 'noPool' | 'alreadyDeleting';
  poolId?: string;
}

/**
 * O-SCALE-DOWN-TARGETED guards: machines of exactly one worker pool (R-MD-6 lowers that
 * pool's replicas by the number selected), none of the control plane (fixed at 3), none that is
 * already being deleted.
 */
export function guardSelection(selected: readonly MachineView[]): SelectionGuard {
  const pools = new Set(selected.map((m) => m.poolId));
  if (selected.some((m) => m.poolId === 'control-plane'))
    return { deletable: [], blocked: 'controlPlane' };
  if (selected.some((m) => m.poolId === undefined)) return { deletable: [], blocked: 'noPool' };
  if (pools.size > 1) return { deletable: [], blocked: 'severalPools' };
  if (selected.some((m) => m.deleting)) return { deletable: [], blocked: 'alreadyDeleting' };
  const [poolId] = pools;
  return { deletable: [...selected], ...(poolId !== undefined ? { poolId } : {}) };
}
