import {
  ENTRY_OWN_FIELDS,
  type EntryFieldsInput,
  type EntryOwnField,
  type IpPoolEntryView,
  type RuleIssue,
} from '@dcs/domain';
import { Alert, Box, Stack, TextField, Typography } from '@mui/material';
import { useFieldIssues } from '../../../components/FieldIssues';
import { useI18n } from '../../../i18n/context';
import type { MessageKey } from '../../../i18n/en';

const LABELS: Record<EntryOwnField, MessageKey> = {
  ip: 'ip.ip',
  mask: 'ip.mask',
  gateway: 'ip.gateway',
  dns: 'ip.dns',
  hostname: 'ip.hostname',
  machineName: 'ip.machineName',
};

/** The entry's own fields as text ('' when unset). */
export function entryTexts(e: IpPoolEntryView): Record<EntryOwnField, string> {
  return {
    ip: e.ip,
    mask: e.mask,
    gateway: e.gateway,
    dns: e.dns ?? '',
    hostname: e.hostname ?? '',
    machineName: e.machineName ?? '',
  };
}

/**
 * What `update[].set` carries for these texts: only the fields that differ from the entry (a
 * field left out is kept, `""` clears an optional one); undefined when nothing changed.
 */
export function entryFieldsSet(
  e: IpPoolEntryView,
  texts: Readonly<Record<EntryOwnField, string>>,
): EntryFieldsInput | undefined {
  const before = entryTexts(e);
  const set: EntryFieldsInput = {};
  for (const f of ENTRY_OWN_FIELDS) {
    if (texts[f].trim() !== before[f]) set[f] = texts[f].trim();
  }
  return Object.keys(set).length ? set : undefined;
}

/**
 * The own fields of one IP-pool entry (issue 12, O-EDIT-IP-POOL): editable while no machine has
 * claimed it; read-only with the reason when one has (R-POOL-5: the machine holds the address,
 * hostname and VM name it was created with). Rule messages sit at each field (`basePath.field`).
 */
export function EntryFieldsEditor({
  entry,
  texts,
  onChange,
  issues,
  basePath,
}: {
  entry: IpPoolEntryView;
  texts: Readonly<Record<EntryOwnField, string>>;
  onChange: (texts: Record<EntryOwnField, string>) => void;
  issues: readonly RuleIssue[];
  basePath: string;
}) {
  const { t } = useI18n();
  const field = useFieldIssues(issues);
  const claimed = entry.claimedBy !== undefined;
  return (
    <Box role="group" aria-label={t('ipPools.entryFieldsOf', { ip: entry.ip })} sx={{ mb: 2 }}>
      <Typography variant="subtitle2" sx={{ mb: 1 }}>
        {t('ipPools.entryFields')}
      </Typography>
      {claimed ? (
        <Alert severity="info" sx={{ mb: 1 }}>
          {t('ipPools.claimedReadOnly', { ip: entry.ip, machine: entry.claimedBy ?? '' })}
        </Alert>
      ) : (
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          {t('ipPools.entryFieldsHelp')}
        </Typography>
      )}
      <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 2, alignItems: 'flex-start' }}>
        {ENTRY_OWN_FIELDS.map((f) => (
          <TextField
            key={f}
            size="small"
            label={t(LABELS[f])}
            value={texts[f]}
            disabled={claimed}
            onChange={(ev) => {
              onChange({ ...texts, [f]: ev.target.value });
            }}
            sx={{ width: f === 'dns' || f === 'machineName' ? 240 : 180 }}
            {...(claimed ? {} : field(`${basePath}.${f}`))}
          />
        ))}
      </Stack>
    </Box>
  );
}
