import type { DeletePoolRequest } from '../requests';
import type { ValidationContext } from '../rules/context';
import { withinJsonBounds } from './bounds';
import type { RuleIssue } from '../rules/issue';
import type { KubeadmConfigTemplate } from '../schemas/bootstrap';
import type { Machine, MachineDeployment, MachineSet } from '../schemas/capi';
import type { KubeadmControlPlane } from '../schemas/controlplane';
import type { DCSIpHostnamePool, DCSMachineTemplate } from '../schemas/dcs';
import { LABEL_DEPLOYMENT_NAME } from '../labels';
import { planIssue, PLAN_IN_USE, PLAN_NOT_FOUND, staleIssue } from './issues';
import { planMessage, type PlanMessage } from './messages';
import { deleteStep, finishPlan } from './objects';
import type { Plan, PlanStep } from './plan';
import { machinesOfDeployment } from './rollout';
import { ipPoolNameOf } from './scale';

/**
 * O-DELETE-POOL: delete the MachineDeployment (its machines are drained and their VMs deleted;
 * U-5 confirms it first), then, when asked, the templates and IP pool that no other pool uses.
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
  /** The objects to remove, for their uid preconditions. */
  machineTemplate?: DCSMachineTemplate;
  bootstrapTemplate?: KubeadmConfigTemplate;
  ipPool?: DCSIpHostnamePool;
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
    known: [md, current.machineTemplate, current.bootstrapTemplate, current.ipPool],
    effects: {
      machinesDeleted: machines,
      replicas: { from: md.spec?.replicas ?? machines.length, to: 0 },
      ...(poolRemoved && disks ? { notes: [planMessage('plan.effect.volumesKept')] } : {}),
    },
  });
}
