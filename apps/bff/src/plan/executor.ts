import {
  deleteOptionsOf,
  guardOf,
  planMessage,
  tryApplyJsonPatch,
  type KindName,
  type Plan,
  type PlanStep,
  type PlanVerdict,
  type StepVerdict,
} from '@dcs/domain';
import { issuesOfApiError } from '../http/errors';
import { KubeApiError, UpstreamUnreachableError } from '../kube/errors';
import {
  createObject,
  deleteObject,
  getObject,
  patchObject,
  replaceObject,
  type KubeObjectLike,
} from '../kube/objects';
import type { KubeClient } from '../kube/rest';

/**
 * Runs a Plan against the API server with the requesting user's client (plan.ts has the contract):
 * 1. every step is dry-run (`dryRun=All`) before any real write, by `dryRunPlan`, the very dry run
 *    Preview shows, so that a plan the server would refuse changes nothing and a plan that
 *    previewed clean meets the same judge;
 * 2. the steps run in order, each with its precondition; a step that touches an object an
 *    earlier step wrote, or that waits for a deletion, is dry-run just before its own write;
 * 3. when a step fails, the undo of every completed step runs, last first (O-CREATE-POOL leaves
 *    nothing behind). A failure before the first write (a refusal by the dry run, or of the first
 *    write) is `untouched`, not `rolledBack`: nothing had been changed, nothing was undone.
 */

/**
 * `unknown`: the connection to the API server was lost after the write was sent (a reset, a
 * timeout, the server dying): it may or may not have been applied, and the answer says so rather
 * than claim either (issue 10: no half-applied mutation left unexplained).
 */
export type StepStatus =
  'applied' | 'failed' | 'unknown' | 'not-run' | 'undone' | 'undo-failed' | 'no-undo';

export interface StepError {
  status: number;
  reason?: string;
  message: string;
  /** `dry-run`: refused by the server's dry run, before this step wrote anything. */
  phase: 'dry-run' | 'write' | 'wait';
  causes?: readonly { field?: string; message?: string; reason?: string }[];
}

export interface StepOutcome {
  index: number;
  verb: PlanStep['verb'];
  kind: KindName;
  name: string;
  status: StepStatus;
  /** resourceVersion after the write (absent for deletes). */
  resourceVersion?: string;
  error?: StepError;
}

export interface ExecutionResult {
  ok: boolean;
  steps: StepOutcome[];
  /** The index of the step that failed. */
  failedStep?: number;
  error?: StepError;
  /** The failure was a precondition (409 or a failed `test` op): the object changed meanwhile. */
  conflict: boolean;
  /**
   * Steps had been applied and every one of them was undone. False when nothing had been applied
   * (see `untouched`): there was nothing to roll back, and saying so would be untrue (issue 25).
   */
  rolledBack: boolean;
  /**
   * No write reached the server: the failure came before the first one (the dry run refused a
   * step or could not be run, or the first write was refused). Nothing was changed.
   */
  untouched: boolean;
  /** The dry run's verdict, when a step was refused by it (nothing was written). */
  verdict?: PlanVerdict;
  /**
   * Steps sent guarded by a later resourceVersion than planned: their object had moved on only
   * by writes that are no one's edit (`refreshGuard`), such as a controller's status.
   */
  guardsMoved: GuardMove[];
}

export interface GuardMove {
  index: number;
  from: string;
  to: string;
}

/** Where the steps as sent differ from the plan's in their resourceVersion guard. */
function guardMoves(planned: readonly PlanStep[], sent: readonly PlanStep[]): GuardMove[] {
  return planned.flatMap((p, index) => {
    const s = sent[index];
    const from = guardOf(p);
    const to = s ? guardOf(s) : undefined;
    return s !== p && from !== undefined && to !== undefined && from !== to
      ? [{ index, from, to }]
      : [];
  });
}

export interface ExecutorOptions {
  /** Poll interval while waiting for a deletion (`waitFor`). */
  pollMs?: number;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
  /** Called before each real write, for the audit log and tests. */
  onWrite?: (step: PlanStep, phase: 'dry-run' | 'write' | 'undo') => void | Promise<void>;
  /**
   * A step refused on its precondition (the object changed since it was planned): the same step
   * guarded by the object's current resourceVersion when what changed is no one's edit (a
   * controller's status write), for this step to be sent again at once; undefined when the change
   * must be judged (the caller's conflict path). Without it, every such refusal is a conflict.
   */
  refreshGuard?: (step: PlanStep) => Promise<PlanStep | undefined>;
}

/** How often one step's guard is moved past status writes before the refusal stands. */
const MAX_GUARD_MOVES = 8;

const objectKey = (s: PlanStep) => `${s.kind}/${s.namespace}/${s.name}`;

/** Step i depends on an earlier one when it touches the same object or waits for a deletion. */
export function dependentSteps(steps: readonly PlanStep[]): boolean[] {
  const seen = new Set<string>();
  return steps.map((s) => {
    const key = objectKey(s);
    const dependent = seen.has(key) || s.waitFor !== undefined;
    seen.add(key);
    return dependent;
  });
}

/** For each step, the earlier steps that write the same object. */
function earlierWriters(steps: readonly PlanStep[]): number[][] {
  const writers = new Map<string, number[]>();
  return steps.map((s, i) => {
    const key = objectKey(s);
    const before = writers.get(key) ?? [];
    writers.set(key, [...before, i]);
    return before;
  });
}

interface Judgement {
  verdict: PlanVerdict;
  /** The error of each step the server refused (by index), for the conflict check. */
  errors: Map<number, unknown>;
}

/**
 * Every step dry-run (`dryRun=All`) in order, with the server's verdict per step (domain's
 * verdict.ts has the contract). A dry run writes nothing, so a step on an object that an earlier
 * step writes is judged alone: accepted, or `unjudged` when refused (the earlier write may be
 * what it needs; Apply judges it again just before its own write). Errors that are not the
 * server's answer (the network) are thrown.
 */
async function judgePlan(
  plan: Plan,
  client: KubeClient,
  options: Pick<ExecutorOptions, 'onWrite' | 'refreshGuard'> = {},
  steps: PlanStep[] = [...plan.steps],
): Promise<Judgement> {
  const writers = earlierWriters(steps);
  const errors = new Map<number, unknown>();
  const verdicts: StepVerdict[] = [];
  for (const [i, step] of steps.entries()) {
    const after = writers[i] ?? [];
    const alone = after.length > 0;
    const stepList = after.map((j) => String(j + 1)).join(', ');
    const note = alone
      ? planMessage('plan.verdict.alone', { count: after.length, steps: stepList })
      : step.waitFor
        ? planMessage('plan.verdict.afterWait', {
            kind: step.waitFor.kind,
            name: step.waitFor.name,
          })
        : undefined;
    const base = {
      index: i,
      sequence: alone ? ('alone' as const) : ('in-order' as const),
      ...(alone ? { after } : {}),
    };
    try {
      await options.onWrite?.(step, 'dry-run');
      // Alone, a refusal may be the earlier write's to make good: not a stale guard to move.
      await (alone ? runStep(client, step, true) : runGuarded(client, steps, i, true, options));
      verdicts.push({ ...base, status: 'accepted', issues: [], ...(note ? { note } : {}) });
    } catch (error) {
      if (!(error instanceof KubeApiError)) throw error;
      const creator = after.find((j) => steps[j]?.verb === 'create');
      const why =
        alone && creator !== undefined && error.status === 404
          ? planMessage('plan.verdict.notYetCreated', {
              kind: step.kind,
              name: step.name,
              step: creator + 1,
            })
          : note;
      if (!alone) errors.set(i, error);
      verdicts.push({
        ...base,
        status: alone ? 'unjudged' : 'refused',
        error: {
          status: error.status,
          ...(error.reason !== undefined ? { reason: error.reason } : {}),
          message: error.message,
        },
        issues: issuesOfApiError(error),
        ...(why ? { note: why } : {}),
      });
    }
  }
  return { verdict: { ok: errors.size === 0, steps: verdicts }, errors };
}

/** The server's dry-run verdict on every step of a plan: what Preview shows (see `judgePlan`). */
export async function dryRunPlan(
  plan: Plan,
  client: KubeClient,
  options: Pick<ExecutorOptions, 'onWrite' | 'refreshGuard'> = {},
): Promise<PlanVerdict> {
  return (await judgePlan(plan, client, options)).verdict;
}

/**
 * Preview's dry run: the verdict, and the first step refused because its object changed since the
 * plan was made (a conflict, as Apply's executor judges one: `isConflict`), for the caller to
 * catch up and plan again rather than show the server's generic refusal.
 */
export async function previewPlan(
  plan: Plan,
  client: KubeClient,
  options: Pick<ExecutorOptions, 'onWrite' | 'refreshGuard'> = {},
): Promise<{ verdict: PlanVerdict; conflictAt?: number }> {
  const judged = await judgePlan(plan, client, options);
  for (const [i, error] of judged.errors) {
    const step = plan.steps[i];
    if (step && (await isConflict(client, step, error))) {
      return { verdict: judged.verdict, conflictAt: i };
    }
  }
  return { verdict: judged.verdict };
}

/** A write whose answer was lost: the server may have applied it (a reset, a timeout). */
function inDoubt(error: unknown): boolean {
  if (error instanceof UpstreamUnreachableError) return error.mayHaveArrived;
  return error instanceof KubeApiError && error.status === 504;
}

function toStepError(error: unknown, phase: StepError['phase']): StepError {
  if (error instanceof KubeApiError) {
    return {
      status: error.status,
      ...(error.reason !== undefined ? { reason: error.reason } : {}),
      message: error.message,
      phase,
      ...(error.causes.length ? { causes: error.causes } : {}),
    };
  }
  return { status: 0, message: error instanceof Error ? error.message : String(error), phase };
}

/**
 * Whether a step failed on its precondition, i.e. the object changed since it was planned.
 * A 409 says so. A JSON patch whose `test` op does not hold gets 422 Invalid from kube-apiserver
 * ("the server rejected our request due to an error in our request"; the cause naming the test
 * is optional, and the embedded server sends none), the same status as a refusal by validation
 * or admission. So on a 422 to a JSON patch the object is re-read and the patch applied to it
 * locally, with the semantics the server uses: if it no longer applies (a `test` fails, a path
 * it writes is gone), the object changed meanwhile and this is a conflict; if it applies, the
 * server refused the content and this is not.
 */
async function isConflict(client: KubeClient, step: PlanStep, error: unknown): Promise<boolean> {
  if (!(error instanceof KubeApiError)) return false;
  if (error.isConflict) return true;
  if (error.status !== 422 || step.verb !== 'patch' || step.patch.type !== 'json') return false;
  try {
    const live = await getObject(client, step.kind, step.namespace, step.name);
    return !tryApplyJsonPatch(live, step.patch.ops).ok;
  } catch (readError) {
    // Deleted meanwhile: someone else changed it too. Unreadable: the 422 stands.
    return readError instanceof KubeApiError && readError.status === 404;
  }
}

/** One step, for real or as a dry run. `createdUid` fills an undo's `uidFromCreate`. */
async function runStep(
  client: KubeClient,
  step: PlanStep,
  dryRun: boolean,
  createdUid?: string,
): Promise<KubeObjectLike | undefined> {
  const o = { dryRun };
  switch (step.verb) {
    case 'create':
      return createObject(client, step.kind, step.namespace, step.body, o);
    case 'update':
      return replaceObject(client, step.kind, step.namespace, step.name, step.body, o);
    case 'patch':
      return step.patch.type === 'json'
        ? patchObject(client, step.kind, step.namespace, step.name, 'json', step.patch.ops, o)
        : patchObject(client, step.kind, step.namespace, step.name, 'merge', step.patch.doc, o);
    case 'delete': {
      const withUid =
        step.precondition?.uidFromCreate && createdUid !== undefined
          ? { ...step, precondition: { ...step.precondition, uid: createdUid } }
          : step;
      await deleteObject(client, step.kind, step.namespace, step.name, deleteOptionsOf(withUid), o);
      return undefined;
    }
  }
}

/**
 * `steps[i]` run as `runStep` does; refused on its precondition by a change that is no one's edit
 * (`refreshGuard`), it is sent again guarded by the current version, at most MAX_GUARD_MOVES
 * times, and `steps[i]` becomes the step as sent.
 */
async function runGuarded(
  client: KubeClient,
  steps: PlanStep[],
  i: number,
  dryRun: boolean,
  options: Pick<ExecutorOptions, 'refreshGuard'>,
  createdUid?: string,
): Promise<KubeObjectLike | undefined> {
  for (let moves = 0; ; moves++) {
    const step = steps[i];
    if (!step) throw new Error(`no step ${String(i)}`);
    try {
      return await runStep(client, step, dryRun, createdUid);
    } catch (error) {
      const refresh = options.refreshGuard;
      if (!refresh || moves >= MAX_GUARD_MOVES || !(await isConflict(client, step, error)))
        throw error;
      const fresh = await refresh(step);
      if (!fresh) throw error;
      steps[i] = fresh;
    }
  }
}

async function waitUntilDeleted(
  client: KubeClient,
  step: PlanStep,
  options: Required<Pick<ExecutorOptions, 'pollMs' | 'sleep' | 'now'>>,
): Promise<void> {
  const w = step.waitFor;
  if (!w) return;
  const deadline = options.now() + w.timeoutSeconds * 1000;
  for (;;) {
    try {
      await getObject(client, w.kind, w.namespace, w.name);
    } catch (error) {
      if (error instanceof KubeApiError && error.status === 404) return;
      throw error;
    }
    if (options.now() >= deadline) {
      throw new KubeApiError(
        504,
        'Timeout',
        `${w.kind} ${w.name} was not deleted within ${w.timeoutSeconds} s`,
      );
    }
    await options.sleep(options.pollMs);
  }
}

const defaultSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export async function executePlan(
  plan: Plan,
  client: KubeClient,
  options: ExecutorOptions = {},
): Promise<ExecutionResult> {
  const opts = {
    pollMs: options.pollMs ?? 1000,
    sleep: options.sleep ?? defaultSleep,
    now: options.now ?? Date.now,
  };
  // The steps as sent: a guard moved past status writes (`refreshGuard`) replaces its step.
  const steps = [...plan.steps];
  const outcomes: StepOutcome[] = steps.map((s, index) => ({
    index,
    verb: s.verb,
    kind: s.kind,
    name: s.name,
    status: 'not-run',
  }));
  const fail = async (index: number, step: PlanStep, error: unknown, phase: StepError['phase']) => {
    const e = toStepError(error, phase);
    const o = outcomes[index];
    if (o) {
      o.status = phase === 'write' && inDoubt(error) ? 'unknown' : 'failed';
      o.error = e;
    }
    return { e, conflict: await isConflict(client, step, error) };
  };

  const dependent = dependentSteps(steps);
  // Phase 1: the dry run Preview shows; nothing has been written yet.
  let judged: Judgement;
  try {
    judged = await judgePlan(plan, client, options, steps);
  } catch (error) {
    const e = toStepError(error, 'dry-run');
    return {
      ok: false,
      steps: outcomes,
      error: e,
      conflict: false,
      rolledBack: false,
      untouched: true,
      guardsMoved: [],
    };
  }
  const refused = judged.verdict.steps.find((v) => v.status === 'refused');
  const refusedStep = refused ? steps[refused.index] : undefined;
  if (refused && refusedStep) {
    const i = refused.index;
    const { e, conflict } = await fail(i, refusedStep, judged.errors.get(i), 'dry-run');
    return {
      ok: false,
      steps: outcomes,
      failedStep: i,
      error: e,
      conflict,
      rolledBack: false,
      untouched: true,
      verdict: judged.verdict,
      guardsMoved: guardMoves(plan.steps, steps),
    };
  }

  // Phase 2: for real, in order.
  const createdUids = new Map<number, string>();
  for (const [i, step] of steps.entries()) {
    let phase: StepError['phase'] = 'wait';
    try {
      await waitUntilDeleted(client, step, opts);
      if (dependent[i]) {
        phase = 'dry-run';
        await options.onWrite?.(step, 'dry-run');
        await runGuarded(client, steps, i, true, options);
      }
      phase = 'write';
      await options.onWrite?.(steps[i] ?? step, 'write');
      const result = await runGuarded(client, steps, i, false, options);
      const o = outcomes[i];
      if (o) {
        o.status = 'applied';
        const rv = result?.metadata.resourceVersion;
        if (rv !== undefined) o.resourceVersion = rv;
      }
      const uid = result?.metadata.uid;
      if (step.verb === 'create' && uid !== undefined) createdUids.set(i, uid);
    } catch (error) {
      const { e, conflict } = await fail(i, steps[i] ?? step, error, phase);
      const allUndone = await rollback(client, steps, outcomes, i, createdUids, options);
      const rolledBack = allUndone && outcomes.some((o) => o.status === 'undone');
      // Nothing applied before this step, and this one's write was refused (not lost in transit).
      const untouched = outcomes.every((o) => o.status === 'not-run' || o.status === 'failed');
      return {
        ok: false,
        steps: outcomes,
        failedStep: i,
        error: e,
        conflict,
        rolledBack,
        untouched,
        guardsMoved: guardMoves(plan.steps, steps),
      };
    }
  }
  return {
    ok: true,
    steps: outcomes,
    conflict: false,
    rolledBack: false,
    untouched: false,
    guardsMoved: guardMoves(plan.steps, steps),
  };
}

/** Undoes steps [0, failed) last first; reports whether every one was undone. */
async function rollback(
  client: KubeClient,
  steps: readonly PlanStep[],
  outcomes: StepOutcome[],
  failed: number,
  createdUids: ReadonlyMap<number, string>,
  options: ExecutorOptions,
): Promise<boolean> {
  let all = true;
  for (let i = failed - 1; i >= 0; i--) {
    const step = steps[i];
    const o = outcomes[i];
    if (!step || o?.status !== 'applied') continue;
    const undo = step.undo;
    if (!undo) {
      o.status = 'no-undo';
      all = false;
      continue;
    }
    try {
      await options.onWrite?.(undo, 'undo');
      await runStep(client, undo, false, createdUids.get(i));
      o.status = 'undone';
    } catch (error) {
      // Already gone counts as undone: nothing of ours is left behind.
      if (error instanceof KubeApiError && error.status === 404 && undo.verb === 'delete') {
        o.status = 'undone';
        continue;
      }
      o.status = 'undo-failed';
      o.error = toStepError(error, 'write');
      all = false;
    }
  }
  return all;
}
