import { z } from 'zod';
import { formatMessage, type MessageKey, type MessageParams } from '../i18n/messages';
import { intOrPercentProblem } from '../intstr';
import { JSON_LIMITS, jsonBoundsProblem } from '../json-bounds';
import { parseGoDuration } from '../rules/duration';
import type { RuleId } from '../rules/issue';

/**
 * Field schemas that judge a value where the request's shape alone would let through something
 * Cluster API cannot use. Each refusal is a zod `custom` issue whose params carry the rule id,
 * the message key and its params, so that {@link requestIssues} turns it into the same RuleIssue
 * in the browser (both languages) and in the route (its English `message`).
 */

export interface RequestIssueParams {
  rule: RuleId;
  messageKey: MessageKey;
  values: MessageParams;
}

type Ctx = z.core.$RefinementCtx;

export function refuse(
  ctx: Ctx,
  rule: RuleId,
  messageKey: MessageKey,
  values: MessageParams,
  path?: (string | number)[],
): void {
  const params: RequestIssueParams = { rule, messageKey, values };
  ctx.addIssue({
    code: 'custom',
    message: formatMessage(messageKey, values),
    params,
    ...(path?.length ? { path } : {}),
  });
}

/** The name a message gives a field: its last named segment (`ipPool.entries.0.ip` → `ip`). */
export function fieldName(path: readonly PropertyKey[]): string {
  const named = path.filter((p) => typeof p === 'string');
  return named.at(-1) ?? 'request';
}

/**
 * A Go/Kubernetes duration (`metav1.Duration`), such as nodeDrainTimeout: what Go's
 * `time.ParseDuration` accepts, not negative (a timeout of 0 means no limit).
 */
export function durationField(field: string) {
  return z.string().superRefine((value, ctx) => {
    const nanos = parseGoDuration(value);
    // R-MD-7 (project-defined, see field-rules.ts): node timeouts are non-negative Go durations.
    if (nanos === undefined) refuse(ctx, 'R-MD-7', 'request.durationInvalid', { field, value });
    else if (nanos < 0) refuse(ctx, 'R-MD-7', 'request.durationNegative', { field, value });
  });
}

/**
 * A replica count (R-MD-1): a whole number from 0 to 2,147,483,647, as the Cluster API CRDs' own
 * `format: int32` for `spec.replicas` (a larger one is not a count a cluster can hold, and
 * would reach the page as the suggestion of billions of IP pool entries).
 */
export const replicasField = () => z.number().int().min(0).max(2_147_483_647);

/**
 * maxSurge / maxUnavailable (R-MD-2): a non-negative integer or a percentage string. Any number
 * or string reaches the check, so that `-1`, `1.5` and `"1"` each get the message that names
 * their real problem.
 */
export function intOrPercentField(field: string) {
  return z.union([z.number(), z.string()]).superRefine((value, ctx) => {
    const problem = intOrPercentProblem(value);
    if (problem) {
      refuse(ctx, 'R-MD-2', `md.intOrPercent.${problem}`, { field, value: String(value) });
    }
  });
}

/**
 * The bounds of {@link JSON_LIMITS} on a whole request: unknown fields pass through loose
 * schemas, and must not carry unbounded content into the cluster. Runs even when other fields
 * are wrong, so that the reason a huge request is refused is always said.
 */
export function bounded<S extends z.ZodType>(schema: S): S {
  return schema.superRefine(
    (value, ctx) => {
      const problem = jsonBoundsProblem(value);
      if (!problem) return;
      const field = problem.path || 'request';
      const path = problem.path === '' ? [] : problem.path.split('.');
      if (problem.kind === 'depth') {
        refuse(ctx, 'R-REQUEST', 'request.tooDeep', { field, limit: problem.limit }, path);
      } else if (problem.kind === 'string') {
        refuse(ctx, 'R-REQUEST', 'request.stringTooLong', { field, limit: problem.limit }, path);
      } else {
        refuse(ctx, 'R-REQUEST', 'request.tooLarge', { limit: problem.limit });
      }
    },
    { when: () => true },
  );
}

export { JSON_LIMITS };
