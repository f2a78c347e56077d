import type { RuleIssue } from '../rules/issue';
import type { PlanMessage } from './messages';

/**
 * What the API server said of each step of a Plan when it was dry-run (`dryRun=All`): Preview
 * shows it, and Apply runs the very same dry run before its first write (the BFF's executor), so
 * that a plan that previews clean does not fail on Apply unless someone else changes an object
 * in between (the conflict path).
 *
 * A dry run writes nothing, so the server cannot judge a step against what an earlier step of the
 * same plan would write. Steps on distinct objects do not see each other's writes anyway, so each
 * judged against the current state is judged against the result of the steps before it. A step
 * on an object an earlier step writes cannot be judged in sequence: it is dry-run alone and its
 * verdict says so (`sequence: 'alone'`, `after` the earlier steps); Apply judges it again just
 * before its own write.
 */

export type StepVerdictStatus =
  /** The server's dry run accepted the step. */
  | 'accepted'
  /** The server refused it: `error` is its Status, `issues` its causes by rule and field. */
  | 'refused'
  /**
   * Dry-run alone, the server refused it, but an earlier step of the plan changes (or creates)
   * the object first, so the refusal may not hold once that step is written: judged again at
   * Apply, just before its write.
   */
  | 'unjudged';

export interface StepVerdict {
  /** The index of the step in `plan.steps`. */
  index: number;
  status: StepVerdictStatus;
  /**
   * `in-order`: judged against the state the earlier steps leave (they touch other objects);
   * `alone`: an earlier step writes this object, which a dry run cannot carry over.
   */
  sequence: 'in-order' | 'alone';
  /** The earlier steps (indexes) that write the same object, for `sequence: 'alone'`. */
  after?: number[];
  /** The server's Status for a refused or unjudged step. */
  error?: { status: number; reason?: string; message: string };
  /** The Status's causes, each with the rule and the object field it concerns. */
  issues: RuleIssue[];
  /** Why the step was judged the way it was (alone, after a wait), in both languages. */
  note?: PlanMessage;
}

export interface PlanVerdict {
  /** No step refused (steps judged alone and refused are `unjudged`, not counted here). */
  ok: boolean;
  steps: StepVerdict[];
}
