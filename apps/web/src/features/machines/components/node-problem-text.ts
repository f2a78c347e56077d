import type { NodeProblem } from '@dcs/domain';
import type { I18n } from '../../../i18n/context';

/**
 * A Node problem in words (issue 12): a short label (the row's badge, the panel's title) and the
 * detail that says what it means and what lifts it. The one wording for the badge and the machine
 * page's panel.
 */
export function nodeProblemText(
  problem: NodeProblem,
  t: I18n['t'],
): { label: string; detail: string } {
  const conditions = problem.conditions.join(', ');
  return {
    label: t(`rowProblem.node.${problem.code}`, { conditions }),
    detail: t(`rowProblem.nodeDetail.${problem.code}`, {
      node: problem.node,
      conditions,
      command: `kubectl uncordon ${problem.node}`,
    }),
  };
}
