import {
  REQUIRED_TEMPLATE_MOUNTS,
  type DiskSpec,
  type MachineTemplateSpecInput,
  type RuleIssue,
} from '@dcs/domain';
import Add from '@mui/icons-material/Add';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import LockOutlined from '@mui/icons-material/LockOutlined';
import {
  Box,
  Button,
  Checkbox,
  FormControlLabel,
  FormHelperText,
  IconButton,
  MenuItem,
  Stack,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import { useId } from 'react';
import { useI18n } from '../i18n/context';
import { memoryInGiB } from '../i18n/format';
import { issuesAt } from '../lib/issues';
import { without } from '../lib/objects';
import { useIssueText } from './FieldIssues';
import { useShownIssuePaths } from './IssueSummary';

const LEGACY_CPAAS = '/var/cpaas';

/**
 * A DCSMachineTemplate spec as forms edit it (R-TPL-*): VM template, CPU, memory, disks with the
 * required mounts present and locked (R-TPL-2; /var/cpaas too while the legacy layout keeps it
 * here, R-DISK-5), location, resource, network. Issues' paths are `${basePath}.<field>`.
 */
export function MachineTemplateEditor({
  value,
  onChange,
  issues,
  basePath,
  vmTemplates = [],
  label,
}: {
  value: MachineTemplateSpecInput;
  onChange: (v: MachineTemplateSpecInput) => void;
  issues: readonly RuleIssue[];
  basePath: string;
  /** VM templates of the versions catalog, offered first. */
  vmTemplates?: readonly string[];
  label: string;
}) {
  const { t, locale } = useI18n();
  const baseId = useId();
  const text = useIssueText();
  const { show } = useShownIssuePaths();
  const at = (p: string) => {
    show(`${basePath}.${p}`);
    return issuesAt(issues, `${basePath}.${p}`);
  };
  const err = (p: string) => at(p).some((i) => i.severity === 'error');
  const vm = value.vmConfig ?? {};
  const disks = vm.dcsMachineDiskSpec ?? [];
  const memoryMB = vm.dcsMachineMemorySpec?.quantity;
  const inGiB = memoryInGiB(memoryMB, locale);
  const memoryHelp = inGiB
    ? t(inGiB.exact ? 'tpl.memoryHelp' : 'tpl.memoryHelpApprox', {
        mb: memoryMB ?? 0,
        gib: inGiB.gib,
      })
    : t('tpl.memoryHelpEmpty');
  const setVm = (patch: Partial<NonNullable<MachineTemplateSpecInput['vmConfig']>>) => {
    onChange({ ...value, vmConfig: { ...vm, ...patch } });
  };
  const setDisks = (next: DiskSpec[]) => {
    setVm({ dcsMachineDiskSpec: next });
  };
  const legacy = disks.some((d) => d.path === LEGACY_CPAAS);
  const locked = (d: DiskSpec) =>
    d.path !== undefined && ([...REQUIRED_TEMPLATE_MOUNTS] as string[]).includes(d.path);

  return (
    <Box role="group" aria-label={label}>
      <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1.5, alignItems: 'flex-start' }}>
        <TextField
          select={
            vmTemplates.length > 0 &&
            (value.vmTemplateName === '' || vmTemplates.includes(value.vmTemplateName))
          }
          label={t('tpl.vmTemplate')}
          value={value.vmTemplateName}
          required
          error={err('vmTemplateName')}
          helperText={text(at('vmTemplateName'))}
          onChange={(e) => {
            onChange({ ...value, vmTemplateName: e.target.value });
          }}
          sx={{ minWidth: 260 }}
        >
          {vmTemplates.map((v) => (
            <MenuItem key={v} value={v}>
              {v}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          label={t('tpl.cpu')}
          type="number"
          required
          value={vm.dcsMachineCpuSpec?.quantity ?? ''}
          error={err('vmConfig.dcsMachineCpuSpec.quantity')}
          helperText={text(at('vmConfig.dcsMachineCpuSpec.quantity'))}
          sx={{ width: 120 }}
          onChange={(e) => {
            setVm({ dcsMachineCpuSpec: { quantity: Number(e.target.value) } });
          }}
        />
        <TextField
          label={t('tpl.memory')}
          type="number"
          required
          value={vm.dcsMachineMemorySpec?.quantity ?? ''}
          error={err('vmConfig.dcsMachineMemorySpec.quantity')}
          helperText={text(at('vmConfig.dcsMachineMemorySpec.quantity')) ?? memoryHelp}
          sx={{ width: 160 }}
          onChange={(e) => {
            setVm({ dcsMachineMemorySpec: { quantity: Number(e.target.value) } });
          }}
        />
        <TextField
          label={t('tpl.dvSwitch')}
          value={vm.dvSwitchName ?? ''}
          error={err('vmConfig.dvSwitchName')}
          helperText={text(at('vmConfig.dvSwitchName'))}
          sx={{ width: 170 }}
          onChange={(e) => {
            setVm({ dvSwitchName: e.target.value || undefined });
          }}
        />
        <TextField
          label={t('tpl.portGroup')}
          value={vm.portGroupName ?? ''}
          error={err('vmConfig.portGroupName')}
          helperText={text(at('vmConfig.portGroupName'))}
          sx={{ width: 170 }}
          onChange={(e) => {
            setVm({ portGroupName: e.target.value || undefined });
          }}
        />
      </Stack>
      <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1.5, mt: 1.5, alignItems: 'flex-start' }}>
        <TextField
          select
          label={t('tpl.locationType')}
          value={value.location?.type ?? ''}
          error={err('location.type') || err('location')}
          helperText={text([...at('location'), ...at('location.type')])}
          sx={{ width: 150 }}
          onChange={(e) => {
            onChange(withRef(value, 'location', { type: e.target.value }));
          }}
        >
          <MenuItem value="">{t('common.none')}</MenuItem>
          <MenuItem value="folder">folder</MenuItem>
        </TextField>
        <TextField
          label={t('tpl.locationName')}
          value={value.location?.name ?? ''}
          error={err('location.name')}
          helperText={text(at('location.name'))}
          sx={{ width: 260 }}
          onChange={(e) => {
            onChange(withRef(value, 'location', { name: e.target.value }));
          }}
        />
        <TextField
          select
          label={t('tpl.resourceType')}
          value={value.resource?.type ?? ''}
          error={err('resource.type') || err('resource')}
          helperText={text([...at('resource'), ...at('resource.type')])}
          sx={{ width: 150 }}
          onChange={(e) => {
            onChange(withRef(value, 'resource', { type: e.target.value }));
          }}
        >
          <MenuItem value="">{t('common.none')}</MenuItem>
          <MenuItem value="cluster">cluster</MenuItem>
          <MenuItem value="host">host</MenuItem>
        </TextField>
        <TextField
          label={t('tpl.resourceName')}
          value={value.resource?.name ?? ''}
          error={err('resource.name')}
          helperText={text(at('resource.name'))}
          sx={{ width: 260 }}
          onChange={(e) => {
            onChange(withRef(value, 'resource', { name: e.target.value }));
          }}
        />
      </Stack>
      <Typography variant="subtitle2" sx={{ mt: 2 }}>
        {t('tpl.disks')}
      </Typography>
      {text(at('vmConfig.dcsMachineDiskSpec')) && (
        <Typography
          variant="body2"
          color={err('vmConfig.dcsMachineDiskSpec') ? 'error' : 'warning.main'}
          role="alert"
          tabIndex={-1}
          data-issue={err('vmConfig.dcsMachineDiskSpec') ? 'error' : 'warning'}
        >
          {text(at('vmConfig.dcsMachineDiskSpec'))}
        </Typography>
      )}
      {/* The rule says the same at the disk when it applies (R-DISK-5). */}
      {legacy && !issues.some((i) => i.rule === 'R-DISK-5') && (
        <Typography variant="body2" color="warning.main">
          {t('tpl.legacyLayout')}
        </Typography>
      )}
      {disks.map((d, i) => {
        const p = `vmConfig.dcsMachineDiskSpec.${i}`;
        const isLocked = locked(d);
        const name = d.systemVolume
          ? t('tpl.systemDisk')
          : (d.path ?? t('tpl.diskN', { n: i + 1 }));
        const set = (patch: Partial<DiskSpec>) => {
          setDisks(disks.map((x, j) => (j === i ? { ...x, ...patch } : x)));
        };
        // The row's messages go under the whole row: under a narrow field they would wrap to a
        // column of single words.
        const rowIssues = ['path', 'quantity', 'datastoreClusterName'].flatMap((f) =>
          at(`${p}.${f}`),
        );
        const rowText =
          text(rowIssues) ??
          (d.systemVolume && d.quantity === 0 ? t('tpl.systemSizeHelp') : undefined);
        const rowTextId = `${baseId}-disk-${i}-help`;
        const described = rowText ? { 'aria-describedby': rowTextId } : {};
        return (
          <Box key={i}>
            <Stack
              direction="row"
              sx={{ flexWrap: 'wrap', gap: 1, mt: 1, alignItems: 'flex-start' }}
              role="group"
              aria-label={t('tpl.diskLabel', { name })}
            >
              <TextField
                label={t('tpl.diskPath')}
                value={d.path ?? ''}
                disabled={d.systemVolume === true}
                error={err(`${p}.path`)}
                sx={{ width: 190 }}
                slotProps={{
                  htmlInput: {
                    readOnly: isLocked,
                    'aria-label': `${t('tpl.diskPath')} (${name})`,
                    ...described,
                  },
                }}
                onChange={(e) => {
                  set({ path: e.target.value || undefined });
                }}
              />
              <TextField
                label={t('tpl.diskSize')}
                type="number"
                value={d.quantity}
                error={err(`${p}.quantity`)}
                sx={{ width: 130 }}
                slotProps={{
                  htmlInput: { 'aria-label': `${t('tpl.diskSize')} (${name})`, ...described },
                }}
                onChange={(e) => {
                  set({ quantity: Number(e.target.value) });
                }}
              />
              <TextField
                label={t('tpl.datastore')}
                value={d.datastoreClusterName ?? ''}
                error={err(`${p}.datastoreClusterName`)}
                sx={{ width: 170 }}
                slotProps={{
                  htmlInput: { 'aria-label': `${t('tpl.datastore')} (${name})`, ...described },
                }}
                onChange={(e) => {
                  set({ datastoreClusterName: e.target.value || undefined });
                }}
              />
              <TextField
                label={t('tpl.diskFormat')}
                value={d.format ?? ''}
                sx={{ width: 100 }}
                slotProps={{ htmlInput: { 'aria-label': `${t('tpl.diskFormat')} (${name})` } }}
                onChange={(e) => {
                  set({ format: e.target.value || undefined });
                }}
              />
              <FormControlLabel
                label={t('tpl.systemVolume')}
                control={
                  <Checkbox
                    checked={d.systemVolume === true}
                    onChange={(e) => {
                      set({ systemVolume: e.target.checked ? true : undefined });
                    }}
                    slotProps={{ input: { 'aria-label': `${t('tpl.systemVolume')} (${name})` } }}
                  />
                }
              />
              {isLocked ? (
                <Tooltip title={t('tpl.requiredMount')}>
                  <LockOutlined
                    fontSize="small"
                    sx={{ mt: 1 }}
                    aria-label={t('tpl.requiredMount')}
                  />
                </Tooltip>
              ) : (
                <IconButton
                  size="small"
                  aria-label={t('tpl.removeDisk', { name })}
                  onClick={() => {
                    setDisks(disks.filter((_x, j) => j !== i));
                  }}
                >
                  <DeleteOutlined fontSize="small" />
                </IconButton>
              )}
            </Stack>
            {rowText && (
              <FormHelperText
                id={rowTextId}
                error={rowIssues.some((x) => x.severity === 'error')}
                sx={
                  rowIssues.length > 0 && !rowIssues.some((x) => x.severity === 'error')
                    ? { color: 'warning.main', mx: 1.75 }
                    : { mx: 1.75 }
                }
              >
                {rowText}
              </FormHelperText>
            )}
          </Box>
        );
      })}
      <Button
        size="small"
        startIcon={<Add />}
        sx={{ mt: 1 }}
        onClick={() => {
          setDisks([
            ...disks,
            {
              quantity: 50,
              path: '',
              format: 'xfs',
              datastoreClusterName: disks[disks.length - 1]?.datastoreClusterName,
            },
          ]);
        }}
      >
        {t('tpl.addDisk')}
      </Button>
    </Box>
  );
}

function withRef(
  v: MachineTemplateSpecInput,
  key: 'location' | 'resource',
  patch: { type?: string; name?: string },
): MachineTemplateSpecInput {
  const merged = { ...v[key], ...patch };
  if (!merged.type && !merged.name) return without(v, key);
  return {
    ...v,
    [key]: {
      ...(merged.type ? { type: merged.type } : {}),
      ...(merged.name ? { name: merged.name } : {}),
    },
  };
}
