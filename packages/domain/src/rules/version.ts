import {
  PROVIDER_MIN_PERSISTENT_DISKS,
  PROVIDER_MIN_WEB_WORKFLOW,
  compareProviderVersions,
} from '../versions';
import type { IpPoolEntry } from '../schemas/dcs';
import type { ValidationContext } from './context';
import type { RuleIssue } from './issue';
import { error, warning } from './make';
import { joinPath } from './util';

/**
 * R-VER-1: the web node-pool workflow needs DCS provider ≥ 1.0.13. An unknown version is a
 * warning, not an error: a console flag may override the detection, and a real platform may
 * label its Deployment differently.
 */
export function checkProviderForWebWorkflow(ctx: ValidationContext, path = ''): RuleIssue[] {
  const version = ctx.providerVersion;
  if (version === undefined) {
    return [
      warning('R-VER-1', path, 'version.providerUnknown', { required: PROVIDER_MIN_WEB_WORKFLOW }),
    ];
  }
  if (compareProviderVersions(version, PROVIDER_MIN_WEB_WORKFLOW) < 0) {
    return [
      error('R-VER-1', path, 'version.webWorkflowUnsupported', {
        version,
        required: PROVIDER_MIN_WEB_WORKFLOW,
      }),
    ];
  }
  return [];
}

/** R-VER-2: pool-managed persistent disks need provider ≥ 1.0.16 (unknown: assumed supported). */
export function providerSupportsPersistentDisks(
  ctx: Pick<ValidationContext, 'providerVersion'>,
): boolean {
  return (
    ctx.providerVersion === undefined ||
    compareProviderVersions(ctx.providerVersion, PROVIDER_MIN_PERSISTENT_DISKS) >= 0
  );
}

/** R-VER-2: an error on an entry that declares persistent disks the provider cannot manage. */
export function checkEntryPersistentDiskSupport(
  entry: Pick<IpPoolEntry, 'ip' | 'persistentDisk'>,
  ctx: ValidationContext,
  path: string,
): RuleIssue[] {
  if (!entry.persistentDisk?.length || providerSupportsPersistentDisks(ctx)) return [];
  return persistentDisksUnsupported(entry, ctx, path);
}

function persistentDisksUnsupported(
  entry: Pick<IpPoolEntry, 'ip'>,
  ctx: ValidationContext,
  path: string,
): RuleIssue[] {
  return [
    error('R-VER-2', path, 'version.persistentDisksUnsupported', {
      ip: entry.ip,
      version: ctx.providerVersion ?? '',
      required: PROVIDER_MIN_PERSISTENT_DISKS,
    }),
  ];
}

/** R-VER-2 on a list of entries (the path of each is `basePath.i.persistentDisk`). */
export function checkPersistentDiskSupport(
  entries: readonly IpPoolEntry[],
  ctx: ValidationContext,
  basePath: string,
): RuleIssue[] {
  // The provider's version is compared once for the list, not once per entry.
  if (providerSupportsPersistentDisks(ctx)) return [];
  return entries.flatMap((entry, i) =>
    entry.persistentDisk?.length
      ? persistentDisksUnsupported(entry, ctx, joinPath(basePath, i, 'persistentDisk'))
      : [],
  );
}
