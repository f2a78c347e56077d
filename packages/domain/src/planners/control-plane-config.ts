import type { EditControlPlaneConfigRequest } from '../requests';
import type { ValidationContext } from '../rules/context';
import { validateControlPlaneConfig } from '../rules/control-plane-config';
import type { KubeadmConfigSpec } from '../schemas/bootstrap';
import type { KubeadmControlPlane } from '../schemas/controlplane';
import { withinJsonBounds } from './bounds';
import { mergeIssues, notFoundIssue, staleIssue } from './issues';
import {
  addOp,
  jsonClone,
  jsonEqual,
  pointer,
  removeOp,
  replaceOp,
  testOp,
  testResourceVersion,
  type JsonPatchOp,
} from './json-patch';
import { planMessage, type PlanMessage } from './messages';
import { finishPlan, jsonPatchStep } from './objects';
import type { Plan, PlanStep } from './plan';

/**
 * O-EDIT-CP-CONFIG (issue 12): the control plane's kubeadm config (`spec.kubeadmConfigSpec` of
 * the KubeadmControlPlane: files such as the kubelet patch of R-BOOT-1, users, commands, kubelet
 * arguments), as one JSON patch. Unlike a worker pool's bootstrap template (R-BOOT-3), KCP keeps
 * the config in its own spec and compares every machine's KubeadmConfig with it: a change is a
 * rolling change of the control plane, each machine replaced by one bootstrapped from the new
 * config, one at a time (KCP scales up by its maxSurge, 1, then deletes the oldest outdated
 * machine, keeping etcd's quorum). The patch tests the resourceVersion the user saw and the
 * current value of each top-level field it replaces, and writes only the fields that differ.
 */

export interface ControlPlaneConfigCurrent {
  kubeadmControlPlane: KubeadmControlPlane | undefined;
}

const SPEC = 'kubeadmConfigSpec';

/** The top-level fields of the two specs that differ, in a stable order. */
export function changedConfigFields(before: KubeadmConfigSpec, after: KubeadmConfigSpec): string[] {
  const b = before as Record<string, unknown>;
  const a = after as Record<string, unknown>;
  return [...new Set([...Object.keys(b), ...Object.keys(a)])]
    .filter((k) => !jsonEqual(b[k], a[k]))
    .sort();
}

function patchOps(
  req: EditControlPlaneConfigRequest,
  kcp: KubeadmControlPlane,
  changed: readonly string[],
): JsonPatchOp[] {
  const ops: JsonPatchOp[] = [testResourceVersion(req.resourceVersion)];
  const before = kcp.spec?.kubeadmConfigSpec;
  if (before === undefined) {
    ops.push(addOp(pointer('spec', SPEC), jsonClone(req.kubeadmConfigSpec)));
    return ops;
  }
  const b = before as Record<string, unknown>;
  const a = req.kubeadmConfigSpec as Record<string, unknown>;
  for (const field of changed) {
    const path = pointer('spec', SPEC, field);
    if (a[field] === undefined) ops.push(testOp(path, jsonClone(b[field])), removeOp(path));
    else if (b[field] === undefined) ops.push(addOp(path, jsonClone(a[field])));
    else ops.push(testOp(path, jsonClone(b[field])), replaceOp(path, jsonClone(a[field])));
  }
  return ops;
}

/** KCP's rolling update is in progress: machines not yet on the current spec remain. */
function rolloutInProgress(kcp: KubeadmControlPlane): boolean {
  const s = kcp.status;
  const replicas = kcp.spec?.replicas ?? 1;
  return (s?.updatedReplicas ?? replicas) < replicas || (s?.replicas ?? replicas) > replicas;
}

/** O-EDIT-CP-CONFIG: see the module's comment. */
export function planEditControlPlaneConfig(
  req: EditControlPlaneConfigRequest,
  current: ControlPlaneConfigCurrent,
  ctx: ValidationContext,
): Plan {
  return withinJsonBounds(
    {
      operation: 'O-EDIT-CP-CONFIG',
      namespace: ctx.namespace,
      target: {
        kind: 'KubeadmControlPlane',
        name: current.kubeadmControlPlane?.metadata.name ?? '',
      },
    },
    () => configPlan(req, current, ctx),
    (kind, path) =>
      kind === 'KubeadmControlPlane' && path.startsWith(`spec.${SPEC}`)
        ? path.slice('spec.'.length)
        : undefined,
  );
}

function configPlan(
  req: EditControlPlaneConfigRequest,
  current: ControlPlaneConfigCurrent,
  ctx: ValidationContext,
): Plan {
  const kcp = current.kubeadmControlPlane;
  if (!kcp) {
    return finishPlan({
      operation: 'O-EDIT-CP-CONFIG',
      namespace: ctx.namespace,
      target: { kind: 'KubeadmControlPlane', name: '' },
      steps: [],
      issues: [notFoundIssue('KubeadmControlPlane', '', 'pool')],
      known: [],
    });
  }
  const name = kcp.metadata.name ?? '';
  const before = kcp.spec?.kubeadmConfigSpec ?? {};
  const changed = changedConfigFields(before, req.kubeadmConfigSpec);
  const steps: PlanStep[] = [];
  if (changed.length) {
    steps.push(
      jsonPatchStep(
        kcp,
        'KubeadmControlPlane',
        patchOps(req, kcp, changed),
        planMessage('plan.step.editControlPlaneConfig', { name, fields: changed.join(', ') }),
      ),
    );
  }
  const replicas = kcp.spec?.replicas ?? 1;
  const notes: PlanMessage[] = [];
  if (!changed.length) notes.push(planMessage('plan.effect.nothingToChange', { name }));
  else {
    notes.push(planMessage('plan.effect.controlPlaneConfigRolls', { name, replicas }));
    if (rolloutInProgress(kcp))
      notes.push(planMessage('plan.effect.controlPlaneRolloutRestarts', { name }));
  }
  return finishPlan({
    operation: 'O-EDIT-CP-CONFIG',
    namespace: ctx.namespace,
    target: { kind: 'KubeadmControlPlane', name },
    steps,
    issues: mergeIssues(
      validateControlPlaneConfig(req.kubeadmConfigSpec, before, kcp.spec?.version, ctx),
      staleIssue('KubeadmControlPlane', name, req.resourceVersion, kcp.metadata.resourceVersion),
    ),
    known: [kcp],
    effects: changed.length ? { rollout: { replaces: replicas, atATime: 1 }, notes } : { notes },
  });
}
