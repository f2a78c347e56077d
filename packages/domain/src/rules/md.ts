import { DEFAULT_MAX_SURGE, DEFAULT_MAX_UNAVAILABLE, intOrPercentProblem } from '../intstr';
import { CONTROL_PLANE_POOL_ID } from '../labels';
import type { IntOrString } from '../schemas/meta';
import {
  compareKubeVersions,
  minorSkew,
  normalizeKubeVersion,
  parseKubeVersion,
} from '../versions';
import type { ValidationContext } from './context';
import type { RuleIssue, Severity } from './issue';
import { error, issue, warning } from './make';
import { isDns1123Label, isDns1123Subdomain } from './net';
import { resolvedMaxSurge } from './pool';
import { joinPath, laterDuplicates } from './util';

/* ------------------------------------------------------------------------------------------ */
/* R-MD-2 / R-MD-3: rollout strategy                                                            */
/* ------------------------------------------------------------------------------------------ */

/**
 * R-MD-2, as Cluster API: maxSurge and maxUnavailable are a non-negative int or a percentage
 * string (a bare numeric string such as "1" is invalid); they may not both be the integer 0
 * (an unset value counts as its default).
 * Percentages that both resolve to 0 are accepted: Cluster API then uses maxUnavailable 1
 * (`resolveFenceposts`). `basePath` is the path of the object holding the two fields.
 */
export function checkRolloutStrategy(
  strategy: { maxSurge?: IntOrString | undefined; maxUnavailable?: IntOrString | undefined },
  basePath: string,
): RuleIssue[] {
  const out: RuleIssue[] = [];
  for (const field of ['maxSurge', 'maxUnavailable'] as const) {
    const value = strategy[field];
    if (value === undefined) continue;
    const problem = intOrPercentProblem(value);
    if (problem) {
      out.push(
        error('R-MD-2', joinPath(basePath, field), `md.intOrPercent.${problem}`, {
          field,
          value: String(value),
        }),
      );
    }
  }
  // Unset values take Cluster API's defaults (maxSurge 1, maxUnavailable 0): `{maxSurge: 0}`
  // alone is both integer 0 once defaulted.
  const maxSurge = strategy.maxSurge ?? DEFAULT_MAX_SURGE;
  const maxUnavailable = strategy.maxUnavailable ?? DEFAULT_MAX_UNAVAILABLE;
  if (maxSurge === 0 && maxUnavailable === 0) {
    out.push(error('R-MD-2', joinPath(basePath, 'maxUnavailable'), 'md.bothZero'));
  }
  return out;
}

/**
 * R-MD-3: a pool that relies on persistent disks keeps maxSurge = 0, so that machines are
 * replaced one at a time and fixed IP slots and kept disks move node by node. An error where the
 * user sets the strategy; a warning before a rollout of a deployment they cannot edit here.
 */
export function checkMaxSurgeWithPersistentDisks(
  maxSurge: IntOrString | undefined,
  replicas: number,
  reliesOnDisks: boolean,
  path: string,
  severity: Severity = 'error',
): RuleIssue[] {
  if (!reliesOnDisks) return [];
  const resolved = resolvedMaxSurge(maxSurge, replicas);
  if (resolved === 0) return [];
  return [
    issue(
      'R-MD-3',
      severity,
      path,
      severity === 'error' ? 'md.maxSurgeWithDisks' : 'md.rolloutSurgeWithDisks',
      {
        maxSurge: String(maxSurge ?? 1),
        resolved,
      },
    ),
  ];
}

/* ------------------------------------------------------------------------------------------ */
/* R-MD-4: versions                                                                            */
/* ------------------------------------------------------------------------------------------ */

const catalogEntry = (version: string, ctx: ValidationContext) =>
  ctx.versions.find((e) => compareKubeVersions(e.version, version) === 0);

/** R-MD-4: the version parses and the versions catalog offers it. */
export function checkVersionOffered(
  version: string,
  ctx: ValidationContext,
  path: string,
): RuleIssue[] {
  if (!parseKubeVersion(version)) {
    return [error('R-MD-4', path, 'md.versionInvalid', { value: version })];
  }
  if (ctx.versions.length === 0) return [warning('R-MD-4', path, 'md.catalogEmpty')];
  if (!catalogEntry(version, ctx)) {
    return [
      error('R-MD-4', path, 'md.versionNotInCatalog', {
        version,
        offered: ctx.versions.map((e) => e.version).join(', '),
      }),
    ];
  }
  return [];
}

/**
 * R-MD-4: the VM template carries the version (as the catalog says); a mismatch makes nodes fail
 * to join. Silent when the catalog does not know the version (checkVersionOffered says so).
 */
export function checkVmTemplateCarriesVersion(
  version: string,
  vmTemplateName: string,
  ctx: ValidationContext,
  path: string,
): RuleIssue[] {
  const entry = catalogEntry(version, ctx);
  if (!entry || entry.vmTemplateName === vmTemplateName) return [];
  const carried = ctx.versions.find((e) => e.vmTemplateName === vmTemplateName);
  return [
    error('R-MD-4', path, carried ? 'md.vmTemplateCarriesOther' : 'md.vmTemplateMismatch', {
      version: normalizeKubeVersion(version),
      vmTemplateName,
      expected: entry.vmTemplateName,
      carried: carried ? normalizeKubeVersion(carried.version) : '',
    }),
  ];
}

/** Kubernetes' version skew policy: a kubelet may be up to three minors older than the API server. */
export const MAX_WORKER_MINOR_SKEW = 3;

/**
 * R-MD-4: workers are not newer than the control plane (by minor: the skew policy counts minor
 * versions) nor more than three minor versions older.
 */
export function checkVersionSkew(
  version: string,
  ctx: ValidationContext,
  path: string,
): RuleIssue[] {
  const cp = ctx.controlPlaneVersion;
  if (!parseKubeVersion(version)) return [];
  if (cp === undefined || !parseKubeVersion(cp)) {
    return [warning('R-MD-4', path, 'md.controlPlaneUnknown')];
  }
  const skew = minorSkew(cp, version) ?? 0;
  if (skew < 0) {
    return [error('R-MD-4', path, 'md.newerThanControlPlane', { version, controlPlane: cp })];
  }
  if (skew > MAX_WORKER_MINOR_SKEW) {
    return [
      error('R-MD-4', path, 'md.tooOldForControlPlane', {
        version,
        controlPlane: cp,
        skew,
        max: MAX_WORKER_MINOR_SKEW,
      }),
    ];
  }
  return [];
}

/** R-MD-4 on a worker upgrade: same version changes nothing, an older one is a downgrade. */
export function checkWorkerVersionChange(
  current: string | undefined,
  target: string,
  path: string,
): RuleIssue[] {
  if (current === undefined || !parseKubeVersion(current) || !parseKubeVersion(target)) return [];
  const cmp = compareKubeVersions(target, current);
  if (cmp === 0) return [warning('R-MD-4', path, 'md.versionUnchanged', { version: target })];
  if (cmp < 0) return [warning('R-MD-4', path, 'md.workerDowngrade', { current, target })];
  return [];
}

/**
 * R-MD-4 on the control plane (O-UPGRADE-CP): no downgrade, and one minor version at a time, as
 * kubeadm upgrades; workers follow within the skew policy.
 */
export function checkControlPlaneVersionChange(
  current: string | undefined,
  target: string,
  path: string,
): RuleIssue[] {
  if (current === undefined || !parseKubeVersion(current) || !parseKubeVersion(target)) return [];
  const cmp = compareKubeVersions(target, current);
  if (cmp === 0) return [warning('R-MD-4', path, 'md.versionUnchanged', { version: target })];
  if (cmp < 0) return [error('R-MD-4', path, 'md.controlPlaneDowngrade', { current, target })];
  const skew = minorSkew(target, current) ?? 0;
  if (skew > 1) {
    return [error('R-MD-4', path, 'md.controlPlaneSkipsMinor', { current, target, skew })];
  }
  return [];
}

/* ------------------------------------------------------------------------------------------ */
/* R-MD-5: names                                                                               */
/* ------------------------------------------------------------------------------------------ */

/**
 * R-MD-5: a worker pool's name is its MachineDeployment's name and its `pool.name` label, so a
 * DNS-1123 label (a label value is at most 63 characters); free in the namespace, which all
 * clusters share; not the reserved `control-plane`; the `<cluster>-` prefix is recommended.
 */
export function checkPoolName(name: string, ctx: ValidationContext, path: string): RuleIssue[] {
  if (name === CONTROL_PLANE_POOL_ID) {
    return [error('R-MD-5', path, 'name.reserved', { name })];
  }
  if (!isDns1123Label(name)) return [error('R-MD-5', path, 'name.poolInvalid', { name })];
  const out: RuleIssue[] = [];
  if (ctx.namesInUse.machineDeployments.includes(name)) {
    out.push(
      error('R-MD-5', path, 'name.inUse', {
        kind: 'MachineDeployment',
        name,
        namespace: ctx.namespace,
      }),
    );
  }
  const prefix = `${ctx.clusterName}-`;
  if (!name.startsWith(prefix)) {
    out.push(
      warning('R-MD-5', path, 'name.prefixRecommended', { name, prefix, example: prefix + name }),
    );
  }
  return out;
}

export type NamedKind = 'DCSMachineTemplate' | 'KubeadmConfigTemplate' | 'DCSIpHostnamePool';

const namesOf = (kind: NamedKind, ctx: ValidationContext): readonly string[] =>
  kind === 'DCSMachineTemplate'
    ? ctx.namesInUse.machineTemplates
    : kind === 'KubeadmConfigTemplate'
      ? ctx.namesInUse.bootstrapTemplates
      : ctx.namesInUse.ipPools;

/** R-MD-5: the name of a template or IP pool created with the pool is valid and free. */
export function checkNewObjectName(
  kind: NamedKind,
  name: string,
  ctx: ValidationContext,
  path: string,
): RuleIssue[] {
  if (!isDns1123Subdomain(name)) return [error('R-MD-5', path, 'name.invalid', { kind, name })];
  return namesOf(kind, ctx).includes(name)
    ? [error('R-MD-5', path, 'name.inUse', { kind, name, namespace: ctx.namespace })]
    : [];
}

/** R-MD-5: an object the request names as existing is in the namespace. */
export function checkObjectExists(
  kind: NamedKind,
  name: string,
  ctx: ValidationContext,
  path: string,
): RuleIssue[] {
  return namesOf(kind, ctx).includes(name)
    ? []
    : [error('R-MD-5', path, 'name.notFound', { kind, name, namespace: ctx.namespace })];
}

/* ------------------------------------------------------------------------------------------ */
/* R-MD-6: targeted scale-down                                                                 */
/* ------------------------------------------------------------------------------------------ */

export interface TargetedScaleDownPool {
  name: string;
  replicas: number;
  machines: readonly { name: string; deleting: boolean }[];
  rolloutInProgress: boolean;
}

/**
 * R-MD-6: annotate exactly the machines to delete, then lower replicas by exactly that number.
 * The arithmetic only holds on a steady pool: every named machine is one of the pool's, not yet
 * deleting, named once; no rollout in progress; as many live machines as replicas.
 */
export function checkTargetedScaleDown(
  deleteMachines: readonly string[],
  pool: TargetedScaleDownPool,
  basePath = 'deleteMachines',
): RuleIssue[] {
  const out: RuleIssue[] = [];
  const byName = new Map(pool.machines.map((m) => [m.name, m]));
  for (const dup of laterDuplicates(deleteMachines, (n) => n)) {
    out.push(
      error('R-MD-6', joinPath(basePath, dup.index), 'md.deleteDuplicate', { machine: dup.key }),
    );
  }
  deleteMachines.forEach((name, i) => {
    const m = byName.get(name);
    if (!m) {
      out.push(
        error('R-MD-6', joinPath(basePath, i), 'md.deleteNotInPool', {
          machine: name,
          pool: pool.name,
        }),
      );
    } else if (m.deleting) {
      out.push(
        error('R-MD-6', joinPath(basePath, i), 'md.deleteAlreadyDeleting', { machine: name }),
      );
    }
  });
  const count = new Set(deleteMachines).size;
  if (count > pool.replicas) {
    out.push(
      error('R-MD-6', basePath, 'md.deleteMoreThanReplicas', { count, replicas: pool.replicas }),
    );
  }
  if (pool.rolloutInProgress) {
    out.push(error('R-MD-6', basePath, 'md.deleteDuringRollout', { pool: pool.name }));
  } else {
    const live = pool.machines.filter((m) => !m.deleting).length;
    if (live !== pool.replicas) {
      out.push(
        error('R-MD-6', basePath, 'md.deleteWhileScaling', {
          pool: pool.name,
          live,
          replicas: pool.replicas,
        }),
      );
    }
  }
  return out;
}

/** R-MD-6: each named machine comes with the resourceVersion the user saw (its precondition). */
export function checkMachineResourceVersions(
  deleteMachines: readonly string[],
  resourceVersions: Readonly<Record<string, string>>,
  path = 'machineResourceVersions',
): RuleIssue[] {
  return [...new Set(deleteMachines)]
    .filter((name) => !(name in resourceVersions))
    .map((machine) => error('R-MD-6', path, 'md.deleteResourceVersionMissing', { machine }));
}
