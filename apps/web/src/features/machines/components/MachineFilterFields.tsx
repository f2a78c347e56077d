import { MACHINE_PHASES } from '@dcs/domain';
import { MenuItem, TextField } from '@mui/material';
import { memo, type Dispatch, type SetStateAction } from 'react';
import { useI18n } from '../../../i18n/context';
import type { MachineFilter } from './machine-filter';

/**
 * The fields of issue 26 item 8 in a machines table's filter bar (the Nodes tab, a pool's page):
 * phases (any of), a condition not in its healthy state, name, node and IP. Memoized on the
 * filter and the condition choices (the same array while they are the same): a stream batch
 * re-renders none of it.
 */
export const MachineFilterFields = memo(function MachineFilterFields({
  filter,
  setFilter,
  conditions,
}: {
  filter: MachineFilter;
  setFilter: Dispatch<SetStateAction<MachineFilter>>;
  /** The condition types some machine has unhealthy, sorted. */
  conditions: readonly string[];
}) {
  const { t } = useI18n();
  const field = (key: 'name' | 'node' | 'ip', label: string, width: number) => (
    <TextField
      label={label}
      value={filter[key]}
      onChange={(e) => {
        const value = e.target.value;
        setFilter((f) => ({ ...f, [key]: value }));
      }}
      sx={{ width }}
    />
  );
  return (
    <>
      <TextField
        select
        label={t('nodes.phase')}
        value={filter.phases}
        onChange={(e) => {
          const v = e.target.value as unknown;
          const phases = typeof v === 'string' ? v.split(',') : (v as string[]);
          setFilter((f) => ({ ...f, phases: phases.filter((p) => p !== '') }));
        }}
        slotProps={{
          select: {
            multiple: true,
            displayEmpty: true,
            renderValue: (v) => {
              const chosen = v as string[];
              return chosen.length === 0 ? t('nodes.allPhases') : chosen.join(', ');
            },
          },
          inputLabel: { shrink: true },
        }}
        sx={{ minWidth: 160 }}
      >
        {MACHINE_PHASES.map((p) => (
          <MenuItem key={p} value={p}>
            {p}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        select
        label={t('nodes.conditionFilter')}
        value={filter.condition}
        onChange={(e) => {
          setFilter((f) => ({ ...f, condition: e.target.value }));
        }}
        slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
        sx={{ minWidth: 180 }}
      >
        <MenuItem value="">{t('nodes.anyCondition')}</MenuItem>
        {conditions.map((c) => (
          <MenuItem key={c} value={c}>
            {t('nodes.conditionNotHealthy', { type: c })}
          </MenuItem>
        ))}
      </TextField>
      {field('name', t('nodes.name'), 150)}
      {field('node', t('nodes.node'), 150)}
      {field('ip', t('nodes.ip'), 130)}
    </>
  );
});
