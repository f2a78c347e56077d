import {
  validateDeleteMachines,
  type DeleteMachinesRequest,
  type MachineView,
  type NodePoolView,
} from '@dcs/domain';
import { Alert, Box, Typography } from '@mui/material';
import type { ClusterContext } from '../../../api/get-cluster-context';
import { PlanFlowDialog } from '../../../components/PlanFlowDialog';
import { ProblemList } from '../../../components/ProblemList';
import { useI18n } from '../../../i18n/context';
import { errorsOf } from '../../../lib/issues';
import { usePlanFlow } from '../../../lib/use-plan-flow';
import { useScalePool } from '../api/scale-pool';

/**
 * O-SCALE-DOWN-TARGETED (R-MD-6): annotate exactly the selected machines, then lower the pool's
 * replicas by exactly that number, as one action. The guards are explained, not just enforced.
 */
export function DeleteMachinesDialog({
  namespace,
  cluster,
  pool,
  machines,
  poolMachines,
  context,
  onClose,
}: {
  namespace: string;
  cluster: string;
  pool: NodePoolView;
  machines: readonly MachineView[];
  poolMachines: readonly MachineView[];
  context: ClusterContext;
  onClose: () => void;
}) {
  const { t } = useI18n();
  const send = useScalePool(namespace, cluster, pool.id);
  const flow = usePlanFlow(send, onClose);
  const req: DeleteMachinesRequest = {
    deleteMachines: machines.map((m) => m.name),
    resourceVersion: pool.resourceVersions.md ?? '',
    machineResourceVersions: Object.fromEntries(
      machines.map((m) => [m.name, m.resourceVersion ?? '']),
    ),
  };
  const issues = validateDeleteMachines(
    req,
    {
      name: pool.name,
      replicas: pool.replicas.desired,
      machines: poolMachines.map((m) => ({ name: m.name, deleting: m.deleting })),
      rolloutInProgress: pool.rollout.inProgress,
      // R-AS-7: below an autoscaled pool's minimum the deletion is refused.
      ...(pool.autoscaler?.bounds
        ? {
            autoscaler: {
              ...pool.autoscaler.bounds,
              scaleFromZero: pool.autoscaler.scaleFromZero,
            },
          }
        : {}),
    },
    context.validation,
  );
  const to = pool.replicas.desired - machines.length;
  return (
    <PlanFlowDialog
      title={t('deleteMachines.title', { count: machines.length, name: pool.name })}
      flow={flow}
      onClose={onClose}
      onPreview={() => {
        void flow.preview(req);
      }}
      applyLabel={t('nodes.deleteSelected')}
      previewDisabled={errorsOf(issues).length > 0}
      danger
    >
      <Typography sx={{ mb: 1 }}>
        {t('deleteMachines.explain', {
          count: machines.length,
          from: pool.replicas.desired,
          to,
        })}
      </Typography>
      <Box
        component="ul"
        aria-label={t('deleteMachines.list')}
        sx={{ fontFamily: 'monospace', fontSize: 13, maxHeight: 200, overflow: 'auto' }}
      >
        {machines.map((m) => (
          <li key={m.name}>
            {m.name} {m.nodeName ? `(${m.nodeName}, ${m.ip ?? '—'})` : ''}
          </li>
        ))}
      </Box>
      <Alert severity="info" sx={{ mb: 1 }}>
        {t('deleteMachines.guards')}
      </Alert>
      <ProblemList items={issues} />
    </PlanFlowDialog>
  );
}
