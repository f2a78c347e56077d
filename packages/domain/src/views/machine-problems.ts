import type { Severity } from '../rules/issue';
import type { ConditionView } from './conditions';
import { NODE_NOT_HEALTHY_CHECKLIST, type Diagnosis } from './diagnosis';
import type { MachineView } from './machine';
import type { ViewMessageKey } from './messages';
import type { PdbRefusal } from './drain';
import type { MachineNode } from './node';

/**
 * What makes a row of the machines tables (the Nodes tab, a pool's machines) a problem for
 * support (issue 12): the one decision behind the Nodes tab's "Problems only" filter and the
 * row's badge in the Conditions column, so that a row the filter keeps always says why.
 *
 * In order, most telling first (the badge shows the first):
 * 1. the machine's diagnosis (T-1 and the others), 2. its failure (failureReason),
 * 3. a drain a PodDisruptionBudget refuses (issue 26 item 6: the machine is being deleted and
 *    waits, for ever without a nodeDrainTimeout, for budgets the pool's owner must relax),
 * 4. its own problem conditions, 5. its DCSMachine's (the VM on DCS),
 * 6. its Node in the workload cluster: not found, NotReady, Unknown, under pressure (a
 *    MemoryPressure, DiskPressure, PIDPressure or NetworkUnavailable not False), or cordoned.
 *    A Running machine whose Node is any of these needs support even when every Cluster API
 *    condition is True (the Machine's NodeHealthy only follows Ready).
 *
 * A deleting machine's Node is not judged: Cluster API cordons and drains it on purpose and then
 * deletes it, and a drain that fails says so on the Machine (DrainingSucceeded). Without the
 * Node (not known, or no nodeRef yet) only the machine's own problems count.
 */

export type NodeProblemCode = 'Missing' | 'NotReady' | 'Unknown' | 'Pressure' | 'Cordoned';

export interface NodeProblem {
  code: NodeProblemCode;
  severity: Severity;
  /** The Node's name. */
  node: string;
  /** The pressure conditions that are not False (for `Pressure`; empty otherwise). */
  conditions: string[];
}

export type MachineRowProblem =
  | { source: 'diagnosis'; severity: Severity; diagnosis: Diagnosis }
  | { source: 'failure'; severity: Severity; reason: string; message?: string }
  | { source: 'drain'; severity: Severity; budgets: PdbRefusal[] }
  | { source: 'machine'; severity: Severity; conditions: ConditionView[] }
  | { source: 'infrastructure'; severity: Severity; conditions: ConditionView[] }
  | ({ source: 'node' } & NodeProblem);

/** What of a machine row the decision reads: its view and, when known, its joined Node. */
export type MachineRowInput = Pick<
  MachineView,
  | 'diagnosis'
  | 'failureReason'
  | 'failureMessage'
  | 'drainBlockedBy'
  | 'conditions'
  | 'infrastructureConditions'
  | 'deleting'
  | 'nodeName'
>;

const conditionSeverity = (cs: readonly ConditionView[]): Severity =>
  cs.some((c) => c.severity === 'Error') ? 'error' : 'warning';

/** The problem of a machine's Node (rule 6 above), or undefined. */
export function nodeProblemOf(
  m: Pick<MachineView, 'deleting' | 'nodeName'>,
  joined: MachineNode | undefined,
): NodeProblem | undefined {
  if (!joined || m.deleting || !m.nodeName) return undefined;
  const node = m.nodeName;
  const pressure = joined.node?.pressure ?? [];
  switch (joined.state) {
    case 'Missing':
      return { code: 'Missing', severity: 'error', node, conditions: [] };
    case 'NotReady':
      return { code: 'NotReady', severity: 'error', node, conditions: pressure };
    case 'Unknown':
      return { code: 'Unknown', severity: 'warning', node, conditions: pressure };
    case 'NoNode':
    case 'Deleted':
      return undefined;
    case 'Ready':
    case 'Cordoned':
    case 'Draining':
      break;
  }
  if (pressure.length > 0)
    return { code: 'Pressure', severity: 'warning', node, conditions: pressure };
  if (joined.state === 'Cordoned' || joined.node?.unschedulable === true)
    return { code: 'Cordoned', severity: 'warning', node, conditions: [] };
  return undefined;
}

/**
 * The checks to go through for a Node problem, in order (the machine page's panel): a Node that is
 * missing, NotReady or silent is a kubelet that cannot reach or satisfy the API server — the
 * same checks as the `node-not-healthy` diagnosis. Pressure and a cordon say what to do in their
 * own text (free the resource; `kubectl uncordon`): no checklist.
 */
export function nodeProblemChecklist(code: NodeProblemCode): ViewMessageKey[] {
  switch (code) {
    case 'Missing':
    case 'NotReady':
    case 'Unknown':
      return NODE_NOT_HEALTHY_CHECKLIST;
    case 'Pressure':
    case 'Cordoned':
      return [];
  }
}

const hasProblemCondition = (cs: readonly ConditionView[] | undefined): boolean =>
  cs?.some((c) => c.problem) === true;

/**
 * Whether the row needs attention: the same decision as `machineRowProblems(…).length > 0`,
 * without allocating (the filter runs it over every machine, 20,000 of them, on each batch).
 */
export function hasMachineRowProblem(m: MachineRowInput, joined?: MachineNode): boolean {
  return (
    m.diagnosis !== undefined ||
    m.failureReason !== undefined ||
    (m.drainBlockedBy?.length ?? 0) > 0 ||
    hasProblemCondition(m.conditions) ||
    hasProblemCondition(m.infrastructureConditions) ||
    nodeProblemOf(m, joined) !== undefined
  );
}

/** Every problem of the row, most telling first (see above); empty when it needs no attention. */
export function machineRowProblems(m: MachineRowInput, joined?: MachineNode): MachineRowProblem[] {
  const out: MachineRowProblem[] = [];
  if (m.diagnosis)
    out.push({ source: 'diagnosis', severity: m.diagnosis.severity, diagnosis: m.diagnosis });
  if (m.failureReason !== undefined) {
    out.push({
      source: 'failure',
      severity: 'error',
      reason: m.failureReason,
      ...(m.failureMessage !== undefined ? { message: m.failureMessage } : {}),
    });
  }
  if (m.drainBlockedBy?.length)
    out.push({ source: 'drain', severity: 'warning', budgets: m.drainBlockedBy });
  const own = m.conditions.filter((c) => c.problem);
  if (own.length > 0)
    out.push({ source: 'machine', severity: conditionSeverity(own), conditions: own });
  const infra = (m.infrastructureConditions ?? []).filter((c) => c.problem);
  if (infra.length > 0)
    out.push({ source: 'infrastructure', severity: conditionSeverity(infra), conditions: infra });
  const node = nodeProblemOf(m, joined);
  if (node) out.push({ source: 'node', ...node });
  return out;
}
