import { ANNOTATION_DELETE_MACHINE } from '../labels';
import type { DeleteMachinesRequest, ScaleReplicasRequest, ScaleRequest } from '../requests';
import { withinJsonBounds } from './bounds';
import type { ValidationContext } from '../rules/context';
import type { RuleIssue } from '../rules/issue';
import { autoscalerBoundsOf, canScaleFromZero } from '../rules/autoscale';
import {
  validateDeleteMachines,
  validateScale,
  type DeleteMachinesPool,
  type ScaleAutoscaler,
} from '../rules/validators';
import type { Machine, MachineDeployment } from '../schemas/capi';
import type { DCSIpHostnamePool } from '../schemas/dcs';
import { appendToIpPoolStep } from './ip-pool';
import { mergeIssues, notFoundIssue, poolChangedIssue, staleIssue } from './issues';
import {
  addOp,
  pointer,
  removeOp,
  replaceOp,
  testOp,
  testResourceVersion,
  type JsonPatchOp,
} from './json-patch';
import { planMessage, type PlanMessageKey } from './messages';
import { finishPlan, jsonPatchStep } from './objects';
import type { PatchStep, Plan, PlanStep } from './plan';
import { machineIsDeleting, isRolloutInProgress, machinesOfDeployment } from './rollout';

/**
 * O-SCALE-UP, O-SCALE-DOWN-RANDOM and O-SCALE-DOWN-TARGETED: the reference's
 * `kubectl patch machinedeployment … --type json -p '[{"op":"replace","path":"/spec/replicas",…}]'`,
 * guarded by the resourceVersion the user saw and the replica count the change starts from.
 */

export interface ScaleCurrent {
  machineDeployment: MachineDeployment;
  /** The IP pool to extend, when the request appends entries (R-POOL-4). */
  ipPool?: DCSIpHostnamePool;
  /** The machines of the namespace or of the pool (O-SCALE-DOWN-TARGETED). */
  machines?: readonly Machine[];
}

/** Cluster API's default when `spec.replicas` is unset. */
const DEFAULT_REPLICAS = 1;

export const specReplicas = (md: MachineDeployment): number =>
  md.spec?.replicas ?? DEFAULT_REPLICAS;

/** The IP pool a MachineDeployment's machines take their addresses from, via its template. */
export function ipPoolNameOf(md: MachineDeployment, ctx: ValidationContext): string | undefined {
  const template = md.spec?.template.spec.infrastructureRef.name;
  return ctx.machineTemplates.find((t) => t.name === template)?.spec.ipHostPoolRef.name;
}

/** The replicas patch: tests of the resourceVersion and of the current count, then the count. */
export function replicasStep(
  md: MachineDeployment,
  seenResourceVersion: string,
  to: number,
  key: PlanMessageKey,
  params: Record<string, string | number> = {},
): PatchStep {
  const set = md.spec?.replicas;
  const ops: JsonPatchOp[] = [
    testResourceVersion(seenResourceVersion),
    ...(set === undefined
      ? [addOp('/spec/replicas', to)]
      : [testOp('/spec/replicas', set), replaceOp('/spec/replicas', to)]),
  ];
  const name = md.metadata.name ?? '';
  return jsonPatchStep(
    md,
    'MachineDeployment',
    ops,
    planMessage(key, { name, from: specReplicas(md), to, ...params }),
  );
}

/** O-SCALE-UP (with the pool extended first when asked) or O-SCALE-DOWN-RANDOM. */
export function planScaleReplicas(
  req: ScaleReplicasRequest,
  current: ScaleCurrent,
  ctx: ValidationContext,
): Plan {
  const md = current.machineDeployment;
  const name = md.metadata.name ?? '';
  const from = specReplicas(md);
  const to = req.replicas;
  const poolName = ipPoolNameOf(md, ctx);
  const steps: PlanStep[] = [];
  const issues: RuleIssue[] = [
    ...staleIssue('MachineDeployment', name, req.resourceVersion, md.metadata.resourceVersion),
  ];

  const append = req.ipPoolAppend;
  if (append) {
    const pool = current.ipPool;
    if (pool?.metadata.name !== append.name) {
      issues.push(notFoundIssue('DCSIpHostnamePool', append.name, 'ipPoolAppend.name'));
    } else {
      issues.push(
        ...poolChangedIssue(
          append.name,
          append.resourceVersion,
          pool.metadata.resourceVersion,
          'ipPoolAppend.resourceVersion',
        ),
      );
      const step = appendToIpPoolStep(pool, append.entries, append.resourceVersion);
      if (step) steps.push(step);
    }
  }
  if (to !== from || md.spec?.replicas === undefined) {
    steps.push(replicasStep(md, req.resourceVersion, to, 'plan.step.scale'));
  }

  const down = to < from;
  return finishPlan({
    operation: down ? 'O-SCALE-DOWN-RANDOM' : 'O-SCALE-UP',
    namespace: ctx.namespace,
    target: { kind: 'MachineDeployment', name },
    steps,
    issues: mergeIssues(
      validateScale(
        req,
        {
          name,
          replicas: from,
          ipPoolName: poolName,
          maxSurge: md.spec?.strategy?.rollingUpdate?.maxSurge,
          machineTemplateName: md.spec?.template.spec.infrastructureRef.name,
          autoscaler: scaleAutoscalerOf(md),
        },
        ctx,
      ),
      issues,
    ),
    known: [current.ipPool, md],
    effects: {
      replicas: { from, to },
      ...(down
        ? { notes: [planMessage('plan.effect.randomScaleDown', { name, count: from - to })] }
        : {}),
    },
  });
}

const deleteAnnotationPath = pointer('metadata', 'annotations', ANNOTATION_DELETE_MACHINE);

/**
 * Marks one machine for deletion: a merge patch of the annotations map (a map merges key by key,
 * unlike a list) carrying the machine's resourceVersion, which the API server checks.
 */
export function markMachineStep(machine: Machine, seenResourceVersion: string): PatchStep {
  const name = machine.metadata.name ?? '';
  const namespace = machine.metadata.namespace ?? '';
  const before = machine.metadata.annotations?.[ANNOTATION_DELETE_MACHINE];
  const undoOps: JsonPatchOp[] | undefined =
    before === 'true'
      ? undefined
      : [
          testOp(deleteAnnotationPath, 'true'),
          before === undefined
            ? removeOp(deleteAnnotationPath)
            : replaceOp(deleteAnnotationPath, before),
        ];
  return {
    verb: 'patch',
    kind: 'Machine',
    namespace,
    name,
    patch: {
      type: 'merge',
      doc: {
        metadata: {
          resourceVersion: seenResourceVersion,
          annotations: { [ANNOTATION_DELETE_MACHINE]: 'true' },
        },
      },
    },
    precondition: { resourceVersion: seenResourceVersion },
    description: planMessage('plan.step.markMachine', { name }),
    ...(undoOps
      ? {
          undo: {
            verb: 'patch',
            kind: 'Machine',
            namespace,
            name,
            patch: { type: 'json', ops: undoOps },
            description: planMessage('plan.undo.unmarkMachine', { name }),
          },
        }
      : {}),
  };
}

/**
 * O-SCALE-DOWN-TARGETED (R-MD-6): mark exactly the chosen machines, then lower the replicas by
 * exactly their number. `effects.machinesDeleted` lists them, so that the machines that enter
 * Deleting afterwards can be checked to be exactly these.
 */
export function planDeleteMachines(
  req: DeleteMachinesRequest,
  current: ScaleCurrent,
  ctx: ValidationContext,
): Plan {
  const md = current.machineDeployment;
  const name = md.metadata.name ?? '';
  const from = specReplicas(md);
  const chosen = [...new Set(req.deleteMachines)];
  const ours = machinesOfDeployment(name, current.machines ?? []);
  const steps: PlanStep[] = [];
  const issues: RuleIssue[] = [
    ...staleIssue('MachineDeployment', name, req.resourceVersion, md.metadata.resourceVersion),
  ];
  const known: Machine[] = [];

  // Machines that are not the pool's, or whose resourceVersion the request lacks, are the rules'
  // errors (R-MD-6); the plan marks only the others.
  for (const machineName of chosen) {
    const m = ours.find((x) => x.metadata.name === machineName);
    const seen = req.machineResourceVersions[machineName];
    if (!m || seen === undefined) continue;
    issues.push(
      ...staleIssue(
        'Machine',
        machineName,
        seen,
        m.metadata.resourceVersion,
        `machineResourceVersions.${machineName}`,
      ),
    );
    known.push(m);
    steps.push(markMachineStep(m, seen));
  }

  const to = from - chosen.length;
  steps.push(
    replicasStep(md, req.resourceVersion, Math.max(0, to), 'plan.step.scaleDownMarked', {
      count: chosen.length,
    }),
  );

  return finishPlan({
    operation: 'O-SCALE-DOWN-TARGETED',
    namespace: ctx.namespace,
    target: { kind: 'MachineDeployment', name },
    steps,
    issues: mergeIssues(
      validateDeleteMachines(req, deleteMachinesPoolInfo(md, current.machines ?? []), ctx),
      issues,
    ),
    known: [...known, md],
    effects: { machinesDeleted: chosen, replicas: { from, to: Math.max(0, to) } },
  });
}

/** `POST …/nodepools/{pool}/scale`: a replica count, or machines to delete. */
export function planScale(req: ScaleRequest, current: ScaleCurrent, ctx: ValidationContext): Plan {
  const md = current.machineDeployment;
  const operation =
    'deleteMachines' in req
      ? 'O-SCALE-DOWN-TARGETED'
      : req.replicas > specReplicas(md)
        ? 'O-SCALE-UP'
        : 'O-SCALE-DOWN-RANDOM';
  return withinJsonBounds(
    {
      operation,
      namespace: ctx.namespace,
      target: { kind: 'MachineDeployment', name: md.metadata.name ?? '' },
    },
    () =>
      'deleteMachines' in req
        ? planDeleteMachines(req, current, ctx)
        : planScaleReplicas(req, current, ctx),
  );
}

/** What the targeted-deletion rules need to know of the pool (R-MD-6). */
export function deleteMachinesPoolInfo(
  md: MachineDeployment,
  machines: readonly Machine[],
): DeleteMachinesPool {
  const name = md.metadata.name ?? '';
  return {
    name,
    replicas: specReplicas(md),
    machines: machinesOfDeployment(name, machines).map((m) => ({
      name: m.metadata.name ?? '',
      deleting: machineIsDeleting(m),
    })),
    rolloutInProgress: isRolloutInProgress(md),
    autoscaler: scaleAutoscalerOf(md),
  };
}

/** The cluster autoscaler's bounds of the pool, when it manages it (R-AS-7 on every scale). */
export function scaleAutoscalerOf(md: MachineDeployment): ScaleAutoscaler | undefined {
  const bounds = autoscalerBoundsOf(md);
  return bounds ? { ...bounds, scaleFromZero: canScaleFromZero(md) } : undefined;
}
