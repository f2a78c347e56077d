import type { PauseRequest } from '@dcs/domain';
import { Alert, DialogContentText } from '@mui/material';
import { PlanFlowDialog } from '../../../components/PlanFlowDialog';
import { useI18n } from '../../../i18n/context';
import { usePlanFlow } from '../../../lib/use-plan-flow';
import { usePauseReconciliation } from '../api/pause';

/** What is paused or resumed, as the cluster page or a pool card knows it. */
export interface PauseTarget {
  kind: 'Cluster' | 'MachineDeployment' | 'KubeadmControlPlane';
  /** The object's name (the Cluster's, the MachineDeployment's, the KubeadmControlPlane's). */
  name: string;
  /** As shown: the pool's name, or "Control plane". */
  label: string;
  /** The pool's id for a pool (the route's `{pool}`); undefined for the cluster. */
  pool?: string | undefined;
  resourceVersion: string;
  /** Paused by what this operation writes (spec.paused of a Cluster, the annotation of a pool). */
  pausedByItself: boolean;
  /** The pool's cluster is paused too (R-PAUSE-2). */
  clusterPaused: boolean;
  /**
   * The target's resourceVersion now, read when Preview (or Re-apply) is asked: a Cluster's status
   * moves its version often, and the page's copy of it may be older than the BFF remembers.
   */
  currentResourceVersion?: () => Promise<string | undefined>;
}

/**
 * O-PAUSE / O-RESUME (issue 26): says what stops (or resumes), then the Plan: Preview with the
 * server's dry run, Apply, and a 409 offers to re-apply over someone else's change.
 */
export function PauseDialog({
  namespace,
  cluster,
  target,
  onClose,
}: {
  namespace: string;
  cluster: string;
  target: PauseTarget;
  onClose: () => void;
}) {
  const { t } = useI18n();
  const send = usePauseReconciliation(namespace, cluster, target.pool);
  const flow = usePlanFlow(send, onClose);
  const pausing = !target.pausedByItself;
  const isCluster = target.kind === 'Cluster';
  const preview = async () => {
    const rv = (await target.currentResourceVersion?.()) ?? target.resourceVersion;
    const req: PauseRequest = { resourceVersion: rv, paused: pausing };
    await flow.preview(req);
  };
  const title = isCluster
    ? t(pausing ? 'pause.titlePauseCluster' : 'pause.titleResumeCluster', { name: target.name })
    : t(pausing ? 'pause.titlePausePool' : 'pause.titleResumePool', { name: target.label });
  return (
    <PlanFlowDialog
      title={title}
      flow={flow}
      onClose={onClose}
      onPreview={() => {
        void preview();
      }}
      onReapply={() => {
        void preview();
      }}
      applyLabel={t(pausing ? 'pause.applyPause' : 'pause.applyResume')}
      danger={pausing}
    >
      <DialogContentText>
        {pausing
          ? isCluster
            ? t('pause.explainPauseCluster', { name: target.name })
            : t('pause.explainPausePool', { name: target.label, kind: target.kind })
          : t('pause.explainResume', { name: target.label })}
      </DialogContentText>
      {!pausing && target.clusterPaused && (
        // R-PAUSE-2, said before the preview says it again.
        <Alert severity="warning" sx={{ mt: 2 }}>
          {t('pause.stillPausedByCluster', { cluster, name: target.label })}
        </Alert>
      )}
    </PlanFlowDialog>
  );
}
