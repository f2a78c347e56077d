import {
  needsImagePullCredentialsPolicy,
  validateUpgrade,
  type KubeadmConfigSpec,
  type MachineTemplateSpecInput,
  type NodePoolView,
  type UpgradeRequest,
} from '@dcs/domain';
import {
  Alert,
  Box,
  Checkbox,
  Dialog,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  MenuItem,
  Tab,
  Tabs,
  TextField,
  Typography,
} from '@mui/material';
import { useId, useState } from 'react';
import type { ClusterContext } from '../../../api/get-cluster-context';
import { useIssueText } from '../../../components/FieldIssues';
import { MachineTemplateEditor } from '../../../components/MachineTemplateEditor';
import { PlanFlowActions } from '../../../components/PlanFlowActions';
import { PlanPreview } from '../../../components/PlanPreview';
import { ProblemList } from '../../../components/ProblemList';
import { useI18n } from '../../../i18n/context';
import { errorsOf, issuesAt, issuesOutside } from '../../../lib/issues';
import { usePlanFlow } from '../../../lib/use-plan-flow';
import { useUpgradePool } from '../api/upgrade-pool';
import { BootstrapEditor } from './BootstrapEditor';
import {
  bootstrapForVersion,
  bootstrapSpecOf,
  newBootstrapName,
  newTemplateName,
  templateForVersion,
  templateInputOf,
  upgradePoolOf,
  upgradeTargets,
} from './upgrade-requests';

export type UpgradeTab = 'infrastructure' | 'kubernetes' | 'bootstrap';

/**
 * Upgrades of a pool: machine infrastructure (O-UPGRADE-INFRA: a clone of the template with
 * edits), Kubernetes version (O-UPGRADE-K8S), bootstrap (O-UPDATE-BOOTSTRAP, R-BOOT-3); for the
 * control plane, O-UPGRADE-CP. The preview shows the diff of old and new templates and how many
 * machines the rolling update replaces, at most how many at a time.
 */
export function UpgradeDialog({
  namespace,
  cluster,
  pool,
  context,
  initialTab,
  onClose,
}: {
  namespace: string;
  cluster: string;
  pool: NodePoolView;
  context: ClusterContext;
  initialTab: UpgradeTab;
  onClose: () => void;
}) {
  const { t } = useI18n();
  const titleId = useId();
  const text = useIssueText();
  const ctx = context.validation;
  const isCp = pool.kind === 'control-plane';
  const [tab, setTab] = useState<UpgradeTab>(isCp ? 'kubernetes' : initialTab);
  const baseTemplate = templateInputOf(ctx, pool.machineTemplate.name);
  const baseBootstrap = bootstrapSpecOf(ctx, pool.bootstrapTemplate);
  const targets = upgradeTargets(ctx, pool);
  const [templateName, setTemplateName] = useState(() =>
    newTemplateName(ctx, pool.machineTemplate.name),
  );
  const [bootstrapName, setBootstrapName] = useState(() =>
    newBootstrapName(ctx, pool.bootstrapTemplate ?? `${pool.name}-kct`),
  );
  const [infra, setInfra] = useState<MachineTemplateSpecInput | undefined>(baseTemplate);
  const [version, setVersion] = useState(targets[0] ?? '');
  const [newBootstrap, setNewBootstrap] = useState(
    () =>
      version !== '' &&
      pool.version !== undefined &&
      needsImagePullCredentialsPolicy(version) !== needsImagePullCredentialsPolicy(pool.version),
  );
  const [bootstrap, setBootstrap] = useState<KubeadmConfigSpec | undefined>(baseBootstrap);
  const send = useUpgradePool(namespace, cluster, pool.id);
  const flow = usePlanFlow(send, onClose);
  const rv = (isCp ? pool.resourceVersions.kcp : pool.resourceVersions.md) ?? '';

  const req: UpgradeRequest | undefined = (() => {
    if (tab === 'infrastructure' && infra)
      return {
        operation: 'infrastructure',
        resourceVersion: rv,
        machineTemplate: { name: templateName, spec: infra },
      };
    if (tab === 'bootstrap' && bootstrap)
      return {
        operation: 'bootstrap',
        resourceVersion: rv,
        bootstrap: { name: bootstrapName, spec: bootstrap },
      };
    if (tab === 'kubernetes' && baseTemplate && version !== '') {
      const machineTemplate = {
        name: templateName,
        spec: templateForVersion(ctx, baseTemplate, version),
      };
      if (isCp)
        return { operation: 'control-plane', resourceVersion: rv, version, machineTemplate };
      return {
        operation: 'kubernetes',
        resourceVersion: rv,
        version,
        machineTemplate,
        ...(newBootstrap && baseBootstrap
          ? {
              bootstrap: {
                name: bootstrapName,
                spec: bootstrapForVersion(ctx, baseBootstrap, version),
              },
            }
          : {}),
      };
    }
    return undefined;
  })();
  const issues = req ? validateUpgrade(req, upgradePoolOf(pool), ctx) : [];
  const reviewing = flow.stage === 'review' || flow.stage === 'applying';

  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} maxWidth="lg" fullWidth>
      <DialogTitle id={titleId}>
        {isCp ? t('upgrade.cpTitle') : t('upgrade.title', { name: pool.name })}
      </DialogTitle>
      <DialogContent dividers>
        {reviewing ? (
          flow.plan && <PlanPreview plan={flow.plan} />
        ) : (
          <>
            {!isCp && (
              <Tabs
                value={tab}
                onChange={(_e, v: UpgradeTab) => {
                  setTab(v);
                }}
                sx={{ mb: 2 }}
                aria-label={t('upgrade.kinds')}
              >
                <Tab value="infrastructure" label={t('upgrade.infrastructure')} />
                <Tab value="kubernetes" label={t('upgrade.kubernetes')} />
                <Tab value="bootstrap" label={t('upgrade.bootstrap')} />
              </Tabs>
            )}
            {tab === 'infrastructure' && (
              <Box>
                <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
                  {t('upgrade.infraHelp', { replicas: pool.replicas.desired })}
                </Typography>
                <TextField
                  label={t('upgrade.newTemplateName')}
                  value={templateName}
                  onChange={(e) => {
                    setTemplateName(e.target.value);
                  }}
                  error={errorsOf(issuesAt(issues, 'machineTemplate.name')).length > 0}
                  helperText={
                    text(issuesAt(issues, 'machineTemplate.name')) ??
                    t('upgrade.clonedFrom', { name: pool.machineTemplate.name })
                  }
                  sx={{ mb: 2, minWidth: 360 }}
                />
                {infra ? (
                  <MachineTemplateEditor
                    value={infra}
                    onChange={setInfra}
                    issues={issues}
                    basePath="machineTemplate.spec"
                    vmTemplates={ctx.versions.map((v) => v.vmTemplateName)}
                    label={t('pool.machineTemplate')}
                  />
                ) : (
                  <Alert severity="error">
                    {t('pool.templateMissing', { name: pool.machineTemplate.name })}
                  </Alert>
                )}
              </Box>
            )}
            {tab === 'kubernetes' && (
              <Box>
                <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
                  {isCp
                    ? t('upgrade.cpHelp')
                    : t('upgrade.k8sHelp', { cp: ctx.controlPlaneVersion ?? '—' })}
                </Typography>
                {targets.length === 0 ? (
                  <Alert severity="info">
                    {t('upgrade.noTargets', { version: pool.version ?? '—' })}
                  </Alert>
                ) : (
                  <>
                    <TextField
                      select
                      label={t('upgrade.targetVersion')}
                      value={version}
                      onChange={(e) => {
                        setVersion(e.target.value);
                        setNewBootstrap(
                          pool.version !== undefined &&
                            needsImagePullCredentialsPolicy(e.target.value) !==
                              needsImagePullCredentialsPolicy(pool.version),
                        );
                      }}
                      error={errorsOf(issuesAt(issues, 'version')).length > 0}
                      helperText={
                        text(issuesAt(issues, 'version')) ??
                        t('upgrade.currentVersion', { version: pool.version ?? '—' })
                      }
                      sx={{ minWidth: 240, mr: 2 }}
                    >
                      {targets.map((v) => (
                        <MenuItem key={v} value={v}>
                          {v}
                        </MenuItem>
                      ))}
                    </TextField>
                    <TextField
                      label={t('upgrade.newTemplateName')}
                      value={templateName}
                      onChange={(e) => {
                        setTemplateName(e.target.value);
                      }}
                      error={errorsOf(issuesAt(issues, 'machineTemplate.name')).length > 0}
                      helperText={
                        text(issuesAt(issues, 'machineTemplate.name')) ??
                        t('upgrade.vmTemplateIs', {
                          vm:
                            baseTemplate && version
                              ? templateForVersion(ctx, baseTemplate, version).vmTemplateName
                              : '—',
                        })
                      }
                      sx={{ minWidth: 320 }}
                    />
                    {!isCp && (
                      <Box sx={{ mt: 2 }}>
                        <FormControlLabel
                          control={
                            <Checkbox
                              checked={newBootstrap}
                              onChange={(e) => {
                                setNewBootstrap(e.target.checked);
                              }}
                            />
                          }
                          label={t('upgrade.alsoBootstrap', { name: bootstrapName })}
                        />
                        <Typography variant="body2" color="text.secondary">
                          {t('upgrade.boot1Help')}
                        </Typography>
                      </Box>
                    )}
                  </>
                )}
              </Box>
            )}
            {tab === 'bootstrap' && (
              <Box>
                <Alert severity="info" sx={{ mb: 2 }}>
                  {t('upgrade.boot3')}
                </Alert>
                <TextField
                  label={t('upgrade.newBootstrapName')}
                  value={bootstrapName}
                  onChange={(e) => {
                    setBootstrapName(e.target.value);
                  }}
                  error={errorsOf(issuesAt(issues, 'bootstrap.name')).length > 0}
                  helperText={
                    text(issuesAt(issues, 'bootstrap.name')) ??
                    t('upgrade.clonedFrom', { name: pool.bootstrapTemplate ?? '—' })
                  }
                  sx={{ mb: 2, minWidth: 360 }}
                />
                {bootstrap ? (
                  <BootstrapEditor
                    value={bootstrap}
                    onChange={setBootstrap}
                    issues={issues}
                    basePath="bootstrap.spec"
                  />
                ) : (
                  <Alert severity="error">{t('upgrade.noBootstrap')}</Alert>
                )}
              </Box>
            )}
            <Box sx={{ mt: 2 }}>
              <ProblemList
                items={issuesOutside(
                  issues,
                  tab === 'infrastructure'
                    ? ['machineTemplate']
                    : tab === 'bootstrap'
                      ? ['bootstrap']
                      : ['version', 'machineTemplate.name', 'bootstrap.name'],
                )}
              />
            </Box>
          </>
        )}
      </DialogContent>
      <PlanFlowActions
        flow={flow}
        onCancel={onClose}
        onPreview={() => {
          if (req) void flow.preview(req);
        }}
        applyLabel={t('action.upgrade')}
        previewDisabled={!req || errorsOf(issues).length > 0}
      />
    </Dialog>
  );
}
