import { defaultPoolObjectNames, type ValidationContext } from '@dcs/domain';
import { MenuItem, Stack, TextField } from '@mui/material';
import { Controller } from 'react-hook-form';
import { useI18n } from '../../../i18n/context';
import { filesSecretOf, offeredVersions, vmTemplateOf } from './form-defaults';
import { useFieldIssues } from '../../../components/FieldIssues';
import { Section, type SectionProps } from './section';
import { defaultBootstrapSpec } from '@dcs/domain';

/** Name (cluster-name prefix suggested, R-MD-5), replicas, Kubernetes version (catalog, ≤ control plane). */
export function BasicsSection({ form, issues, ctx }: SectionProps & { ctx: ValidationContext }) {
  const { t } = useI18n();
  const field = useFieldIssues(issues);
  const versions = offeredVersions(ctx);

  /** Objects named after the pool follow its name until the user renames them. */
  const onName = (name: string) => {
    const before = defaultPoolObjectNames(form.getValues('name'));
    const after = defaultPoolObjectNames(name);
    const v = form.getValues();
    if (v.machineTemplate.mode === 'new' && v.machineTemplate.name === before.machineTemplate)
      form.setValue('machineTemplate.name', after.machineTemplate, {
        shouldValidate: true,
        shouldDirty: true,
      });
    if (v.bootstrap.mode === 'new' && v.bootstrap.name === before.bootstrapTemplate)
      form.setValue('bootstrap.name', after.bootstrapTemplate, {
        shouldValidate: true,
        shouldDirty: true,
      });
    if (v.ipPool.mode === 'new' && v.ipPool.name === before.ipPool)
      form.setValue('ipPool.name', after.ipPool, { shouldValidate: true, shouldDirty: true });
  };
  /** A new version brings its VM template (R-MD-4) and its kubelet patch (R-BOOT-1). */
  const onVersion = (version: string) => {
    const v = form.getValues();
    if (v.machineTemplate.mode === 'new')
      form.setValue('machineTemplate.spec.vmTemplateName', vmTemplateOf(ctx, version), {
        shouldValidate: true,
        shouldDirty: true,
      });
    if (v.bootstrap.mode === 'new') {
      const keys = v.bootstrap.spec.users?.[0]?.sshAuthorizedKeys ?? [];
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
    }
  };

  return (
    <Section title={t('create.basics')} id="section-basics">
      <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 2, mt: 1, alignItems: 'flex-start' }}>
        <Controller
          control={form.control}
          name="name"
          render={({ field: f }) => (
            <TextField
              {...f}
              label={t('create.name')}
              required
              sx={{ minWidth: 320 }}
              {...field('name', t('create.nameHelp', { prefix: `${ctx.clusterName}-` }))}
              onChange={(e) => {
                onName(e.target.value);
                f.onChange(e.target.value);
              }}
            />
          )}
        />
        <Controller
          control={form.control}
          name="replicas"
          render={({ field: f }) => (
            <TextField
              {...f}
              label={t('pool.replicas')}
              type="number"
              required
              slotProps={{ htmlInput: { min: 0 } }}
              sx={{ width: 300 }}
              {...field('replicas')}
              onChange={(e) => {
                f.onChange(e.target.value === '' ? 0 : Math.floor(Number(e.target.value)));
              }}
            />
          )}
        />
        <Controller
          control={form.control}
          name="version"
          render={({ field: f }) => (
            <TextField
              {...f}
              select
              label={t('pool.version')}
              required
              sx={{ minWidth: 240 }}
              {...field('version', t('create.versionHelp', { cp: ctx.controlPlaneVersion ?? '—' }))}
              onChange={(e) => {
                onVersion(e.target.value);
                f.onChange(e.target.value);
              }}
            >
              {versions.map((v) => (
                <MenuItem key={v} value={v}>
                  {v}
                </MenuItem>
              ))}
            </TextField>
          )}
        />
      </Stack>
    </Section>
  );
}
