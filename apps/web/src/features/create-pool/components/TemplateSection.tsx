import type { ValidationContext } from '@dcs/domain';
import {
  FormControlLabel,
  MenuItem,
  Radio,
  RadioGroup,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { Controller, useWatch } from 'react-hook-form';
import {
  defaultTemplateSpec,
  MachineTemplateEditor,
} from '../../../components/MachineTemplateEditor';
import { useI18n } from '../../../i18n/context';
import { formatMemoryMB } from '../../../i18n/format';
import { defaultPoolObjectNames } from '@dcs/domain';
import { vmTemplateOf } from './form-defaults';
import { Section, useFieldIssues, type SectionProps } from './section';

/** The machine template: pick an existing one, or define a new one (R-TPL-*). */
export function TemplateSection({ form, issues, ctx }: SectionProps & { ctx: ValidationContext }) {
  const { t } = useI18n();
  const field = useFieldIssues(issues);
  const tpl = useWatch({ control: form.control, name: 'machineTemplate' });
  const setMode = (mode: 'existing' | 'new') => {
    const v = form.getValues();
    if (mode === 'existing')
      form.setValue(
        'machineTemplate',
        { mode, name: ctx.machineTemplates[0]?.name ?? '' },
        { shouldValidate: true },
      );
    else {
      const datastore =
        ctx.machineTemplates[0]?.spec.vmConfig?.dcsMachineDiskSpec?.[0]?.datastoreClusterName;
      form.setValue(
        'machineTemplate',
        {
          mode,
          name: defaultPoolObjectNames(v.name).machineTemplate,
          spec: defaultTemplateSpec(vmTemplateOf(ctx, v.version), datastore),
        },
        { shouldValidate: true },
      );
    }
  };
  return (
    <Section title={t('pool.machineTemplate')} id="section-template">
      <RadioGroup
        row
        value={tpl.mode}
        onChange={(e) => {
          setMode(e.target.value as 'existing' | 'new');
        }}
        aria-label={t('pool.machineTemplate')}
      >
        <FormControlLabel value="existing" control={<Radio />} label={t('create.pickExisting')} />
        <FormControlLabel value="new" control={<Radio />} label={t('create.defineNew')} />
      </RadioGroup>
      {tpl.mode === 'existing' ? (
        <Controller
          control={form.control}
          name="machineTemplate.name"
          render={({ field: f }) => (
            <TextField
              {...f}
              select
              label={t('pool.machineTemplate')}
              sx={{ minWidth: 420, mt: 1 }}
              {...field('machineTemplate.name')}
            >
              {ctx.machineTemplates.map((m) => (
                <MenuItem key={m.name} value={m.name}>
                  {m.name} · {m.spec.vmTemplateName} ·{' '}
                  {t('pool.cpuCores', { n: m.spec.vmConfig?.dcsMachineCpuSpec?.quantity ?? '?' })} ·{' '}
                  {formatMemoryMB(m.spec.vmConfig?.dcsMachineMemorySpec?.quantity)} ·{' '}
                  {t('create.usesIpPool', { name: m.spec.ipHostPoolRef.name })}
                </MenuItem>
              ))}
            </TextField>
          )}
        />
      ) : (
        <Stack spacing={2} sx={{ mt: 1 }}>
          <Controller
            control={form.control}
            name="machineTemplate.name"
            render={({ field: f }) => (
              <TextField
                {...f}
                label={t('create.templateName')}
                sx={{ maxWidth: 420 }}
                {...field('machineTemplate.name')}
              />
            )}
          />
          <Typography variant="body2" color="text.secondary">
            {t('create.templateHelp')}
          </Typography>
          <Controller
            control={form.control}
            name="machineTemplate.spec"
            render={({ field: f }) => (
              <MachineTemplateEditor
                value={f.value}
                onChange={(v) => {
                  f.onChange(v);
                }}
                issues={issues}
                basePath="machineTemplate.spec"
                vmTemplates={ctx.versions.map((v) => v.vmTemplateName)}
                label={t('pool.machineTemplate')}
              />
            )}
          />
        </Stack>
      )}
    </Section>
  );
}
