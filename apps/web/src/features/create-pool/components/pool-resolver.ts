import {
  CreatePoolRequestSchema,
  requestIssues,
  validateCreatePool,
  type CreatePoolRequest,
  type CreatePoolRequestInput,
  type RuleIssue,
  type ValidationContext,
} from '@dcs/domain';
import type { FieldErrors, Resolver } from 'react-hook-form';

/**
 * The Add form's resolver: the request's shape by the shared zod schema (the very one the BFF's
 * route declares), then every rule of O-CREATE-POOL by domain's validateCreatePool over the
 * context route's ValidationContext. Rule errors block submitting and land at their field's path;
 * warnings do not block (the form shows them from the same validator).
 */
export function createPoolResolver(
  ctx: () => ValidationContext | undefined,
  localize: (issue: RuleIssue) => string,
): Resolver<CreatePoolRequestInput, unknown, CreatePoolRequest> {
  return (values) => {
    // The shape by domain's reading of it (requestIssues), so that the message at a field is the
    // same as the one the live issues and the route give, in the user's language.
    const parsed = CreatePoolRequestSchema.safeParse(values);
    if (!parsed.success) {
      return { values: {}, errors: issuesToErrors(requestIssues(parsed.error, values), localize) };
    }
    const validation = ctx();
    if (!validation) return { values: parsed.data, errors: {} };
    const errors = issuesToErrors(
      validateCreatePool(parsed.data, validation).filter((i) => i.severity === 'error'),
      localize,
    );
    return Object.keys(errors).length > 0
      ? { values: {}, errors }
      : { values: parsed.data, errors: {} };
  };
}

/** RuleIssues as react-hook-form's nested errors (`ipPool.entries.0.ip` → errors.ipPool.entries[0].ip). */
export function issuesToErrors(
  issues: readonly RuleIssue[],
  localize: (issue: RuleIssue) => string,
): FieldErrors<CreatePoolRequestInput> {
  const root: Record<string, unknown> = {};
  for (const issue of issues) {
    const parts = issue.path === '' ? ['root'] : issue.path.split('.');
    let node = root;
    parts.forEach((part, i) => {
      if (i === parts.length - 1) {
        if (node[part] === undefined) node[part] = { type: issue.rule, message: localize(issue) };
        return;
      }
      const next = node[part];
      if (typeof next !== 'object' || next === null || 'message' in next) node[part] = {};
      node = node[part] as Record<string, unknown>;
    });
  }
  return root;
}
