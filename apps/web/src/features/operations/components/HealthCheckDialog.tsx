import {
  DEFAULT_NODE_STARTUP_SECONDS,
  HealthCheckRequestSchema,
  requestIssues,
  requestedLimit,
  validateHealthCheck,
  type HealthCheckRequest,
  type NodePoolView,
  type PoolHealthCheckView,
  type RuleIssue,
} from '@dcs/domain';
import {
  Alert,
  Button,
  FormControlLabel,
  IconButton,
  List,
  ListItem,
  ListItemText,
  MenuItem,
  Radio,
  RadioGroup,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { ClusterContext } from '../../../api/get-cluster-context';
import { useFieldIssues } from '../../../components/FieldIssues';
import { IssueScope, UnshownIssues } from '../../../components/IssueSummary';
import { PlanFlowDialog } from '../../../components/PlanFlowDialog';
import { useHealthCheckTexts, type HealthCheckText } from '../../../i18n/health-check';
import { errorsOf } from '../../../lib/issues';
import { usePlanFlow } from '../../../lib/use-plan-flow';
import { healthCheckQuery, usePoolHealthCheck, useSendHealthCheck } from '../api/health-check';

/**
 * A worker pool's health check (O-MHC-CREATE / O-MHC-EDIT / O-MHC-DELETE, issue 26 item 1),
 * opened from the card's "Health check": what the MachineHealthCheck reports (expected and
 * healthy machines, remediations allowed, each target's health and remediation, a limit that
 * holds remediation back), and the form of its unhealthy node conditions, node start-up timeout
 * and remediation limit, validated as typed by the request schema (R-MHC-1..4) and the domain's
 * validateHealthCheck (R-MHC-1..7). "Remove the health check" previews its deletion.
 */
export function HealthCheckDialog(props: HealthCheckDialogProps) {
  const hc = usePoolHealthCheck(props.namespace, props.cluster, props.pool.id);
  if (hc.isPending) return null;
  return (
    <IssueScope>
      <HealthCheckBody {...props} current={hc.data ?? undefined} />
    </IssueScope>
  );
}

interface HealthCheckDialogProps {
  namespace: string;
  cluster: string;
  pool: NodePoolView;
  context: ClusterContext;
  onClose: () => void;
}

interface ConditionRow {
  type: string;
  status: string;
  timeout: string;
}
type LimitKind = 'none' | 'maxUnhealthy' | 'range';

const numberOf = (text: string): number | string => {
  const t = text.trim();
  return t === '' || !/^-?\d+(\.\d+)?$/.test(t) ? t : Number(t);
};

function initialRows(current: PoolHealthCheckView | undefined): ConditionRow[] {
  if (!current) {
    return [
      { type: 'Ready', status: 'False', timeout: '300' },
      { type: 'Ready', status: 'Unknown', timeout: '300' },
    ];
  }
  return current.unhealthyNodeConditions.map((c) => ({
    type: c.type,
    status: c.status,
    timeout: String(c.timeoutSeconds),
  }));
}

function HealthCheckBody({
  namespace,
  cluster,
  pool,
  context,
  onClose,
  current,
}: HealthCheckDialogProps & { current: PoolHealthCheckView | undefined }) {
  const t = useHealthCheckTexts();
  const client = useQueryClient();
  const [rows, setRows] = useState(() => initialRows(current));
  const [startup, setStartup] = useState(() =>
    String(current?.nodeStartupTimeoutSeconds ?? DEFAULT_NODE_STARTUP_SECONDS),
  );
  const limit = current?.limit;
  const [limitKind, setLimitKind] = useState<LimitKind>(limit?.kind ?? 'none');
  const [maxText, setMaxText] = useState(
    limit?.kind === 'maxUnhealthy' ? String(limit.maxUnhealthy) : '40%',
  );
  const [rangeMin, setRangeMin] = useState(limit?.kind === 'range' ? String(limit.min) : '1');
  const [rangeMax, setRangeMax] = useState(limit?.kind === 'range' ? String(limit.max) : '2');
  const [removing, setRemoving] = useState(false);
  const send = useSendHealthCheck(namespace, cluster, pool.id);
  const flow = usePlanFlow(send, onClose);

  const build = (hc: PoolHealthCheckView | undefined): unknown => ({
    ...(hc
      ? { operation: 'edit', resourceVersion: hc.resourceVersion ?? '' }
      : { operation: 'create' }),
    unhealthyNodeConditions: rows.map((r) => ({
      type: r.type,
      status: r.status,
      timeoutSeconds: numberOf(r.timeout),
    })),
    nodeStartupTimeoutSeconds: numberOf(startup),
    ...(limitKind === 'maxUnhealthy' ? { maxUnhealthy: numberOf(maxText) } : {}),
    ...(limitKind === 'range' ? { unhealthyRange: `[${rangeMin.trim()}-${rangeMax.trim()}]` } : {}),
  });
  const raw = build(current);
  const parsed = HealthCheckRequestSchema.safeParse(raw);
  const issues: RuleIssue[] = parsed.success
    ? parsed.data.operation === 'delete'
      ? []
      : validateHealthCheck(
          {
            unhealthyNodeConditions: parsed.data.unhealthyNodeConditions,
            nodeStartupTimeoutSeconds:
              parsed.data.nodeStartupTimeoutSeconds ?? DEFAULT_NODE_STARTUP_SECONDS,
            limit: requestedLimit(parsed.data),
          },
          { name: pool.name, replicas: pool.replicas.desired, otherChecks: current?.others ?? [] },
          context.validation,
        )
    : requestIssues(parsed.error, raw);
  const field = useFieldIssues(issues);

  const removal = (hc: PoolHealthCheckView): HealthCheckRequest => ({
    operation: 'delete',
    resourceVersion: hc.resourceVersion ?? '',
  });
  const reapply = async () => {
    // Someone else changed the health check: the same intent, from its current version.
    const fresh =
      (await client.query({
        ...healthCheckQuery(namespace, cluster, pool.id),
        staleTime: 0,
      })) ?? undefined;
    if (removing && fresh) {
      await flow.preview(removal(fresh));
      return;
    }
    const next = HealthCheckRequestSchema.safeParse(build(fresh));
    if (next.success) await flow.preview(next.data);
  };

  return (
    <PlanFlowDialog
      title={t('healthCheck.title', { name: pool.name })}
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
      applyLabel={t(
        removing ? 'healthCheck.applyRemove' : current ? 'healthCheck.save' : 'healthCheck.create',
      )}
      danger={removing}
      previewDisabled={!parsed.success || errorsOf(issues).length > 0}
    >
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {t('healthCheck.intro')}
      </Typography>
      <HealthCheckStatus current={current} t={t} />
      <Typography variant="subtitle2" sx={{ mt: 2, mb: 1 }}>
        {t('healthCheck.conditions')}
      </Typography>
      <Stack spacing={1} sx={{ mb: 1 }}>
        {rows.map((r, i) => {
          const at = `unhealthyNodeConditions.${String(i)}`;
          const set = (patch: Partial<ConditionRow>) => {
            setRows(rows.map((x, j) => (j === i ? { ...x, ...patch } : x)));
          };
          return (
            <Stack key={i} direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
              <TextField
                size="small"
                label={t('healthCheck.conditionType')}
                value={r.type}
                onChange={(e) => {
                  set({ type: e.target.value });
                }}
                sx={{ width: 180 }}
                {...field(`${at}.type`)}
              />
              <TextField
                size="small"
                select
                label={t('healthCheck.conditionStatus')}
                value={r.status}
                onChange={(e) => {
                  set({ status: e.target.value });
                }}
                sx={{ width: 130 }}
                {...field(`${at}.status`)}
              >
                {['True', 'False', 'Unknown'].map((s) => (
                  <MenuItem key={s} value={s}>
                    {s}
                  </MenuItem>
                ))}
              </TextField>
              <TextField
                size="small"
                type="number"
                label={t('healthCheck.timeout')}
                value={r.timeout}
                onChange={(e) => {
                  set({ timeout: e.target.value });
                }}
                sx={{ width: 150 }}
                {...field(`${at}.timeoutSeconds`)}
              />
              <IconButton
                aria-label={t('healthCheck.removeCondition', { n: i + 1 })}
                onClick={() => {
                  setRows(rows.filter((_, j) => j !== i));
                }}
              >
                <DeleteOutlined />
              </IconButton>
            </Stack>
          );
        })}
      </Stack>
      <Button
        size="small"
        onClick={() => {
          setRows([...rows, { type: 'Ready', status: 'Unknown', timeout: '300' }]);
        }}
        sx={{ mb: 2 }}
      >
        {t('healthCheck.addCondition')}
      </Button>
      {field('unhealthyNodeConditions').helperText !== undefined && (
        <Alert severity="error" sx={{ mb: 2 }}>
          {field('unhealthyNodeConditions').helperText}
        </Alert>
      )}
      <TextField
        type="number"
        label={t('healthCheck.startup')}
        value={startup}
        onChange={(e) => {
          setStartup(e.target.value);
        }}
        sx={{ width: 320, mb: 2, display: 'flex' }}
        {...field('nodeStartupTimeoutSeconds', t('healthCheck.startupHelp'))}
      />
      <Typography variant="subtitle2">{t('healthCheck.limit')}</Typography>
      <RadioGroup
        value={limitKind}
        onChange={(e) => {
          setLimitKind(e.target.value as LimitKind);
        }}
      >
        <FormControlLabel value="none" control={<Radio />} label={t('healthCheck.limit.none')} />
        <FormControlLabel
          value="maxUnhealthy"
          control={<Radio />}
          label={t('healthCheck.limit.maxUnhealthy')}
        />
        <FormControlLabel value="range" control={<Radio />} label={t('healthCheck.limit.range')} />
      </RadioGroup>
      {limitKind === 'maxUnhealthy' && (
        <TextField
          label={t('healthCheck.maxUnhealthy')}
          value={maxText}
          onChange={(e) => {
            setMaxText(e.target.value);
          }}
          sx={{ width: 320, mb: 2 }}
          {...field('maxUnhealthy')}
        />
      )}
      {limitKind === 'range' && (
        <Stack direction="row" spacing={1} sx={{ mb: 2 }}>
          <TextField
            type="number"
            label={t('healthCheck.rangeMin')}
            value={rangeMin}
            onChange={(e) => {
              setRangeMin(e.target.value);
            }}
            sx={{ width: 120 }}
            {...field('unhealthyRange')}
          />
          <TextField
            type="number"
            label={t('healthCheck.rangeMax')}
            value={rangeMax}
            onChange={(e) => {
              setRangeMax(e.target.value);
            }}
            sx={{ width: 120 }}
          />
        </Stack>
      )}
      {current && (
        <Stack direction="row" spacing={2} sx={{ alignItems: 'center', mb: 1 }}>
          <Button
            color="error"
            variant="outlined"
            disabled={flow.stage === 'previewing'}
            onClick={() => {
              setRemoving(true);
              void flow.preview(removal(current));
            }}
          >
            {t('healthCheck.remove')}
          </Button>
        </Stack>
      )}
      <UnshownIssues issues={issues} />
    </PlanFlowDialog>
  );
}

/** The health check's own report: counters, a limit holding remediation back, each target. */
export function HealthCheckStatus({
  current,
  t,
}: {
  current: PoolHealthCheckView | undefined;
  t: HealthCheckText;
}) {
  if (!current) {
    return (
      <Alert severity="info" sx={{ mb: 1 }}>
        {t('healthCheck.none')}
      </Alert>
    );
  }
  const held = current.remediationAllowed?.status === 'False';
  return (
    <section aria-label={t('healthCheck.status')}>
      <Typography variant="subtitle2">{t('healthCheck.status')}</Typography>
      <Typography role="status" variant="body2">
        {current.expectedMachines === undefined
          ? t('healthCheck.notObserved')
          : t('healthCheck.counts', {
              healthy: current.currentHealthy ?? 0,
              expected: current.expectedMachines,
              allowed: current.remediationsAllowed ?? 0,
            })}
      </Typography>
      {held && (
        <Alert severity="warning" sx={{ my: 1 }}>
          {t('healthCheck.heldBack', { message: current.remediationAllowed?.message ?? '' })}
        </Alert>
      )}
      {current.others.length > 0 && (
        <Alert severity="warning" sx={{ my: 1 }}>
          {t('healthCheck.others', { names: current.others.join(', ') })}
        </Alert>
      )}
      <List dense>
        {current.machines.map((m) => {
          const why = m.healthCheck?.message ?? m.healthCheck?.reason ?? '';
          const text = m.deleting
            ? t('healthCheck.machine.deleting')
            : m.remediating
              ? t('healthCheck.machine.remediating', { why })
              : m.healthCheck?.status === 'False'
                ? t('healthCheck.machine.unhealthy', { why })
                : m.healthCheck?.status === 'True'
                  ? t('healthCheck.machine.healthy')
                  : t('healthCheck.machine.unchecked');
          return (
            <ListItem key={m.name} disableGutters>
              <ListItemText primary={m.name} secondary={text} />
            </ListItem>
          );
        })}
      </List>
    </section>
  );
}
