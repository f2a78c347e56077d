import type { AdditionNic, IpPoolEntry, PersistentDisk, RuleIssue } from '@dcs/domain';
import Add from '@mui/icons-material/Add';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import {
  Box,
  Button,
  Checkbox,
  FormControlLabel,
  IconButton,
  Paper,
  Stack,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import { useI18n } from '../i18n/context';
import { issuesAt } from '../lib/issues';
import { nextIp } from '../lib/ip-entries';
import { compact, without } from '../lib/objects';
import { useIssueText } from './FieldIssues';

/**
 * An editor of IP-hostname pool entries (R-POOL-*), each with its extra NICs (R-NIC-*) and
 * persistent disks (R-DISK-*). Controlled: the caller owns the entries and the issues, whose
 * paths are `${basePath}.${index}.${field}`.
 */
export function IpEntriesEditor({
  entries,
  onChange,
  issues,
  basePath,
  existingIps = [],
  template,
  persistentDisksAllowed = true,
  label,
}: {
  entries: readonly IpPoolEntry[];
  onChange: (entries: IpPoolEntry[]) => void;
  issues: readonly RuleIssue[];
  basePath: string;
  /** ips already in the pool, for the next-address suggestion. */
  existingIps?: readonly string[];
  /** An entry to copy mask, gateway, dns and disks from when adding one. */
  template?: IpPoolEntry | undefined;
  persistentDisksAllowed?: boolean;
  label: string;
}) {
  const { t } = useI18n();
  const add = () => {
    const ips = [...existingIps, ...entries.map((e) => e.ip)];
    const base = entries[entries.length - 1] ?? template;
    const n = ips.length + 1;
    const entry: IpPoolEntry = {
      ip: nextIp(ips) ?? '',
      mask: base?.mask ?? '24',
      gateway: base?.gateway ?? '',
      ...(base?.dns ? { dns: base.dns } : {}),
      ...(base?.hostname ? { hostname: `${base.hostname.replace(/-?\d+$/, '')}-${n}` } : {}),
      ...(base?.additionNic?.length
        ? { additionNic: base.additionNic.map((nic) => ({ ...nic, ip: '' })) }
        : {}),
      ...(persistentDisksAllowed && base?.persistentDisk?.length
        ? { persistentDisk: base.persistentDisk.map((d) => ({ ...d })) }
        : {}),
    };
    onChange([...entries, entry]);
  };
  return (
    <Box role="group" aria-label={label}>
      <Stack spacing={1}>
        {entries.map((entry, i) => (
          <EntryEditor
            key={i}
            index={i}
            entry={entry}
            basePath={`${basePath}.${i}`}
            issues={issues}
            persistentDisksAllowed={persistentDisksAllowed}
            onChange={(e) => {
              onChange(entries.map((x, j) => (j === i ? e : x)));
            }}
            onRemove={() => {
              onChange(entries.filter((_x, j) => j !== i));
            }}
          />
        ))}
      </Stack>
      <Button startIcon={<Add />} onClick={add} sx={{ mt: 1 }}>
        {t('ip.addEntry')}
      </Button>
    </Box>
  );
}

function EntryEditor({
  index,
  entry,
  basePath,
  issues,
  persistentDisksAllowed,
  onChange,
  onRemove,
}: {
  index: number;
  entry: IpPoolEntry;
  basePath: string;
  issues: readonly RuleIssue[];
  persistentDisksAllowed: boolean;
  onChange: (e: IpPoolEntry) => void;
  onRemove: () => void;
}) {
  const { t } = useI18n();
  const text = useIssueText();
  const field = (
    name: 'ip' | 'mask' | 'gateway' | 'dns' | 'hostname' | 'machineName',
    labelKey: Parameters<typeof t>[0],
    width: number,
    required = false,
  ) => {
    const here = issuesAt(issues, `${basePath}.${name}`);
    const hasError = here.some((i) => i.severity === 'error');
    return (
      <TextField
        label={t(labelKey)}
        value={entry[name] ?? ''}
        required={required}
        error={hasError}
        helperText={text(here)}
        sx={{
          width,
          '& .MuiFormHelperText-root': {
            color: !hasError && here.length > 0 ? 'warning.main' : undefined,
          },
        }}
        slotProps={{
          htmlInput: { 'aria-label': `${t(labelKey)} (${t('ip.entryN', { n: index + 1 })})` },
        }}
        onChange={(e) => {
          const v = e.target.value;
          onChange(v === '' && !required ? without(entry, name) : { ...entry, [name]: v });
        }}
      />
    );
  };
  return (
    <Paper variant="outlined" sx={{ p: 1.5 }}>
      <Stack direction="row" sx={{ alignItems: 'center', mb: 1 }}>
        <Typography variant="subtitle2" sx={{ mr: 'auto' }}>
          {t('ip.entryN', { n: index + 1 })}
        </Typography>
        <Tooltip title={t('ip.removeEntry', { n: index + 1 })}>
          <IconButton
            size="small"
            aria-label={t('ip.removeEntry', { n: index + 1 })}
            onClick={onRemove}
          >
            <DeleteOutlined fontSize="small" />
          </IconButton>
        </Tooltip>
      </Stack>
      <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1, alignItems: 'flex-start' }}>
        {field('ip', 'ip.ip', 150, true)}
        {field('mask', 'ip.mask', 90, true)}
        {field('gateway', 'ip.gateway', 150, true)}
        {field('dns', 'ip.dns', 190)}
        {field('hostname', 'ip.hostname', 170)}
        {field('machineName', 'ip.machineName', 170)}
      </Stack>
      <NicsEditor
        nics={entry.additionNic ?? []}
        basePath={`${basePath}.additionNic`}
        issues={issues}
        entryN={index + 1}
        onChange={(nics) => {
          onChange(withList(entry, 'additionNic', nics));
        }}
      />
      {persistentDisksAllowed && (
        <DisksEditor
          disks={entry.persistentDisk ?? []}
          basePath={`${basePath}.persistentDisk`}
          issues={issues}
          entryN={index + 1}
          onChange={(disks) => {
            onChange(withList(entry, 'persistentDisk', disks));
          }}
        />
      )}
    </Paper>
  );
}

function withList<K extends 'additionNic' | 'persistentDisk'>(
  entry: IpPoolEntry,
  key: K,
  list: NonNullable<IpPoolEntry[K]>,
): IpPoolEntry {
  return list.length === 0 ? without(entry, key) : { ...entry, [key]: list };
}

/** R-NIC-1: each extra NIC needs its switch and port group; ip and mask are recommended. */
export function NicsEditor({
  nics,
  basePath,
  issues,
  entryN,
  onChange,
  lockedCount = 0,
}: {
  nics: readonly AdditionNic[];
  basePath: string;
  issues: readonly RuleIssue[];
  entryN: number;
  onChange: (nics: AdditionNic[]) => void;
  lockedCount?: number;
}) {
  const { t } = useI18n();
  const text = useIssueText();
  const keys = ['dvSwitchName', 'portGroupName', 'ip', 'mask', 'gateway', 'dns'] as const;
  return (
    <Box sx={{ mt: 1 }}>
      {nics.map((nic, i) => (
        <Stack
          key={i}
          direction="row"
          sx={{ flexWrap: 'wrap', gap: 1, mt: 1, alignItems: 'flex-start' }}
          role="group"
          aria-label={t('ip.nicN', { n: i + 1, entry: entryN })}
        >
          {keys.map((k) => {
            const here = issuesAt(issues, `${basePath}.${i}.${k}`);
            return (
              <TextField
                key={k}
                label={t(`ip.nic.${k}`)}
                value={nic[k] ?? ''}
                required={k === 'dvSwitchName' || k === 'portGroupName'}
                error={here.some((x) => x.severity === 'error')}
                helperText={text(here)}
                sx={{ width: k === 'dns' ? 170 : 140 }}
                slotProps={{
                  htmlInput: {
                    'aria-label': `${t(`ip.nic.${k}`)} (${t('ip.nicN', { n: i + 1, entry: entryN })})`,
                  },
                }}
                onChange={(e) => {
                  const v = e.target.value;
                  onChange(
                    nics.map((x, j) => (j === i ? { ...x, [k]: v === '' ? undefined : v } : x)),
                  );
                }}
              />
            );
          })}
          {i >= lockedCount && (
            <IconButton
              size="small"
              aria-label={t('ip.removeNic', { n: i + 1 })}
              onClick={() => {
                onChange(nics.filter((_x, j) => j !== i));
              }}
            >
              <DeleteOutlined fontSize="small" />
            </IconButton>
          )}
        </Stack>
      ))}
      <Button
        size="small"
        startIcon={<Add />}
        onClick={() => {
          onChange([...nics, {}]);
        }}
      >
        {t('ip.addNic')}
      </Button>
    </Box>
  );
}

/**
 * Persistent disks: appended, never removed (R-DISK-2); format, options and pciType fixed once
 * created (R-DISK-3). `lockedCount` disks exist already: they cannot be removed and their
 * immutable fields are read-only.
 */
export function DisksEditor({
  disks,
  basePath,
  issues,
  entryN,
  onChange,
  lockedCount = 0,
}: {
  disks: readonly PersistentDisk[];
  basePath: string;
  issues: readonly RuleIssue[];
  entryN: number;
  onChange: (d: PersistentDisk[]) => void;
  lockedCount?: number;
}) {
  const { t } = useI18n();
  const text = useIssueText();
  const set = (i: number, patch: Partial<PersistentDisk>) => {
    onChange(disks.map((d, j) => (j === i ? clean({ ...d, ...patch }) : d)));
  };
  return (
    <Box sx={{ mt: 1 }}>
      {disks.map((d, i) => {
        const locked = i < lockedCount;
        const at = (k: string) => issuesAt(issues, `${basePath}.${i}.${k}`);
        const label = (k: string) =>
          `${t(`ip.disk.${k}` as Parameters<typeof t>[0])} (${t('ip.diskN', { n: i + 1, entry: entryN })})`;
        return (
          <Stack
            key={i}
            direction="row"
            sx={{ flexWrap: 'wrap', gap: 1, mt: 1, alignItems: 'flex-start' }}
            role="group"
            aria-label={t('ip.diskN', { n: i + 1, entry: entryN })}
          >
            <TextField
              label={t('ip.disk.slot')}
              type="number"
              value={d.slot}
              error={at('slot').length > 0}
              helperText={text(at('slot'))}
              sx={{ width: 80 }}
              slotProps={{ htmlInput: { 'aria-label': label('slot'), readOnly: locked } }}
              onChange={(e) => {
                set(i, { slot: Number(e.target.value) });
              }}
            />
            <TextField
              label={t('ip.disk.quantityGB')}
              type="number"
              value={d.quantityGB}
              error={at('quantityGB').some((x) => x.severity === 'error')}
              helperText={text(at('quantityGB'))}
              sx={{ width: 110 }}
              slotProps={{ htmlInput: { 'aria-label': label('quantityGB') } }}
              onChange={(e) => {
                set(i, { quantityGB: Number(e.target.value) });
              }}
            />
            <TextField
              label={t('ip.disk.datastoreClusterName')}
              value={d.datastoreClusterName ?? ''}
              helperText={text(at('datastoreClusterName'))}
              sx={{ width: 160 }}
              slotProps={{ htmlInput: { 'aria-label': label('datastoreClusterName') } }}
              onChange={(e) => {
                set(i, { datastoreClusterName: e.target.value });
              }}
            />
            <TextField
              label={t('ip.disk.path')}
              value={d.path ?? ''}
              error={at('path').some((x) => x.severity === 'error')}
              helperText={text(at('path'))}
              sx={{ width: 140 }}
              slotProps={{ htmlInput: { 'aria-label': label('path'), readOnly: locked } }}
              onChange={(e) => {
                set(i, { path: e.target.value });
              }}
            />
            <TextField
              label={t('ip.disk.format')}
              value={d.format ?? ''}
              helperText={text(at('format'))}
              sx={{ width: 90 }}
              slotProps={{ htmlInput: { 'aria-label': label('format'), readOnly: locked } }}
              onChange={(e) => {
                set(i, { format: e.target.value });
              }}
            />
            <TextField
              label={t('ip.disk.options')}
              value={d.options ?? ''}
              sx={{ width: 110 }}
              slotProps={{ htmlInput: { 'aria-label': label('options'), readOnly: locked } }}
              onChange={(e) => {
                set(i, { options: e.target.value });
              }}
            />
            <TextField
              label={t('ip.disk.pciType')}
              value={d.pciType ?? ''}
              sx={{ width: 100 }}
              slotProps={{ htmlInput: { 'aria-label': label('pciType'), readOnly: locked } }}
              onChange={(e) => {
                set(i, { pciType: e.target.value });
              }}
            />
            <FormControlLabel
              label={t('ip.disk.isThin')}
              control={
                <Checkbox
                  checked={d.isThin === true}
                  disabled={locked}
                  onChange={(e) => {
                    set(i, { isThin: e.target.checked ? true : undefined });
                  }}
                  slotProps={{ input: { 'aria-label': label('isThin') } }}
                />
              }
            />
            {!locked && (
              <IconButton
                size="small"
                aria-label={t('ip.removeDisk', { n: i + 1 })}
                onClick={() => {
                  onChange(disks.filter((_x, j) => j !== i));
                }}
              >
                <DeleteOutlined fontSize="small" />
              </IconButton>
            )}
          </Stack>
        );
      })}
      <Button
        size="small"
        startIcon={<Add />}
        onClick={() => {
          onChange([...disks, { slot: nextSlot(disks), quantityGB: 40, path: '', format: 'xfs' }]);
        }}
      >
        {t('ip.addDisk')}
      </Button>
    </Box>
  );
}

const nextSlot = (disks: readonly PersistentDisk[]) =>
  disks.reduce((m, d) => Math.max(m, d.slot + 1), 0);

/** Optional fields left empty are omitted, not sent as "" (R-DISK-3: isThin only when set). */
function clean(d: PersistentDisk): PersistentDisk {
  return compact(d);
}
