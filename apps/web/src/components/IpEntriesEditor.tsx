import {
  suggestEntries,
  type AdditionNic,
  type IpPoolEntry,
  type PersistentDisk,
  type RuleIssue,
} from '@dcs/domain';
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
import { useState, type ReactNode } from 'react';
import { useI18n } from '../i18n/context';
import { compact, without } from '../lib/objects';
import { useFieldIssues } from './FieldIssues';

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
  poolEntries = [],
  persistentDisksAllowed = true,
  label,
}: {
  entries: readonly IpPoolEntry[];
  onChange: (entries: IpPoolEntry[]) => void;
  issues: readonly RuleIssue[];
  basePath: string;
  /** ips already in the pool, for the next-address suggestion. */
  existingIps?: readonly string[];
  /** The pool's own entries already stored: added entries follow their pattern (never another pool's). */
  poolEntries?: readonly IpPoolEntry[] | undefined;
  persistentDisksAllowed?: boolean;
  label: string;
}) {
  const { t } = useI18n();
  // Rows added here and not edited yet: their issues wait until the user edits them (a fresh row
  // shows no error, as a fresh form), by index, kept in step when a row above is removed.
  const [fresh, setFresh] = useState<ReadonlySet<number>>(new Set());
  const add = () => {
    // Domain's suggestion: this pool's pattern (NICs, disks, names), nothing that collides.
    const [suggested] = suggestEntries([...poolEntries, ...entries], 1, { takenIps: existingIps });
    if (!suggested) return;
    const { persistentDisk, ...rest } = suggested;
    const entry: IpPoolEntry =
      persistentDisksAllowed && persistentDisk ? { ...rest, persistentDisk } : rest;
    setFresh(new Set([...fresh, entries.length]));
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
            issues={fresh.has(i) ? outside(issues, `${basePath}.${i}`) : issues}
            persistentDisksAllowed={persistentDisksAllowed}
            onChange={(e) => {
              if (fresh.has(i)) setFresh(new Set([...fresh].filter((j) => j !== i)));
              onChange(entries.map((x, j) => (j === i ? e : x)));
            }}
            onRemove={() => {
              setFresh(new Set([...fresh].filter((j) => j !== i).map((j) => (j > i ? j - 1 : j))));
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

/** The issues not at or under `prefix`. */
const outside = (issues: readonly RuleIssue[], prefix: string) =>
  issues.filter((i) => i.path !== prefix && !i.path.startsWith(`${prefix}.`));

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
  const issuesOf = useFieldIssues(issues);
  const field = (
    name: 'ip' | 'mask' | 'gateway' | 'dns' | 'hostname' | 'machineName',
    labelKey: Parameters<typeof t>[0],
    width: number,
    required = false,
  ) => (
    <TextField
      label={t(labelKey)}
      value={entry[name] ?? ''}
      required={required}
      {...issuesOf(`${basePath}.${name}`)}
      sx={{ width }}
      slotProps={{
        htmlInput: { 'aria-label': `${t(labelKey)} (${t('ip.entryN', { n: index + 1 })})` },
      }}
      onChange={(e) => {
        const v = e.target.value;
        onChange(v === '' && !required ? without(entry, name) : { ...entry, [name]: v });
      }}
    />
  );
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

/**
 * Rows of one kind under an entry (its NICs, its disks): each a labelled group of fields with a
 * remove button, and an add button below. The first `lockedCount` rows exist already and
 * cannot be removed.
 */
function Rows<T>({
  items,
  lockedCount,
  groupLabel,
  removeLabel,
  addLabel,
  newItem,
  onChange,
  children,
}: {
  items: readonly T[];
  lockedCount: number;
  groupLabel: (i: number) => string;
  removeLabel: (i: number) => string;
  addLabel: string;
  newItem: () => T;
  onChange: (items: T[]) => void;
  children: (item: T, i: number, locked: boolean) => ReactNode;
}) {
  return (
    <Box sx={{ mt: 1 }}>
      {items.map((item, i) => (
        <Stack
          key={i}
          direction="row"
          sx={{ flexWrap: 'wrap', gap: 1, mt: 1, alignItems: 'flex-start' }}
          role="group"
          aria-label={groupLabel(i)}
        >
          {children(item, i, i < lockedCount)}
          {i >= lockedCount && (
            <IconButton
              size="small"
              aria-label={removeLabel(i)}
              onClick={() => {
                onChange(items.filter((_x, j) => j !== i));
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
          onChange([...items, newItem()]);
        }}
      >
        {addLabel}
      </Button>
    </Box>
  );
}

const NIC_FIELDS = ['dvSwitchName', 'portGroupName', 'ip', 'mask', 'gateway', 'dns'] as const;

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
  const issuesOf = useFieldIssues(issues);
  const nicN = (i: number) => t('ip.nicN', { n: i + 1, entry: entryN });
  return (
    <Rows
      items={nics}
      lockedCount={lockedCount}
      groupLabel={nicN}
      removeLabel={(i) => t('ip.removeNic', { n: i + 1 })}
      addLabel={t('ip.addNic')}
      newItem={(): AdditionNic => ({})}
      onChange={onChange}
    >
      {(nic, i) =>
        NIC_FIELDS.map((k) => (
          <TextField
            key={k}
            label={t(`ip.nic.${k}`)}
            value={nic[k] ?? ''}
            required={k === 'dvSwitchName' || k === 'portGroupName'}
            {...issuesOf(`${basePath}.${i}.${k}`)}
            sx={{ width: k === 'dns' ? 170 : 140 }}
            slotProps={{ htmlInput: { 'aria-label': `${t(`ip.nic.${k}`)} (${nicN(i)})` } }}
            onChange={(e) => {
              const v = e.target.value;
              onChange(nics.map((x, j) => (j === i ? { ...x, [k]: v === '' ? undefined : v } : x)));
            }}
          />
        ))
      }
    </Rows>
  );
}

/** A disk's text fields; `fixed` ones cannot change once the disk exists (R-DISK-3). */
const DISK_FIELDS = [
  { key: 'slot', width: 80, number: true, fixed: true },
  { key: 'quantityGB', width: 110, number: true, fixed: false },
  { key: 'datastoreClusterName', width: 160, number: false, fixed: false },
  { key: 'path', width: 140, number: false, fixed: true },
  { key: 'format', width: 90, number: false, fixed: true },
  { key: 'options', width: 110, number: false, fixed: true },
  { key: 'pciType', width: 100, number: false, fixed: true },
] as const;

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
  const issuesOf = useFieldIssues(issues);
  const diskN = (i: number) => t('ip.diskN', { n: i + 1, entry: entryN });
  const set = (i: number, patch: Partial<PersistentDisk>) => {
    onChange(disks.map((d, j) => (j === i ? clean({ ...d, ...patch }) : d)));
  };
  return (
    <Rows
      items={disks}
      lockedCount={lockedCount}
      groupLabel={diskN}
      removeLabel={(i) => t('ip.removeDisk', { n: i + 1 })}
      addLabel={t('ip.addDisk')}
      newItem={() => ({ slot: nextSlot(disks), quantityGB: 40, path: '', format: 'xfs' })}
      onChange={onChange}
    >
      {(d, i, locked) => (
        <>
          {DISK_FIELDS.map((f) => (
            <TextField
              key={f.key}
              label={t(`ip.disk.${f.key}`)}
              type={f.number ? 'number' : 'text'}
              value={d[f.key] ?? ''}
              {...issuesOf(`${basePath}.${i}.${f.key}`)}
              sx={{ width: f.width }}
              slotProps={{
                htmlInput: {
                  'aria-label': `${t(`ip.disk.${f.key}`)} (${diskN(i)})`,
                  readOnly: locked && f.fixed,
                },
              }}
              onChange={(e) => {
                set(i, { [f.key]: f.number ? Number(e.target.value) : e.target.value });
              }}
            />
          ))}
          <FormControlLabel
            label={t('ip.disk.isThin')}
            control={
              <Checkbox
                checked={d.isThin === true}
                disabled={locked}
                onChange={(e) => {
                  set(i, { isThin: e.target.checked ? true : undefined });
                }}
                slotProps={{ input: { 'aria-label': `${t('ip.disk.isThin')} (${diskN(i)})` } }}
              />
            }
          />
        </>
      )}
    </Rows>
  );
}

const nextSlot = (disks: readonly PersistentDisk[]) =>
  disks.reduce((m, d) => Math.max(m, d.slot + 1), 0);

/** Optional fields left empty are omitted, not sent as "" (R-DISK-3: isThin only when set). */
function clean(d: PersistentDisk): PersistentDisk {
  return compact(d);
}
