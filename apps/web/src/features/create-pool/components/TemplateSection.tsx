import type { ValidationContext } from '@dcs/domain';
import { Typography } from '@mui/material';
import { Controller, useWatch } from 'react-hook-form';
import { MachineTemplateEditor } from '../../../components/MachineTemplateEditor';
import { useI18n } from '../../../i18n/context';
import { formatMemoryMB } from '../../../i18n/format';
import { clusterPoolLayout, defaultPoolObjectNames } from '@dcs/domain';
import { vmTemplateOf } from './form-defaults';
import { PickOrDefineSection, type PickMode } from './PickOrDefineSection';
import type { SectionProps } from './section';

/** The machine template: pick an existing one, or define a new one (R-TPL-*). */
export function TemplateSection({ form, issues, ctx }: SectionProps & { ctx: ValidationContext }) {
  const { t } = useI18n();
  const tpl = useWatch({ control: form.control, name: 'machineTemplate' });
  const setMode = (mode: PickMode) => {
    const v = form.getValues();
    if (mode === 'existing')
      form.setValue(
        'machineTemplate',
        { mode, name: ctx.machineTemplates[0]?.name ?? '' },
        { shouldValidate: true, shouldDirty: true },
      );
    else {
      // The cluster's own layout again (never another cluster's template's datastore).
      form.setValue(
        'machineTemplate',
        {
          mode,
          name: defaultPoolObjectNames(v.name).machineTemplate,
          spec: {
            ...clusterPoolLayout(ctx).template,
            vmTemplateName: vmTemplateOf(ctx, v.version),
          },
        },
        { shouldValidate: true, shouldDirty: true },
      );
    }
  };
  return (
    <PickOrDefineSection
      form={form}
      issues={issues}
      base="machineTemplate"
      id="section-template"
      title={t('pool.machineTemplate')}
      mode={tpl.mode}
      onMode={setMode}
      order={['existing', 'new']}
      newLabel={t('create.defineNew')}
      nameLabel={t('create.templateName')}
      choices={ctx.machineTemplates.map((m) => ({
        value: m.name,
        label: [
          m.name,
          m.spec.vmTemplateName,
          t('pool.cpuCores', { n: m.spec.vmConfig?.dcsMachineCpuSpec?.quantity ?? '?' }),
          formatMemoryMB(m.spec.vmConfig?.dcsMachineMemorySpec?.quantity),
          t('create.usesIpPool', { name: m.spec.ipHostPoolRef.name }),
        ].join(' · '),
      }))}
    >
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
    </PickOrDefineSection>
  );
}
