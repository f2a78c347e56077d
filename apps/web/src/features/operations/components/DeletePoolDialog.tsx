import type { DeletePoolRequest, NodePoolView } from '@dcs/domain';
import {
  Alert,
  Box,
  Checkbox,
  DialogContentText,
  FormControlLabel,
  FormGroup,
  TextField,
  Typography,
} from '@mui/material';
import { useState } from 'react';
import type { ClusterContext } from '../../../api/get-cluster-context';
import { PlanFlowDialog } from '../../../components/PlanFlowDialog';
import { useI18n } from '../../../i18n/context';
import { usePlanFlow } from '../../../lib/use-plan-flow';
import { useDeletePool } from '../api/delete-pool';

/**
 * U-5 / O-DELETE-POOL: names the pool and every machine that will be drained and deleted, offers
 * to remove the templates and IP pool that only this pool uses, and is confirmed by typing the
 * pool's name.
 */
export function DeletePoolDialog({
  namespace,
  cluster,
  pool,
  machines,
  context,
  onClose,
}: {
  namespace: string;
  cluster: string;
  pool: NodePoolView;
  machines: readonly string[] | undefined;
  context: ClusterContext;
  onClose: () => void;
}) {
  const { t } = useI18n();
  const [typed, setTyped] = useState('');
  const ipPool = context.validation.ipPools.find((p) => p.name === pool.ipPool?.name);
  const ipShared = (ipPool?.consumers ?? []).some((c) => c.deployment !== pool.name);
  const [remove, setRemove] = useState({
    machineTemplate: true,
    bootstrapTemplate: true,
    ipPool: !ipShared,
  });
  const send = useDeletePool(namespace, cluster, pool.id);
  const flow = usePlanFlow(send, onClose);
  const req: DeletePoolRequest = {
    resourceVersion: pool.resourceVersions.md ?? '',
    removeMachineTemplate: remove.machineTemplate,
    removeBootstrapTemplate: remove.bootstrapTemplate && pool.bootstrapTemplate !== undefined,
    removeIpPool: remove.ipPool && pool.ipPool !== undefined,
  };
  const confirmed = typed === pool.name;
  return (
    <PlanFlowDialog
      title={t('delete.title', { name: pool.name })}
      flow={flow}
      onClose={onClose}
      onPreview={() => {
        void flow.preview(req);
      }}
      applyLabel={t('action.delete')}
      previewDisabled={!confirmed}
      danger
    >
      <Alert severity="warning" sx={{ mb: 2 }}>
        {t('delete.warning', {
          name: pool.name,
          count: machines?.length ?? pool.replicas.current,
        })}
      </Alert>
      <Typography variant="h4" component="h3">
        {t('delete.machines')}
      </Typography>
      <Box
        component="ul"
        aria-label={t('delete.machines')}
        sx={{
          mt: 0.5,
          maxHeight: 160,
          overflow: 'auto',
          fontFamily: 'monospace',
          fontSize: 13,
        }}
      >
        {(machines ?? []).map((m) => (
          <li key={m}>{m}</li>
        ))}
        {machines?.length === 0 && <li>{t('common.none')}</li>}
      </Box>
      <Typography variant="h4" component="h3" sx={{ mt: 2 }}>
        {t('delete.alsoRemove')}
      </Typography>
      <FormGroup>
        <FormControlLabel
          control={
            <Checkbox
              checked={remove.machineTemplate}
              onChange={(e) => {
                setRemove((r) => ({ ...r, machineTemplate: e.target.checked }));
              }}
            />
          }
          label={t('delete.removeMachineTemplate', { name: pool.machineTemplate.name })}
        />
        {pool.bootstrapTemplate && (
          <FormControlLabel
            control={
              <Checkbox
                checked={remove.bootstrapTemplate}
                onChange={(e) => {
                  setRemove((r) => ({ ...r, bootstrapTemplate: e.target.checked }));
                }}
              />
            }
            label={t('delete.removeBootstrapTemplate', { name: pool.bootstrapTemplate })}
          />
        )}
        {pool.ipPool && (
          <FormControlLabel
            control={
              <Checkbox
                checked={remove.ipPool}
                disabled={ipShared}
                onChange={(e) => {
                  setRemove((r) => ({ ...r, ipPool: e.target.checked }));
                }}
              />
            }
            label={
              ipShared
                ? t('delete.ipPoolShared', { name: pool.ipPool.name })
                : t('delete.removeIpPool', { name: pool.ipPool.name })
            }
          />
        )}
      </FormGroup>
      <DialogContentText sx={{ mt: 1, fontSize: 13 }}>{t('delete.sharedHelp')}</DialogContentText>
      <TextField
        sx={{ mt: 2 }}
        fullWidth
        label={t('delete.typeName', { name: pool.name })}
        value={typed}
        onChange={(e) => {
          setTyped(e.target.value);
        }}
        autoComplete="off"
        error={typed !== '' && !confirmed}
      />
    </PlanFlowDialog>
  );
}
