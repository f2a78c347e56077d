import type { Plan } from '@dcs/domain';
import type { ObjectCache } from '../cache/object-cache';

/**
 * O-SCALE-DOWN-TARGETED, after the writes: the machines that enter Deleting must be exactly the
 * chosen ones (R-MD-6). Cluster API acts asynchronously, so the cache is watched for a while;
 * the answer says what was seen and whether it settled, and names any machine that should not
 * be going.
 */

export interface ScaleDownVerification {
  expected: string[];
  deleting: string[];
  unexpected: string[];
  missing: string[];
  ok: boolean;
  /** False when the wait ended before every chosen machine was seen deleting. */
  settled: boolean;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export async function verifyTargetedScaleDown(
  cache: ObjectCache,
  plan: Plan,
  deletingBefore: ReadonlySet<string>,
  waitMs: number,
): Promise<ScaleDownVerification> {
  const expected = [...(plan.effects.machinesDeleted ?? [])].sort();
  const pool = plan.target.name;
  const deadline = Date.now() + waitMs;
  for (;;) {
    const deleting = cache.stores.Machine.byIndex('pool', `${plan.namespace}/${pool}`)
      .filter((m) => m.metadata.deletionTimestamp !== undefined)
      .map((m) => m.metadata.name ?? '')
      .filter((n) => !deletingBefore.has(n))
      .sort();
    const unexpected = deleting.filter((n) => !expected.includes(n));
    // A chosen machine that is already gone was deleted too.
    const missing = expected.filter(
      (n) => !deleting.includes(n) && cache.stores.Machine.get(plan.namespace, n) !== undefined,
    );
    const settled = missing.length === 0;
    if (settled || unexpected.length > 0 || Date.now() >= deadline) {
      return {
        expected,
        deleting,
        unexpected,
        missing,
        ok: settled && unexpected.length === 0,
        settled,
      };
    }
    await sleep(50);
  }
}
