import type { RuleId } from '../rules/issue';

/**
 * The one mapping from a request field to the domain rule that owns it (issue 12): when a request
 * schema refuses a field (wrong type, missing, too small …), the 400 names that rule, not
 * `R-REQUEST`, so that the refusal reads like the rules' own (`replicas` → R-MD-1, `maxSurge` →
 * R-MD-2, an entry's `ip` → R-POOL-3 …). A field no rule owns (resourceVersion, a discriminator,
 * a clean-up flag) stays `R-REQUEST`.
 *
 * Patterns are dotted paths: `*` is one segment (an index or a key), a leading `**.` any prefix.
 * The first match wins, so the narrow patterns come first. Project-defined: **R-MD-7** (node
 * timeouts are Go durations, not negative; DOMAIN.md names the fields, no rule) and **R-AS-1** (the
 * cluster autoscaler's bounds, `src/rules/autoscale.ts`).
 */
export const REQUEST_FIELD_RULES: readonly (readonly [pattern: string, rule: RuleId])[] = [
  ['**.maxSurge', 'R-MD-2'],
  ['**.maxUnavailable', 'R-MD-2'],
  ['nodeDrainTimeout', 'R-MD-7'],
  ['nodeDeletionTimeout', 'R-MD-7'],
  ['nodeVolumeDetachTimeout', 'R-MD-7'],
  ['replicas', 'R-MD-1'],
  // O-AUTOSCALE: the autoscaler's bounds are whole numbers, 0 or more (R-AS-1).
  ['minSize', 'R-AS-1'],
  ['maxSize', 'R-AS-1'],
  // O-MHC-CREATE / O-MHC-EDIT (project-defined, rules/health-check.ts).
  ['unhealthyNodeConditions', 'R-MHC-1'],
  ['unhealthyNodeConditions.*', 'R-MHC-2'],
  ['unhealthyNodeConditions.*.*', 'R-MHC-2'],
  ['nodeStartupTimeoutSeconds', 'R-MHC-3'],
  ['maxUnhealthy', 'R-MHC-4'],
  ['unhealthyRange', 'R-MHC-4'],
  ['version', 'R-MD-4'],
  ['name', 'R-MD-5'],
  ['ipPool.name', 'R-MD-5'],
  ['ipPoolAppend.name', 'R-POOL-1'],
  // O-RESTART's "at a time" (project-defined, rules/restart.ts).
  ['at', 'R-RESTART-3'],
  ['deleteMachines', 'R-MD-6'],
  ['deleteMachines.*', 'R-MD-6'],
  ['machineResourceVersions', 'R-MD-6'],
  ['machineResourceVersions.*', 'R-MD-6'],
  ['machineTemplate.name', 'R-TPL-4'],
  ['machineTemplate.spec.vmTemplateName', 'R-TPL-3'],
  ['machineTemplate.spec.location.*', 'R-TPL-3'],
  ['machineTemplate.spec.resource.*', 'R-TPL-3'],
  ['machineTemplate.spec.vmConfig.dvSwitchName', 'R-TPL-3'],
  ['machineTemplate.spec.vmConfig.portGroupName', 'R-TPL-3'],
  ['machineTemplate.spec.vmConfig.dcsMachineCpuSpec.quantity', 'R-TPL-3'],
  ['machineTemplate.spec.vmConfig.dcsMachineMemorySpec.quantity', 'R-TPL-3'],
  ['machineTemplate.spec.vmConfig.dcsMachineDiskSpec.*.quantity', 'R-TPL-1'],
  ['machineTemplate.spec.vmConfig.dcsMachineDiskSpec.*.systemVolume', 'R-TPL-1'],
  ['machineTemplate.spec.vmConfig.dcsMachineDiskSpec.*.path', 'R-TPL-2'],
  ['bootstrap.name', 'R-BOOT-3'],
  ['remove.*', 'R-POOL-6'],
  ['update.*.ip', 'R-POOL-4'],
  ['**.additionNic.*.*', 'R-NIC-1'],
  ['**.persistentDisk.*.slot', 'R-DISK-1'],
  ['**.persistentDisk.*.format', 'R-DISK-3'],
  ['**.persistentDisk.*.options', 'R-DISK-3'],
  ['**.persistentDisk.*.pciType', 'R-DISK-3'],
  ['**.persistentDisk.*.isThin', 'R-DISK-3'],
  ['**.persistentDisk.*.*', 'R-POOL-3'],
  ['**.ip', 'R-POOL-3'],
  ['**.mask', 'R-POOL-3'],
  ['**.gateway', 'R-POOL-3'],
  ['**.dns', 'R-POOL-3'],
  ['**.hostname', 'R-POOL-3'],
  ['**.machineName', 'R-POOL-3'],
];

function matches(pattern: string, path: readonly string[]): boolean {
  const anyPrefix = pattern.startsWith('**.');
  const parts = (anyPrefix ? pattern.slice(3) : pattern).split('.');
  if (anyPrefix ? path.length < parts.length : path.length !== parts.length) return false;
  const tail = path.slice(path.length - parts.length);
  return parts.every((p, i) => p === '*' || p === tail[i]);
}

/** The domain rule that owns the request field at `path`, or `R-REQUEST` when none does. */
export function requestFieldRule(path: readonly PropertyKey[]): RuleId {
  const segments = path.map(String);
  for (const [pattern, rule] of REQUEST_FIELD_RULES) if (matches(pattern, segments)) return rule;
  return 'R-REQUEST';
}
