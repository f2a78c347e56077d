import { Box, Button, CircularProgress, DialogActions } from '@mui/material';
import type { PlanFlow } from '../lib/use-plan-flow';
import { canExecute } from '@dcs/domain';
import { useI18n } from '../i18n/context';
import { ConflictNotice } from './ConflictNotice';
import { ErrorAlert } from './ErrorAlert';

/**
 * The buttons of a planned change: "Preview" (dry run), then "Apply" or "Back"; errors and
 * conflicts above them.
 */
export function PlanFlowActions<T>({
  flow,
  onCancel,
  onPreview,
  onReapply,
  applyLabel,
  previewDisabled,
  danger,
}: {
  flow: PlanFlow<T>;
  onCancel: () => void;
  onPreview: () => void;
  onReapply?: (() => void) | undefined;
  applyLabel: string;
  previewDisabled?: boolean;
  danger?: boolean;
}) {
  const { t } = useI18n();
  const busy = flow.stage === 'previewing' || flow.stage === 'applying';
  const reviewing = flow.stage === 'review' || flow.stage === 'applying';
  const blocked = flow.plan !== undefined && !canExecute(flow.plan);
  return (
    <>
      {flow.conflict ? (
        <Box sx={{ px: 3 }}>
          <ConflictNotice conflict={flow.conflict} onReapply={onReapply} />
        </Box>
      ) : (
        flow.error && <ErrorAlert error={flow.error} sx={{ mx: 3, mt: 1 }} />
      )}
      <DialogActions>
        {busy && <CircularProgress size={20} aria-label={t('common.loading')} />}
        <Button onClick={onCancel}>{t('common.cancel')}</Button>
        {reviewing ? (
          <>
            <Button onClick={flow.back} disabled={busy}>
              {t('common.back')}
            </Button>
            <Button
              variant="contained"
              color={danger ? 'error' : 'primary'}
              disabled={busy || blocked}
              onClick={() => {
                void flow.apply();
              }}
            >
              {applyLabel}
            </Button>
          </>
        ) : (
          <Button variant="contained" onClick={onPreview} disabled={busy || previewDisabled}>
            {t('plan.preview')}
          </Button>
        )}
      </DialogActions>
    </>
  );
}
