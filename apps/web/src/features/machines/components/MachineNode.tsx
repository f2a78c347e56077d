import { machineNodeOf, nodesByName, type MachineView, type NodeView } from '@dcs/domain';
import {
  Alert,
  Box,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import type { ReactNode } from 'react';
import { FactList } from '../../../components/FactList';
import { useI18n } from '../../../i18n/context';
import { useMachineNode } from '../api/get-nodes';
import { NodeStateChip, nodesUnavailableText } from './NodeState';

/**
 * The machine page's Node (issue 12): the Node in the workload cluster that the Machine's nodeRef
 * names, with its state, kubelet version, conditions (the same table as the Machine's, problems
 * first; a pressure condition that is False is healthy) and taints; or why it cannot be shown.
 */
export function MachineNode({
  namespace,
  cluster,
  machine,
  renderConditions,
}: {
  namespace: string;
  cluster: string;
  machine: MachineView;
  /** The conditions table (features/conditions), composed by the route: the Machine's own. */
  renderConditions: (node: NodeView) => ReactNode;
}) {
  const { t, locale, localize } = useI18n();
  const query = useMachineNode(namespace, cluster, machine);
  const heading = (
    <Typography variant="h3" component="h3" sx={{ mb: 1 }}>
      {t('node.heading')}
    </Typography>
  );
  const wrap = (body: ReactNode) => (
    <Box component="section" aria-label={t('node.heading')} sx={{ mb: 3 }}>
      {heading}
      {body}
    </Box>
  );
  if (!machine.nodeName) {
    return wrap(<Alert severity="info">{t('node.none', { name: machine.name })}</Alert>);
  }
  const reason = nodesUnavailableText(query.data, query.error, { t, locale, localize });
  if (reason) return wrap(<Alert severity="warning">{reason}</Alert>);
  if (query.data?.status !== 'ok') return wrap(null);
  const joined = machineNodeOf(machine, nodesByName(query.data.nodes));
  if (!joined.node) {
    return wrap(
      <Alert severity={joined.state === 'Deleted' ? 'info' : 'warning'}>
        {t(joined.state === 'Deleted' ? 'node.deleted' : 'node.missing', {
          name: machine.nodeName,
        })}
      </Alert>,
    );
  }
  return <NodeDetails node={joined.node} renderConditions={renderConditions} />;
}

function NodeDetails({
  node,
  renderConditions,
}: {
  node: NodeView;
  renderConditions: (node: NodeView) => ReactNode;
}) {
  const { t } = useI18n();
  const facts: [string, ReactNode][] = [
    [t('node.state'), <NodeStateChip key="state" state={node.state} />],
    [t('node.kubelet'), node.kubeletVersion ?? '—'],
    [t('node.unschedulable'), node.unschedulable ? t('common.yes') : t('common.no')],
  ];
  const title = t('node.title', { name: node.name });
  return (
    <Box component="section" aria-label={t('node.heading')} sx={{ mb: 3 }}>
      <Typography variant="h3" component="h3" sx={{ mb: 1 }}>
        {t('node.heading')}
      </Typography>
      <FactList facts={[[t('nodes.node'), node.name], ...facts]} label={title} mb={2} />
      {renderConditions(node)}
      <Typography variant="h3" component="h4" sx={{ mb: 1 }}>
        {t('node.taints', { name: node.name })}
      </Typography>
      {node.taints.length === 0 ? (
        <Alert severity="info">{t('node.noTaints')}</Alert>
      ) : (
        <TableContainer sx={{ border: 1, borderColor: 'divider', borderRadius: 1 }}>
          <Table size="small" aria-label={t('node.taints', { name: node.name })}>
            <TableHead>
              <TableRow>
                <TableCell>{t('node.taintKey')}</TableCell>
                <TableCell>{t('node.taintValue')}</TableCell>
                <TableCell>{t('node.taintEffect')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {node.taints.map((taint) => (
                <TableRow key={`${taint.key}:${taint.effect}`}>
                  <TableCell>{taint.key}</TableCell>
                  <TableCell>{taint.value ?? '—'}</TableCell>
                  <TableCell>{taint.effect}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
    </Box>
  );
}
