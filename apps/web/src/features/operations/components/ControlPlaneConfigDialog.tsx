import {
  kubeadmConfigForVersion,
  validateControlPlaneConfig,
  type KubeadmConfigSpec,
  type NodePoolView,
} from '@dcs/domain';
import { Alert, Typography } from '@mui/material';
import { useState } from 'react';
import type { ClusterContext } from '../../../api/get-cluster-context';
import { IssueScope, UnshownIssues } from '../../../components/IssueSummary';
import { PageLoading } from '../../../components/PageLoading';
import { PlanFlowDialog } from '../../../components/PlanFlowDialog';
import { useI18n } from '../../../i18n/context';
import { errorsOf } from '../../../lib/issues';
import { usePlanFlow } from '../../../lib/use-plan-flow';
import {
  getControlPlaneConfig,
  useControlPlaneConfig,
  useEditControlPlaneConfig,
  type ControlPlaneConfig,
} from '../api/control-plane-config';
import { BootstrapEditor } from './BootstrapEditor';

/**
 * O-EDIT-CP-CONFIG: the control plane's kubeadm config in the same editor as a worker pool's
 * bootstrap template (BootstrapEditor), validated as typed by domain's validateControlPlaneConfig
 * (R-BOOT-1 at the control plane's version, R-BOOT-2, R-CP-CONFIG). The preview says that saving
 * rolls every control-plane machine, one at a time.
 */
export function ControlPlaneConfigDialog(props: ControlPlaneConfigDialogProps) {
  const current = useControlPlaneConfig(props.namespace, props.cluster);
  if (!current.data) return <PageLoading />;
  return (
    <IssueScope>
      <ConfigBody {...props} current={current.data} />
    </IssueScope>
  );
}

interface ControlPlaneConfigDialogProps {
  namespace: string;
  cluster: string;
  pool: NodePoolView;
  context: ClusterContext;
  onClose: () => void;
}

function ConfigBody({
  namespace,
  cluster,
  pool,
  context,
  onClose,
  current,
}: ControlPlaneConfigDialogProps & { current: ControlPlaneConfig }) {
  const { t } = useI18n();
  // A control plane whose config misses what R-BOOT-1 asks at its version (a 1.35 config without
  // the patches directory, which this editor has no field for) would leave Preview disabled for
  // good: the editor starts from the config made right, and says so.
  const [start] = useState(() => startingConfig(current, context));
  const [spec, setSpec] = useState<KubeadmConfigSpec>(start.spec);
  const send = useEditControlPlaneConfig(namespace, cluster);
  const flow = usePlanFlow(send, onClose);
  const issues = validateControlPlaneConfig(
    spec,
    current.kubeadmConfigSpec,
    current.version,
    context.validation,
  );
  const changed = JSON.stringify(spec) !== JSON.stringify(current.kubeadmConfigSpec);
  return (
    <PlanFlowDialog
      title={t('cpConfig.title', { name: pool.name })}
      flow={flow}
      onClose={onClose}
      onPreview={() => {
        void flow.preview({ resourceVersion: current.resourceVersion, kubeadmConfigSpec: spec });
      }}
      onReapply={() => {
        // Someone else changed the control plane: the same edit on its current version.
        void getControlPlaneConfig(namespace, cluster).then((fresh) =>
          flow.preview({ resourceVersion: fresh.resourceVersion, kubeadmConfigSpec: spec }),
        );
      }}
      applyLabel={t('cpConfig.apply')}
      previewDisabled={errorsOf(issues).length > 0 || !changed}
    >
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {t('cpConfig.intro')}
      </Typography>
      {start.completed && (
        <Alert severity="info" sx={{ mb: 2 }}>
          {t('cpConfig.completed', { version: current.version ?? '?' })}
        </Alert>
      )}
      <BootstrapEditor
        value={spec}
        onChange={setSpec}
        issues={issues}
        basePath="kubeadmConfigSpec"
      />
      <UnshownIssues issues={issues} />
    </PlanFlowDialog>
  );
}

/**
 * Where the editor starts: the control plane's config, or — when R-BOOT-1 refuses it at the
 * control plane's version — domain's kubeadmConfigForVersion of it (the kubelet patch with the
 * version's setting and the patches directory kubeadm reads it from), to be reviewed and saved.
 */
export function startingConfig(
  current: ControlPlaneConfig,
  context: ClusterContext,
): { spec: KubeadmConfigSpec; completed: boolean } {
  const refused = validateControlPlaneConfig(
    current.kubeadmConfigSpec,
    current.kubeadmConfigSpec,
    current.version,
    context.validation,
  ).some((i) => i.rule === 'R-BOOT-1' && i.severity === 'error');
  if (!refused || current.version === undefined) {
    return { spec: current.kubeadmConfigSpec, completed: false };
  }
  const spec = kubeadmConfigForVersion(current.kubeadmConfigSpec, current.version, undefined);
  return { spec, completed: JSON.stringify(spec) !== JSON.stringify(current.kubeadmConfigSpec) };
}
