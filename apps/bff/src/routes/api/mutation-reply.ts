import type { FastifyReply } from 'fastify';
import type { MutationOutcome } from '../../mutations/service';

/**
 * How a mutation answers: with `?dryRun=true` the Plan itself (steps, diffs, kubectl
 * equivalents, rule results); otherwise the plan that was applied, each step's outcome, the
 * rebases made over others' changes, and any verification of what the cluster did.
 */
export function replyWith(reply: FastifyReply, outcome: MutationOutcome, createdStatus = 200) {
  if (outcome.dryRun) {
    void reply.header('x-dry-run', 'true');
    return outcome.plan;
  }
  void reply.code(createdStatus);
  return {
    plan: outcome.plan,
    execution: outcome.execution,
    rebased: outcome.rebased,
    ...(outcome.verification !== undefined ? { verification: outcome.verification } : {}),
  };
}
