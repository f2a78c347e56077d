import type { DiskSpec, IpPoolEntry, PersistentDisk } from '../schemas/dcs';
import type { MachineTemplateSpecInput } from '../requests';
import type { ValidationContext } from './context';
import type { RuleIssue } from './issue';
import { error, warning } from './make';
import { joinPath, normalizeMountPath } from './util';
import { providerSupportsPersistentDisks } from './version';

/** The platform's required mount (R-DISK-5). */
export const CPAAS_MOUNT = '/var/cpaas';

/** Fields fixed once the volume exists (R-DISK-3). */
const IMMUTABLE_DISK_FIELDS = ['format', 'options', 'pciType'] as const;
/** Fields whose change affects rolling updates (R-DISK-4). */
const ROLLING_DISK_FIELDS = ['quantityGB', 'datastoreClusterName'] as const;

/**
 * R-DISK-2..4 and R-DISK-6 on one entry's persistent disks, old against new (matched by slot):
 * a disk may be appended, never removed (R-DISK-2); format, options and pciType are immutable and
 * a changed isThin changes nothing for existing volumes (R-DISK-3); quantityGB and datastore
 * changes affect rolling updates (R-DISK-4); a disk appended to a claimed entry is attached to
 * the running VM but neither formatted nor mounted until the VM is replaced (R-DISK-6).
 * `path` is the path of the new disk list.
 */
export function checkDiskChanges(
  oldDisks: readonly PersistentDisk[],
  newDisks: readonly PersistentDisk[],
  path: string,
  entry: { ip: string; claimedBy?: string | undefined },
): RuleIssue[] {
  const out: RuleIssue[] = [];
  const { ip } = entry;
  for (const old of oldDisks) {
    const index = newDisks.findIndex((d) => d.slot === old.slot);
    const now = newDisks[index];
    if (now === undefined) {
      out.push(error('R-DISK-2', path, 'disk.removed', { ip, slot: old.slot }));
      continue;
    }
    const diskPath = joinPath(path, index);
    for (const field of IMMUTABLE_DISK_FIELDS) {
      if (old[field] !== now[field]) {
        out.push(
          error('R-DISK-3', joinPath(diskPath, field), 'disk.immutableChanged', {
            ip,
            slot: old.slot,
            field,
            old: old[field] ?? '',
            new: now[field] ?? '',
          }),
        );
      }
    }
    if (old.isThin !== now.isThin) {
      out.push(
        warning('R-DISK-3', joinPath(diskPath, 'isThin'), 'disk.isThinChanged', {
          ip,
          slot: old.slot,
        }),
      );
    }
    for (const field of ROLLING_DISK_FIELDS) {
      if (old[field] !== now[field]) {
        out.push(
          warning('R-DISK-4', joinPath(diskPath, field), 'disk.rollingChange', {
            ip,
            slot: old.slot,
            field,
            old: old[field] ?? '',
            new: now[field] ?? '',
          }),
        );
      }
    }
  }
  if (entry.claimedBy !== undefined) {
    newDisks.forEach((d, index) => {
      if (!oldDisks.some((o) => o.slot === d.slot)) {
        out.push(
          warning('R-DISK-6', joinPath(path, index), 'disk.appendedToRunningVm', {
            ip,
            slot: d.slot,
            machine: entry.claimedBy ?? '',
          }),
        );
      }
    });
  }
  return out;
}

const mountOf = (d: { path?: string | undefined }) =>
  d.path === undefined || d.path.trim() === '' ? undefined : normalizeMountPath(d.path);

/** The index of the template's non-system disk mounted at `mount`, or -1. */
export function templateMountIndex(disks: readonly DiskSpec[], mount: string): number {
  return disks.findIndex((d) => d.systemVolume !== true && mountOf(d) === mount);
}

/**
 * The legacy disk layout (R-DISK-5): the template mounts /var/cpaas, which with provider ≥ 1.0.16
 * belongs in the pool's persistentDisk.
 */
export function usesLegacyDiskLayout(spec: MachineTemplateSpecInput): boolean {
  return templateMountIndex(spec.vmConfig?.dcsMachineDiskSpec ?? [], CPAAS_MOUNT) >= 0;
}

/**
 * R-DISK-5 / R-TPL-2 on a template alone: with provider ≥ 1.0.16 a template that mounts
 * /var/cpaas is shown as the legacy layout, with a pointer to migrate; below 1.0.16 the template
 * is the only place /var/cpaas can be, so it must mount it.
 */
export function checkTemplateCpaas(
  spec: MachineTemplateSpecInput,
  ctx: Pick<ValidationContext, 'providerVersion'>,
  basePath: string,
): RuleIssue[] {
  const disksPath = joinPath(basePath, 'vmConfig.dcsMachineDiskSpec');
  const index = templateMountIndex(spec.vmConfig?.dcsMachineDiskSpec ?? [], CPAAS_MOUNT);
  if (providerSupportsPersistentDisks(ctx)) {
    return index < 0
      ? []
      : [
          warning('R-DISK-5', joinPath(disksPath, index, 'path'), 'disk.legacyLayout', {
            path: CPAAS_MOUNT,
          }),
        ];
  }
  return index >= 0
    ? []
    : [
        error('R-TPL-2', disksPath, 'tpl.cpaasRequiredInTemplate', {
          path: CPAAS_MOUNT,
          version: ctx.providerVersion ?? '',
        }),
      ];
}

/** A pool entry with the request path where the user can fix it. */
export interface PathedEntry {
  entry: IpPoolEntry;
  /** The entry's path in the request, or the field that chose the pool for an existing entry. */
  path: string;
  /** False for an entry already in the pool and not part of the request. */
  inRequest: boolean;
  /**
   * Where the user fixes disk `j` of the entry, when the request lists the disks in another
   * order than the entry will hold them (an edit names only some disks, R-POOL-4).
   */
  diskPath?: ((j: number) => string) | undefined;
}

/**
 * R-DISK-5 / R-TPL-2 across a template and the entries of the pool it uses (provider ≥ 1.0.16):
 * /var/cpaas must be mounted exactly once on every VM, by the template (legacy layout) or by the
 * entry's persistentDisk; no other path may be mounted by both.
 */
export function checkCpaasPlacement(
  spec: MachineTemplateSpecInput,
  entries: readonly PathedEntry[],
  ctx: Pick<ValidationContext, 'providerVersion'>,
  basePath: string,
): RuleIssue[] {
  if (!providerSupportsPersistentDisks(ctx)) return [];
  const out: RuleIssue[] = [];
  const disksPath = joinPath(basePath, 'vmConfig.dcsMachineDiskSpec');
  const tplDisks = spec.vmConfig?.dcsMachineDiskSpec ?? [];
  const tplHasCpaas = templateMountIndex(tplDisks, CPAAS_MOUNT) >= 0;
  for (const { entry, path, inRequest, diskPath } of entries) {
    const disks = entry.persistentDisk ?? [];
    const entryHasCpaas = disks.some((d) => mountOf(d) === CPAAS_MOUNT);
    disks.forEach((d, j) => {
      const mount = mountOf(d);
      if (mount === undefined) return;
      const tplIndex = templateMountIndex(tplDisks, mount);
      if (tplIndex >= 0) {
        out.push(
          error(
            'R-TPL-2',
            inRequest
              ? (diskPath?.(j) ?? joinPath(path, 'persistentDisk', j, 'path'))
              : joinPath(disksPath, tplIndex, 'path'),
            'disk.mountedTwice',
            { ip: entry.ip, path: mount },
          ),
        );
      }
    });
    if (!tplHasCpaas && !entryHasCpaas) {
      out.push(
        error(
          'R-DISK-5',
          inRequest ? joinPath(path, 'persistentDisk') : path,
          'disk.cpaasMissing',
          {
            ip: entry.ip,
            path: CPAAS_MOUNT,
          },
        ),
      );
    }
  }
  return out;
}
