import {
  CreatePoolRequestSchema,
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
  const shape: RuleIssue[] = parsed.success
    ? []
    : parsed.error.issues.map((i) => ({
        rule: 'R-REQUEST',
        path: i.path.map(String).join('.'),
        severity: 'error',
        // zod's own wording is English only: the common cases get the console's texts.
        messageKey:
          i.code === 'too_small'
            ? i.origin === 'array'
              ? 'form.atLeastOne'
              : 'form.required'
            : 'request.invalid',
        params: {},
        message: i.message,
      }));
  let rules: RuleIssue[] = [];
  try {
    rules = validateCreatePool((parsed.success ? parsed.data : values) as CreatePoolRequest, ctx);
  } catch {
    // A value the rules cannot read yet (a field half typed): its shape issue says why.
  }
  const seen = new Set(shape.map((i) => i.path));
  return [
    ...shape,
    ...rules.filter((i) => !(i.severity === 'error' && seen.has(i.path) && i.rule === 'R-REQUEST')),
  ];
}
