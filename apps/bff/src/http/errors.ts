import type { RuleId, RuleIssue } from '@dcs/domain';
import type { KubeApiError } from '../kube/errors';

/**
 * Every error the API answers is `{code, message, details: RuleIssue[]}` (ARCHITECTURE.md), and
 * names the field and the rule. Errors the BFF raises itself use these rule ids:
 * R-REQUEST (the request's shape), R-AUTH (credentials, CSRF, origin, RBAC), R-API (what the
 * Kubernetes API server refused, with its causes).
 */

export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly details: RuleIssue[] = [],
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export function issue(
  rule: RuleId,
  path: string,
  messageKey: string,
  message: string,
  params: Record<string, string | number> = {},
  severity: RuleIssue['severity'] = 'error',
): RuleIssue {
  return { rule, path, severity, messageKey, params, message };
}

export const unauthorized = (message = 'Sign in: this request carries no valid credentials') =>
  new HttpError(401, 'Unauthorized', message, [
    issue('R-AUTH', '', 'bff.auth.unauthorized', message),
  ]);

export const forbidden = (message: string, details: RuleIssue[] = []) =>
  new HttpError(
    403,
    'Forbidden',
    message,
    details.length ? details : [issue('R-AUTH', '', 'bff.auth.forbidden', message)],
  );

export const notFound = (message: string, path = '') =>
  new HttpError(404, 'NotFound', message, [issue('R-REQUEST', path, 'bff.notFound', message)]);

/** Seconds a client should wait before asking again after `cacheNotSynced`. */
export const CACHE_RETRY_AFTER_SECONDS = 1;

/**
 * The caches have not finished their first list (just started, or relisting everything): an
 * answer now would be a 404 or a partial view. 503 with Retry-After, as a starting API server
 * answers; the web app retries 5xx reads.
 */
export const cacheNotSynced = (pending: readonly string[]) => {
  const message = `the console is still reading the management cluster (${pending.join(', ') || 'caches'} not listed yet); retry in ${String(CACHE_RETRY_AFTER_SECONDS)} s`;
  return new HttpError(
    503,
    'CacheNotSynced',
    message,
    [issue('R-API', '', 'bff.cache.notSynced', message)],
    { retryAfterSeconds: CACHE_RETRY_AFTER_SECONDS },
  );
};

/** A rule id named in a server message (the embedded admission cites them), else R-API. */
function ruleIn(text: string | undefined): RuleId {
  const m = text ? /\bR-[A-Z]+(?:-[A-Z0-9]+)*\b/.exec(text) : null;
  return (m?.[0] as RuleId | undefined) ?? 'R-API';
}

/** What the API server said, as issues naming the fields it named. */
export function issuesOfApiError(error: KubeApiError, pathPrefix = ''): RuleIssue[] {
  if (error.causes.length === 0) {
    return [
      issue(ruleIn(error.message), pathPrefix, 'bff.api.refused', error.message, {
        status: error.status,
      }),
    ];
  }
  return error.causes.map((c) =>
    issue(
      // Admission names the rule it enforces as the cause's reason (the embedded webhooks do).
      c.reason && ruleIn(c.reason) !== 'R-API' ? ruleIn(c.reason) : ruleIn(c.message),
      [pathPrefix, c.field].filter((p) => p !== undefined && p !== '').join('.'),
      'bff.api.refused',
      c.message ?? error.message,
      { status: error.status, ...(c.reason ? { reason: c.reason } : {}) },
    ),
  );
}
