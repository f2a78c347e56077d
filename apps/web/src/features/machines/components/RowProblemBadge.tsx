import type { ConditionView, MachineRowProblem } from '@dcs/domain';
import { Chip, Tooltip } from '@mui/material';
import { useI18n } from '../../../i18n/context';
import { nodeProblemText } from './node-problem-text';

const conditionsText = (cs: readonly ConditionView[]) =>
  cs.map((c) => `${c.type}=${c.status}`).join(', ');

const conditionsDetail = (cs: readonly ConditionView[]) =>
  cs
    .map((c) =>
      [`${c.type}=${c.status}`, c.reason, c.message].filter((x) => x !== undefined).join(' · '),
    )
    .join('\n');

/**
 * The badge of a machine row in the Conditions column (issue 12): the first of domain's
 * `machineRowProblems`, the decision the "Problems only" filter reads too, so that every row the
 * filter keeps says why. The chip wraps onto more lines rather than cutting its label (a long
 * diagnosis in a narrow column: "Placement stall on DCS"), and its tooltip holds the whole text
 * with the details, as MUI's data tables do for a cell that does not fit.
 */
export function RowProblemBadge({ problem }: { problem: MachineRowProblem }) {
  const { t, localize } = useI18n();
  const color = problem.severity === 'error' ? 'error' : 'warning';
  let label: string;
  let detail: string;
  let variant: 'filled' | 'outlined' = 'outlined';
  switch (problem.source) {
    case 'diagnosis':
      label = t(`diagnosis.${problem.diagnosis.code}`);
      detail = localize(problem.diagnosis);
      variant = 'filled';
      break;
    case 'failure':
      label = problem.reason;
      detail = problem.message ?? problem.reason;
      variant = 'filled';
      break;
    case 'drain':
      label = t('rowProblem.drain', {
        budget: problem.budgets.map((b) => b.name).join(', '),
      });
      detail = problem.budgets.map((b) => t('rowProblem.drainDetail', { ...b })).join('\n');
      break;
    case 'machine':
      label = conditionsText(problem.conditions);
      detail = conditionsDetail(problem.conditions);
      break;
    case 'infrastructure':
      label = t('rowProblem.infrastructure', { conditions: conditionsText(problem.conditions) });
      detail = `DCSMachine\n${conditionsDetail(problem.conditions)}`;
      break;
    case 'node':
      ({ label, detail } = nodeProblemText(problem, t));
      break;
  }
  return (
    <Tooltip
      title={<span style={{ whiteSpace: 'pre-line' }}>{`${label}\n${detail}`}</span>}
      describeChild
    >
      <Chip
        size="small"
        color={color}
        variant={variant}
        label={label}
        data-row-problem={problem.source}
        sx={{
          // A multiline chip (MUI's documented recipe): the label wraps instead of an ellipsis.
          height: 'auto',
          maxWidth: '100%',
          '& .MuiChip-label': { display: 'block', whiteSpace: 'normal', py: 0.25 },
        }}
      />
    </Tooltip>
  );
}
