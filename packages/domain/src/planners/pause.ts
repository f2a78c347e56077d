import type { KindName } from '../kinds';
import { ANNOTATION_PAUSED } from '../labels';
import type { PauseRequest } from '../requests/pause';
import type { ValidationContext } from '../rules/context';
import type { RuleIssue } from '../rules/issue';
import {
  hasPausedAnnotation,
  R_PAUSE_CLUSTER_STILL_PAUSED,
  R_PAUSE_DELETION_STOPS,
  R_PAUSE_NOTHING_HAPPENS,
} from '../rules/pause';
import type { Cluster, MachineDeployment } from '../schemas/capi';
import type { KubeadmControlPlane } from '../schemas/controlplane';
import { withinJsonBounds } from './bounds';
import { mergeIssues, planIssue, staleIssue } from './issues';
import {
  addOp,
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
 * O-PAUSE / O-RESUME (issue 26): stop or restart Cluster API's reconciliation of a cluster, or of
 * one of its pools, as Cluster API itself offers it:
 *
 * - a Cluster: `spec.paused` (the same field in v1beta1 and v1beta2), set to true to pause and
 *   removed to resume (so that the default applies again, as after `clusterctl move`);
 * - a pool's MachineDeployment, or the control plane's KubeadmControlPlane: the
 *   `cluster.x-k8s.io/paused` annotation, added or removed (its value does not matter upstream).
 *
 * One JSON patch, testing the resourceVersion the user saw and the value it replaces or removes.
 * The plan's notes say what stops (and what is changing now and stops midway) or what resumes (and
 * the changes made meanwhile that are carried out now). Rules: R-PAUSE-2 (a pool resumed in a
 * paused cluster stays paused), R-PAUSE-3 (pausing an object being deleted stops its deletion).
 * R-PAUSE-1 is every other plan's: {@link withPauseWarnings}.
 */

export type PauseTarget = Cluster | MachineDeployment | KubeadmControlPlane;

export interface PauseCurrent {
  /** What is paused or resumed. */
  target: PauseTarget;
  /** The target's Cluster (for a pool: whether it is paused through it too, R-PAUSE-2). */
  cluster?: Cluster | undefined;
  /** For a Cluster: its pools, to say which of them stop midway or have waiting changes. */
  pools?: readonly (MachineDeployment | KubeadmControlPlane)[];
}

const ANNOTATION_PATH = pointer('metadata', 'annotations', ANNOTATION_PAUSED);

/** Whether the target is paused by the field this operation writes. */
export function isPausedByItself(target: PauseTarget): boolean {
  return target.kind === 'Cluster' ? target.spec?.paused === true : hasPausedAnnotation(target);
}

function patchOps(target: PauseTarget, rv: string, paused: boolean): JsonPatchOp[] {
  const ops: JsonPatchOp[] = [testResourceVersion(rv)];
  if (target.kind === 'Cluster') {
    const current = target.spec?.paused;
    const path = pointer('spec', 'paused');
    if (paused) {
      if (current === undefined) ops.push(addOp(path, true));
      else ops.push(testOp(path, current), replaceOp(path, true));
    } else ops.push(testOp(path, current), removeOp(path));
    return ops;
  }
  const annotations = target.metadata.annotations;
  if (paused) {
    // The annotation's value is not read upstream (annotations.HasPaused); "true" says what it means.
    if (annotations === undefined)
      ops.push(addOp(pointer('metadata', 'annotations'), { [ANNOTATION_PAUSED]: 'true' }));
    else ops.push(addOp(ANNOTATION_PATH, 'true'));
  } else {
    ops.push(testOp(ANNOTATION_PATH, annotations?.[ANNOTATION_PAUSED]), removeOp(ANNOTATION_PATH));
  }
  return ops;
}

/** Machines as wanted against machines wanted, when the object is changing now (else undefined). */
function inFlight(o: MachineDeployment | KubeadmControlPlane): [number, number] | undefined {
  const desired = o.spec?.replicas ?? 1;
  const s = o.status;
  if (!s) return undefined;
  const updated = s.updatedReplicas ?? desired;
  const replicas = s.replicas ?? desired;
  const stale = (s.observedGeneration ?? 0) < (o.metadata.generation ?? 0);
  if (!stale && updated >= desired && replicas === desired) return undefined;
  return [Math.min(updated, desired), desired];
}

/** A change written while paused that Cluster API has not acted on yet (generation ahead). */
function pendingChange(o: PauseTarget): PlanMessage | undefined {
  const generation = o.metadata.generation;
  const observed = o.status?.observedGeneration;
  if (generation === undefined || observed === undefined || observed >= generation) return;
  return planMessage('plan.effect.pendingChange', {
    kind: o.kind,
    name: o.metadata.name ?? '',
    generation,
    observed,
  });
}

/** O-PAUSE / O-RESUME: see the module's comment. */
export function planPause(req: PauseRequest, current: PauseCurrent, ctx: ValidationContext): Plan {
  const target = current.target;
  const kind = target.kind as KindName;
  return withinJsonBounds(
    {
      operation: req.paused ? 'O-PAUSE' : 'O-RESUME',
      namespace: ctx.namespace,
      target: { kind, name: target.metadata.name ?? '' },
    },
    () => pausePlan(req, current, ctx),
  );
}

function pausePlan(req: PauseRequest, current: PauseCurrent, ctx: ValidationContext): Plan {
  const target = current.target;
  const kind = target.kind as KindName;
  const name = target.metadata.name ?? '';
  const isCluster = kind === 'Cluster';
  const clusterName = isCluster ? name : (current.cluster?.metadata.name ?? ctx.clusterName);
  const clusterPaused = isCluster ? false : current.cluster?.spec?.paused === true;
  const changes = isPausedByItself(target) !== req.paused;

  const steps: PlanStep[] = [];
  const notes: PlanMessage[] = [];
  const issues: RuleIssue[] = [];
  if (!changes) {
    notes.push(
      planMessage(req.paused ? 'plan.effect.alreadyPaused' : 'plan.effect.notPaused', {
        kind,
        name,
      }),
    );
  } else {
    const key = req.paused
      ? isCluster
        ? 'plan.step.pauseCluster'
        : 'plan.step.pauseObject'
      : isCluster
        ? 'plan.step.resumeCluster'
        : 'plan.step.resumeObject';
    steps.push(
      jsonPatchStep(
        target,
        kind,
        patchOps(target, req.resourceVersion, req.paused),
        planMessage(key, { kind, name }),
      ),
    );
    const pools = isCluster
      ? (current.pools ?? [])
      : [target as MachineDeployment | KubeadmControlPlane];
    if (req.paused) {
      if (isCluster) {
        const workers = pools.filter((p) => p.kind === 'MachineDeployment').length;
        notes.push(planMessage('plan.effect.pauseCluster', { name, pools: workers }));
      } else {
        notes.push(
          planMessage(
            kind === 'KubeadmControlPlane'
              ? 'plan.effect.pauseControlPlane'
              : 'plan.effect.pauseMachineDeployment',
            { name },
          ),
        );
        if (clusterPaused) {
          notes.push(
            planMessage('plan.effect.alsoPausedByCluster', { kind, name, cluster: clusterName }),
          );
        }
      }
      for (const p of pools) {
        const counts = inFlight(p);
        if (!counts) continue;
        notes.push(
          planMessage('plan.effect.stopsMidway', {
            kind: p.kind,
            name: p.metadata.name ?? '',
            current: counts[0],
            desired: counts[1],
          }),
        );
      }
      if (target.metadata.deletionTimestamp) {
        // R-PAUSE-3: upstream's controllers skip a paused object before looking at its deletion.
        issues.push(
          planIssue(R_PAUSE_DELETION_STOPS, 'warning', 'paused', 'plan.issue.pauseWhileDeleting', {
            kind,
            name,
          }),
        );
      }
    } else {
      notes.push(
        isCluster
          ? planMessage('plan.effect.resumeCluster', { name })
          : planMessage('plan.effect.resumeObject', { kind, name }),
      );
      for (const p of isCluster ? [target, ...pools] : pools) {
        const pending = pendingChange(p);
        if (pending) notes.push(pending);
      }
      if (clusterPaused) {
        issues.push(
          planIssue(
            R_PAUSE_CLUSTER_STILL_PAUSED,
            'warning',
            'paused',
            'plan.issue.clusterStillPaused',
            { cluster: clusterName, kind, name },
          ),
        );
      }
    }
  }

  return finishPlan({
    operation: req.paused ? 'O-PAUSE' : 'O-RESUME',
    namespace: ctx.namespace,
    target: { kind, name },
    steps,
    issues: mergeIssues(issues, [
      ...staleIssue(kind, name, req.resourceVersion, target.metadata.resourceVersion),
    ]),
    known: [target],
    effects: { notes },
  });
}

/**
 * R-PAUSE-1: a plan that writes an object of a paused cluster, or an object that is paused itself,
 * says that nothing happens until it is resumed. Applied to every plan but O-PAUSE / O-RESUME
 * (which say what they do themselves); a plan without steps, or without a known pause state,
 * is returned as it is.
 */
export function withPauseWarnings(
  plan: Plan,
  ctx: Pick<ValidationContext, 'clusterName' | 'paused'>,
): Plan {
  const paused = ctx.paused;
  if (!paused || plan.steps.length === 0) return plan;
  if (plan.operation === 'O-PAUSE' || plan.operation === 'O-RESUME') return plan;
  const added: RuleIssue[] = [];
  if (paused.cluster) {
    added.push(
      planIssue(R_PAUSE_NOTHING_HAPPENS, 'warning', '', 'plan.issue.pausedCluster', {
        cluster: ctx.clusterName,
      }),
    );
  }
  const seen = new Set<string>();
  for (const s of plan.steps) {
    const k = `${s.kind}/${s.name}`;
    if (seen.has(k)) continue;
    seen.add(k);
    if (!paused.objects.some((o) => o.kind === s.kind && o.name === s.name)) continue;
    added.push(
      planIssue(R_PAUSE_NOTHING_HAPPENS, 'warning', '', 'plan.issue.pausedObject', {
        kind: s.kind,
        name: s.name,
      }),
    );
  }
  return added.length ? { ...plan, issues: [...plan.issues, ...added] } : plan;
}
