import type { RuleIssue } from '@dcs/domain';
import { FormControlLabel, MenuItem, Radio, RadioGroup, Stack, TextField } from '@mui/material';
import type { ReactNode } from 'react';
import { Controller } from 'react-hook-form';
import { useFieldIssues } from '../../../components/FieldIssues';
import { useI18n } from '../../../i18n/context';
import { Section, type PoolForm } from './section';

export type PickMode = 'existing' | 'new';

/**
 * The shape of the sections that reference another object (machine template, bootstrap
 * template, IP pool): pick an existing one by name, or define a new one, named, with its own
 * fields. The section's owner decides what each mode puts in the form (`onMode`) and what the
 * new one's fields are (`children`).
 */
export function PickOrDefineSection({
  form,
  issues,
  base,
  id,
  title,
  mode,
  onMode,
  order,
  newLabel,
  nameLabel,
  choices,
  onPick,
  notice,
  existingExtra,
  children,
}: {
  form: PoolForm;
  issues: readonly RuleIssue[];
  /** The request's field: its `name` is the picked or the new object's name. */
  base: 'machineTemplate' | 'bootstrap' | 'ipPool';
  id: string;
  title: string;
  mode: PickMode;
  onMode: (mode: PickMode) => void;
  /** Which choice comes first: the one most people want here. */
  order: readonly [PickMode, PickMode];
  /** The label of the "define one" choice. */
  newLabel: string;
  nameLabel: string;
  choices: readonly { value: string; label: string }[];
  /** Called after an existing object is picked, for what goes with its name. */
  onPick?: (name: string) => void;
  /** Shown under the choice, whichever is taken. */
  notice?: ReactNode;
  /** Shown under the picked object. */
  existingExtra?: ReactNode;
  /** The new object's fields, under its name. */
  children: ReactNode;
}) {
  const { t } = useI18n();
  const field = useFieldIssues(issues);
  const labels: Record<PickMode, string> = { existing: t('create.pickExisting'), new: newLabel };
  return (
    <Section title={title} id={id}>
      <RadioGroup
        row
        value={mode}
        onChange={(e) => {
          onMode(e.target.value as PickMode);
        }}
        aria-label={title}
      >
        {order.map((m) => (
          <FormControlLabel key={m} value={m} control={<Radio />} label={labels[m]} />
        ))}
      </RadioGroup>
      {notice}
      <Stack spacing={2} sx={{ mt: 1 }}>
        <Controller
          control={form.control}
          name={`${base}.name`}
          render={({ field: f }) =>
            mode === 'existing' ? (
              <TextField
                {...f}
                select
                label={title}
                sx={{ minWidth: 420, alignSelf: 'flex-start' }}
                {...field(`${base}.name`)}
                onChange={(e) => {
                  f.onChange(e.target.value);
                  onPick?.(e.target.value);
                }}
              >
                {choices.map((c) => (
                  <MenuItem key={c.value} value={c.value}>
                    {c.label}
                  </MenuItem>
                ))}
              </TextField>
            ) : (
              <TextField
                {...f}
                label={nameLabel}
                sx={{ maxWidth: 420 }}
                {...field(`${base}.name`)}
              />
            )
          }
        />
        {mode === 'existing' ? existingExtra : children}
      </Stack>
    </Section>
  );
}
