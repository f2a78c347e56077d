import { CONTROL_PLANE_POOL_ID } from '../labels';
import type { MachineTemplateSpecInput, UpgradeRequest } from '../requests';
import { templateSpecField, withinJsonBounds } from './bounds';
import type { ValidationContext } from '../rules/context';
import type { RuleIssue } from '../rules/issue';
import { validateUpgrade, type UpgradePool } from '../rules/validators';
import type { KubeadmConfigSpec, KubeadmConfigTemplate } from '../schemas/bootstrap';
import type { MachineDeployment } from '../schemas/capi';
import type { KubeadmControlPlane } from '../schemas/controlplane';
import type { DCSMachineSpec, DCSMachineTemplate } from '../schemas/dcs';
import { normalizeKubeVersion } from '../versions';
import { diffObjects, type FieldChange } from './diff';
import { mergeIssues, notFoundIssue, staleIssue } from './issues';
import { checkKubeletPatch } from '../rules/bootstrap';
import { kubeadmConfigForVersion } from './bootstrap-defaults';
import {
  addOp,
  jsonClone,
  jsonEqual,
  replaceOp,
  testOp,
  testResourceVersion,
  type JsonPatchOp,
} from './json-patch';
import { planMessage, type PlanMessage } from './messages';
import {
  API_BOOTSTRAP,
  API_INFRASTRUCTURE,
  copyForCreate,
  createStep,
  forPool,
  finishPlan,
  jsonPatchStep,
  newMetadata,
} from './objects';
import type { KubeObject, OperationId, Plan, PlanStep } from './plan';
import { rolloutImpactOf } from './rollout';
import { ipPoolNameOf, specReplicas } from './scale';

/**
 * Upgrades replace templates instead of editing them (R-TPL-4, R-BOOT-3): a copy under a new name
 * with the user's changes is created first, then one JSON patch of the MachineDeployment (or
 * KubeadmControlPlane) switches to it, guarded by the resourceVersion the user saw and by the
 * values it replaces. Cluster API then rolls the machines.
 */

type Req<O extends UpgradeRequest['operation']> = Extract<UpgradeRequest, { operation: O }>;

/** The objects an upgrade starts from, as the user saw them. */
export interface UpgradeCurrent {
  machineDeployment?: MachineDeployment;
  kubeadmControlPlane?: KubeadmControlPlane;
  /** The machine template in use; else it is taken from the context's templates. */
  machineTemplate?: DCSMachineTemplate;
  /** The bootstrap template in use; else it is taken from the context's templates. */
  bootstrapTemplate?: KubeadmConfigTemplate;
}

const MD_INFRA_REF = '/spec/template/spec/infrastructureRef/name';
const MD_CONFIG_REF = '/spec/template/spec/bootstrap/configRef/name';
const MD_VERSION = '/spec/template/spec/version';
const KCP_INFRA_REF = '/spec/machineTemplate/infrastructureRef/name';
const KCP_VERSION = '/spec/version';

/** The machine template `name` as an object: the one given, else rebuilt from the context. */
function machineTemplateSource(
  name: string,
  given: DCSMachineTemplate | undefined,
  ctx: ValidationContext,
): DCSMachineTemplate | undefined {
  if (given?.metadata.name === name) return given;
  const known = ctx.machineTemplates.find((t) => t.name === name);
  return (
    known && {
      apiVersion: API_INFRASTRUCTURE,
      kind: 'DCSMachineTemplate',
      metadata: { name, namespace: ctx.namespace },
      spec: { template: { spec: known.spec } },
    }
  );
}

function bootstrapTemplateSource(
  name: string,
  given: KubeadmConfigTemplate | undefined,
  ctx: ValidationContext,
): KubeadmConfigTemplate | undefined {
  if (given?.metadata.name === name) return given;
  const known = ctx.bootstrapTemplates.find((t) => t.name === name);
  return (
    known && {
      apiVersion: API_BOOTSTRAP,
      kind: 'KubeadmConfigTemplate',
      metadata: { name, namespace: ctx.namespace },
      spec: { template: { spec: known.spec } },
    }
  );
}

/**
 * A copy of `source` named `name` whose spec is `spec` (R-TPL-4). The IP pool reference is the
 * source's: an upgrade keeps the pool's fixed addresses and persistent disks.
 */
export function cloneMachineTemplate(
  source: DCSMachineTemplate,
  name: string,
  spec: MachineTemplateSpecInput,
  pool?: string,
): DCSMachineTemplate {
  // Labelled for the worker pool it is made for (LABEL_TEMPLATE_POOL), not the source's pool.
  const copy = forPool(copyForCreate(source, name), pool);
  const ipHostPoolRef = jsonClone(source.spec?.template.spec.ipHostPoolRef ?? { name: '' });
  return {
    ...copy,
    spec: {
      ...copy.spec,
      template: { ...copy.spec?.template, spec: { ...jsonClone(spec), ipHostPoolRef } },
    },
  };
}

/** A copy of `source` named `name` whose spec is `spec` (R-BOOT-3). */
export function cloneBootstrapTemplate(
  source: KubeadmConfigTemplate | undefined,
  name: string,
  namespace: string,
  spec: KubeadmConfigSpec,
  pool?: string,
): KubeadmConfigTemplate {
  const copy: KubeadmConfigTemplate = forPool(
    source
      ? copyForCreate(source, name)
      : {
          apiVersion: API_BOOTSTRAP,
          kind: 'KubeadmConfigTemplate',
          metadata: newMetadata(name, namespace),
        },
    pool,
  );
  return {
    ...copy,
    spec: { ...copy.spec, template: { ...copy.spec?.template, spec: jsonClone(spec) } },
  };
}

/** What changes from one machine template spec to another, for the preview. */
export function machineTemplateChanges(
  before: DCSMachineSpec | undefined,
  after: DCSMachineSpec | undefined,
): FieldChange[] {
  return diffObjects(before, after);
}

/** The VM template the versions catalog names for `version` (R-MD-4). */
export function vmTemplateFor(version: string, ctx: ValidationContext): string | undefined {
  const v = normalizeKubeVersion(version);
  return ctx.versions.find((e) => normalizeKubeVersion(e.version) === v)?.vmTemplateName;
}

/**
 * The request as the plan carries it out: the new machine template on the VM template that the
 * versions catalog names for the target version (R-MD-4: any other makes nodes fail to join),
 * with a note when that is not the one the request named. The rules judge this effective request.
 */
export function withCatalogVmTemplate<R extends Req<'kubernetes' | 'control-plane'>>(
  req: R,
  ctx: ValidationContext,
): { req: R; notes: PlanMessage[] } {
  const version = normalizeKubeVersion(req.version);
  const vmTemplate = vmTemplateFor(version, ctx);
  const requested = req.machineTemplate.spec.vmTemplateName;
  if (vmTemplate === undefined || vmTemplate === requested) return { req, notes: [] };
  return {
    req: {
      ...req,
      machineTemplate: {
        ...req.machineTemplate,
        spec: { ...req.machineTemplate.spec, vmTemplateName: vmTemplate },
      },
    },
    notes: [planMessage('plan.effect.vmTemplateFromCatalog', { vmTemplate, version, requested })],
  };
}

/** Tests that `path` still holds `value` then replaces it (or adds it when it was unset). */
function swap(path: string, before: string | undefined, after: string): JsonPatchOp[] {
  return before === undefined
    ? [addOp(path, after)]
    : [testOp(path, before), replaceOp(path, after)];
}

interface Parts {
  steps: PlanStep[];
  issues: RuleIssue[];
  clones: Record<string, KubeObject>;
  /** The worker pool the new templates are made for (none for the control plane). */
  pool?: string;
}

function newMachineTemplate(
  parts: Parts,
  oldName: string,
  given: DCSMachineTemplate | undefined,
  ctx: ValidationContext,
  req: { name: string; spec: MachineTemplateSpecInput },
): boolean {
  const source = machineTemplateSource(oldName, given, ctx);
  if (!source) {
    parts.issues.push(notFoundIssue('DCSMachineTemplate', oldName, 'machineTemplate'));
    return false;
  }
  parts.clones[req.name] = source;
  parts.steps.push(
    createStep(
      'DCSMachineTemplate',
      cloneMachineTemplate(source, req.name, req.spec, parts.pool),
      planMessage('plan.step.cloneMachineTemplate', { name: req.name, from: oldName }),
    ),
  );
  return true;
}

function newBootstrapTemplate(
  parts: Parts,
  oldName: string | undefined,
  given: KubeadmConfigTemplate | undefined,
  ctx: ValidationContext,
  req: { name: string; spec: KubeadmConfigSpec },
): void {
  const source = oldName ? bootstrapTemplateSource(oldName, given, ctx) : undefined;
  if (source) parts.clones[req.name] = source;
  parts.steps.push(
    createStep(
      'KubeadmConfigTemplate',
      cloneBootstrapTemplate(source, req.name, ctx.namespace, req.spec, parts.pool),
      source && oldName
        ? planMessage('plan.step.cloneBootstrapTemplate', { name: req.name, from: oldName })
        : planMessage('plan.step.createBootstrapTemplate', { name: req.name }),
    ),
  );
}

function workerPlan(
  operation: OperationId,
  req: Req<'infrastructure' | 'kubernetes' | 'bootstrap'>,
  current: UpgradeCurrent,
  ctx: ValidationContext,
  build: (md: MachineDeployment, parts: Parts) => { ops: JsonPatchOp[]; description: PlanMessage },
  notes: PlanMessage[] = [],
): Plan {
  const md = current.machineDeployment;
  const parts: Parts = { steps: [], issues: [], clones: {} };
  if (!md) {
    parts.issues.push(notFoundIssue('MachineDeployment', '', 'pool'));
    return finishPlan({
      operation,
      namespace: ctx.namespace,
      target: { kind: 'MachineDeployment', name: '' },
      steps: [],
      issues: parts.issues,
      known: [],
    });
  }
  const name = md.metadata.name ?? '';
  parts.pool = name;
  parts.issues.push(
    ...staleIssue('MachineDeployment', name, req.resourceVersion, md.metadata.resourceVersion),
  );
  const { ops, description } = build(md, parts);
  // Only when every new template could be made: a switch to a template that is not there
  // would leave the pool unable to create machines.
  if (!parts.issues.some((i) => i.rule === 'R-PLAN-NOT-FOUND')) {
    parts.steps.push(
      jsonPatchStep(
        md,
        'MachineDeployment',
        [testResourceVersion(req.resourceVersion), ...ops],
        description,
      ),
    );
  }
  const poolName = ipPoolNameOf(md, ctx);
  const pool = ctx.ipPools.find((p) => p.name === poolName);
  const disks = pool?.entries.some((e) => e.persistentDisk?.length) ?? false;
  return finishPlan({
    operation,
    namespace: ctx.namespace,
    target: { kind: 'MachineDeployment', name },
    steps: parts.steps,
    issues: mergeIssues(validateUpgrade(req, workerUpgradePoolInfo(md, ctx), ctx), parts.issues),
    known: [md],
    clones: parts.clones,
    effects: {
      rollout: rolloutImpactOf(md),
      created: parts.steps
        .filter((s) => s.verb === 'create')
        .map((s) => ({ kind: s.kind, name: s.name })),
      notes: [...notes, ...(disks ? [planMessage('plan.effect.persistentDisksMove')] : [])],
    },
  });
}

/** O-UPGRADE-INFRA: a new machine template with the changes, then `infrastructureRef.name`. */
export function planUpgradeInfra(
  req: Req<'infrastructure'>,
  current: UpgradeCurrent,
  ctx: ValidationContext,
): Plan {
  return workerPlan('O-UPGRADE-INFRA', req, current, ctx, (md, parts) => {
    const oldName = md.spec?.template.spec.infrastructureRef.name ?? '';
    newMachineTemplate(parts, oldName, current.machineTemplate, ctx, req.machineTemplate);
    return {
      ops: swap(MD_INFRA_REF, oldName, req.machineTemplate.name),
      description: planMessage('plan.step.switchMachineTemplate', {
        name: md.metadata.name ?? '',
        template: req.machineTemplate.name,
        from: oldName,
      }),
    };
  });
}

/** O-UPDATE-BOOTSTRAP (R-BOOT-3): a new bootstrap template, then `bootstrap.configRef.name`. */
export function planUpdateBootstrap(
  req: Req<'bootstrap'>,
  current: UpgradeCurrent,
  ctx: ValidationContext,
): Plan {
  return workerPlan(
    'O-UPDATE-BOOTSTRAP',
    req,
    current,
    ctx,
    (md, parts) => {
      const oldName = md.spec?.template.spec.bootstrap.configRef?.name;
      newBootstrapTemplate(parts, oldName, current.bootstrapTemplate, ctx, req.bootstrap);
      return {
        ops: swap(MD_CONFIG_REF, oldName, req.bootstrap.name),
        description: planMessage('plan.step.switchBootstrapTemplate', {
          name: md.metadata.name ?? '',
          template: req.bootstrap.name,
          from: oldName ?? '',
        }),
      };
    },
    [planMessage('plan.effect.bootstrapNewMachinesOnly')],
  );
}

/**
 * O-UPGRADE-K8S: a new machine template on the catalog's VM template for the target version
 * (R-MD-4), optionally a new bootstrap template (R-BOOT-1 at 1.35), and ONE patch that switches
 * the template(s) and `version` together, so that no machine is ever built from a mix.
 */
export function planUpgradeK8s(
  request: Req<'kubernetes'>,
  current: UpgradeCurrent,
  ctx: ValidationContext,
): Plan {
  const { req, notes } = withCatalogVmTemplate(request, ctx);
  const to = normalizeKubeVersion(req.version);
  return workerPlan(
    'O-UPGRADE-K8S',
    req,
    current,
    ctx,
    (md, parts) => {
      const spec = md.spec?.template.spec;
      const oldTemplate = spec?.infrastructureRef.name ?? '';
      newMachineTemplate(parts, oldTemplate, current.machineTemplate, ctx, req.machineTemplate);
      const oldBootstrap = spec?.bootstrap.configRef?.name;
      if (req.bootstrap) {
        newBootstrapTemplate(parts, oldBootstrap, current.bootstrapTemplate, ctx, req.bootstrap);
      }
      return {
        ops: [
          ...swap(MD_INFRA_REF, oldTemplate, req.machineTemplate.name),
          ...swap(MD_VERSION, spec?.version, to),
          ...(req.bootstrap ? swap(MD_CONFIG_REF, oldBootstrap, req.bootstrap.name) : []),
        ],
        description: req.bootstrap
          ? planMessage('plan.step.upgradeWorkersWithBootstrap', {
              name: md.metadata.name ?? '',
              from: spec?.version ?? '',
              to,
              template: req.machineTemplate.name,
              bootstrap: req.bootstrap.name,
            })
          : planMessage('plan.step.upgradeWorkers', {
              name: md.metadata.name ?? '',
              from: spec?.version ?? '',
              to,
              template: req.machineTemplate.name,
            }),
      };
    },
    notes,
  );
}

const KCP_KUBEADM = '/spec/kubeadmConfigSpec';

/**
 * R-BOOT-1 for O-UPGRADE-CP: the ops that make the KubeadmControlPlane's kubeadm config right
 * for `version` (kubeadmConfigForVersion), each guarded by a test of the value it replaces, and
 * what checkKubeletPatch still finds in the result (a patch in a Secret the catalog does not
 * name for the version, say).
 */
export function controlPlaneKubeadmConfigOps(
  kcp: KubeadmControlPlane,
  version: string,
  ctx: ValidationContext,
): { ops: JsonPatchOp[]; issues: RuleIssue[] } {
  const before = kcp.spec?.kubeadmConfigSpec ?? {};
  const filesSecret = ctx.versions.find(
    (v) => normalizeKubeVersion(v.version) === normalizeKubeVersion(version),
  )?.bootstrapFilesSecret;
  const after = kubeadmConfigForVersion(before, version, filesSecret);
  const ops: JsonPatchOp[] = [];
  if (kcp.spec?.kubeadmConfigSpec === undefined) {
    if (after !== before) ops.push(addOp(KCP_KUBEADM, jsonClone(after)));
  } else {
    for (const field of ['files', 'joinConfiguration', 'initConfiguration'] as const) {
      const was = before[field];
      const now = after[field];
      if (now === undefined || jsonEqual(was, now)) continue;
      const path = `${KCP_KUBEADM}/${field}`;
      ops.push(
        ...(was === undefined
          ? [addOp(path, jsonClone(now))]
          : [testOp(path, jsonClone(was)), replaceOp(path, jsonClone(now))]),
      );
    }
  }
  const issues = checkKubeletPatch(after, version, ctx, 'kubeadmConfigSpec').map((i) => ({
    ...i,
    path: 'version',
  }));
  return { ops, issues };
}

/** KubeadmControlPlane replaces one machine at a time (its maxSurge is 0 or 1). */
const CONTROL_PLANE_AT_A_TIME = 1;

/**
 * O-UPGRADE-CP: a new machine template for the target version, then `spec.version` and
 * `machineTemplate.infrastructureRef.name` of the KubeadmControlPlane in one patch.
 */
export function planUpgradeControlPlane(
  request: Req<'control-plane'>,
  current: UpgradeCurrent,
  ctx: ValidationContext,
): Plan {
  const { req, notes: catalogNotes } = withCatalogVmTemplate(request, ctx);
  const notes = [...catalogNotes];
  const kcp = current.kubeadmControlPlane;
  const parts: Parts = { steps: [], issues: [], clones: {} };
  const name = kcp?.metadata.name ?? '';
  const to = normalizeKubeVersion(req.version);
  if (kcp) {
    parts.issues.push(
      ...staleIssue('KubeadmControlPlane', name, req.resourceVersion, kcp.metadata.resourceVersion),
    );
    const oldTemplate = kcp.spec?.machineTemplate.infrastructureRef.name ?? '';
    const made = newMachineTemplate(
      parts,
      oldTemplate,
      current.machineTemplate,
      ctx,
      req.machineTemplate,
    );
    // R-BOOT-1 holds for the control plane's kubeadm config as for worker templates: its
    // kubelet patch is made right for the target version in the same change.
    const kubeadm = controlPlaneKubeadmConfigOps(kcp, to, ctx);
    parts.issues.push(...kubeadm.issues);
    if (kubeadm.ops.length)
      notes.push(planMessage('plan.effect.controlPlaneKubeletPatch', { version: to }));
    if (made) {
      parts.steps.push(
        jsonPatchStep(
          kcp,
          'KubeadmControlPlane',
          [
            testResourceVersion(req.resourceVersion),
            ...swap(KCP_VERSION, kcp.spec?.version, to),
            ...swap(KCP_INFRA_REF, oldTemplate, req.machineTemplate.name),
            ...kubeadm.ops,
          ],
          planMessage('plan.step.upgradeControlPlane', {
            name,
            from: kcp.spec?.version ?? '',
            to,
            template: req.machineTemplate.name,
          }),
        ),
      );
    }
  } else {
    parts.issues.push(notFoundIssue('KubeadmControlPlane', '', 'pool'));
  }
  const replicas = kcp?.spec?.replicas ?? 1;
  return finishPlan({
    operation: 'O-UPGRADE-CP',
    namespace: ctx.namespace,
    target: { kind: 'KubeadmControlPlane', name },
    steps: parts.steps,
    issues: kcp
      ? mergeIssues(validateUpgrade(req, controlPlaneUpgradePoolInfo(kcp, ctx), ctx), parts.issues)
      : parts.issues,
    known: [kcp],
    clones: parts.clones,
    effects: {
      rollout: { replaces: replicas, atATime: Math.min(replicas, CONTROL_PLANE_AT_A_TIME) },
      created: parts.steps
        .filter((s) => s.verb === 'create')
        .map((s) => ({ kind: s.kind, name: s.name })),
      notes: [...notes, planMessage('plan.effect.controlPlaneFirst', { version: to })],
    },
  });
}

/** `POST …/nodepools/{pool}/upgrade`: the operation the request names. */
export function planUpgrade(
  req: UpgradeRequest,
  current: UpgradeCurrent,
  ctx: ValidationContext,
): Plan {
  const cp = req.operation === 'control-plane';
  const head = {
    operation: OPERATION_OF[req.operation],
    namespace: ctx.namespace,
    target: cp
      ? {
          kind: 'KubeadmControlPlane' as const,
          name: current.kubeadmControlPlane?.metadata.name ?? '',
        }
      : {
          kind: 'MachineDeployment' as const,
          name: current.machineDeployment?.metadata.name ?? '',
        },
  };
  return withinJsonBounds(
    head,
    () => upgradePlan(req, current, ctx),
    templateSpecField({
      DCSMachineTemplate: 'machineTemplate.spec',
      KubeadmConfigTemplate: 'bootstrap.spec',
    }),
  );
}

const OPERATION_OF = {
  infrastructure: 'O-UPGRADE-INFRA',
  bootstrap: 'O-UPDATE-BOOTSTRAP',
  kubernetes: 'O-UPGRADE-K8S',
  'control-plane': 'O-UPGRADE-CP',
} as const;

function upgradePlan(req: UpgradeRequest, current: UpgradeCurrent, ctx: ValidationContext): Plan {
  switch (req.operation) {
    case 'infrastructure':
      return planUpgradeInfra(req, current, ctx);
    case 'bootstrap':
      return planUpdateBootstrap(req, current, ctx);
    case 'kubernetes':
      return planUpgradeK8s(req, current, ctx);
    case 'control-plane':
      return planUpgradeControlPlane(req, current, ctx);
  }
}

/** What the upgrade rules need to know of a worker pool. */
export function workerUpgradePoolInfo(md: MachineDeployment, ctx: ValidationContext): UpgradePool {
  const spec = md.spec?.template.spec;
  const ru = md.spec?.strategy?.rollingUpdate;
  return {
    name: md.metadata.name ?? '',
    version: spec?.version,
    machineTemplateName: spec?.infrastructureRef.name,
    bootstrapTemplateName: spec?.bootstrap.configRef?.name,
    ipPoolName: ipPoolNameOf(md, ctx),
    replicas: specReplicas(md),
    maxSurge: ru?.maxSurge,
    maxUnavailable: ru?.maxUnavailable,
  };
}

/** The same for the control plane (id `control-plane`, R-MD-5). */
export function controlPlaneUpgradePoolInfo(
  kcp: KubeadmControlPlane,
  ctx: ValidationContext,
): UpgradePool {
  const template = kcp.spec?.machineTemplate.infrastructureRef.name;
  return {
    name: CONTROL_PLANE_POOL_ID,
    version: kcp.spec?.version,
    machineTemplateName: template,
    bootstrapTemplateName: undefined,
    ipPoolName: ctx.machineTemplates.find((t) => t.name === template)?.spec.ipHostPoolRef.name,
    replicas: kcp.spec?.replicas ?? 1,
    maxSurge: kcp.spec?.rolloutStrategy?.rollingUpdate?.maxSurge ?? 1,
    maxUnavailable: 0,
  };
}
