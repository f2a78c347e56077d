import type { Plan } from '@dcs/domain';
import { useCallback, useState } from 'react';
import { isApiError, type ApiError } from './api-client';
import { conflictOf, type Conflict } from './conflict';

/**
 * The two steps of every change: preview the Plan (dry run), then apply it. A 409 means someone
 * else changed an object meanwhile: the flow keeps the user's intent and offers to re-apply it
 * over the new state, showing what the other person changed (R-POOL-4).
 */
export type PlanStage = 'edit' | 'previewing' | 'review' | 'applying' | 'done';

export type { Conflict } from './conflict';

export interface PlanFlow<T> {
  stage: PlanStage;
  plan: Plan | undefined;
  error: ApiError | Error | undefined;
  conflict: Conflict | undefined;
  /** The request that was previewed: apply sends exactly it. */
  request: T | undefined;
  /** When the server acknowledged the apply (ms since the epoch, the browser's clock). */
  appliedAt: number | undefined;
  /**
   * The plan Apply answered with: the one executed, which may have been re-applied over someone
   * else's change (its R-POOL-4 notice says what was merged).
   */
  applied: Plan | undefined;
  preview: (req: T) => Promise<void>;
  apply: () => Promise<void>;
  back: () => void;
}

export function usePlanFlow<T>(
  send: (req: T, dryRun: boolean) => Promise<Plan | undefined>,
  onDone?: () => void,
): PlanFlow<T> {
  const [stage, setStage] = useState<PlanStage>('edit');
  const [plan, setPlan] = useState<Plan | undefined>();
  const [error, setError] = useState<ApiError | Error | undefined>();
  const [conflict, setConflict] = useState<Conflict | undefined>();
  const [req, setReq] = useState<T | undefined>();
  const [appliedAt, setAppliedAt] = useState<number | undefined>();
  const [applied, setApplied] = useState<Plan | undefined>();

  const fail = useCallback((e: unknown, from: PlanStage) => {
    setConflict(isApiError(e) && e.status === 409 ? conflictOf(e) : undefined);
    setError(e instanceof Error ? e : new Error(String(e)));
    setStage(from);
  }, []);

  const preview = useCallback(
    async (next: T) => {
      setReq(next);
      setError(undefined);
      setConflict(undefined);
      setStage('previewing');
      try {
        setPlan(await send(next, true));
        setStage('review');
      } catch (e) {
        fail(e, 'edit');
      }
    },
    [send, fail],
  );

  const apply = useCallback(async () => {
    if (req === undefined) return;
    setError(undefined);
    setStage('applying');
    try {
      setApplied(await send(req, false));
      setAppliedAt(Date.now());
      setConflict(undefined);
      setStage('done');
      onDone?.();
    } catch (e) {
      fail(e, 'review');
    }
  }, [req, send, fail, onDone]);

  const back = useCallback(() => {
    setStage('edit');
    setError(undefined);
  }, []);

  return {
    stage,
    plan,
    error,
    conflict,
    request: req,
    appliedAt,
    applied,
    preview,
    apply,
    back,
  };
}
