import {
  Chip,
  FormControlLabel,
  MenuItem,
  Stack,
  Switch,
  TextField,
  Typography,
} from '@mui/material';
import { memo, type Dispatch, type SetStateAction } from 'react';
import { useI18n } from '../../../i18n/context';
import type { MachineFilter } from './machine-filter';
import { MachineFilterFields } from './MachineFilterFields';

/**
 * A machines table's filter bar (the Nodes tab, a pool's page): the free text, the pool (where
 * `pools` is given: the Nodes tab), the fields of MachineFilterFields, the MachineSet a link
 * narrowed the list to (where it can be cleared), problems only, and the count. Plain props,
 * memoized: a stream batch that changes neither the filter nor its choices re-renders none of it.
 */
export const MachineFilterBar = memo(function MachineFilterBar({
  filter,
  setFilter,
  conditions,
  count,
  pools,
  onClearMachineSet,
}: {
  filter: MachineFilter;
  setFilter: Dispatch<SetStateAction<MachineFilter>>;
  /** The condition types some machine has unhealthy; the same array while they are the same. */
  conditions: readonly string[];
  /** "n of m machines, k selected". */
  count: string;
  /** The pools that have machines, sorted; the same array while that set is the same. */
  pools?: readonly string[] | undefined;
  onClearMachineSet?: (() => void) | undefined;
}) {
  const { t } = useI18n();
  return (
    <Stack
      direction="row"
      spacing={2}
      // A gap, not margins: a field that wraps to the next line starts at its left edge.
      useFlexGap
      sx={{ mb: 1.5, alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}
      role="search"
    >
      <TextField
        label={t('nodes.filter')}
        value={filter.text}
        onChange={(e) => {
          setFilter((f) => ({ ...f, text: e.target.value }));
        }}
        sx={{ minWidth: pools ? 260 : 220 }}
      />
      {pools && (
        <TextField
          select
          label={t('nodes.pool')}
          value={filter.pool}
          onChange={(e) => {
            setFilter((f) => ({ ...f, pool: e.target.value }));
          }}
          sx={{ minWidth: 200 }}
        >
          <MenuItem value="">{t('nodes.allPools')}</MenuItem>
          {pools.map((p) => (
            <MenuItem key={p} value={p}>
              {p === 'control-plane' ? t('pool.controlPlane') : p}
            </MenuItem>
          ))}
        </TextField>
      )}
      <MachineFilterFields filter={filter} setFilter={setFilter} conditions={conditions} />
      {filter.machineSet && onClearMachineSet && (
        <Chip
          label={t('nodes.machineSet', { name: filter.machineSet })}
          onDelete={onClearMachineSet}
        />
      )}
      <FormControlLabel
        control={
          <Switch
            checked={filter.problemsOnly}
            onChange={(e) => {
              setFilter((f) => ({ ...f, problemsOnly: e.target.checked }));
            }}
          />
        }
        label={t('nodes.problemsOnly')}
      />
      <Typography variant="body2" color="text.secondary" role="status">
        {count}
      </Typography>
    </Stack>
  );
});
