import type { RestartRequest } from '@dcs/domain';
import {
  Alert,
  DialogContentText,
  FormControl,
  FormControlLabel,
  FormLabel,
  Radio,
  RadioGroup,
  Stack,
  TextField,
} from '@mui/material';
import { useId, useState } from 'react';
import { PlanFlowDialog } from '../../../components/PlanFlowDialog';
import { useI18n } from '../../../i18n/context';
import { formatAbsolute } from '../../../i18n/format';
import { usePlanFlow } from '../../../lib/use-plan-flow';
import { useRestartPool } from '../api/restart';

/** The pool restarted, as its card knows it. */
export interface RestartTarget {
  kind: 'MachineDeployment' | 'KubeadmControlPlane';
  /** The MachineDeployment's or KubeadmControlPlane's name. */
  name: string;
  /** As shown: the pool's name, or "Control plane". */
  label: string;
  /** The route's `{pool}`: the MachineDeployment's name or `control-plane`. */
  pool: string;
  resourceVersion: string;
  replicas: number;
  /** The pool's rollout settings, as the card shows them ("maxSurge 1, maxUnavailable 0"). */
  strategy?: string | undefined;
  /** The rolloutAfter the pool holds now (a scheduled restart is replaced). */
  restart?: { after: string; scheduled: boolean } | undefined;
  /** The target's resourceVersion now, read when Preview (or Re-apply) is asked. */
  currentResourceVersion?: () => Promise<string | undefined>;
}

/**
 * `datetime-local` text (the browser's own time zone) as the instant it means, in RFC 3339 UTC;
 * undefined while it is incomplete.
 */
export function localTimeToUtc(value: string): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(value)) return undefined;
  const ms = new Date(value).getTime();
  return Number.isNaN(ms) ? undefined : `${new Date(ms).toISOString().slice(0, 19)}Z`;
}

/**
 * O-RESTART (issue 26 item 4): "Now" (the BFF's clock, never the browser's) or "At a time" (typed
 * in the browser's time zone and sent as UTC), then the Plan: the machines replaced in their
 * order, Preview with the server's dry run, Apply, and a 409 offers to re-apply.
 */
export function RestartDialog({
  namespace,
  cluster,
  target,
  onClose,
}: {
  namespace: string;
  cluster: string;
  target: RestartTarget;
  onClose: () => void;
}) {
  const { t, locale } = useI18n();
  const send = useRestartPool(namespace, cluster, target.pool);
  const flow = usePlanFlow(send, onClose);
  const [when, setWhen] = useState<'now' | 'at'>('now');
  const [local, setLocal] = useState('');
  const whenId = useId();
  const at = when === 'at' ? localTimeToUtc(local) : undefined;
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const preview = async () => {
    const rv = (await target.currentResourceVersion?.()) ?? target.resourceVersion;
    const req: RestartRequest = { resourceVersion: rv, ...(at !== undefined ? { at } : {}) };
    await flow.preview(req);
  };
  const isControlPlane = target.kind === 'KubeadmControlPlane';
  return (
    <PlanFlowDialog
      title={
        isControlPlane
          ? t('restart.titleControlPlane', { name: target.name })
          : t('restart.title', { name: target.label })
      }
      flow={flow}
      onClose={onClose}
      onPreview={() => {
        void preview();
      }}
      onReapply={() => {
        void preview();
      }}
      previewDisabled={when === 'at' && at === undefined}
      applyLabel={t(when === 'at' ? 'restart.applySchedule' : 'restart.apply')}
      danger
    >
      <Stack spacing={2}>
        <DialogContentText>
          {isControlPlane
            ? t('restart.explainControlPlane', { name: target.name, replicas: target.replicas })
            : t('restart.explainWorker', {
                name: target.name,
                replicas: target.replicas,
                strategy: target.strategy ?? '—',
              })}
        </DialogContentText>
        {target.restart?.scheduled && (
          <Alert severity="info">
            {t('restart.scheduledAlready', { time: formatAbsolute(target.restart.after, locale) })}
          </Alert>
        )}
        <FormControl>
          <FormLabel id={whenId}>{t('restart.when')}</FormLabel>
          <RadioGroup
            aria-labelledby={whenId}
            value={when}
            onChange={(e) => {
              setWhen(e.target.value === 'at' ? 'at' : 'now');
            }}
          >
            <FormControlLabel value="now" control={<Radio />} label={t('restart.now')} />
            <FormControlLabel value="at" control={<Radio />} label={t('restart.at')} />
          </RadioGroup>
        </FormControl>
        {when === 'now' ? (
          <DialogContentText variant="body2">{t('restart.nowHelp')}</DialogContentText>
        ) : (
          <TextField
            type="datetime-local"
            label={t('restart.time', { zone })}
            value={local}
            onChange={(e) => {
              setLocal(e.target.value);
            }}
            slotProps={{ inputLabel: { shrink: true }, htmlInput: { step: 60 } }}
            helperText={at ? t('restart.timeHelp', { utc: at }) : t('restart.timeMissing')}
          />
        )}
      </Stack>
    </PlanFlowDialog>
  );
}
