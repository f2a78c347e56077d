import { resolveFenceposts } from '../intstr';
import type { KindName } from '../kinds';
import { ANNOTATION_DELETE_MACHINE, LABEL_SET_NAME } from '../labels';
import type { RestartRequest } from '../requests/restart';
import type { ValidationContext } from '../rules/context';
import type { RuleIssue } from '../rules/issue';
import { checkMaxSurgeWithPersistentDisks } from '../rules/md';
import { checkPoolDemand, reliesOnPersistentDisks } from '../rules/pool';
import {
  formatRfc3339,
  parseRfc3339,
  R_RESTART_CHANGING,
  R_RESTART_DEPLOYMENT_PAUSED,
  R_RESTART_NO_MACHINES,
  R_RESTART_ON_DELETE,
  R_RESTART_REPLACES_SCHEDULED,
  R_RESTART_TIME,
  rolloutAfterExpired,
} from '../rules/restart';
import type { Machine, MachineDeployment, MachineSet } from '../schemas/capi';
import type { KubeadmControlPlane } from '../schemas/controlplane';
import type { IntOrString } from '../schemas/meta';
import { withinJsonBounds } from './bounds';
import { mergeIssues, planIssue, staleIssue } from './issues';
import {
  addOp,
  pointer,
  replaceOp,
  testOp,
  testResourceVersion,
  type JsonPatchOp,
} from './json-patch';
import { planMessage, type PlanMessage } from './messages';
import { finishPlan, jsonPatchStep } from './objects';
import type { Plan, PlanStep, RestartEffect, RestartStep, RolloutImpact } from './plan';
import { rolloutView } from '../views/rollout';
import { machineIsDeleting } from './rollout';
import { ipPoolNameOf } from './scale';

/**
 * O-RESTART (issue 26 item 4): a rollout restart of a worker pool or of the control plane, as
 * Cluster API offers it (`clusterctl alpha rollout restart` writes the same field): one JSON patch
 * of the MachineDeployment's or KubeadmControlPlane's `spec.rolloutAfter` (v1beta2
 * `spec.rollout.after`, converted at the edge by `planForVersions`), testing the resourceVersion
 * the user saw and the value it replaces.
 *
 * "Now" is the console server's clock (`now`, passed by the BFF; never the browser's), "at a
 * time" a later one. The plan names the machines it replaces and the order: a MachineDeployment
 * rolls them under its strategy (maxSurge / maxUnavailable, the old machine of each step picked by
 * its deletion order; OnDelete only as they are deleted), a KubeadmControlPlane one at a time, the
 * oldest first. The rules are R-RESTART-1..6 (`rules/restart.ts`), with R-MD-3 and R-POOL-1 for
 * the surge, as the upgrade planners judge it.
 */

export type RestartTarget = MachineDeployment | KubeadmControlPlane;

export interface RestartCurrent {
  target: RestartTarget;
  /** The pool's machines (a worker pool's by its deployment label, the control plane's). */
  machines: readonly Machine[];
  /** A worker pool's MachineSets (those of its deployment); upstream expires them, not machines. */
  machineSets?: readonly MachineSet[];
}

const ROLLOUT_AFTER = pointer('spec', 'rolloutAfter');

const created = (o: { metadata: { creationTimestamp?: string | undefined } }) =>
  parseRfc3339(o.metadata.creationTimestamp) ?? 0;
const byName = (a: Machine, b: Machine) =>
  (a.metadata.name ?? '') < (b.metadata.name ?? '')
    ? -1
    : (a.metadata.name ?? '') > (b.metadata.name ?? '')
      ? 1
      : 0;

/** Machines a MachineSet deletes before the others: marked for deletion, then not healthy. */
function deletePriority(m: Machine): number {
  if (m.metadata.annotations?.[ANNOTATION_DELETE_MACHINE] !== undefined) return 2;
  const s = m.status;
  const nodeUnhealthy = s?.conditions?.some(
    (c) => c.type === 'NodeHealthy' && c.status === 'False',
  );
  if (!s?.nodeRef || s.failureReason || s.failureMessage || nodeUnhealthy) return 1;
  return 0;
}

type Order = RestartEffect['order'];

/** The machines in the order they go (MachineSet delete priorities, or KCP's oldest first). */
function inOrder(machines: readonly Machine[], order: Order): Machine[] {
  const sorted = [...machines];
  if (order === 'ControlPlane') {
    // KubeadmControlPlane scales down a machine marked for deletion first, then the oldest.
    const marked = (m: Machine) =>
      m.metadata.annotations?.[ANNOTATION_DELETE_MACHINE] !== undefined ? 1 : 0;
    return sorted.sort((a, b) => marked(b) - marked(a) || created(a) - created(b) || byName(a, b));
  }
  return sorted.sort(
    (a, b) =>
      deletePriority(b) - deletePriority(a) ||
      (order === 'Oldest'
        ? created(a) - created(b)
        : order === 'Newest'
          ? created(b) - created(a)
          : 0) ||
      byName(a, b),
  );
}

/**
 * A MachineDeployment's rolling update of `replicas` machines, step by step: Cluster API's
 * reconcileNewMachineSet (up to replicas + maxSurge machines in all) then reconcileOldMachineSets
 * (down to replicas − maxUnavailable available), each step's new machines available before the
 * next. Counts only; undefined for a strategy the fenceposts refuse (R-MD-2 reports it).
 */
export function rollingSteps(
  replicas: number,
  maxSurge: IntOrString | undefined,
  maxUnavailable: IntOrString | undefined,
): { create: number; delete: number }[] | undefined {
  let f: { maxSurge: number; maxUnavailable: number };
  try {
    f = resolveFenceposts(maxSurge, maxUnavailable, replicas);
  } catch {
    return undefined;
  }
  const out: { create: number; delete: number }[] = [];
  let old = replicas;
  let fresh = 0;
  const maxTotal = replicas + f.maxSurge;
  const minAvailable = replicas - Math.min(f.maxUnavailable, replicas);
  // Every step moves at least one machine; 2·replicas + 2 steps is more than any rollout takes.
  for (let guard = 0; (old > 0 || fresh < replicas) && guard < 2 * replicas + 2; guard++) {
    const total = old + fresh;
    const create = total < maxTotal ? Math.min(maxTotal - total, replicas - fresh) : 0;
    // The old machines are available, the new ones of this step are not yet.
    const available = old + fresh;
    const remove = Math.max(0, Math.min(old, available - minAvailable));
    if (create === 0 && remove === 0) break;
    out.push({ create, delete: remove });
    fresh += create;
    old -= remove;
  }
  return out;
}

/** The control plane's: one at a time, a new machine first (maxSurge 1) or the old one (0). */
function controlPlaneSteps(count: number, surge: boolean): { create: number; delete: number }[] {
  const out: { create: number; delete: number }[] = [];
  for (let i = 0; i < count; i++) {
    if (surge) out.push({ create: 1, delete: 0 }, { create: 0, delete: 1 });
    else out.push({ create: 0, delete: 1 }, { create: 1, delete: 0 });
  }
  return out;
}

/** Names the machines of each step, in order. */
function namedSteps(
  counts: readonly { create: number; delete: number }[],
  machines: readonly string[],
): RestartStep[] {
  let next = 0;
  return counts.map((c) => {
    const names = machines.slice(next, next + c.delete);
    next += c.delete;
    return { create: c.create, delete: names };
  });
}

interface Facts {
  kind: KindName;
  name: string;
  replicas: number;
  rolloutAfter: string | undefined;
  maxSurge: IntOrString | undefined;
}

/** Why the pool is changing now (R-RESTART-2), or undefined when it is settled. */
function changing(
  current: RestartCurrent,
  facts: Facts,
  now: number,
): { key: Parameters<typeof planMessage>[0]; params: Record<string, string | number> } | undefined {
  const o = current.target;
  const { kind, name, replicas } = facts;
  if (o.metadata.deletionTimestamp) {
    return { key: 'plan.issue.restartDeleting', params: { kind, name } };
  }
  const generation = o.metadata.generation;
  const observed = o.status?.observedGeneration;
  if (generation !== undefined && observed !== undefined && observed < generation) {
    return {
      key: 'plan.issue.restartPendingSpec',
      params: { kind, name, generation, observed },
    };
  }
  const live = current.machines.filter((m) => !machineIsDeleting(m));
  // A MachineSet still in play: it wants machines or owns one (being deleted included). Judged
  // from the machines, as the pool's card is, not from status.replicas, which its controller
  // writes after the machines change (a Preview right after a rollout would be refused on it).
  const owners = new Set(current.machines.map((m) => m.metadata.labels?.[LABEL_SET_NAME]));
  const inPlay = (ms: MachineSet) =>
    (ms.spec?.replicas ?? 0) > 0 || owners.has(ms.metadata.name ?? '');
  // A restart already due: machines (or, for a deployment, their MachineSets) older than it remain.
  const due =
    facts.rolloutAfter !== undefined &&
    (o.kind === 'MachineDeployment' && current.machineSets
      ? current.machineSets.some(
          (ms) =>
            inPlay(ms) &&
            rolloutAfterExpired(facts.rolloutAfter, ms.metadata.creationTimestamp, now),
        )
      : live.some((m) =>
          rolloutAfterExpired(facts.rolloutAfter, m.metadata.creationTimestamp, now),
        ));
  if (due) {
    return {
      key: 'plan.issue.restartDue',
      params: { kind, name, time: facts.rolloutAfter ?? '' },
    };
  }
  const deleting = current.machines.length - live.length;
  // A worker pool is judged from its MachineSets and machines, as its card's rollout is
  // (rolloutView): the deployment's status.replicas / updatedReplicas follow its sets' status,
  // which their controller writes after the machines change, so a Preview right after a rollout
  // would be refused on counts already out of date. The control plane's status is written by the
  // controller that makes its machines, in the same reconcile.
  const rollout =
    o.kind === 'MachineDeployment' && current.machineSets
      ? rolloutView(o, current.machineSets, current.machines, new Date(now))
      : undefined;
  const updated = rollout ? rollout.updated : (o.status?.updatedReplicas ?? replicas);
  const statusReplicas = rollout ? live.length : (o.status?.replicas ?? replicas);
  const oldSets = current.machineSets?.filter(inPlay).length ?? 0;
  if (
    updated < replicas ||
    statusReplicas !== replicas ||
    deleting > 0 ||
    live.length !== replicas ||
    oldSets > 1 ||
    rollout?.inProgress === true
  ) {
    return {
      key: 'plan.issue.restartChanging',
      params: {
        kind,
        name,
        updated: Math.min(updated, replicas),
        desired: replicas,
        current: live.length,
        deleting,
      },
    };
  }
  return undefined;
}

/** O-RESTART: see the module's comment. `now` is the console server's clock. */
export function planRestart(
  req: RestartRequest,
  current: RestartCurrent,
  ctx: ValidationContext,
  now: Date,
): Plan {
  const target = current.target;
  return withinJsonBounds(
    {
      operation: 'O-RESTART',
      namespace: ctx.namespace,
      target: { kind: target.kind, name: target.metadata.name ?? '' },
    },
    () => restartPlan(req, current, ctx, now),
  );
}

function restartPlan(
  req: RestartRequest,
  current: RestartCurrent,
  ctx: ValidationContext,
  nowDate: Date,
): Plan {
  const target = current.target;
  const kind = target.kind as KindName;
  const name = target.metadata.name ?? '';
  const isControlPlane = target.kind === 'KubeadmControlPlane';
  const now = nowDate.getTime();
  const plannedAt = formatRfc3339(now);
  const at = req.at === undefined ? undefined : parseRfc3339(req.at);
  const rolloutAfter = formatRfc3339(at ?? now);
  const scheduled = at !== undefined;
  const md = isControlPlane ? undefined : target;
  const kcp = isControlPlane ? target : undefined;
  const replicas = target.spec?.replicas ?? 1;
  const existing = target.spec?.rolloutAfter;
  const strategyType = md?.spec?.strategy?.type ?? 'RollingUpdate';
  const rolling = md?.spec?.strategy?.rollingUpdate;
  const maxSurge: IntOrString | undefined = kcp
    ? (kcp.spec?.rolloutStrategy?.rollingUpdate?.maxSurge ?? 1)
    : strategyType === 'OnDelete'
      ? 0
      : rolling?.maxSurge;
  const facts: Facts = { kind, name, replicas, rolloutAfter: existing, maxSurge };

  const issues: RuleIssue[] = [];
  const notes: PlanMessage[] = [];

  // R-RESTART-3: a time to come, by the console server's clock.
  if (at !== undefined && at <= now) {
    issues.push(
      planIssue(R_RESTART_TIME, 'error', 'at', 'plan.issue.restartTimePast', {
        time: rolloutAfter,
        now: plannedAt,
      }),
    );
  }
  // R-RESTART-1: something to restart.
  if (replicas <= 0) {
    issues.push(
      planIssue(R_RESTART_NO_MACHINES, 'error', '', 'plan.issue.restartNoMachines', { kind, name }),
    );
  } else {
    // R-RESTART-2: not while the pool is changing.
    const why = changing(current, facts, now);
    if (why) issues.push(planIssue(R_RESTART_CHANGING, 'error', '', why.key, why.params));
  }
  // R-RESTART-4: one time per object; a scheduled one is replaced.
  const existingAt = parseRfc3339(existing);
  if (existing !== undefined && existingAt !== undefined && existingAt > now) {
    if (existing !== rolloutAfter) {
      issues.push(
        planIssue(
          R_RESTART_REPLACES_SCHEDULED,
          'warning',
          'at',
          'plan.issue.restartReplacesScheduled',
          { kind, name, scheduled: existing },
        ),
      );
    }
  }
  if (md && strategyType === 'OnDelete') {
    issues.push(
      planIssue(R_RESTART_ON_DELETE, 'warning', '', 'plan.issue.restartOnDelete', {
        name,
        count: replicas,
      }),
    );
  }
  if (md?.spec?.paused === true) {
    issues.push(
      planIssue(R_RESTART_DEPLOYMENT_PAUSED, 'warning', '', 'plan.issue.restartDeploymentPaused', {
        name,
      }),
    );
  }

  // The surge the restart takes, judged as for upgrades (R-MD-3, R-POOL-1).
  const templateName = kcp
    ? kcp.spec?.machineTemplate.infrastructureRef.name
    : md?.spec?.template.spec.infrastructureRef.name;
  const ipPoolName = md
    ? ipPoolNameOf(md, ctx)
    : ctx.machineTemplates.find((t) => t.name === templateName)?.spec.ipHostPoolRef.name;
  const ipPool =
    ipPoolName === undefined ? undefined : ctx.ipPools.find((p) => p.name === ipPoolName);
  const disks = reliesOnPersistentDisks(ipPool?.entries ?? []);
  if (replicas > 0) {
    // R-MD-3 is the worker pools' rule (its message points at the MachineDeployment's maxSurge).
    if (md)
      issues.push(...checkMaxSurgeWithPersistentDisks(maxSurge, replicas, disks, '', 'warning'));
    if (ipPool) {
      const consumers = [
        ...ipPool.consumers.filter((c) => c.deployment !== name),
        { deployment: name, replicas, maxSurge },
      ];
      issues.push(
        ...checkPoolDemand(ipPool.name, ipPool.entries.length, consumers, '').map((i) => ({
          ...i,
          severity: 'warning' as const,
        })),
      );
    }
  }

  // Which machines go, in which order.
  // Against the time as written (whole seconds), as Cluster API compares it.
  const threshold = parseRfc3339(rolloutAfter) ?? now;
  const replaced = current.machines.filter(
    (m) => !machineIsDeleting(m) && (parseRfc3339(m.metadata.creationTimestamp) ?? 0) < threshold,
  );
  const order: Order = kcp
    ? 'ControlPlane'
    : strategyType === 'OnDelete'
      ? 'OnDelete'
      : (rolling?.deletePolicy ?? 'Random');
  const ordered = inOrder(replaced, order).map((m) => m.metadata.name ?? '');
  let counts: { create: number; delete: number }[] | undefined;
  let rollout: RolloutImpact | undefined;
  if (kcp) {
    const surge = Number(maxSurge) !== 0;
    counts = controlPlaneSteps(ordered.length, surge);
    rollout = { replaces: ordered.length, atATime: Math.min(1, ordered.length) };
    notes.push(
      surge
        ? planMessage('plan.effect.restartControlPlaneSurge', {
            name,
            replicas,
            surge: replicas + 1,
          })
        : planMessage('plan.effect.restartControlPlaneNoSurge', {
            name,
            replicas,
            during: Math.max(0, replicas - 1),
          }),
    );
  } else if (order !== 'OnDelete') {
    counts = rollingSteps(ordered.length, rolling?.maxSurge, rolling?.maxUnavailable);
    try {
      const f = resolveFenceposts(rolling?.maxSurge, rolling?.maxUnavailable, replicas);
      rollout = {
        replaces: ordered.length,
        atATime: Math.max(1, Math.min(ordered.length, f.maxSurge + f.maxUnavailable)),
      };
      notes.push(
        planMessage('plan.effect.restartOrderRolling', {
          replicas,
          surge: f.maxSurge,
          unavailable: f.maxUnavailable,
          maxSurge: String(rolling?.maxSurge ?? 1),
          maxUnavailable: String(rolling?.maxUnavailable ?? 0),
        }),
      );
    } catch {
      // An invalid strategy: the API server's R-MD-2 and the view say so; no order is claimed.
    }
    notes.push(
      planMessage(
        order === 'Oldest'
          ? 'plan.effect.restartPickOldest'
          : order === 'Newest'
            ? 'plan.effect.restartPickNewest'
            : 'plan.effect.restartPickRandom',
      ),
    );
  }
  if (disks && !kcp) notes.push(planMessage('plan.effect.persistentDisksMove'));

  const steps: PlanStep[] = [];
  if (existing === rolloutAfter) {
    notes.unshift(
      planMessage('plan.effect.restartAlreadyScheduled', { kind, name, time: rolloutAfter }),
    );
  } else {
    const ops: JsonPatchOp[] = [
      testResourceVersion(req.resourceVersion),
      ...(existing === undefined
        ? [addOp(ROLLOUT_AFTER, rolloutAfter)]
        : [testOp(ROLLOUT_AFTER, existing), replaceOp(ROLLOUT_AFTER, rolloutAfter)]),
    ];
    steps.push(
      jsonPatchStep(
        target,
        kind,
        ops,
        planMessage(scheduled ? 'plan.step.restartScheduled' : 'plan.step.restart', {
          kind,
          name,
          time: rolloutAfter,
        }),
      ),
    );
    notes.unshift(
      scheduled
        ? planMessage('plan.effect.restartScheduled', { kind, name, time: rolloutAfter })
        : planMessage('plan.effect.restartNow', {
            kind,
            name,
            time: rolloutAfter,
            count: ordered.length,
          }),
      scheduled
        ? planMessage('plan.effect.restartClockScheduled', { time: rolloutAfter, now: plannedAt })
        : planMessage('plan.effect.restartClockNow', { time: rolloutAfter }),
    );
  }

  return finishPlan({
    operation: 'O-RESTART',
    namespace: ctx.namespace,
    target: { kind, name },
    steps,
    issues: mergeIssues(issues, [
      ...staleIssue(kind, name, req.resourceVersion, target.metadata.resourceVersion),
    ]),
    known: [target],
    effects: {
      ...(rollout && steps.length ? { rollout } : {}),
      restart: {
        rolloutAfter,
        plannedAt,
        scheduled,
        machines: ordered,
        steps: counts ? namedSteps(counts, ordered) : [],
        order,
      },
      notes,
    },
  });
}
