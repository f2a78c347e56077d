import type { KubeadmConfigSpec } from '../schemas/bootstrap';
import { jsonEqual } from '../planners/json-patch';
import { validateBootstrapSpec } from './bootstrap';
import type { ValidationContext } from './context';
import type { RuleIssue } from './issue';
import { error } from './make';
import { joinPath } from './util';

/**
 * O-EDIT-CP-CONFIG (issue 12): the rules on a new `spec.kubeadmConfigSpec` of a
 * KubeadmControlPlane. The bootstrap rules hold as for worker templates (R-BOOT-1 for the control
 * plane's version, R-BOOT-2 compared with the current spec, Secret references); and only what
 * KubeadmControlPlane's webhook lets change in place may change (R-CP-CONFIG): the files,
 * users, commands, ntp, mounts, disk setup, format, and the nodeRegistration and patches of
 * init/joinConfiguration. clusterConfiguration and the rest of init/joinConfiguration are refused
 * by Cluster API on an existing control plane, so the console refuses them before the server.
 */

/** Top-level fields of kubeadmConfigSpec that KCP's webhook lets change on an existing object. */
export const CP_CONFIG_EDITABLE = [
  'format',
  'files',
  'users',
  'ntp',
  'mounts',
  'diskSetup',
  'preKubeadmCommands',
  'postKubeadmCommands',
  'verbosity',
  'useExperimentalRetryJoin',
  'ignition',
  'initConfiguration',
  'joinConfiguration',
] as const;

/** Inside init/joinConfiguration, what may change (the rest is kubeadm's cluster wiring). */
const NODE_FIELDS = ['nodeRegistration', 'patches', 'skipPhases'];

const asRecord = (v: unknown): Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

/** The fields of `after` that differ from `before` and that KCP's webhook would refuse. */
export function lockedConfigChanges(before: KubeadmConfigSpec, after: KubeadmConfigSpec): string[] {
  const out: string[] = [];
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  for (const key of [...keys].sort()) {
    const was = (before as Record<string, unknown>)[key];
    const now = (after as Record<string, unknown>)[key];
    if (jsonEqual(was, now)) continue;
    if (key === 'initConfiguration' || key === 'joinConfiguration') {
      const w = asRecord(was);
      const n = asRecord(now);
      for (const sub of [...new Set([...Object.keys(w), ...Object.keys(n)])].sort()) {
        if (NODE_FIELDS.includes(sub) || jsonEqual(w[sub], n[sub])) continue;
        out.push(`${key}.${sub}`);
      }
      continue;
    }
    if (!(CP_CONFIG_EDITABLE as readonly string[]).includes(key)) out.push(key);
  }
  return out;
}

/**
 * O-EDIT-CP-CONFIG: `spec` as the control plane would have it, judged against `base` (its
 * current kubeadmConfigSpec) at `version` (the KubeadmControlPlane's spec.version).
 */
export function validateControlPlaneConfig(
  spec: KubeadmConfigSpec,
  base: KubeadmConfigSpec,
  version: string | undefined,
  ctx: ValidationContext,
  basePath = 'kubeadmConfigSpec',
): RuleIssue[] {
  return [
    ...lockedConfigChanges(base, spec).map((field) =>
      error('R-CP-CONFIG', joinPath(basePath, field), 'cp.configFieldLocked', { field }),
    ),
    ...validateBootstrapSpec(spec, version, ctx, basePath, base),
  ];
}
