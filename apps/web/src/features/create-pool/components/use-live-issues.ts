import {
  CreatePoolRequestSchema,
  requestIssues,
  validateCreatePool,
  type CreatePoolRequest,
  type RuleIssue,
  type ValidationContext,
} from '@dcs/domain';

/**
 * Every problem of the form as it stands, for display at the fields while typing: the request's
 * shape (zod) and the rules of O-CREATE-POOL, errors and warnings. The rules run even while some
 * field is still malformed, so that the other fields get their messages at once.
 */
export function liveIssues(values: unknown, ctx: ValidationContext): RuleIssue[] {
  const parsed = CreatePoolRequestSchema.safeParse(values);
  // Domain's one reading of the request's shape: the field, the value and what is wrong with it.
  const shape: RuleIssue[] = parsed.success ? [] : requestIssues(parsed.error, values);
  let rules: RuleIssue[] = [];
  try {
    rules = validateCreatePool((parsed.success ? parsed.data : values) as CreatePoolRequest, ctx);
  } catch {
    // A value the rules cannot read yet (a field half typed): its shape issue says why.
  }
  // A value the schema refused is also judged by the rule that owns it (R-MD-2): say it once.
  const seen = new Set(shape.map((i) => `${i.path} ${i.messageKey}`));
  return [...shape, ...rules.filter((i) => !seen.has(`${i.path} ${i.messageKey}`))];
}
