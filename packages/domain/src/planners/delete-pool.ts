import type { DeletePoolRequest } from '../requests';
import type { ValidationContext } from '../rules/context';
import { withinJsonBounds } from './bounds';
import type { RuleIssue } from '../rules/issue';
import type { KubeadmConfigTemplate } from '../schemas/bootstrap';
import type { Machine, MachineDeployment, MachineHealthCheck, MachineSet } from '../schemas/capi';
import type { KubeadmControlPlane } from '../schemas/controlplane';
import type { DCSIpHostnamePool, DCSMachineTemplate } from '../schemas/dcs';
import { LABEL_DEPLOYMENT_NAME, LABEL_TEMPLATE_POOL } from '../labels';
import { planIssue, PLAN_IN_USE, PLAN_NOT_FOUND, staleIssue } from './issues';
import { planMessage, type PlanMessage } from './messages';
import { deleteStep, finishPlan } from './objects';
import type { Plan, PlanStep } from './plan';
import { machinesOfDeployment } from './rollout';
import { healthChecksOfPool } from './health-check';
import { ipPoolNameOf } from './scale';

/**
 * O-DELETE-POOL: delete the MachineDeployment (its machines are drained and their VMs deleted;
 * U-5 confirms it first), then, when asked, the templates and IP pool that no other pool uses:
 * the templates it uses now and those of its earlier upgrades (`earlierTemplatesOf`).
 * Nothing here can be undone: a deleted MachineDeployment takes its machines with it.
 */

/** How long the IP pool's removal waits for the pool's machines to be gone. */
export const DELETE_POOL_WAIT_SECONDS = 3600;

export interface DeletePoolCurrent {
  machineDeployment: MachineDeployment;
  /** Machines of the namespace (or of the pool): those of the pool are listed for U-5. */
  machines: readonly Machine[];
  /** Every MachineDeployment, KubeadmControlPlane and MachineSet of the namespace: who else uses what. */
  machineDeployments: readonly MachineDeployment[];
  kubeadmControlPlanes: readonly KubeadmControlPlane[];
  machineSets?: readonly MachineSet[];
  /**
   * Every DCSMachineTemplate and KubeadmConfigTemplate of the namespace: the templates of the
   * pool's earlier revisions are found among them (`earlierTemplatesOf`), with their uids.
   */
  machineTemplates?: readonly DCSMachineTemplate[];
  bootstrapTemplates?: readonly KubeadmConfigTemplate[];
  /** The objects to remove, for their uid preconditions. */
  machineTemplate?: DCSMachineTemplate;
  bootstrapTemplate?: KubeadmConfigTemplate;
  ipPool?: DCSIpHostnamePool;
  /** The MachineHealthChecks of the namespace: the pool's own go with it. */
  healthChecks?: readonly MachineHealthCheck[];
}

/**
 * The health checks that exist for this pool alone: they match its machines and their selector
 * names its deployment (as O-MHC-CREATE writes it, R-MHC-5), so no other pool's machine can
 * match. A check that spans several pools is theirs too and stays.
 */
export function ownHealthChecksOf(current: DeletePoolCurrent): MachineHealthCheck[] {
  const md = current.machineDeployment;
  const name = md.metadata.name ?? '';
  return healthChecksOfPool(md, current.healthChecks ?? [])
    .filter((c) => c.spec?.selector.matchLabels?.[LABEL_DEPLOYMENT_NAME] === name)
    .sort((a, b) => ((a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1));
}

/** The machines that deleting the pool drains and deletes (U-5), by name. */
export function machinesToDelete(md: MachineDeployment, machines: readonly Machine[]): string[] {
  return machinesOfDeployment(md.metadata.name ?? '', machines)
    .map((m) => m.metadata.name ?? '')
    .sort();
}

export interface PoolObjectUsers {
  machineTemplate: string[];
  bootstrapTemplate: string[];
  ipPool: string[];
}

type TemplateKind = 'DCSMachineTemplate' | 'KubeadmConfigTemplate';

/** A MachineSet of this pool: labelled with its name, or owned by its MachineDeployment. */
function isSetOf(ms: MachineSet, pool: string, uid: string | undefined): boolean {
  if (ms.metadata.labels?.[LABEL_DEPLOYMENT_NAME] === pool) return true;
  return ownedBy(ms, pool, uid);
}

function ownedBy(
  o: { metadata: { ownerReferences?: readonly { kind?: string; name?: string; uid?: string }[] } },
  pool: string,
  uid: string | undefined,
): boolean {
  return (o.metadata.ownerReferences ?? []).some(
    (r) =>
      r.kind === 'MachineDeployment' && r.name === pool && (uid === undefined || r.uid === uid),
  );
}

const templateRef = (
  kind: TemplateKind,
  spec:
    | { infrastructureRef?: { name?: string }; bootstrap?: { configRef?: { name?: string } } }
    | undefined,
): string | undefined =>
  kind === 'DCSMachineTemplate' ? spec?.infrastructureRef?.name : spec?.bootstrap?.configRef?.name;

/**
 * Who other than this pool names template `template` of `kind`: other MachineDeployments, the
 * MachineSets of other pools, KubeadmControlPlanes (machine templates).
 */
function templateUsers(current: DeletePoolCurrent, kind: TemplateKind, template: string): string[] {
  const md = current.machineDeployment;
  const name = md.metadata.name ?? '';
  const users: string[] = [];
  const add = (who: string) => {
    if (!users.includes(who)) users.push(who);
  };
  for (const other of current.machineDeployments) {
    const oname = other.metadata.name ?? '';
    if (oname === name) continue;
    if (templateRef(kind, other.spec?.template.spec) === template) {
      add(`MachineDeployment ${oname}`);
    }
  }
  for (const ms of current.machineSets ?? []) {
    if (isSetOf(ms, name, md.metadata.uid)) continue;
    if (templateRef(kind, ms.spec?.template?.spec) === template) {
      add(`MachineSet ${ms.metadata.name ?? ''}`);
    }
  }
  if (kind === 'DCSMachineTemplate') {
    for (const kcp of current.kubeadmControlPlanes) {
      if (kcp.spec?.machineTemplate.infrastructureRef.name === template) {
        add(`KubeadmControlPlane ${kcp.metadata.name ?? ''}`);
      }
    }
  }
  return users;
}

export interface EarlierTemplates {
  machineTemplates: DCSMachineTemplate[];
  bootstrapTemplates: KubeadmConfigTemplate[];
}

/**
 * The templates of the pool's earlier revisions (issue 25): those its own MachineSets still
 * name, those the console labelled for it (LABEL_TEMPLATE_POOL: made by its create or its
 * upgrades, which no MachineSet may name any more once Cluster API pruned the old revisions) and
 * those owned by its MachineDeployment; not the ones it uses now (the request's own checkboxes),
 * only ones that exist, by name.
 */
export function earlierTemplatesOf(current: DeletePoolCurrent): EarlierTemplates {
  const md = current.machineDeployment;
  const name = md.metadata.name ?? '';
  const uid = md.metadata.uid;
  const spec = md.spec?.template.spec;
  const ownSets = (current.machineSets ?? []).filter((ms) => isSetOf(ms, name, uid));
  const pick = <T extends DCSMachineTemplate | KubeadmConfigTemplate>(
    kind: TemplateKind,
    all: readonly T[],
  ): T[] => {
    const now = templateRef(kind, spec);
    const named = new Set(ownSets.map((ms) => templateRef(kind, ms.spec?.template?.spec)));
    return all
      .filter((t) => {
        const tname = t.metadata.name ?? '';
        if (tname === '' || tname === now) return false;
        return (
          named.has(tname) ||
          t.metadata.labels?.[LABEL_TEMPLATE_POOL] === name ||
          ownedBy(t, name, uid)
        );
      })
      .sort((a, b) => ((a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1));
  };
  return {
    machineTemplates: pick('DCSMachineTemplate', current.machineTemplates ?? []),
    bootstrapTemplates: pick('KubeadmConfigTemplate', current.bootstrapTemplates ?? []),
  };
}

/**
 * Who else uses the pool's templates and IP pool: other MachineDeployments, their MachineSets
 * (older revisions still name older templates), KubeadmControlPlanes, and for the IP pool any of
 * those whose machine template names it, or a machine of another pool holding one of its entries.
 */
export function otherUsersOf(current: DeletePoolCurrent, ctx: ValidationContext): PoolObjectUsers {
  const md = current.machineDeployment;
  const name = md.metadata.name ?? '';
  const spec = md.spec?.template.spec;
  const mtName = spec?.infrastructureRef.name;
  const ktName = spec?.bootstrap.configRef?.name;
  const poolName =
    ipPoolNameOf(md, ctx) ?? current.machineTemplate?.spec?.template.spec.ipHostPoolRef.name;
  const poolOf = (template: string | undefined) =>
    ctx.machineTemplates.find((t) => t.name === template)?.spec.ipHostPoolRef.name;

  const users: PoolObjectUsers = { machineTemplate: [], bootstrapTemplate: [], ipPool: [] };
  const add = (list: string[], who: string) => {
    if (!list.includes(who)) list.push(who);
  };
  for (const other of current.machineDeployments) {
    const oname = other.metadata.name ?? '';
    if (oname === name) continue;
    const os = other.spec?.template.spec;
    const who = `MachineDeployment ${oname}`;
    if (mtName && os?.infrastructureRef.name === mtName) add(users.machineTemplate, who);
    if (ktName && os?.bootstrap.configRef?.name === ktName) add(users.bootstrapTemplate, who);
    if (poolName && poolOf(os?.infrastructureRef.name) === poolName) add(users.ipPool, who);
  }
  for (const ms of current.machineSets ?? []) {
    if (ms.metadata.labels?.[LABEL_DEPLOYMENT_NAME] === name) continue;
    const ss = ms.spec?.template?.spec;
    const who = `MachineSet ${ms.metadata.name ?? ''}`;
    if (mtName && ss?.infrastructureRef.name === mtName) add(users.machineTemplate, who);
    if (ktName && ss?.bootstrap.configRef?.name === ktName) add(users.bootstrapTemplate, who);
    if (poolName && poolOf(ss?.infrastructureRef.name) === poolName) add(users.ipPool, who);
  }
  for (const kcp of current.kubeadmControlPlanes) {
    const who = `KubeadmControlPlane ${kcp.metadata.name ?? ''}`;
    const t = kcp.spec?.machineTemplate.infrastructureRef.name;
    if (mtName && t === mtName) add(users.machineTemplate, who);
    if (poolName && poolOf(t) === poolName) add(users.ipPool, who);
  }
  const pool = ctx.ipPools.find((p) => p.name === poolName);
  for (const c of pool?.consumers ?? []) {
    if (c.deployment !== name) add(users.ipPool, `MachineDeployment ${c.deployment}`);
  }
  const ours = new Set(machinesToDelete(md, current.machines));
  for (const claim of pool?.claims ?? []) {
    if (!ours.has(claim.machine)) add(users.ipPool, `Machine ${claim.machine}`);
  }
  return users;
}

/** O-DELETE-POOL, within the JSON bounds (bounds.ts). */
export function planDeletePool(
  req: DeletePoolRequest,
  current: DeletePoolCurrent,
  ctx: ValidationContext,
): Plan {
  return withinJsonBounds(
    {
      operation: 'O-DELETE-POOL',
      namespace: ctx.namespace,
      target: { kind: 'MachineDeployment', name: current.machineDeployment.metadata.name ?? '' },
    },
    () => deletePoolPlan(req, current, ctx),
  );
}

function deletePoolPlan(
  req: DeletePoolRequest,
  current: DeletePoolCurrent,
  ctx: ValidationContext,
): Plan {
  const md = current.machineDeployment;
  const ns = ctx.namespace;
  const name = md.metadata.name ?? '';
  const spec = md.spec?.template.spec;
  const machines = machinesToDelete(md, current.machines);
  const users = otherUsersOf(current, ctx);
  const issues: RuleIssue[] = [
    ...staleIssue('MachineDeployment', name, req.resourceVersion, md.metadata.resourceVersion),
  ];
  const steps: PlanStep[] = [
    deleteStep(
      'MachineDeployment',
      ns,
      name,
      planMessage('plan.step.deleteMachineDeployment', { name, count: machines.length }),
      {
        precondition: {
          resourceVersion: req.resourceVersion,
          ...(md.metadata.uid ? { uid: md.metadata.uid } : {}),
        },
        propagationPolicy: 'Foreground',
      },
    ),
  ];

  // The pool's own health checks go with it (a pool of the same name made later would otherwise
  // be checked by a MachineHealthCheck nobody made for it), right after its MachineDeployment:
  // Cluster API's health check leaves deleting machines alone meanwhile.
  for (const check of ownHealthChecksOf(current)) {
    const checkName = check.metadata.name ?? '';
    steps.push(
      deleteStep(
        'MachineHealthCheck',
        ns,
        checkName,
        planMessage('plan.step.healthCheckDelete', { name: checkName, pool: name }),
        check.metadata.uid ? { precondition: { uid: check.metadata.uid } } : {},
      ),
    );
  }

  // The clean-up deletes carry the uid of the object that was checked, not its resourceVersion:
  // the IP pool's status changes while the machines release their entries.
  const cleanUp = (
    asked: boolean,
    kind: 'DCSMachineTemplate' | 'KubeadmConfigTemplate' | 'DCSIpHostnamePool',
    objectName: string | undefined,
    object: { metadata: { name?: string; uid?: string } } | undefined,
    otherUsers: string[],
    path: string,
    description: PlanMessage,
    wait: boolean,
  ) => {
    if (!asked) return;
    if (!objectName) {
      issues.push(
        planIssue(PLAN_NOT_FOUND, 'warning', path, 'plan.issue.notFound', { kind, name: '' }),
      );
      return;
    }
    if (otherUsers.length) {
      issues.push(
        planIssue(PLAN_IN_USE, 'warning', path, 'plan.issue.inUse', {
          kind,
          name: objectName,
          users: otherUsers.join(', '),
        }),
      );
      return;
    }
    const uid = object?.metadata.name === objectName ? object.metadata.uid : undefined;
    steps.push(
      deleteStep(kind, ns, objectName, description, {
        ...(uid ? { precondition: { uid } } : {}),
        ...(wait
          ? {
              waitFor: {
                kind: 'MachineDeployment',
                namespace: ns,
                name,
                until: 'deleted',
                timeoutSeconds: DELETE_POOL_WAIT_SECONDS,
              },
            }
          : {}),
      }),
    );
  };

  const mtName = spec?.infrastructureRef.name;
  const ktName = spec?.bootstrap.configRef?.name;
  const poolName =
    ipPoolNameOf(md, ctx) ?? current.machineTemplate?.spec?.template.spec.ipHostPoolRef.name;
  cleanUp(
    req.removeMachineTemplate,
    'DCSMachineTemplate',
    mtName,
    current.machineTemplate,
    users.machineTemplate,
    'removeMachineTemplate',
    planMessage('plan.step.deleteMachineTemplate', { name: mtName ?? '' }),
    false,
  );
  cleanUp(
    req.removeBootstrapTemplate,
    'KubeadmConfigTemplate',
    ktName,
    current.bootstrapTemplate,
    users.bootstrapTemplate,
    'removeBootstrapTemplate',
    planMessage('plan.step.deleteBootstrapTemplate', { name: ktName ?? '' }),
    false,
  );
  // The pool goes last, once the machines are gone: they hold its entries and disks until then.
  cleanUp(
    req.removeIpPool,
    'DCSIpHostnamePool',
    poolName,
    current.ipPool,
    users.ipPool,
    'removeIpPool',
    planMessage('plan.step.deleteIpPool', { name: poolName ?? '', pool: name }),
    true,
  );

  // The templates of earlier upgrades (issue 25), after the current ones, each kept when
  // anything else still names it; the IP pool's step stays last.
  const earlier = earlierTemplatesOf(current);
  const poolStep = steps.at(-1)?.kind === 'DCSIpHostnamePool' ? steps.pop() : undefined;
  const earlierCleanUp = (
    asked: boolean,
    kind: TemplateKind,
    templates: readonly (DCSMachineTemplate | KubeadmConfigTemplate)[],
    path: string,
    key: 'plan.step.deleteEarlierMachineTemplate' | 'plan.step.deleteEarlierBootstrapTemplate',
  ) => {
    for (const t of templates) {
      const tname = t.metadata.name ?? '';
      cleanUp(
        asked,
        kind,
        tname,
        t,
        templateUsers(current, kind, tname),
        path,
        planMessage(key, { name: tname, pool: name }),
        false,
      );
    }
  };
  earlierCleanUp(
    req.removeMachineTemplate,
    'DCSMachineTemplate',
    earlier.machineTemplates,
    'removeMachineTemplate',
    'plan.step.deleteEarlierMachineTemplate',
  );
  earlierCleanUp(
    req.removeBootstrapTemplate,
    'KubeadmConfigTemplate',
    earlier.bootstrapTemplates,
    'removeBootstrapTemplate',
    'plan.step.deleteEarlierBootstrapTemplate',
  );
  if (poolStep) steps.push(poolStep);

  const poolRemoved = steps.some((s) => s.kind === 'DCSIpHostnamePool');
  const disks = ctx.ipPools
    .find((p) => p.name === poolName)
    ?.entries.some((e) => e.persistentDisk?.length);
  return finishPlan({
    operation: 'O-DELETE-POOL',
    namespace: ns,
    target: { kind: 'MachineDeployment', name },
    steps,
    issues,
    known: [
      md,
      current.machineTemplate,
      current.bootstrapTemplate,
      ...earlier.machineTemplates,
      ...earlier.bootstrapTemplates,
      current.ipPool,
      ...ownHealthChecksOf(current),
    ],
    effects: {
      machinesDeleted: machines,
      replicas: { from: md.spec?.replicas ?? machines.length, to: 0 },
      ...(poolRemoved && disks ? { notes: [planMessage('plan.effect.volumesKept')] } : {}),
    },
  });
}
