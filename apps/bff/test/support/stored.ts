import type { FastifyInstance } from 'fastify';
import type { TestCluster } from './embedded';

/**
 * What the API server stored apart from the console's own audit records: its resourceVersion
 * less the audit writes that succeeded (each moves it by one). A refused request is recorded on
 * purpose (issue 12's audit timeline); what "nothing stored when refused" guards is everything
 * else. An audit write in flight moves the first before the second, so callers compare after
 * `settledStored`.
 */
export async function storedExceptAudit(t: TestCluster, app: FastifyInstance): Promise<number> {
  const { values } = await app.metrics.auditWrites.get();
  const audit = values.filter((v) => v.labels.result === 'ok').reduce((sum, v) => sum + v.value, 0);
  return t.cluster.server.resourceVersion - audit;
}

/** `storedExceptAudit` once it equals `expected` or stops moving (a deadline for writes in flight). */
export async function settledStored(
  t: TestCluster,
  app: FastifyInstance,
  expected: number,
  timeoutMs = 10_000,
): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  let now = await storedExceptAudit(t, app);
  while (now !== expected && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50));
    now = await storedExceptAudit(t, app);
  }
  return now;
}
