import type { EditStrategyRequest } from '../requests/edit-strategy';
import type { IntOrString } from '../schemas/meta';
import type { ValidationContext } from './context';
import type { RuleIssue } from './issue';
import { warning } from './make';
import { checkMaxSurgeWithPersistentDisks, checkRolloutStrategy } from './md';
import { checkPoolDemand, reliesOnPersistentDisks } from './pool';
import { checkProviderForWebWorkflow } from './version';

/** The worker pool whose rollout settings are edited, as it is now (O-EDIT-STRATEGY). */
export interface EditStrategyPool {
  name: string;
  replicas: number;
  /** `OnDelete` replaces machines only when they are deleted: maxSurge/maxUnavailable do nothing. */
  strategyType: 'RollingUpdate' | 'OnDelete' | undefined;
  maxSurge: IntOrString | undefined;
  maxUnavailable: IntOrString | undefined;
  /** The IP pool its machine template names (R-MD-3, R-POOL-1). */
  ipPoolName: string | undefined;
}

/**
 * The strategy the pool will have: the request's fields over the current ones; a cleared field
 * (`null`) is unset, so Cluster API's default applies (R-MD-2 resolves it).
 */
export function strategyAfterEdit(
  req: Pick<EditStrategyRequest, 'maxSurge' | 'maxUnavailable'>,
  pool: Pick<EditStrategyPool, 'maxSurge' | 'maxUnavailable'>,
): { maxSurge: IntOrString | undefined; maxUnavailable: IntOrString | undefined } {
  const pick = (v: IntOrString | null | undefined, was: IntOrString | undefined) =>
    v === null ? undefined : (v ?? was);
  return {
    maxSurge: pick(req.maxSurge, pool.maxSurge),
    maxUnavailable: pick(req.maxUnavailable, pool.maxUnavailable),
  };
}

/**
 * O-EDIT-STRATEGY: the strategy the pool ends up with is valid (R-MD-2: int or percent, not both
 * 0 once defaulted); a pool that relies on persistent disks keeps maxSurge = 0 (R-MD-3: an error
 * when the user sets maxSurge, a warning at the field while an unchanged maxSurge still breaks
 * it); a larger surge still fits the IP pool during a rollout (R-POOL-1, a warning). Paths are the
 * request's fields.
 */
export function validateEditStrategy(
  req: EditStrategyRequest,
  pool: EditStrategyPool,
  ctx: ValidationContext,
): RuleIssue[] {
  const out: RuleIssue[] = [...checkProviderForWebWorkflow(ctx)];
  const after = strategyAfterEdit(req, pool);
  const touchesStrategy = req.maxSurge !== undefined || req.maxUnavailable !== undefined;
  if (touchesStrategy) {
    out.push(...checkRolloutStrategy(after, ''));
    if (pool.strategyType === 'OnDelete') {
      out.push(warning('R-MD-2', 'maxSurge', 'md.strategyOnDelete', { pool: pool.name }));
    }
  }
  const ipPool =
    pool.ipPoolName === undefined ? undefined : ctx.ipPools.find((p) => p.name === pool.ipPoolName);
  if (ipPool) {
    out.push(
      ...checkMaxSurgeWithPersistentDisks(
        after.maxSurge,
        pool.replicas,
        reliesOnPersistentDisks(ipPool.entries),
        'maxSurge',
        req.maxSurge !== undefined ? 'error' : 'warning',
      ),
    );
    if (req.maxSurge !== undefined) {
      const consumers = [
        ...ipPool.consumers.filter((c) => c.deployment !== pool.name),
        { deployment: pool.name, replicas: pool.replicas, maxSurge: after.maxSurge },
      ];
      // Only the rollout headroom is this edit's business; a pool already short is R-POOL-1's
      // error elsewhere (scale, the card), and maxSurge cannot fix it.
      out.push(
        ...checkPoolDemand(ipPool.name, ipPool.entries.length, consumers, 'maxSurge').filter(
          (i) => i.severity === 'warning',
        ),
      );
    }
  }
  return out;
}
