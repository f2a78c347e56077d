import { KUBELET_PATCH_PATH, type KubeadmConfigSpec, type RuleIssue } from '@dcs/domain';
import { Box, TextField, Typography } from '@mui/material';
import { useIssueText } from '../../../components/FieldIssues';
import { useShownIssuePaths } from '../../../components/IssueSummary';
import { useI18n } from '../../../i18n/context';
import { issuesUnder } from '../../../lib/issues';

/**
 * The parts of a bootstrap template people edit: SSH keys, commands, the kubelet patch
 * (R-BOOT-1). PROVIDER_ID and NODE_IP stay verbatim (R-BOOT-2); the rules flag any edit.
 */
export function BootstrapEditor({
  value,
  onChange,
  issues,
  basePath,
}: {
  value: KubeadmConfigSpec;
  onChange: (v: KubeadmConfigSpec) => void;
  issues: readonly RuleIssue[];
  basePath: string;
}) {
  const { t } = useI18n();
  const text = useIssueText();
  const { showUnder } = useShownIssuePaths();
  const under = (prefix: string) => {
    showUnder(prefix);
    return issuesUnder(issues, prefix);
  };
  const keys = value.users?.flatMap((u) => u.sshAuthorizedKeys ?? []) ?? [];
  const patchIndex = (value.files ?? []).findIndex((f) => f.path === KUBELET_PATCH_PATH);
  const patch = patchIndex >= 0 ? value.files?.[patchIndex] : undefined;
  const lines = (s: string) => s.split('\n').filter((l) => l.trim() !== '');
  const filesIssues = under(`${basePath}.files`);
  return (
    <Box sx={{ display: 'grid', gap: 2 }}>
      <TextField
        label={t('boot.sshKeys')}
        multiline
        minRows={2}
        value={keys.join('\n')}
        helperText={text(under(`${basePath}.users`)) ?? t('boot.sshHelp')}
        onChange={(e) => {
          const users = value.users?.length ? value.users : [{ name: 'boot' }];
          onChange({
            ...value,
            users: users.map((u, i) =>
              i === 0 ? { ...u, sshAuthorizedKeys: lines(e.target.value) } : u,
            ),
          });
        }}
        slotProps={{ htmlInput: { style: { fontFamily: 'monospace', fontSize: 12 } } }}
      />
      <TextField
        label={t('boot.pre')}
        multiline
        minRows={3}
        value={(value.preKubeadmCommands ?? []).join('\n')}
        helperText={text(under(`${basePath}.preKubeadmCommands`))}
        onChange={(e) => {
          onChange({ ...value, preKubeadmCommands: lines(e.target.value) });
        }}
        slotProps={{ htmlInput: { style: { fontFamily: 'monospace', fontSize: 12 } } }}
      />
      <TextField
        label={t('boot.post')}
        multiline
        minRows={1}
        value={(value.postKubeadmCommands ?? []).join('\n')}
        helperText={text(under(`${basePath}.postKubeadmCommands`))}
        onChange={(e) => {
          onChange({ ...value, postKubeadmCommands: lines(e.target.value) });
        }}
        slotProps={{ htmlInput: { style: { fontFamily: 'monospace', fontSize: 12 } } }}
      />
      {patch?.contentFrom?.secret ? (
        <Typography variant="body2">
          {t('boot.patchFromSecret', {
            secret: patch.contentFrom.secret.name,
            key: patch.contentFrom.secret.key,
          })}
        </Typography>
      ) : (
        <TextField
          label={t('boot.kubeletPatch', { path: KUBELET_PATCH_PATH })}
          multiline
          minRows={6}
          value={patch?.content ?? ''}
          error={filesIssues.some((i) => i.severity === 'error')}
          helperText={text(filesIssues)}
          onChange={(e) => {
            const files = [...(value.files ?? [])];
            if (patchIndex >= 0 && patch) files[patchIndex] = { ...patch, content: e.target.value };
            else
              files.push({
                path: KUBELET_PATCH_PATH,
                owner: 'root:root',
                permissions: '0644',
                content: e.target.value,
              });
            onChange({ ...value, files });
          }}
          slotProps={{ htmlInput: { style: { fontFamily: 'monospace', fontSize: 12 } } }}
        />
      )}
      <TextField
        label={t('boot.kubeletArgs')}
        multiline
        minRows={2}
        value={Object.entries(value.joinConfiguration?.nodeRegistration?.kubeletExtraArgs ?? {})
          .map(([k, v]) => `${k}=${v}`)
          .join('\n')}
        helperText={text(under(`${basePath}.joinConfiguration`)) ?? t('boot.magicTokens')}
        onChange={(e) => {
          const args = Object.fromEntries(
            lines(e.target.value).map((l) => {
              const i = l.indexOf('=');
              return i < 0 ? [l, ''] : [l.slice(0, i), l.slice(i + 1)];
            }),
          );
          onChange({
            ...value,
            joinConfiguration: {
              ...value.joinConfiguration,
              nodeRegistration: {
                ...value.joinConfiguration?.nodeRegistration,
                kubeletExtraArgs: args,
              },
            },
          });
        }}
        slotProps={{ htmlInput: { style: { fontFamily: 'monospace', fontSize: 12 } } }}
      />
    </Box>
  );
}
