import {
  defaultBootstrapSpec,
  defaultPoolObjectNames,
  needsImagePullCredentialsPolicy,
  type ValidationContext,
} from '@dcs/domain';
import {
  Alert,
  FormControlLabel,
  MenuItem,
  Radio,
  RadioGroup,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { Controller, useWatch } from 'react-hook-form';
import { useI18n } from '../../../i18n/context';
import { filesSecretOf } from './form-defaults';
import { Section, useFieldIssues, type SectionProps } from './section';

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
      { shouldValidate: true },
    );
  };
  const setMode = (mode: 'existing' | 'new') => {
    if (mode === 'existing')
      form.setValue(
        'bootstrap',
        { mode, name: ctx.bootstrapTemplates[0]?.name ?? '' },
        { shouldValidate: true },
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
        { shouldValidate: true },
      );
    }
  };
  const keys = boot.mode === 'new' ? (boot.spec.users?.[0]?.sshAuthorizedKeys ?? []) : [];
  return (
    <Section title={t('pool.bootstrapTemplate')} id="section-bootstrap">
      <RadioGroup
        row
        value={boot.mode}
        onChange={(e) => {
          setMode(e.target.value as 'existing' | 'new');
        }}
        aria-label={t('pool.bootstrapTemplate')}
      >
        <FormControlLabel value="new" control={<Radio />} label={t('create.generateDefaults')} />
        <FormControlLabel value="existing" control={<Radio />} label={t('create.pickExisting')} />
      </RadioGroup>
      {boot.mode === 'existing' ? (
        <Controller
          control={form.control}
          name="bootstrap.name"
          render={({ field: f }) => (
            <TextField
              {...f}
              select
              label={t('pool.bootstrapTemplate')}
              sx={{ minWidth: 420, mt: 1 }}
              {...field('bootstrap.name')}
            >
              {ctx.bootstrapTemplates.map((b) => (
                <MenuItem key={b.name} value={b.name}>
                  {b.name}
                </MenuItem>
              ))}
            </TextField>
          )}
        />
      ) : (
        <Stack spacing={2} sx={{ mt: 1 }}>
          <Controller
            control={form.control}
            name="bootstrap.name"
            render={({ field: f }) => (
              <TextField
                {...f}
                label={t('create.bootstrapName')}
                sx={{ maxWidth: 420 }}
                {...field('bootstrap.name')}
              />
            )}
          />
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
        </Stack>
      )}
    </Section>
  );
}
