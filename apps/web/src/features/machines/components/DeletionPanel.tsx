import {
  DELETING_STEPS,
  deletionView,
  refusalNamespace,
  type DeletionAction,
  type DeletionView,
  type MachineView,
  type NodePoolView,
  type PodList,
} from '@dcs/domain';
import { Alert, AlertTitle, Box, Chip, Stack, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import type { Permission } from '../../../api/get-cluster-context';
import { ActionButton } from '../../../components/ActionButton';
import { CodeBlock } from '../../../components/PlanPreview';
import { useI18n } from '../../../i18n/context';
import { useDeletionTexts, type DeletionText } from '../../../i18n/deletion';
import { formatSpan } from '../../../i18n/format';
import { useNow } from '../../../lib/use-now';

interface DeletionPanelProps {
  machine: MachineView;
  /** The machine's pool, for its nodeDrainTimeout action (undefined while it loads). */
  pool: NodePoolView | undefined;
  /** The right to edit the pool's rollout settings (O-EDIT-STRATEGY), where nodeDrainTimeout is. */
  permission: Permission | undefined;
  /** Another reason the edit is off (the web workflow gated, the pool being deleted). */
  blockedReason?: string | undefined;
  onEditDrainTimeout: (pool: NodePoolView) => void;
}

/**
 * A deleting machine's Deletion panel (issue 26 item 6): the step Cluster API is at (v1beta2
 * `Deleting`, v1beta1 `DrainingSucceeded`) among the steps in their order; while the Node drains,
 * how long it has drained against the nodeDrainTimeout, the Pods being evicted, the evictions a
 * PodDisruptionBudget refuses (named, with its needs/has) and upstream's truncations; and what the
 * operator can do, each with what follows. Everything read through domain's `deletionView`: the
 * panel never reads the message itself.
 */
export function DeletionPanel({
  machine: m,
  pool,
  permission,
  blockedReason,
  onEditDrainTimeout,
}: DeletionPanelProps) {
  const { t } = useI18n();
  const d = useDeletionTexts();
  const now = useNow(1000);
  const view = m.deletion ? deletionView({ ...m.deletion, nowMs: now }) : undefined;
  if (!view) return null;
  const reason = m.deletionStep?.reason ?? (view.step === 'Unknown' ? undefined : view.step);
  const refused = view.drain?.failed.some((f) => f.pdb) === true;
  // Domain offers to set a timeout when there is none; one that is set can be raised or lowered
  // too (the same dialog), in the same place of the list.
  const actions: DeletionAction[] = [...view.actions];
  if (view.draining && !actions.includes('set-drain-timeout')) {
    const at = actions.indexOf('exclude-node-draining');
    actions.splice(at < 0 ? actions.length : at, 0, 'set-drain-timeout');
  }
  return (
    <Alert
      severity={refused && !view.timedOut ? 'warning' : 'info'}
      sx={{ mb: 2, '& .MuiAlert-message': { width: '100%' } }}
      role="region"
      aria-label={d('deletion.title')}
      data-testid="deletion-step"
      data-step={view.step}
    >
      <AlertTitle>
        {reason ? t('machine.deletionStep', { reason }) : d('deletion.title')}
      </AlertTitle>
      <Steps view={view} d={d} />
      {view.draining && <Drain view={view} d={d} />}
      {view.excluded && (
        <Typography variant="body2" sx={{ mt: 1 }}>
          {d('deletion.excluded')}
        </Typography>
      )}
      {actions.length > 0 && (
        <Box sx={{ mt: 2 }}>
          <Typography component="h3" variant="subtitle2">
            {d('deletion.actions')}
          </Typography>
          <Box component="ul" sx={{ m: 0, pl: 2.5 }} aria-label={d('deletion.actions')}>
            {actions.map((a) => (
              <Action
                key={a}
                action={a}
                view={view}
                machine={m}
                d={d}
                timeoutAction={
                  <TimeoutAction
                    machine={m}
                    view={view}
                    pool={pool}
                    permission={permission}
                    blockedReason={blockedReason}
                    onEdit={onEditDrainTimeout}
                    d={d}
                  />
                }
              />
            ))}
          </Box>
        </Box>
      )}
    </Alert>
  );
}

function Steps({ view, d }: { view: DeletionView; d: DeletionText }) {
  const current = (DELETING_STEPS as readonly string[]).indexOf(view.step);
  return (
    <>
      {current < 0 && (
        <Typography variant="body2" sx={{ mb: 1 }}>
          {d('deletion.stepUnknown')}
        </Typography>
      )}
      <Box
        component="ol"
        aria-label={d('deletion.steps')}
        sx={{ m: 0, pl: 2.5, display: 'flex', flexWrap: 'wrap', columnGap: 3 }}
      >
        {DELETING_STEPS.map((s, i) => {
          const state = i < current ? 'done' : i === current ? 'current' : 'pending';
          return (
            <Box
              component="li"
              key={s}
              data-state={state}
              aria-current={state === 'current' ? 'step' : undefined}
              sx={{
                fontWeight: state === 'current' ? 600 : 400,
                color: state === 'pending' ? 'text.secondary' : 'text.primary',
              }}
            >
              {d(`deletion.step.${s}`)}
              {state === 'current' && (
                <Chip
                  size="small"
                  color="primary"
                  label={d('deletion.stepCurrent')}
                  sx={{ ml: 1 }}
                />
              )}
              {state === 'done' && (
                <Typography component="span" variant="caption" sx={{ ml: 0.5 }}>
                  ({d('deletion.stepDone')})
                </Typography>
              )}
            </Box>
          );
        })}
      </Box>
    </>
  );
}

function Drain({ view, d }: { view: DeletionView; d: DeletionText }) {
  const { locale } = useI18n();
  const drain = view.drain;
  const elapsed =
    view.drainingForMs === undefined ? undefined : formatSpan(view.drainingForMs, locale);
  const timeout = view.drainTimeoutMs ? formatSpan(view.drainTimeoutMs, locale) : undefined;
  const time =
    elapsed === undefined
      ? d('deletion.drainNotStarted')
      : !timeout
        ? d('deletion.drainTimeForever', { elapsed })
        : view.timedOut
          ? d('deletion.drainTimedOut', { elapsed, timeout })
          : d('deletion.drainTime', { elapsed, timeout });
  const nothing =
    drain?.evicting.pods.length === 0 && drain.failed.length === 0 && drain.later.pods.length === 0;
  return (
    <Box sx={{ mt: 1.5 }}>
      <Typography variant="body2" data-testid="drain-time">
        {time}
      </Typography>
      {nothing && (
        <Typography variant="body2" sx={{ mt: 1 }}>
          {d('deletion.noPods')}
        </Typography>
      )}
      {drain && drain.evicting.pods.length + drain.evicting.more > 0 && (
        <Section title={d('deletion.evicting')}>
          <Pods list={drain.evicting} d={d} />
        </Section>
      )}
      {drain && drain.failed.length > 0 && (
        <Section title={d('deletion.refused')}>
          <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
            {drain.failed.map((f) => (
              <Box component="li" key={f.error} data-pdb={f.pdb?.name} sx={{ mb: 0.5 }}>
                <Typography variant="body2">
                  {f.pdb
                    ? d('deletion.pdb', { ...f.pdb })
                    : d('deletion.otherError', { error: f.error })}
                </Typography>
                <Pods list={f} d={d} />
              </Box>
            ))}
          </Box>
          {drain.moreErrors && (
            <Typography variant="body2">{d('deletion.moreErrors', drain.moreErrors)}</Typography>
          )}
        </Section>
      )}
      {drain && drain.later.pods.length + drain.later.more > 0 && (
        <Section title={d('deletion.later')}>
          <Pods list={drain.later} d={d} />
        </Section>
      )}
    </Box>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Box component="section" aria-label={title} sx={{ mt: 1.5 }}>
      <Typography component="h3" variant="subtitle2">
        {title}
      </Typography>
      {children}
    </Box>
  );
}

function Pods({ list, d }: { list: PodList; d: DeletionText }) {
  return (
    <Typography variant="body2" component="div" sx={{ fontFamily: 'monospace' }}>
      {list.pods.join(', ')}
      {list.more > 0 && (
        <Box component="span" sx={{ fontFamily: 'inherit' }}>
          {list.pods.length > 0 ? ' ' : ''}
          {d('deletion.more', { count: list.more })}
        </Box>
      )}
    </Typography>
  );
}

/** The commands an action gives (for the operator's own kubectl). */
function pdbCommand(m: MachineView, view: DeletionView): string | undefined {
  const refusal = view.drain?.failed.find((f) => f.pdb);
  if (!refusal?.pdb) return undefined;
  const ns = refusalNamespace(refusal.pods) ?? 'default';
  const kubeconfig = `${m.cluster}.kubeconfig`;
  return [
    `kubectl get secret ${m.cluster}-kubeconfig -n ${m.namespace} -o jsonpath='{.data.value}' | base64 -d > ${kubeconfig}`,
    `kubectl --kubeconfig ${kubeconfig} get poddisruptionbudget ${refusal.pdb.name} -n ${ns} -o yaml`,
  ].join('\n');
}

function Action({
  action,
  view,
  machine: m,
  d,
  timeoutAction,
}: {
  action: DeletionAction;
  view: DeletionView;
  machine: MachineView;
  d: DeletionText;
  timeoutAction: ReactNode;
}) {
  let body: ReactNode;
  switch (action) {
    case 'wait':
      body = <Typography variant="body2">{d('deletion.action.wait')}</Typography>;
      break;
    case 'fix-pdb': {
      const command = pdbCommand(m, view);
      body = (
        <>
          <Typography variant="body2">{d('deletion.action.fixPdb')}</Typography>
          {command && (
            <CodeBlock
              text={command}
              label={d('deletion.commandPdb')}
              copyLabel={d('deletion.commandPdb')}
            />
          )}
        </>
      );
      break;
    }
    case 'set-drain-timeout':
      body = timeoutAction;
      break;
    case 'exclude-node-draining':
      body = (
        <>
          <Typography variant="body2">{d('deletion.action.exclude')}</Typography>
          <CodeBlock
            text={`kubectl annotate machine ${m.name} -n ${m.namespace} machine.cluster.x-k8s.io/exclude-node-draining=""`}
            label={d('deletion.commandExclude')}
            copyLabel={d('deletion.commandExclude')}
          />
        </>
      );
      break;
  }
  return (
    <Box component="li" data-action={action} sx={{ mb: 1 }}>
      {body}
    </Box>
  );
}

/** Set, raise or lower the pool's nodeDrainTimeout: the rollout settings dialog (O-EDIT-STRATEGY). */
function TimeoutAction({
  machine: m,
  view,
  pool,
  permission,
  blockedReason,
  onEdit,
  d,
}: {
  machine: MachineView;
  view: DeletionView;
  pool: NodePoolView | undefined;
  permission: Permission | undefined;
  blockedReason: string | undefined;
  onEdit: (pool: NodePoolView) => void;
  d: DeletionText;
}) {
  const { locale } = useI18n();
  if (m.poolId === 'control-plane' || pool?.kind === 'control-plane')
    return <Typography variant="body2">{d('deletion.action.controlPlaneTimeout')}</Typography>;
  const name = pool?.name ?? m.poolId ?? '';
  const text = view.drainTimeoutMs
    ? d('deletion.action.changeTimeout', {
        pool: name,
        timeout: formatSpan(view.drainTimeoutMs, locale),
      })
    : d('deletion.action.setTimeout', { pool: name });
  return (
    <Stack spacing={0.5} sx={{ alignItems: 'flex-start' }}>
      <Typography variant="body2">{text}</Typography>
      {pool && (
        <ActionButton
          size="small"
          variant="outlined"
          label={d('deletion.editTimeout')}
          permission={permission}
          blockedReason={blockedReason}
          onClick={() => {
            onEdit(pool);
          }}
        />
      )}
    </Stack>
  );
}
