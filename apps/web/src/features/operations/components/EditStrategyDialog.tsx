import {
  EDIT_STRATEGY_FIELDS,
  EditStrategyRequestSchema,
  requestIssues,
  validateEditStrategy,
  type EditStrategyField,
  type EditStrategyRequest,
  type NodePoolView,
  type RuleIssue,
} from '@dcs/domain';
import { Alert, Stack, TextField, Typography } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { ClusterContext } from '../../../api/get-cluster-context';
import { useFieldIssues } from '../../../components/FieldIssues';
import { IssueScope, UnshownIssues } from '../../../components/IssueSummary';
import { PlanFlowDialog } from '../../../components/PlanFlowDialog';
import { useI18n } from '../../../i18n/context';
import type { MessageKey } from '../../../i18n/en';
import { parseIntOrString } from '../../../lib/int-or-string';
import { errorsOf } from '../../../lib/issues';
import { queryKeys } from '../../../lib/query-keys';
import { usePlanFlow } from '../../../lib/use-plan-flow';
import { useEditStrategy } from '../api/edit-strategy';

/**
 * O-EDIT-STRATEGY: a worker pool's rollout settings (maxSurge, maxUnavailable: R-MD-2, R-MD-3)
 * and node timeouts, opened from the card ("Rollout settings", and the R-MD-3 warning's "keep
 * maxSurge = 0" link). Only the fields the user changed are sent, so a field someone else changed
 * meanwhile is not written back. Validated as typed by the request schema and domain's
 * validateEditStrategy; the preview's notes say that no machine is replaced and what the change
 * does to a rolling update in progress.
 */
export function EditStrategyDialog(props: EditStrategyDialogProps) {
  return (
    <IssueScope>
      <EditStrategyBody {...props} />
    </IssueScope>
  );
}

interface EditStrategyDialogProps {
  namespace: string;
  cluster: string;
  pool: NodePoolView;
  context: ClusterContext;
  onClose: () => void;
}

type Texts = Record<EditStrategyField, string>;

/** The fields as the pool has them now, as text ('' when unset). */
export function strategyTexts(pool: NodePoolView): Texts {
  const s = (v: string | number | undefined) => (v === undefined ? '' : String(v));
  return {
    maxSurge: s(pool.strategy.maxSurge),
    maxUnavailable: s(pool.strategy.maxUnavailable),
    nodeDrainTimeout: s(pool.nodeDrainTimeout),
    nodeDeletionTimeout: s(pool.nodeDeletionTimeout),
    nodeVolumeDetachTimeout: s(pool.nodeVolumeDetachTimeout),
  };
}

/**
 * The request: the resourceVersion the user saw and every field whose text they changed. A field
 * the user emptied is sent as `null`: removed from the MachineDeployment, so that Cluster API's
 * default applies again (the plan's note names it).
 */
export function editStrategyRequest(
  pool: NodePoolView,
  texts: Texts,
): Record<string, string | number | null> {
  const before = strategyTexts(pool);
  const out: Record<string, string | number | null> = {
    resourceVersion: pool.resourceVersions.md ?? '',
  };
  for (const f of EDIT_STRATEGY_FIELDS) {
    const text = texts[f].trim();
    if (text === before[f]) continue;
    if (text === '') out[f] = null;
    else out[f] = f === 'maxSurge' || f === 'maxUnavailable' ? parseIntOrString(text) : text;
  }
  return out;
}

const LABELS: Record<EditStrategyField, MessageKey | undefined> = {
  maxSurge: undefined,
  maxUnavailable: undefined,
  nodeDrainTimeout: 'strategy.drainTimeout',
  nodeDeletionTimeout: 'strategy.deletionTimeout',
  nodeVolumeDetachTimeout: 'strategy.volumeDetachTimeout',
};
const HELP: Record<EditStrategyField, MessageKey> = {
  maxSurge: 'strategy.surgeHelp',
  maxUnavailable: 'strategy.unavailableHelp',
  nodeDrainTimeout: 'strategy.drainHelp',
  nodeDeletionTimeout: 'strategy.deletionHelp',
  nodeVolumeDetachTimeout: 'strategy.volumeDetachHelp',
};

function EditStrategyBody({ namespace, cluster, pool, context, onClose }: EditStrategyDialogProps) {
  const { t } = useI18n();
  const client = useQueryClient();
  const [texts, setTexts] = useState<Texts>(() => strategyTexts(pool));
  const send = useEditStrategy(namespace, cluster, pool.id);
  const flow = usePlanFlow(send, onClose);

  const raw = editStrategyRequest(pool, texts);
  const parsed = EditStrategyRequestSchema.safeParse(raw);
  const issues: RuleIssue[] = parsed.success
    ? validateEditStrategy(
        parsed.data,
        {
          name: pool.name,
          replicas: pool.replicas.desired,
          strategyType: pool.strategy.type,
          maxSurge: pool.strategy.maxSurge,
          maxUnavailable: pool.strategy.maxUnavailable,
          ipPoolName: pool.ipPool?.name,
        },
        context.validation,
      )
    : requestIssues(parsed.error, raw);
  const field = useFieldIssues(issues);
  const changed = Object.keys(raw).length > 1;

  const reapply = async () => {
    // Someone else changed the pool: start again from its current version, with the same edits.
    await client.refetchQueries({ queryKey: queryKeys.cluster(namespace, cluster) });
    const fresh =
      client
        .getQueryData<readonly NodePoolView[]>(queryKeys.pools(namespace, cluster))
        ?.find((p) => p.id === pool.id) ?? pool;
    const next = EditStrategyRequestSchema.safeParse({
      ...raw,
      resourceVersion: fresh.resourceVersions.md ?? '',
    });
    if (next.success) await flow.preview(next.data);
  };

  return (
    <PlanFlowDialog
      title={t('strategy.title', { name: pool.name })}
      flow={flow}
      onClose={onClose}
      onPreview={() => {
        if (parsed.success) void flow.preview(parsed.data satisfies EditStrategyRequest);
      }}
      onReapply={() => {
        void reapply();
      }}
      applyLabel={t('strategy.apply')}
      previewDisabled={!parsed.success || errorsOf(issues).length > 0 || !changed}
    >
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {t('strategy.intro')}
      </Typography>
      {pool.rollout.inProgress && (
        <Alert severity="info" sx={{ mb: 2 }}>
          {t('strategy.rolloutInProgress', {
            updated: pool.rollout.updated,
            desired: pool.rollout.desired,
          })}
        </Alert>
      )}
      {pool.strategy.type === 'OnDelete' && (
        <Alert severity="info" sx={{ mb: 2 }}>
          {t('strategy.onDelete')}
        </Alert>
      )}
      <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 2, alignItems: 'flex-start' }}>
        {EDIT_STRATEGY_FIELDS.map((f) => {
          const label = LABELS[f];
          return (
            <TextField
              key={f}
              label={label ? t(label) : f}
              value={texts[f]}
              onChange={(e) => {
                setTexts((x) => ({ ...x, [f]: e.target.value }));
              }}
              sx={{ width: 260 }}
              {...field(f, t(HELP[f]))}
            />
          );
        })}
      </Stack>
      <UnshownIssues issues={issues} />
    </PlanFlowDialog>
  );
}
