import type { RuleIssue } from '@dcs/domain';
import type { ApiError } from './api-client';

/** A 409 from the BFF: someone else changed an object the change writes (R-POOL-4). */
export interface Conflict {
  /** What happened, as the BFF says it (its `R-PLAN-STALE` issue), for the user's language. */
  reason: Pick<RuleIssue, 'messageKey' | 'params' | 'message'>;
  /** The object, as the user saw it, as it is now, and as the change would write it. */
  base?: unknown;
  theirs?: unknown;
  yours?: unknown;
  /** The fields both changed. */
  fields?: string[];
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The conflict a 409 carries: the BFF answers `{code, message, details, conflict: {kind, name,
 * base, theirs, yours, fields}, plan}`; anything missing is left out, never guessed.
 */
export function conflictOf(e: ApiError): Conflict {
  const body = isRecord(e.body) ? e.body : {};
  const c = isRecord(body.conflict) ? body.conflict : {};
  const stale = e.details.find((i) => i.rule === 'R-PLAN-STALE');
  const fields = Array.isArray(c.fields)
    ? c.fields.filter((f): f is string => typeof f === 'string')
    : [];
  return {
    reason: stale ?? { messageKey: e.code, params: {}, message: e.message },
    ...(c.base != null ? { base: c.base } : {}),
    ...(c.theirs != null ? { theirs: c.theirs } : {}),
    ...(c.yours != null ? { yours: c.yours } : {}),
    ...(fields.length > 0 ? { fields } : {}),
  };
}
