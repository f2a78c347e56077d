import {
  AutoscaleRequestSchema,
  requestedBounds,
  requestIssues,
  validateAutoscale,
  type AutoscaleRequest,
  type NodePoolView,
  type RuleIssue,
} from '@dcs/domain';
import {
  Alert,
  Button,
  Checkbox,
  FormControlLabel,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { ClusterContext } from '../../../api/get-cluster-context';
import { useFieldIssues } from '../../../components/FieldIssues';
import { IssueScope, UnshownIssues } from '../../../components/IssueSummary';
import { PlanFlowDialog } from '../../../components/PlanFlowDialog';
import { errorsOf } from '../../../lib/issues';
import { queryKeys } from '../../../lib/query-keys';
import { usePlanFlow } from '../../../lib/use-plan-flow';
import { useSetAutoscalerBounds } from '../api/autoscale';
import { useAutoscaleTexts } from '../../../i18n/autoscale';

/**
 * The cluster autoscaler's bounds of a worker pool (O-AUTOSCALE / O-AUTOSCALE-REMOVE, issue 26
 * item 2), opened from the card's "Autoscaling": the minimum and maximum replicas, validated as
 * typed by the request schema (R-AS-1, R-AS-2) and domain's validateAutoscale (R-AS-3..6); when
 * the pool's replicas are outside the new bounds, the same change moves them in (R-AS-4) unless
 * the user unticks it. "Remove the bounds" previews the removal of both annotations.
 */
export function AutoscaleDialog(props: AutoscaleDialogProps) {
  return (
    <IssueScope>
      <AutoscaleBody {...props} />
    </IssueScope>
  );
}

interface AutoscaleDialogProps {
  namespace: string;
  cluster: string;
  pool: NodePoolView;
  context: ClusterContext;
  onClose: () => void;
}

/** A typed number as the request carries it: '' is "not given" (R-AS-2 says which is missing). */
const numberOf = (text: string): number | undefined => {
  const trimmed = text.trim();
  return trimmed === '' ? undefined : Number(trimmed);
};

const initialText = (pool: NodePoolView, which: 'minSize' | 'maxSize') => {
  const a = pool.autoscaler;
  if (a?.bounds) return String(a.bounds[which]);
  return a?.[which] ?? '';
};

function AutoscaleBody({ namespace, cluster, pool, context, onClose }: AutoscaleDialogProps) {
  const t = useAutoscaleTexts();
  const client = useQueryClient();
  const [minText, setMinText] = useState(() => initialText(pool, 'minSize'));
  const [maxText, setMaxText] = useState(() => initialText(pool, 'maxSize'));
  const [moveReplicas, setMoveReplicas] = useState(true);
  const [removing, setRemoving] = useState(false);
  const send = useSetAutoscalerBounds(namespace, cluster, pool.id);
  const flow = usePlanFlow(send, onClose);
  const replicas = pool.replicas.desired;

  const build = (p: NodePoolView) => {
    const min = numberOf(minText);
    const max = numberOf(maxText);
    const outside =
      typeof min === 'number' &&
      typeof max === 'number' &&
      min <= max &&
      (replicas < min || replicas > max);
    const to = outside ? Math.min(Math.max(p.replicas.desired, min), max) : undefined;
    return {
      raw: {
        resourceVersion: p.resourceVersions.md ?? '',
        ...(min !== undefined ? { minSize: min } : {}),
        ...(max !== undefined ? { maxSize: max } : {}),
        ...(to !== undefined && moveReplicas ? { replicas: to } : {}),
      },
      to,
    };
  };
  const { raw, to } = build(pool);
  const parsed = AutoscaleRequestSchema.safeParse(raw);
  const bounds = parsed.success ? requestedBounds(parsed.data) : undefined;
  const issues: RuleIssue[] = parsed.success
    ? bounds
      ? validateAutoscale(
          { ...bounds, replicas: parsed.data.replicas },
          {
            name: pool.name,
            replicas,
            ipPoolName: pool.ipPool?.name,
            scaleFromZero: pool.autoscaler?.scaleFromZero ?? false,
          },
          context.validation,
        )
      : []
    : requestIssues(parsed.error, raw);
  const field = useFieldIssues(issues);
  const unchanged =
    pool.autoscaler?.bounds?.minSize === bounds?.minSize &&
    pool.autoscaler?.bounds?.maxSize === bounds?.maxSize &&
    parsed.success &&
    parsed.data.replicas === undefined;

  const removal = (p: NodePoolView): AutoscaleRequest => ({
    resourceVersion: p.resourceVersions.md ?? '',
    minSize: null,
    maxSize: null,
  });

  const reapply = async () => {
    // Someone else changed the pool: the same intent, from its current version.
    await client.refetchQueries({ queryKey: queryKeys.cluster(namespace, cluster) });
    const fresh =
      client
        .getQueryData<readonly NodePoolView[]>(queryKeys.pools(namespace, cluster))
        ?.find((p) => p.id === pool.id) ?? pool;
    if (removing) {
      await flow.preview(removal(fresh));
      return;
    }
    const next = AutoscaleRequestSchema.safeParse(build(fresh).raw);
    if (next.success) await flow.preview(next.data);
  };

  return (
    <PlanFlowDialog
      title={t('autoscale.title', { name: pool.name })}
      flow={flow}
      onClose={onClose}
      onPreview={() => {
        if (!parsed.success) return;
        setRemoving(false);
        void flow.preview(parsed.data);
      }}
      onReapply={() => {
        void reapply();
      }}
      applyLabel={t(removing ? 'autoscale.applyRemove' : 'autoscale.apply')}
      danger={removing}
      previewDisabled={!parsed.success || !bounds || errorsOf(issues).length > 0 || unchanged}
    >
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {t('autoscale.intro')}
      </Typography>
      <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 2, alignItems: 'flex-start', mb: 2 }}>
        <TextField
          label={t('autoscale.minSize')}
          type="number"
          value={minText}
          onChange={(e) => {
            setMinText(e.target.value);
          }}
          slotProps={{ htmlInput: { min: 0, step: 1 } }}
          sx={{ width: 260 }}
          {...field('minSize', t('autoscale.minHelp'))}
        />
        <TextField
          label={t('autoscale.maxSize')}
          type="number"
          value={maxText}
          onChange={(e) => {
            setMaxText(e.target.value);
          }}
          slotProps={{ htmlInput: { min: 1, step: 1 } }}
          sx={{ width: 260 }}
          {...field('maxSize', t('autoscale.maxHelp'))}
        />
      </Stack>
      <Typography role="status" variant="body2" sx={{ mb: 2 }}>
        {t('autoscale.current', { n: replicas })}
      </Typography>
      {to !== undefined && (
        // R-AS-4: the autoscaler does not take over a pool outside its bounds.
        <Alert severity={moveReplicas ? 'info' : 'warning'} sx={{ mb: 2 }}>
          <FormControlLabel
            control={
              <Checkbox
                checked={moveReplicas}
                onChange={(e) => {
                  setMoveReplicas(e.target.checked);
                }}
              />
            }
            label={t('autoscale.moveReplicas', { from: replicas, to })}
          />
          {field('replicas').helperText !== undefined && (
            <Typography variant="body2">{field('replicas').helperText}</Typography>
          )}
        </Alert>
      )}
      {pool.autoscaler && (
        <Stack direction="row" spacing={2} sx={{ alignItems: 'center', mb: 1 }}>
          <Button
            color="error"
            variant="outlined"
            disabled={flow.stage === 'previewing'}
            onClick={() => {
              setRemoving(true);
              void flow.preview(removal(pool));
            }}
          >
            {t('autoscale.remove')}
          </Button>
        </Stack>
      )}
      <UnshownIssues issues={issues} />
    </PlanFlowDialog>
  );
}
