import {
  replicaRoom,
  scaleUpProgress,
  suggestEntries,
  suggestionCount,
  validateScale,
  type IpPoolEntry,
  type MachineView,
  type NodePoolView,
  type ScaleReplicasRequest,
} from '@dcs/domain';
import Add from '@mui/icons-material/Add';
import Remove from '@mui/icons-material/Remove';
import { Alert, Box, Button, IconButton, Stack, TextField, Typography } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { ClusterContext } from '../../../api/get-cluster-context';
import { IpEntriesEditor } from '../../../components/IpEntriesEditor';
import { useFieldIssues } from '../../../components/FieldIssues';
import { PlanFlowDialog } from '../../../components/PlanFlowDialog';
import { IssueScope, UnshownIssues } from '../../../components/IssueSummary';
import { useI18n } from '../../../i18n/context';
import { errorsOf } from '../../../lib/issues';
import { queryKeys } from '../../../lib/query-keys';
import { usePlanFlow } from '../../../lib/use-plan-flow';
import { useScalePool } from '../api/scale-pool';
import { useAutoscaleTexts } from '../../../i18n/autoscale';
import { ScaleFollow } from './ScaleFollow';

/**
 * Scale a worker pool (O-SCALE-UP, O-SCALE-DOWN-RANDOM): a stepper and a number, the free IP
 * entries beside them, and, when the pool is short, entries to append to it in the same change
 * (R-POOL-1, R-POOL-4). Every change is validated as typed by domain's validateScale. Once a
 * scale-up is applied the dialog follows the new machines (from the live `machines`) until they
 * are ready; a scale-down closes it.
 */
export function ScaleDialog(props: ScaleDialogProps) {
  // Its summary lists every issue no field of the dialog shows (a counted problem is never invisible).
  return (
    <IssueScope>
      <ScaleDialogBody {...props} />
    </IssueScope>
  );
}

interface ScaleDialogProps {
  namespace: string;
  cluster: string;
  pool: NodePoolView;
  context: ClusterContext;
  /** The pool's machines, kept live by the stream. */
  machines: readonly MachineView[] | undefined;
  onClose: () => void;
}

function ScaleDialogBody({
  namespace,
  cluster,
  pool,
  context,
  machines,
  onClose,
}: ScaleDialogProps) {
  const { t } = useI18n();
  const autoscaleText = useAutoscaleTexts();
  const freeId = useId();
  const client = useQueryClient();
  const [replicas, setReplicas] = useState(pool.replicas.desired);
  const [extend, setExtend] = useState<IpPoolEntry[]>([]);
  const send = useScalePool(namespace, cluster, pool.id);
  // What the previewed change starts from: the machines there were (a loaded list) and the replicas.
  const [start, setStart] = useState<{ machines: string[]; from: number; to: number }>();
  const growing = start !== undefined && start.to > start.from;
  const flow = usePlanFlow(send, growing ? undefined : onClose);
  const ipPoolName = pool.ipPool?.name;
  const ipCtx = context.validation.ipPools.find((p) => p.name === ipPoolName);
  // The figures beside the stepper and the rule's message come from one derivation (R-POOL-1).
  const room = ipCtx && replicaRoom(ipCtx, pool.name, extend.length);
  // Addresses every pool of the namespace holds: a suggestion never takes one (R-POOL-2).
  const takenIps = context.validation.ipPools.flatMap((p) => p.entries.map((e) => e.ip));

  const build = (p: NodePoolView, ipRv: string | undefined): ScaleReplicasRequest => ({
    replicas,
    resourceVersion: p.resourceVersions.md ?? '',
    ...(extend.length > 0 && ipPoolName
      ? { ipPoolAppend: { name: ipPoolName, resourceVersion: ipRv ?? '', entries: extend } }
      : {}),
  });
  const req = build(pool, ipCtx?.resourceVersion);
  const preview = (p: NodePoolView, next: ScaleReplicasRequest) => {
    setStart({
      // Preview is disabled for a scale-up until the machines are loaded: never an empty guess.
      machines: (machines ?? []).map((m) => m.name),
      from: p.replicas.desired,
      to: next.replicas,
    });
    return flow.preview(next);
  };
  const bounds = pool.autoscaler?.bounds;
  const autoscalerBounds = bounds && {
    ...bounds,
    scaleFromZero: pool.autoscaler?.scaleFromZero ?? false,
  };
  // Validated on every keystroke: the rules are pure and fast.
  const issues = validateScale(
    req,
    {
      name: pool.name,
      replicas: pool.replicas.desired,
      ipPoolName,
      maxSurge: pool.strategy.maxSurge,
      machineTemplateName: pool.machineTemplate.name,
      // R-AS-7: an autoscaled pool's bounds refuse a count outside them, and warn within.
      autoscaler: autoscalerBounds,
    },
    context.validation,
  );
  const short = issues.find(
    (i) =>
      i.path === 'replicas' &&
      i.severity === 'error' &&
      (i.rule === 'R-MD-1' || i.rule === 'R-POOL-1'),
  );
  const missing = typeof short?.params.missing === 'number' ? short.params.missing : undefined;
  const field = useFieldIssues(issues);

  const reapply = async () => {
    await client.refetchQueries({ queryKey: queryKeys.cluster(namespace, cluster) });
    const fresh =
      client
        .getQueryData<readonly NodePoolView[]>(queryKeys.pools(namespace, cluster))
        ?.find((p) => p.id === pool.id) ?? pool;
    const freshCtx = client.getQueryData<ClusterContext>(queryKeys.context(namespace, cluster));
    const rv = freshCtx?.validation.ipPools.find((p) => p.name === ipPoolName)?.resourceVersion;
    await preview(fresh, build(fresh, rv));
  };

  // A scale-up is followed from the machines there were: preview waits for a loaded list.
  const waitingForMachines = replicas > pool.replicas.desired && machines === undefined;
  return (
    <PlanFlowDialog
      title={t('scale.title', { name: pool.name })}
      flow={flow}
      onClose={onClose}
      onPreview={() => {
        void preview(pool, req);
      }}
      onReapply={() => {
        void reapply();
      }}
      applyLabel={t('action.scale')}
      done={
        growing && flow.appliedAt !== undefined ? (
          <ScaleFollow
            progress={scaleUpProgress(
              {
                poolId: pool.id,
                before: start.machines,
                appliedAt: flow.appliedAt,
                expected: start.to - start.from,
              },
              machines,
            )}
          />
        ) : undefined
      }
      previewDisabled={
        errorsOf(issues).length > 0 ||
        (replicas === pool.replicas.desired && extend.length === 0) ||
        waitingForMachines
      }
    >
      <Stack
        direction="row"
        spacing={1}
        sx={{ alignItems: 'flex-start', mb: 2, flexWrap: 'wrap', rowGap: 1 }}
      >
        <IconButton
          aria-label={t('scale.decrease')}
          onClick={() => {
            setReplicas((r) => Math.max(0, r - 1));
          }}
          disabled={replicas <= 0}
          sx={{ mt: 0.5 }}
        >
          <Remove />
        </IconButton>
        <TextField
          label={t('pool.replicas')}
          type="number"
          value={replicas}
          onChange={(e) => {
            setReplicas(Math.max(0, Math.floor(Number(e.target.value) || 0)));
          }}
          slotProps={{ htmlInput: { min: 0, 'aria-describedby': freeId } }}
          {...field('replicas', t('scale.current', { n: pool.replicas.desired }))}
          sx={{ width: 320 }}
        />
        <IconButton
          aria-label={t('scale.increase')}
          onClick={() => {
            setReplicas((r) => r + 1);
          }}
          sx={{ mt: 0.5 }}
        >
          <Add />
        </IconButton>
        <Box id={freeId} sx={{ ml: 2, mt: 1 }} role="status">
          {room && ipPoolName ? (
            <Typography>
              {t('scale.freeEntries', {
                free: room.free,
                total: room.entries,
                room: room.room,
                name: ipPoolName,
              })}
            </Typography>
          ) : (
            <Typography color="text.secondary">{t('scale.noIpPool')}</Typography>
          )}
        </Box>
      </Stack>
      {bounds && (
        <Alert severity="info" sx={{ mb: 2 }}>
          {autoscaleText('scale.autoscaled', { min: bounds.minSize, max: bounds.maxSize })}
        </Alert>
      )}
      {replicas < pool.replicas.desired && (
        <Alert severity="info" sx={{ mb: 2 }}>
          {t('scale.downRandom')}
        </Alert>
      )}
      {waitingForMachines && (
        <Typography role="status" variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {t('scale.loadingMachines')}
        </Typography>
      )}
      {(short !== undefined || extend.length > 0) && ipPoolName && (
        <Box sx={{ mb: 2 }}>
          <Typography variant="h4" component="h3" sx={{ mb: 1 }}>
            {t('scale.extendTitle', { name: ipPoolName })}
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
            {missing !== undefined ? t('scale.extendHelp', { missing }) : t('scale.extendKeep')}
          </Typography>
          <IpEntriesEditor
            label={t('scale.extendTitle', { name: ipPoolName })}
            entries={extend}
            onChange={setExtend}
            issues={issues}
            basePath="ipPoolAppend.entries"
            existingIps={takenIps}
            poolEntries={ipCtx?.entries}
          />
          {extend.length === 0 && missing !== undefined && (
            <Button
              variant="outlined"
              sx={{ mt: 1 }}
              onClick={() => {
                setExtend(suggestEntries(ipCtx?.entries ?? [], missing, { takenIps }));
              }}
            >
              {t('scale.extendIpPool', { n: suggestionCount(missing) })}
            </Button>
          )}
        </Box>
      )}
      <UnshownIssues issues={issues} />
    </PlanFlowDialog>
  );
}
