import {
  machineNodeOf,
  nodeProblemChecklist,
  nodeProblemOf,
  nodesByName,
  type MachineView,
} from '@dcs/domain';
import { Alert, AlertTitle, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useI18n } from '../../../i18n/context';
import { nodeQueryOptions } from '../api/get-nodes';
import { Checklist } from './DiagnosisPanel';
import { nodeProblemText } from './node-problem-text';

/**
 * The machine page's answer when the Machine itself is fine but its Node is not (issue 12): a
 * Running machine whose Node is NotReady, silent, missing, under pressure or cordoned, said at the
 * top of the page where a diagnosis would be, with the checks to go through. The same decision as
 * the row's badge (domain's `nodeProblemOf`). It reads the Node query the page's Node section
 * keeps (same key: one request), so it shows nothing while the Nodes cannot be read.
 */
export function NodeProblemPanel({ machine }: { machine: MachineView }) {
  const { t } = useI18n();
  const nodeName = machine.nodeName;
  const query = useQuery({
    ...nodeQueryOptions(machine.namespace, machine.cluster, nodeName ?? ''),
    enabled: nodeName !== undefined,
  });
  if (query.data?.status !== 'ok') return null;
  const problem = nodeProblemOf(machine, machineNodeOf(machine, nodesByName(query.data.nodes)));
  if (!problem) return null;
  const { label, detail } = nodeProblemText(problem, t);
  return (
    <Alert
      severity={problem.severity}
      sx={{ mb: 2 }}
      role="region"
      aria-label={t('diagnosis.title')}
      data-node-problem={problem.code}
    >
      <AlertTitle>
        {t('diagnosis.title')}: {label}
      </AlertTitle>
      <Typography variant="body2" sx={{ mb: 1 }}>
        {detail}
      </Typography>
      <Checklist keys={nodeProblemChecklist(problem.code)} />
    </Alert>
  );
}
