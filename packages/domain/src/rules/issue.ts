/**
 * The one shape of a rule result, used by domain, BFF and forms alike (ARCHITECTURE.md):
 * `{rule, path, severity, messageKey, params, message}` with `message` the English text.
 */
export type Severity = 'error' | 'warning';

export type RuleId = `R-${string}`;

export interface RuleIssue {
  /** The rule id of DOMAIN.md, such as `R-POOL-1`. */
  rule: RuleId;
  /** Dotted path of the field in the request or object, such as `spec.pool.3.ip` or `replicas`. */
  path: string;
  severity: Severity;
  /** Key of the message catalog (en and zh-CN texts). */
  messageKey: string;
  params: Record<string, string | number>;
  /** The English text, with params filled in. */
  message: string;
}

export const hasErrors = (issues: readonly RuleIssue[]): boolean =>
  issues.some((i) => i.severity === 'error');
