import { CONTROL_PLANE_POOL_ID } from '../labels';
import type {
  CreateIpPoolRequest,
  CreatePoolRequest,
  DeleteMachinesRequest,
  EntryFieldsInput,
  MachineTemplateSpecInput,
  PatchIpPoolRequest,
  ScaleReplicasRequest,
  UpgradeRequest,
} from '../requests';
import type { DCSMachineSpec, IpPoolEntry } from '../schemas/dcs';
import type { IntOrString } from '../schemas/meta';
import { checkScaleOfAutoscaledPool, type AutoscalerBounds } from './autoscale';
import { checkKubeletPatch, checkNewBootstrapName, validateBootstrapSpec } from './bootstrap';
import type { IpPoolContext, ValidationContext } from './context';
import {
  checkCpaasPlacement,
  checkDiskChanges,
  checkTemplateCpaas,
  type PathedEntry,
} from './disk';
import { hasErrors, type RuleIssue } from './issue';
import { error, warning } from './make';
import {
  checkControlPlaneVersionChange,
  checkMachineResourceVersions,
  checkMaxSurgeWithPersistentDisks,
  checkNewObjectName,
  checkPoolName,
  checkRolloutStrategy,
  checkTargetedScaleDown,
  checkVersionOffered,
  checkVersionSkew,
  checkVmTemplateCarriesVersion,
  checkWorkerVersionChange,
} from './md';
import { versionNameToken, versionTokenOf } from '../planners/names';
import { isDns1123Subdomain } from './net';
import {
  checkEntryRemovals,
  checkNicEditOfClaimedEntry,
  checkPoolDemand,
  mergePersistentDisks,
  checkReplicasFitPool,
  reliesOnPersistentDisks,
  replicaRoom,
  resolvedMaxSurge,
  validateEntryDisks,
  validateNic,
  validatePoolEntries,
  type PoolDemand,
} from './pool';
import {
  checkTemplateChanged,
  checkNewTemplateName,
  validateMachineTemplateSpec,
} from './template';
import { joinPath, laterDuplicates, sameJson } from './util';
import { checkEntryPersistentDiskSupport, checkProviderForWebWorkflow } from './version';

/**
 * The composite validators: one per request of the BFF's mutating routes, called by the planners
 * and by the forms with the same ValidationContext. Paths are those of the request's fields.
 */

const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);

/** Moves issues found on an object outside the request to the request field that chose it. */
function reroot(issues: readonly RuleIssue[], fromPrefix: string, to: string): RuleIssue[] {
  return issues.map((i) =>
    i.path === fromPrefix || i.path.startsWith(`${fromPrefix}.`) ? { ...i, path: to } : i,
  );
}

/** A machine template's spec as a form edits it: without the pool reference the plan sets. */
function templateInput(spec: DCSMachineSpec): MachineTemplateSpecInput {
  const { ipHostPoolRef: _pool, providerID: _id, ...input } = spec;
  return input;
}

/**
 * The machine templates whose VMs take entries from `poolName`: the current template of every
 * consumer of the pool (worker pools and control planes drawing on it) and `also` (the template
 * the request is about). A consumer's template unknown: the first template naming the pool.
 */
function templatesUsingPool(
  ctx: ValidationContext,
  poolName: string,
  also?: string,
): { name: string; spec: DCSMachineSpec }[] {
  const pool = ctx.ipPools.find((p) => p.name === poolName);
  const names = new Set(
    [also, ...(pool?.consumers ?? []).map((c) => c.machineTemplate)].filter(
      (n): n is string => n !== undefined,
    ),
  );
  const known = ctx.machineTemplates.filter((t) => names.has(t.name));
  if (known.length > 0) return known;
  const any = ctx.machineTemplates.find((t) => t.spec.ipHostPoolRef.name === poolName);
  return any ? [any] : [];
}

/**
 * R-TPL-2 / R-DISK-5, one rule on every path that adds or changes entries of a pool (scale-up,
 * IP-pool append and edit, create-pool on an existing pool): each entry against the template of
 * every machine that may claim it (R-DISK-5's "/var/cpaas missing" only for new entries: an edit
 * cannot remove a disk, R-DISK-2). Issues found through several templates are reported once.
 */
function checkEntriesAgainstPoolTemplates(
  ctx: ValidationContext,
  poolName: string,
  entries: readonly PathedEntry[],
  opts: { also?: string | undefined; mountsOnly?: boolean } = {},
): RuleIssue[] {
  const seen = new Set<string>();
  const out: RuleIssue[] = [];
  for (const t of templatesUsingPool(ctx, poolName, opts.also)) {
    for (const i of checkCpaasPlacement(templateInput(t.spec), entries, ctx, '')) {
      if (opts.mountsOnly && i.messageKey !== 'disk.mountedTwice') continue;
      const key = issueKey(i);
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(i);
    }
  }
  return out;
}

const pathed = (entries: readonly IpPoolEntry[], basePath: string): PathedEntry[] =>
  entries.map((entry, i) => ({ entry, path: joinPath(basePath, i), inRequest: true }));

/** R-MD-5 for a new object's name (format and free in the namespace). */
function nameFormat(name: string, kind: string, path: string): RuleIssue[] {
  return isDns1123Subdomain(name) ? [] : [error('R-MD-5', path, 'name.invalid', { kind, name })];
}

/**
 * R-MD-5 naming: a template made for a version and named after a version names that one (a
 * v1.35.0 upgrade's template is not `…-v1-34-1-r2`), so that the name says what it runs.
 */
export function checkNameCarriesVersion(name: string, version: string, path: string): RuleIssue[] {
  const carried = versionTokenOf(name);
  const expected = versionNameToken(version);
  return carried === undefined || carried === expected
    ? []
    : [warning('R-MD-5', path, 'name.carriesOtherVersion', { name, carried, expected, version })];
}

/* ------------------------------------------------------------------------------------------ */

/**
 * O-CREATE-POOL: the pool's name (R-MD-5), its IP pool and entries (R-POOL-*, R-NIC-1,
 * R-DISK-*), replicas against the pool (R-MD-1, R-POOL-1), the strategy (R-MD-2, R-MD-3), the
 * version (R-MD-4), the machine template (R-TPL-*, R-DISK-5), the bootstrap template (R-BOOT-1,
 * R-BOOT-2) and the provider (R-VER-*).
 */
export function validateCreatePool(req: CreatePoolRequest, ctx: ValidationContext): RuleIssue[] {
  const out: RuleIssue[] = [
    ...checkProviderForWebWorkflow(ctx),
    ...checkPoolName(req.name, ctx, 'name'),
  ];

  // The IP pool: the entries it will hold, and who else draws on it.
  const poolName = req.ipPool.name;
  let entries: PathedEntry[] | undefined;
  let others: readonly PoolDemand[] = [];
  let claimed = 0;
  let byConsumers: RuleIssue[] = [];
  if (req.ipPool.mode === 'new') {
    out.push(...checkNewObjectName('DCSIpHostnamePool', poolName, ctx, 'ipPool.name'));
    out.push(...validatePoolEntries(req.ipPool.entries, ctx, 'ipPool.entries', {}));
    entries = pathed(req.ipPool.entries, 'ipPool.entries');
  } else {
    const pool = ctx.ipPools.find((p) => p.name === poolName);
    if (!pool) {
      out.push(notFound('DCSIpHostnamePool', poolName, ctx, 'ipPool.name'));
    } else {
      const { append } = req.ipPool;
      out.push(
        ...validatePoolEntries(append, ctx, 'ipPool.append', { poolName, existing: pool.entries }),
      );
      entries = [
        ...pool.entries.map((entry) => ({ entry, path: 'ipPool.name', inRequest: false })),
        ...pathed(append, 'ipPool.append'),
      ];
      // The machines of the pool's other consumers may claim the appended entries too.
      if (pool.consumers.length > 0) {
        byConsumers = checkEntriesAgainstPoolTemplates(
          ctx,
          poolName,
          pathed(append, 'ipPool.append'),
        );
      }
      others = pool.consumers;
      claimed = pool.claims.length;
    }
  }

  if (entries) {
    out.push(
      ...checkReplicasFitPool({
        poolName,
        entryCount: entries.length,
        used: Math.max(sum(others.map((c) => c.replicas)), claimed),
        deployment: {
          deployment: req.name,
          replicas: req.replicas,
          maxSurge: req.strategy.maxSurge,
        },
        others,
        path: 'replicas',
        surgePath: 'strategy.maxSurge',
      }),
    );
  }
  out.push(...checkRolloutStrategy(req.strategy, 'strategy'));
  out.push(
    ...checkMaxSurgeWithPersistentDisks(
      req.strategy.maxSurge,
      req.replicas,
      reliesOnPersistentDisks((entries ?? []).map((e) => e.entry)),
      'strategy.maxSurge',
    ),
  );
  out.push(
    ...checkVersionOffered(req.version, ctx, 'version'),
    ...checkVersionSkew(req.version, ctx, 'version'),
  );

  // The machine template.
  const mt = req.machineTemplate;
  if (mt.mode === 'new') {
    out.push(...checkNewObjectName('DCSMachineTemplate', mt.name, ctx, 'machineTemplate.name'));
    out.push(
      ...validateMachineTemplateSpec(mt.spec, ctx, 'machineTemplate.spec', {
        version: req.version,
        poolEntries: entries,
      }),
    );
  } else {
    const tpl = ctx.machineTemplates.find((t) => t.name === mt.name);
    if (!tpl) {
      out.push(notFound('DCSMachineTemplate', mt.name, ctx, 'machineTemplate.name'));
    } else {
      if (tpl.spec.ipHostPoolRef.name !== poolName) {
        out.push(
          error('R-POOL-1', 'ipPool.name', 'pool.templateUsesOtherPool', {
            template: mt.name,
            templatePool: tpl.spec.ipHostPoolRef.name,
            pool: poolName,
          }),
        );
      }
      const spec = templateInput(tpl.spec);
      out.push(
        ...checkVmTemplateCarriesVersion(
          req.version,
          spec.vmTemplateName,
          ctx,
          'machineTemplate.name',
        ),
        ...reroot(
          [
            ...checkTemplateCpaas(spec, ctx, 'machineTemplate.spec'),
            ...(entries ? checkCpaasPlacement(spec, entries, ctx, 'machineTemplate.spec') : []),
          ],
          'machineTemplate.spec',
          'machineTemplate.name',
        ),
      );
    }
  }

  // The bootstrap template.
  const bt = req.bootstrap;
  if (bt.mode === 'new') {
    out.push(...checkNewObjectName('KubeadmConfigTemplate', bt.name, ctx, 'bootstrap.name'));
    out.push(...validateBootstrapSpec(bt.spec, req.version, ctx, 'bootstrap.spec'));
  } else {
    const boot = ctx.bootstrapTemplates.find((t) => t.name === bt.name);
    if (!boot) out.push(notFound('KubeadmConfigTemplate', bt.name, ctx, 'bootstrap.name'));
    else {
      out.push(
        ...reroot(
          validateBootstrapSpec(boot.spec, req.version, ctx, 'bootstrap.spec'),
          'bootstrap.spec',
          'bootstrap.name',
        ),
      );
    }
  }
  // Reported once when the request's own template said it already.
  const said = new Set(out.map(issueKey));
  return [...out, ...byConsumers.filter((i) => !said.has(issueKey(i)))];
}

const issueKey = (i: RuleIssue) =>
  `${i.rule} ${i.path} ${i.messageKey} ${JSON.stringify(i.params)}`;

function notFound(kind: string, name: string, ctx: ValidationContext, path: string): RuleIssue {
  return error('R-MD-5', path, 'name.notFound', { kind, name, namespace: ctx.namespace });
}

/* ------------------------------------------------------------------------------------------ */

/** The worker pool a scale request is about, as the planner knows it. */
export interface ScalePool {
  name: string;
  replicas: number;
  ipPoolName: string | undefined;
  maxSurge: IntOrString | undefined;
  /** The pool's current machine template, to tell where /var/cpaas lives (R-DISK-5). */
  machineTemplateName?: string | undefined;
  /** The cluster autoscaler's bounds, when it manages the pool (R-AS-7). */
  autoscaler?: ScaleAutoscaler | undefined;
}

/** An autoscaled pool's bounds, and whether it can be scaled up from 0 (R-AS-6, R-AS-7). */
export type ScaleAutoscaler = AutoscalerBounds & { scaleFromZero?: boolean };

/**
 * O-SCALE-UP / O-SCALE-DOWN-RANDOM: the new replicas against the IP pool (R-MD-1, R-POOL-1),
 * entries appended in the same operation (R-POOL-2..4, R-NIC-1, R-DISK-1, R-DISK-5, R-VER-2).
 * Lowering replicas is never blocked by the pool.
 */
export function validateScale(
  req: ScaleReplicasRequest,
  pool: ScalePool,
  ctx: ValidationContext,
): RuleIssue[] {
  const out: RuleIssue[] = [
    ...checkProviderForWebWorkflow(ctx),
    ...checkScaleOfAutoscaledPool(
      pool.name,
      pool.replicas,
      req.replicas,
      pool.autoscaler,
      'replicas',
    ),
  ];
  const ipPool =
    pool.ipPoolName === undefined ? undefined : ctx.ipPools.find((p) => p.name === pool.ipPoolName);
  const scalingUp = req.replicas > pool.replicas;
  let appended = 0;
  const append = req.ipPoolAppend;
  if (append) {
    if (append.name !== pool.ipPoolName) {
      out.push(
        error('R-POOL-1', 'ipPoolAppend.name', 'pool.appendToOtherPool', {
          name: append.name,
          pool: pool.ipPoolName ?? '',
          deployment: pool.name,
        }),
      );
    } else if (!ipPool) {
      out.push(notFound('DCSIpHostnamePool', append.name, ctx, 'ipPoolAppend.name'));
    } else {
      out.push(
        ...validatePoolEntries(append.entries, ctx, 'ipPoolAppend.entries', {
          poolName: ipPool.name,
          existing: ipPool.entries,
        }),
      );
      out.push(
        ...checkEntriesAgainstPoolTemplates(
          ctx,
          ipPool.name,
          pathed(append.entries, 'ipPoolAppend.entries'),
          { also: pool.machineTemplateName },
        ),
      );
      appended = append.entries.length;
    }
  }
  if (!ipPool) {
    if (scalingUp) {
      out.push(warning('R-POOL-1', 'replicas', 'pool.capacityUnknown', { deployment: pool.name }));
    }
    return out;
  }
  if (scalingUp) {
    const others = ipPool.consumers.filter((c) => c.deployment !== pool.name);
    const room = replicaRoom(ipPool, pool.name, appended);
    out.push(
      ...checkReplicasFitPool({
        poolName: ipPool.name,
        entryCount: room.entries,
        used: room.heldByOthers,
        deployment: { deployment: pool.name, replicas: req.replicas, maxSurge: pool.maxSurge },
        others,
        path: 'replicas',
      }),
    );
  }
  return out;
}

/* ------------------------------------------------------------------------------------------ */

/** The worker pool a targeted scale-down is about. */
export interface DeleteMachinesPool {
  name: string;
  replicas: number;
  machines: readonly { name: string; deleting: boolean }[];
  rolloutInProgress: boolean;
  /** The cluster autoscaler's bounds, when it manages the pool (R-AS-7). */
  autoscaler?: ScaleAutoscaler | undefined;
}

/** O-SCALE-DOWN-TARGETED: R-MD-6's exact arithmetic and its preconditions. */
export function validateDeleteMachines(
  req: DeleteMachinesRequest,
  pool: DeleteMachinesPool,
  ctx: ValidationContext,
): RuleIssue[] {
  const count = new Set(req.deleteMachines).size;
  return [
    ...checkProviderForWebWorkflow(ctx),
    ...checkTargetedScaleDown(req.deleteMachines, pool),
    ...checkMachineResourceVersions(req.deleteMachines, req.machineResourceVersions),
    ...checkScaleOfAutoscaledPool(
      pool.name,
      pool.replicas,
      Math.max(0, pool.replicas - count),
      pool.autoscaler,
      'deleteMachines',
    ),
  ];
}

/* ------------------------------------------------------------------------------------------ */

/** The pool an upgrade is about (for `control-plane`: the KubeadmControlPlane's figures). */
export interface UpgradePool {
  name: string;
  version: string | undefined;
  machineTemplateName: string | undefined;
  bootstrapTemplateName: string | undefined;
  ipPoolName: string | undefined;
  replicas: number;
  maxSurge: IntOrString | undefined;
  maxUnavailable: IntOrString | undefined;
}

/**
 * O-UPGRADE-INFRA, O-UPGRADE-K8S, O-UPDATE-BOOTSTRAP and O-UPGRADE-CP: new templates under free
 * names (R-TPL-4, R-BOOT-3), their contents (R-TPL-*, R-DISK-5, R-BOOT-1, R-BOOT-2), versions
 * (R-MD-4), and what the rolling update that follows will meet (R-MD-3, R-POOL-1).
 */
export function validateUpgrade(
  req: UpgradeRequest,
  pool: UpgradePool,
  ctx: ValidationContext,
): RuleIssue[] {
  const out: RuleIssue[] = [...checkProviderForWebWorkflow(ctx)];
  const isControlPlane = pool.name === CONTROL_PLANE_POOL_ID;
  if ((req.operation === 'control-plane') !== isControlPlane) {
    return [
      ...out,
      error('R-MD-5', 'operation', 'md.operationNotForPool', {
        operation: req.operation,
        pool: pool.name,
      }),
    ];
  }
  const ipPool =
    pool.ipPoolName === undefined ? undefined : ctx.ipPools.find((p) => p.name === pool.ipPoolName);
  const currentTemplate = ctx.machineTemplates.find((t) => t.name === pool.machineTemplateName);
  const currentBootstrap = ctx.bootstrapTemplates.find(
    (t) => t.name === pool.bootstrapTemplateName,
  );

  // Versions.
  if (req.operation === 'kubernetes' || req.operation === 'control-plane') {
    out.push(...checkVersionOffered(req.version, ctx, 'version'));
    out.push(
      ...(req.operation === 'control-plane'
        ? checkControlPlaneVersionChange(pool.version, req.version, 'version')
        : [
            ...checkVersionSkew(req.version, ctx, 'version'),
            ...checkWorkerVersionChange(pool.version, req.version, 'version'),
          ]),
    );
  }

  // The new machine template.
  if (req.operation !== 'bootstrap') {
    const mt = req.machineTemplate;
    const version = req.operation === 'infrastructure' ? pool.version : req.version;
    if (version !== undefined) {
      out.push(...checkNameCarriesVersion(mt.name, version, 'machineTemplate.name'));
    }
    out.push(
      ...nameFormat(mt.name, 'DCSMachineTemplate', 'machineTemplate.name'),
      ...checkNewTemplateName(mt.name, ctx, 'machineTemplate.name'),
      ...validateMachineTemplateSpec(mt.spec, ctx, 'machineTemplate.spec', {
        version,
        // Entries already in the pool: /var/cpaas must stay mounted by the template or by them.
        poolEntries:
          isControlPlane || !ipPool
            ? undefined
            : ipPool.entries.map((entry) => ({
                entry,
                path: 'machineTemplate.spec.vmConfig.dcsMachineDiskSpec',
                inRequest: false,
              })),
      }),
      ...(currentTemplate
        ? checkTemplateChanged(templateInput(currentTemplate.spec), mt.spec, 'machineTemplate.spec')
        : []),
    );
  }

  // The bootstrap template: a new one, or the current one at the new version.
  if (req.operation === 'bootstrap' || (req.operation === 'kubernetes' && req.bootstrap)) {
    const bt = req.bootstrap;
    if (bt) {
      const version = req.operation === 'kubernetes' ? req.version : pool.version;
      if (version !== undefined) {
        out.push(...checkNameCarriesVersion(bt.name, version, 'bootstrap.name'));
      }
      out.push(
        ...nameFormat(bt.name, 'KubeadmConfigTemplate', 'bootstrap.name'),
        ...checkNewBootstrapName(bt.name, ctx, 'bootstrap.name'),
        ...validateBootstrapSpec(bt.spec, version, ctx, 'bootstrap.spec', currentBootstrap?.spec),
      );
      if (
        req.operation === 'bootstrap' &&
        currentBootstrap &&
        sameJson(currentBootstrap.spec, bt.spec)
      ) {
        out.push(
          warning('R-BOOT-3', 'bootstrap.spec', 'boot.unchanged', { name: currentBootstrap.name }),
        );
      }
    }
  } else if (req.operation === 'kubernetes' && currentBootstrap) {
    const found = checkKubeletPatch(currentBootstrap.spec, req.version, ctx, 'bootstrap');
    out.push(
      ...reroot(
        found.filter((i) => i.severity === 'warning'),
        'bootstrap',
        'bootstrap',
      ),
    );
    if (hasErrors(found)) {
      out.push(
        error('R-BOOT-1', 'bootstrap', 'boot.currentTemplateIncompatible', {
          name: currentBootstrap.name,
          version: req.version,
        }),
      );
    }
  }

  // The rolling update that follows.
  const entries = ipPool?.entries ?? [];
  out.push(
    ...checkMaxSurgeWithPersistentDisks(
      pool.maxSurge,
      pool.replicas,
      reliesOnPersistentDisks(entries),
      '',
      'warning',
    ),
  );
  if (ipPool && !isControlPlane) {
    const consumers = [
      ...ipPool.consumers.filter((c) => c.deployment !== pool.name),
      { deployment: pool.name, replicas: pool.replicas, maxSurge: pool.maxSurge },
    ];
    out.push(
      ...checkPoolDemand(ipPool.name, entries.length, consumers, '').map((i) => ({
        ...i,
        severity: 'warning' as const,
      })),
    );
  }
  return out;
}

/* ------------------------------------------------------------------------------------------ */

/** A new IP pool: its name (R-MD-5) and entries (R-POOL-2, R-POOL-3, R-NIC-1, R-DISK-1, R-VER-2). */
export function validateCreateIpPool(
  req: CreateIpPoolRequest,
  ctx: ValidationContext,
): RuleIssue[] {
  return [
    ...checkProviderForWebWorkflow(ctx),
    ...checkNewObjectName('DCSIpHostnamePool', req.name, ctx, 'name'),
    ...validatePoolEntries(req.entries, ctx, 'entries', {}),
  ];
}

/**
 * An edit of an IP pool: appended entries (R-POOL-2, R-POOL-3, R-NIC-1, R-DISK-1, R-DISK-5,
 * R-VER-2), removals (R-POOL-5, R-POOL-6, and R-POOL-1 on what remains), NIC edits (R-NIC-1,
 * R-NIC-2), persistent disk edits (R-DISK-1..4, R-DISK-6), and the edit's own consistency against
 * the current pool (R-POOL-4).
 */
export function validatePatchIpPool(
  poolName: string,
  req: PatchIpPoolRequest,
  ctx: ValidationContext,
): RuleIssue[] {
  const out: RuleIssue[] = [...checkProviderForWebWorkflow(ctx)];
  const pool = ctx.ipPools.find((p) => p.name === poolName);
  if (!pool)
    return [
      ...out,
      error('R-POOL-4', '', 'pool.notFound', { pool: poolName, namespace: ctx.namespace }),
    ];

  const removed = new Set(req.remove);
  out.push(...checkEntryRemovals(req.remove, pool, 'remove'));
  const kept = pool.entries.filter((e) => !removed.has(e.ip));
  out.push(...validatePoolEntries(req.append, ctx, 'append', { poolName, existing: kept }));
  out.push(...checkEntriesAgainstPoolTemplates(ctx, poolName, pathed(req.append, 'append')));

  out.push(...checkEntryUpdates(req.update, pool, removed, ctx));

  if (req.remove.length > 0) {
    out.push(
      ...checkPoolDemand(poolName, kept.length + req.append.length, pool.consumers, 'remove'),
    );
  }

  // R-MD-3: disks added to the pool while a deployment on it still surges.
  const touchesDisks =
    req.append.some((e) => (e.persistentDisk?.length ?? 0) > 0) ||
    req.update.some((u) => (u.persistentDisk?.length ?? 0) > 0);
  if (touchesDisks) {
    for (const c of pool.consumers) {
      const surge = resolvedMaxSurge(c.maxSurge, c.replicas);
      if (surge > 0) {
        out.push(
          warning('R-MD-3', '', 'md.consumerSurgeWithDisks', {
            deployment: c.deployment,
            maxSurge: String(c.maxSurge ?? 1),
            resolved: surge,
          }),
        );
      }
    }
  }
  return out;
}

/** An entry as an update of its own fields leaves it, judged with the others of the edit. */
interface FieldEdit {
  ip: string;
  edited: IpPoolEntry;
  setPath: string;
  /** Whether its mask is written now (R-POOL-3: a dotted mask it already had is kept). */
  newMask: boolean;
}

/**
 * An edit of an entry's own fields (issue 12, R-POOL-4): only an unclaimed entry's (R-POOL-5: a
 * machine holds the address, hostname and VM name it was created with); an ip change of an entry
 * with persistent disks is warned (R-DISK-1: a disk's identity is its entry's ip and slot). The
 * entry as it will be is returned, to be judged like a new one among the pool's others
 * (R-POOL-2, R-POOL-3) together with every other edit: {@link checkFieldEdits}.
 */
function fieldEditOf(
  ip: string,
  set: EntryFieldsInput,
  base: IpPoolEntry,
  claim: { machine: string } | undefined,
  path: string,
): { issues: RuleIssue[]; edit?: FieldEdit } {
  const setPath = joinPath(path, 'set');
  const fields = ['ip', 'mask', 'gateway', 'dns', 'hostname', 'machineName'] as const;
  const changes = fields.filter((f) => set[f] !== undefined && set[f] !== base[f]);
  if (changes.length === 0) return { issues: [] };
  if (claim) {
    return {
      issues: [
        error('R-POOL-5', setPath, 'pool.claimedEntryReadOnly', { ip, machine: claim.machine }),
      ],
    };
  }
  // The entry as it will be: a cleared optional field is gone, a cleared required one is ''.
  const edited: IpPoolEntry = { ...base };
  for (const f of changes) {
    const v = set[f] ?? '';
    if (f === 'dns' || f === 'hostname' || f === 'machineName') {
      if (v === '') edited[f] = undefined;
      else edited[f] = v;
    } else edited[f] = v;
  }
  const issues: RuleIssue[] = [];
  if (set.ip !== undefined && set.ip !== ip && (base.persistentDisk?.length ?? 0) > 0) {
    issues.push(
      warning('R-DISK-1', joinPath(setPath, 'ip'), 'pool.ipChangeWithDisks', { ip, to: set.ip }),
    );
  }
  const newMask = set.mask !== undefined && set.mask !== base.mask;
  return { issues, edit: { ip, edited, setPath, newMask } };
}

/**
 * The edited entries as they will be, judged at once (R-POOL-2, R-POOL-3) against the entries
 * the edit leaves as they are: linear in the pool and the edits (issue 25, item 6: one check per
 * edit against the whole pool and namespace was quadratic), and two edits that swap or take the
 * same value are judged by what each becomes. Each issue names the update's `set`.
 */
function checkFieldEdits(
  edits: readonly FieldEdit[],
  pool: IpPoolContext,
  removed: ReadonlySet<string>,
  ctx: ValidationContext,
): RuleIssue[] {
  if (edits.length === 0) return [];
  const editedIps = new Set(edits.map((e) => e.ip));
  const others = pool.entries.filter((e) => !editedIps.has(e.ip) && !removed.has(e.ip));
  return validatePoolEntries(
    edits.map((e) => e.edited),
    ctx,
    '',
    { poolName: pool.name, existing: others, newEntries: edits.map((e) => e.newMask) },
  ).map((issue) => {
    const [index = '', ...rest] = issue.path.split('.');
    const edit = edits[Number(index)];
    return edit ? { ...issue, path: joinPath(edit.setPath, ...rest) } : issue;
  });
}

function checkEntryUpdates(
  updates: PatchIpPoolRequest['update'],
  pool: IpPoolContext,
  removed: ReadonlySet<string>,
  ctx: ValidationContext,
): RuleIssue[] {
  const out: RuleIssue[] = [];
  // By ip, once: every check below stays linear in the pool and the updates (issue 25, item 6).
  const entries = new Map(pool.entries.map((e) => [e.ip, e]));
  const claims = new Map(pool.claims.map((c) => [c.ip, c]));
  const duplicates = new Map(laterDuplicates(updates, (u) => u.ip).map((d) => [d.index, d.first]));
  const repeated = new Set<number>();
  const fieldEdits: FieldEdit[] = [];
  updates.forEach((u, i) => {
    const path = joinPath('update', i);
    const base = entries.get(u.ip);
    if (!base) {
      out.push(
        error('R-POOL-4', joinPath(path, 'ip'), 'pool.entryNotFound', {
          ip: u.ip,
          pool: pool.name,
        }),
      );
      return;
    }
    if (removed.has(u.ip)) {
      out.push(error('R-POOL-4', joinPath(path, 'ip'), 'pool.updateOfRemovedEntry', { ip: u.ip }));
      return;
    }
    const first = duplicates.get(i);
    if (first !== undefined) {
      // Said once per entry: one update repeated is one mistake, not thousands.
      if (!repeated.has(first))
        out.push(error('R-POOL-4', joinPath(path, 'ip'), 'pool.updatedTwice', { ip: u.ip }));
      repeated.add(first);
      return;
    }
    const claim = claims.get(u.ip);
    if (u.set !== undefined) {
      const { issues, edit } = fieldEditOf(u.ip, u.set, base, claim, path);
      out.push(...issues);
      if (edit) fieldEdits.push(edit);
    }
    if (u.additionNic !== undefined) {
      const nics = u.additionNic;
      nics.forEach((nic, j) => {
        // A NIC carried over unchanged keeps what it had (a dotted mask, R-POOL-3).
        const carried = (base.additionNic ?? []).some((b) => sameJson(b, nic));
        out.push(
          ...validateNic(nic, ctx, joinPath(path, 'additionNic', j), { newEntry: !carried }),
        );
      });
      out.push(
        ...checkNicEditOfClaimedEntry(base, nics, pool.claims, joinPath(path, 'additionNic')),
      );
    }
    if (u.persistentDisk !== undefined) {
      const disksPath = joinPath(path, 'persistentDisk');
      // The disks as they will be written: matched by slot, omitted fields and disks kept.
      const merged = mergePersistentDisks(base.persistentDisk ?? [], u.persistentDisk);
      const given = u.persistentDisk;
      out.push(
        ...checkEntriesAgainstPoolTemplates(
          ctx,
          pool.name,
          [
            {
              entry: { ...base, persistentDisk: merged },
              path,
              inRequest: true,
              diskPath: (j) => {
                const k = given.findIndex((d) => d.slot === merged[j]?.slot);
                return k < 0 ? disksPath : joinPath(disksPath, k, 'path');
              },
            },
          ],
          { mountsOnly: true },
        ),
        ...validateEntryDisks(u.persistentDisk, u.ip, disksPath),
        ...checkDiskChanges(base.persistentDisk ?? [], merged, disksPath, {
          ip: u.ip,
          claimedBy: claim?.machine,
        }),
        ...checkEntryPersistentDiskSupport(
          { ip: u.ip, persistentDisk: u.persistentDisk },
          ctx,
          disksPath,
        ),
      );
    }
  });
  out.push(...checkFieldEdits(fieldEdits, pool, removed, ctx));
  return out;
}
