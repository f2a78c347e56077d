import { Stack, TextField } from '@mui/material';
import { Controller } from 'react-hook-form';
import { useI18n } from '../../../i18n/context';
import { parseIntOrString } from './form-defaults';
import { useFieldIssues } from '../../../components/FieldIssues';
import { Section, type SectionProps } from './section';

/** maxSurge / maxUnavailable (R-MD-2, R-MD-3) and the drain and deletion timeouts. */
export function StrategySection({ form, issues }: SectionProps) {
  const { t } = useI18n();
  const field = useFieldIssues(issues);
  return (
    <Section title={t('create.strategy')} id="section-strategy">
      <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 2, mt: 1, alignItems: 'flex-start' }}>
        <Controller
          control={form.control}
          name="strategy.maxSurge"
          render={({ field: f }) => (
            <TextField
              {...f}
              value={String(f.value)}
              label="maxSurge"
              sx={{ width: 260 }}
              {...field('strategy.maxSurge', t('create.surgeHelp'))}
              onChange={(e) => {
                f.onChange(parseIntOrString(e.target.value));
              }}
            />
          )}
        />
        <Controller
          control={form.control}
          name="strategy.maxUnavailable"
          render={({ field: f }) => (
            <TextField
              {...f}
              value={String(f.value)}
              label="maxUnavailable"
              sx={{ width: 260 }}
              {...field('strategy.maxUnavailable', t('create.unavailableHelp'))}
              onChange={(e) => {
                f.onChange(parseIntOrString(e.target.value));
              }}
            />
          )}
        />
        <Controller
          control={form.control}
          name="nodeDrainTimeout"
          render={({ field: f }) => (
            <TextField
              {...f}
              value={f.value ?? ''}
              label={t('create.drainTimeout')}
              sx={{ width: 200 }}
              {...field('nodeDrainTimeout', t('create.durationHelp'))}
            />
          )}
        />
        <Controller
          control={form.control}
          name="nodeDeletionTimeout"
          render={({ field: f }) => (
            <TextField
              {...f}
              value={f.value ?? ''}
              label={t('create.deletionTimeout')}
              sx={{ width: 200 }}
              {...field('nodeDeletionTimeout', t('create.durationHelp'))}
            />
          )}
        />
      </Stack>
    </Section>
  );
}
