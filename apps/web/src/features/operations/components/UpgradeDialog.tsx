import {
  needsImagePullCredentialsPolicy,
  validateUpgrade,
  type KubeadmConfigSpec,
  type MachineTemplateSpecInput,
  type NodePoolView,
  type UpgradeOffer,
  type UpgradeRequest,
} from '@dcs/domain';
import {
  Alert,
  Box,
  Checkbox,
  FormControlLabel,
  MenuItem,
  Stack,
  Tab,
  Tabs,
  TextField,
  Typography,
} from '@mui/material';
import { useState, type ReactNode } from 'react';
import type { ClusterContext } from '../../../api/get-cluster-context';
import { useFieldIssues, type FieldIssueProps } from '../../../components/FieldIssues';
import { MachineTemplateEditor } from '../../../components/MachineTemplateEditor';
import { PlanFlowDialog } from '../../../components/PlanFlowDialog';
import { IssueScope, UnshownIssues } from '../../../components/IssueSummary';
import { useI18n, type I18n } from '../../../i18n/context';
import type { MessageKey } from '../../../i18n/en';
import { errorsOf } from '../../../lib/issues';
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
  upgradeOfferFor,
  upgradePoolOf,
} from './upgrade-requests';

export type UpgradeTab = 'infrastructure' | 'kubernetes' | 'bootstrap';

/** The dialog is titled by what the chosen tab does: a bootstrap update is no upgrade. */
const TITLE = {
  infrastructure: 'upgrade.titleInfrastructure',
  kubernetes: 'upgrade.titleKubernetes',
  bootstrap: 'upgrade.titleBootstrap',
} as const satisfies Record<UpgradeTab, MessageKey>;

/** Why no Kubernetes version is offered, in the words of the rule that holds it back (R-MD-4). */
function noUpgradeText(
  offer: Exclude<UpgradeOffer, { kind: 'offered' }>,
  version: string,
  t: I18n['t'],
): string {
  switch (offer.kind) {
    case 'control-plane-older':
      return t('upgrade.heldByControlPlane', {
        version,
        newest: offer.newest,
        cp: offer.controlPlaneVersion,
      });
    case 'control-plane-unknown':
      return t('upgrade.controlPlaneUnknown', { version, newest: offer.newest });
    case 'version-unknown':
      return t('upgrade.versionUnknown', { version });
    case 'newest':
      return t('upgrade.noTargets', { version });
  }
}

/**
 * Upgrades of a pool: machine infrastructure (O-UPGRADE-INFRA: a clone of the template with
 * edits), Kubernetes version (O-UPGRADE-K8S), bootstrap (O-UPDATE-BOOTSTRAP, R-BOOT-3); for the
 * control plane, O-UPGRADE-CP. The preview shows the diff of old and new templates and how many
 * machines the rolling update replaces, at most how many at a time.
 */
export function UpgradeDialog(props: UpgradeDialogProps) {
  // Its summary lists every issue no field of the dialog shows (a counted problem is never invisible).
  return (
    <IssueScope>
      <UpgradeDialogBody {...props} />
    </IssueScope>
  );
}

interface UpgradeDialogProps {
  namespace: string;
  cluster: string;
  pool: NodePoolView;
  context: ClusterContext;
  initialTab: UpgradeTab;
  onClose: () => void;
}

function UpgradeDialogBody({
  namespace,
  cluster,
  pool,
  context,
  initialTab,
  onClose,
}: UpgradeDialogProps) {
  const { t } = useI18n();
  const ctx = context.validation;
  const isCp = pool.kind === 'control-plane';
  const [tab, setTab] = useState<UpgradeTab>(isCp ? 'kubernetes' : initialTab);
  const baseTemplate = templateInputOf(ctx, pool.machineTemplate.name);
  const baseBootstrap = bootstrapSpecOf(ctx, pool.bootstrapTemplate);
  const offer = upgradeOfferFor(ctx, pool);
  const targets = offer.kind === 'offered' ? offer.targets : [];
  const [templateName, setTemplateName] = useState(() =>
    newTemplateName(ctx, pool.machineTemplate.name),
  );
  const [bootstrapName, setBootstrapName] = useState(() =>
    newBootstrapName(ctx, pool.bootstrapTemplate ?? `${pool.name}-kct`),
  );
  const [infra, setInfra] = useState<MachineTemplateSpecInput | undefined>(baseTemplate);
  const [version, setVersion] = useState(targets[0] ?? '');
  // A version upgrade's templates are named after the target version (R-MD-5 naming) until the
  // user types a name of their own; choosing another version names them anew.
  const [typedVersionNames, setTypedVersionNames] = useState<{
    template?: string;
    bootstrap?: string;
  }>({});
  const versionTemplateName =
    typedVersionNames.template ??
    (version ? newTemplateName(ctx, pool.machineTemplate.name, version) : templateName);
  const versionBootstrapName =
    typedVersionNames.bootstrap ??
    (version
      ? newBootstrapName(ctx, pool.bootstrapTemplate ?? `${pool.name}-kct`, version)
      : bootstrapName);
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
        name: versionTemplateName,
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
                name: versionBootstrapName,
                spec: bootstrapForVersion(ctx, baseBootstrap, version),
              },
            }
          : {}),
      };
    }
    return undefined;
  })();
  const issues = req ? validateUpgrade(req, upgradePoolOf(pool), ctx) : [];
  const field = useFieldIssues(issues);

  return (
    <PlanFlowDialog
      title={isCp ? t('upgrade.cpTitle') : t(TITLE[tab], { name: pool.name })}
      maxWidth="lg"
      flow={flow}
      onClose={onClose}
      onPreview={() => {
        if (req) void flow.preview(req);
      }}
      applyLabel={tab === 'bootstrap' ? t('action.updateBootstrap') : t('action.upgrade')}
      previewDisabled={!req || errorsOf(issues).length > 0}
    >
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
        <CloneTab
          intro={
            <Typography variant="body2" color="text.secondary">
              {t('upgrade.infraHelp', { replicas: pool.replicas.desired })}
            </Typography>
          }
          nameLabel={t('upgrade.newTemplateName')}
          name={templateName}
          onName={setTemplateName}
          nameIssues={field(
            'machineTemplate.name',
            t('upgrade.clonedFrom', { name: pool.machineTemplate.name }),
          )}
          missing={t('pool.templateMissing', { name: pool.machineTemplate.name })}
        >
          {infra ? (
            <MachineTemplateEditor
              value={infra}
              onChange={setInfra}
              issues={issues}
              basePath="machineTemplate.spec"
              vmTemplates={ctx.versions.map((v) => v.vmTemplateName)}
              label={t('pool.machineTemplate')}
            />
          ) : undefined}
        </CloneTab>
      )}
      {tab === 'kubernetes' && (
        <Box>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
            {isCp
              ? t('upgrade.cpHelp')
              : t('upgrade.k8sHelp', { cp: ctx.controlPlaneVersion ?? '—' })}
          </Typography>
          {offer.kind !== 'offered' ? (
            <Alert severity="info">{noUpgradeText(offer, pool.version ?? '—', t)}</Alert>
          ) : (
            <>
              <TextField
                select
                label={t('upgrade.targetVersion')}
                value={version}
                onChange={(e) => {
                  setVersion(e.target.value);
                  setTypedVersionNames({});
                  setNewBootstrap(
                    pool.version !== undefined &&
                      needsImagePullCredentialsPolicy(e.target.value) !==
                        needsImagePullCredentialsPolicy(pool.version),
                  );
                }}
                {...field('version', t('upgrade.currentVersion', { version: pool.version ?? '—' }))}
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
                value={versionTemplateName}
                onChange={(e) => {
                  setTypedVersionNames((n) => ({ ...n, template: e.target.value }));
                }}
                {...field(
                  'machineTemplate.name',
                  t('upgrade.vmTemplateIs', {
                    vm:
                      baseTemplate && version
                        ? templateForVersion(ctx, baseTemplate, version).vmTemplateName
                        : '—',
                  }),
                )}
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
                    label={t('upgrade.alsoBootstrap', { name: versionBootstrapName })}
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
        <CloneTab
          intro={<Alert severity="info">{t('upgrade.boot3')}</Alert>}
          nameLabel={t('upgrade.newBootstrapName')}
          name={bootstrapName}
          onName={setBootstrapName}
          nameIssues={field(
            'bootstrap.name',
            t('upgrade.clonedFrom', { name: pool.bootstrapTemplate ?? '—' }),
          )}
          missing={t('upgrade.noBootstrap')}
        >
          {bootstrap ? (
            <BootstrapEditor
              value={bootstrap}
              onChange={setBootstrap}
              issues={issues}
              basePath="bootstrap.spec"
            />
          ) : undefined}
        </CloneTab>
      )}
      <Box sx={{ mt: 2 }}>
        <UnshownIssues issues={issues} />
      </Box>
    </PlanFlowDialog>
  );
}

/**
 * An upgrade that clones the pool's template with edits (O-UPGRADE-INFRA, O-UPDATE-BOOTSTRAP):
 * what it does, the new template's name, and the editor of the copy (`children`), or why there
 * is nothing to copy.
 */
function CloneTab({
  intro,
  nameLabel,
  name,
  onName,
  nameIssues,
  missing,
  children,
}: {
  intro: ReactNode;
  nameLabel: string;
  name: string;
  onName: (name: string) => void;
  nameIssues: FieldIssueProps;
  /** Shown when there is no template to copy (`children` is empty). */
  missing: string;
  children: ReactNode;
}) {
  return (
    <Stack spacing={2}>
      {intro}
      <TextField
        label={nameLabel}
        value={name}
        onChange={(e) => {
          onName(e.target.value);
        }}
        {...nameIssues}
        sx={{ minWidth: 360, alignSelf: 'flex-start' }}
      />
      {children ?? <Alert severity="error">{missing}</Alert>}
    </Stack>
  );
}
