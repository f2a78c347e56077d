import {
  defaultBootstrapSpec,
  defaultPoolObjectNames,
  needsImagePullCredentialsPolicy,
  type ValidationContext,
} from '@dcs/domain';
import { Alert, TextField, Typography } from '@mui/material';
import { useWatch } from 'react-hook-form';
import { useI18n } from '../../../i18n/context';
import { filesSecretOf } from './form-defaults';
import { useFieldIssues } from '../../../components/FieldIssues';
import { PickOrDefineSection, type PickMode } from './PickOrDefineSection';
import type { SectionProps } from './section';

/**
 * The bootstrap template: pick one, or generate the reference's defaults with an SSH key. The
 * kubelet patch follows the version (R-BOOT-1) and PROVIDER_ID / NODE_IP stay verbatim (R-BOOT-2).
 */
export function BootstrapSection({ form, issues, ctx }: SectionProps & { ctx: ValidationContext }) {
  const { t } = useI18n();
  const field = useFieldIssues(issues);
  const boot = useWatch({ control: form.control, name: 'bootstrap' });
  const version = useWatch({ control: form.control, name: 'version' });
  const regenerate = (keys: string[]) => {
    const filesSecret = filesSecretOf(ctx, version);
    form.setValue(
      'bootstrap.spec',
      defaultBootstrapSpec({
        version,
        sshAuthorizedKeys: keys,
        ...(filesSecret ? { filesSecret } : {}),
      }),
      { shouldValidate: true, shouldDirty: true },
    );
  };
  const setMode = (mode: PickMode) => {
    if (mode === 'existing')
      form.setValue(
        'bootstrap',
        { mode, name: ctx.bootstrapTemplates[0]?.name ?? '' },
        { shouldValidate: true, shouldDirty: true },
      );
    else {
      const filesSecret = filesSecretOf(ctx, version);
      form.setValue(
        'bootstrap',
        {
          mode,
          name: defaultPoolObjectNames(form.getValues('name')).bootstrapTemplate,
          spec: defaultBootstrapSpec({
            version,
            sshAuthorizedKeys: [],
            ...(filesSecret ? { filesSecret } : {}),
          }),
        },
        { shouldValidate: true, shouldDirty: true },
      );
    }
  };
  const keys = boot.mode === 'new' ? (boot.spec.users?.[0]?.sshAuthorizedKeys ?? []) : [];
  return (
    <PickOrDefineSection
      form={form}
      issues={issues}
      base="bootstrap"
      id="section-bootstrap"
      title={t('pool.bootstrapTemplate')}
      mode={boot.mode}
      onMode={setMode}
      order={['new', 'existing']}
      newLabel={t('create.generateDefaults')}
      nameLabel={t('create.bootstrapName')}
      choices={ctx.bootstrapTemplates.map((b) => ({ value: b.name, label: b.name }))}
    >
      <TextField
        label={t('boot.sshKeys')}
        multiline
        minRows={2}
        value={keys.join('\n')}
        onChange={(e) => {
          regenerate(e.target.value.split('\n').filter((l) => l.trim() !== ''));
        }}
        {...field('bootstrap.spec.users.0.sshAuthorizedKeys', t('create.sshHelp'))}
        slotProps={{ htmlInput: { style: { fontFamily: 'monospace', fontSize: 12 } } }}
      />
      <Typography variant="body2" color="text.secondary">
        {needsImagePullCredentialsPolicy(version)
          ? t('create.boot1New', { version })
          : t('create.boot1Old', { version })}
      </Typography>
      {filesSecretOf(ctx, version) && (
        <Alert severity="info">
          {t('create.filesSecret', { secret: filesSecretOf(ctx, version) ?? '' })}
        </Alert>
      )}
    </PickOrDefineSection>
  );
}
