import { Button, Dialog, DialogActions, DialogContent, DialogTitle } from '@mui/material';
import { useId, type ReactNode } from 'react';
import { useI18n } from '../i18n/context';
import type { PlanFlow } from '../lib/use-plan-flow';
import { MergeNotice } from './MergeNotice';
import { PlanFlowActions } from './PlanFlowActions';
import { PlanPreview } from './PlanPreview';

/**
 * The dialog of every planned change: the form (`children`) while editing, the Plan while it is
 * reviewed and applied, and, for a change that is followed afterwards, `done` once applied;
 * "Preview", then "Apply" or "Back" below.
 */
export function PlanFlowDialog<T>({
  title,
  maxWidth = 'md',
  flow,
  onClose,
  onPreview,
  onReapply,
  applyLabel,
  previewDisabled,
  danger,
  done,
  children,
}: {
  title: string;
  maxWidth?: 'md' | 'lg';
  flow: PlanFlow<T>;
  onClose: () => void;
  onPreview: () => void;
  onReapply?: (() => void) | undefined;
  applyLabel: string;
  previewDisabled?: boolean;
  danger?: boolean;
  /** What to show once applied; without it the flow's `onDone` is expected to close the dialog. */
  done?: ReactNode;
  children: ReactNode;
}) {
  const { t } = useI18n();
  const titleId = useId();
  const reviewing = flow.stage === 'review' || flow.stage === 'applying';
  const following = flow.stage === 'done' && done !== undefined;
  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} maxWidth={maxWidth} fullWidth>
      <DialogTitle id={titleId}>{title}</DialogTitle>
      <DialogContent dividers>
        {following ? (
          <>
            <MergeNotice plan={flow.applied} />
            {done}
          </>
        ) : reviewing ? (
          flow.plan && <PlanPreview plan={flow.plan} />
        ) : (
          children
        )}
      </DialogContent>
      {following ? (
        <DialogActions>
          <Button variant="contained" onClick={onClose}>
            {t('common.close')}
          </Button>
        </DialogActions>
      ) : (
        <PlanFlowActions
          flow={flow}
          onCancel={onClose}
          onPreview={onPreview}
          onReapply={onReapply}
          applyLabel={applyLabel}
          {...(previewDisabled !== undefined ? { previewDisabled } : {})}
          {...(danger !== undefined ? { danger } : {})}
        />
      )}
    </Dialog>
  );
}
