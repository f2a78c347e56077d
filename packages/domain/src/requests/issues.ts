import type { z } from 'zod';
import { formatMessage, isMessageKey, type MessageKey, type MessageParams } from '../i18n/messages';
import type { RuleId, RuleIssue } from '../rules/issue';
import { issue } from '../rules/make';
import { requestFieldRule } from './field-rules';
import { fieldName, type RequestIssueParams } from './fields';

/**
 * A refused request as RuleIssues: one decision of what each zod issue means, so that the form
 * (in both languages) and the route say the same thing. Each message names the field and what is
 * wrong with the value (`replicas -1 is less than 0`, never a bare "Required.").
 */

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let cur = input;
  for (const p of path) {
    if (typeof cur !== 'object' || cur === null || typeof p === 'symbol') return undefined;
    if (!Object.hasOwn(cur, p)) return undefined;
    cur = (cur as Record<string | number, unknown>)[p];
  }
  return cur;
}

const show = (v: unknown): string =>
  typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : '';

function isRequestIssueParams(p: unknown): p is RequestIssueParams {
  if (typeof p !== 'object' || p === null) return false;
  const r = p as Record<string, unknown>;
  return (
    typeof r.rule === 'string' &&
    r.rule.startsWith('R-') &&
    typeof r.messageKey === 'string' &&
    isMessageKey(r.messageKey) &&
    typeof r.values === 'object' &&
    r.values !== null
  );
}

function meaning(
  i: z.core.$ZodIssue,
  input: unknown,
): { rule: RuleId; key: MessageKey; params: MessageParams } {
  const field = fieldName(i.path);
  const value = valueAt(input, i.path);
  switch (i.code) {
    case 'custom':
      if (isRequestIssueParams(i.params)) {
        return { rule: i.params.rule, key: i.params.messageKey, params: i.params.values };
      }
      break;
    case 'too_small': {
      const minimum = Number(i.minimum);
      if (i.origin === 'string' && minimum <= 1) {
        return { rule: 'R-REQUEST', key: 'request.required', params: { field } };
      }
      if (i.origin === 'array') {
        return { rule: 'R-REQUEST', key: 'request.tooFewItems', params: { field, minimum } };
      }
      if (i.origin === 'number' || i.origin === 'int' || i.origin === 'bigint') {
        return {
          rule: 'R-REQUEST',
          key: 'request.tooSmall',
          params: { field, value: show(value), minimum },
        };
      }
      return {
        rule: 'R-REQUEST',
        key: 'request.tooShort',
        params: { field, minimum },
      };
    }
    case 'too_big': {
      const maximum = Number(i.maximum);
      if (i.origin === 'number' || i.origin === 'int' || i.origin === 'bigint') {
        return {
          rule: 'R-REQUEST',
          key: 'request.tooBigNumber',
          params: { field, value: show(value), maximum },
        };
      }
      return {
        rule: 'R-REQUEST',
        key: i.origin === 'array' ? 'request.tooManyItems' : 'request.tooLong',
        params: { field, maximum },
      };
    }
    case 'invalid_type':
      if (value === undefined || value === null) {
        return { rule: 'R-REQUEST', key: 'request.required', params: { field } };
      }
      if (i.expected === 'int' && typeof value === 'number') {
        return { rule: 'R-REQUEST', key: 'request.notInteger', params: { field, value } };
      }
      return {
        rule: 'R-REQUEST',
        key: 'request.wrongType',
        params: { field, expected: i.expected },
      };
    case 'invalid_value':
      return {
        rule: 'R-REQUEST',
        key: 'request.notAllowed',
        params: { field, value: show(value), allowed: i.values.map(String).join(', ') },
      };
    case 'invalid_union': {
      // A discriminated union names the values its discriminator allows.
      const options = (i as { options?: unknown }).options;
      if (Array.isArray(options) && options.length > 0) {
        return {
          rule: 'R-REQUEST',
          key: 'request.notAllowed',
          params: { field, value: show(value), allowed: options.map(String).join(', ') },
        };
      }
      break;
    }
    default:
      break;
  }
  return { rule: 'R-REQUEST', key: 'request.invalid', params: { field, detail: i.message } };
}

/**
 * Every issue of a failed parse of `input`, as RuleIssues at their dotted paths. A shape refusal
 * names the domain rule that owns its field (`requestFieldRule`, the one mapping); a field check
 * that named its own rule (durations, int-or-percent, the JSON bounds) keeps it.
 */
export function requestIssues(error: z.ZodError, input: unknown): RuleIssue[] {
  return error.issues
    .flatMap((i) => branchIssues(i, input))
    .flatMap(eachUnknownKey)
    .map((i) => {
      const { rule, key, params } = meaning(i, input);
      const owner = rule === 'R-REQUEST' && !isOwnRefusal(i) ? requestFieldRule(i.path) : rule;
      return issue(owner, 'error', i.path.map(String).join('.'), key, params);
    });
}

/**
 * A plain union (not discriminated) refused as a whole says nothing of the field: report the
 * issues of the branch the client meant instead, the one whose fields it sent (fewest of its
 * own fields missing; on a tie, the one that judged more of what was sent), at their paths.
 */
function branchIssues(i: z.core.$ZodIssue, input: unknown): z.core.$ZodIssue[] {
  if (i.code !== 'invalid_union' || i.errors.length === 0) return [i];
  const sent = (x: z.core.$ZodIssue) =>
    valueAt(input, [...i.path, ...x.path.slice(0, 1)]) !== undefined;
  // A field the client sent that a strict branch does not have counts against the branch as a
  // field of its own left out does: the client meant another branch.
  const missing = (b: readonly z.core.$ZodIssue[]) =>
    b.reduce((n, x) => n + (x.code === 'unrecognized_keys' ? x.keys.length : sent(x) ? 0 : 1), 0);
  const judged = (b: readonly z.core.$ZodIssue[]) =>
    b.filter((x) => x.code !== 'unrecognized_keys' && sent(x)).length;
  const best = [...i.errors].sort((a, b) => missing(a) - missing(b) || judged(b) - judged(a))[0];
  if (!best) return [i];
  return best.flatMap((x) => branchIssues({ ...x, path: [...i.path, ...x.path] }, input));
}

/** A field check's own refusal (it chose its rule, R-REQUEST for the JSON bounds). */
const isOwnRefusal = (i: z.core.$ZodIssue): boolean =>
  i.code === 'custom' && isRequestIssueParams(i.params);

/**
 * A key a strict request object does not have (zod's `unrecognized_keys`, one issue for all of
 * them) as one refusal per key, at its own path (issue 11): the console would ignore it, so it is
 * refused (R-REQUEST), as a field of an object part the API server would prune is.
 */
function eachUnknownKey(i: z.core.$ZodIssue): z.core.$ZodIssue[] {
  if (i.code !== 'unrecognized_keys') return [i];
  // Read defensively: the BFF rebuilds issues from the route's validation errors.
  const keys: unknown = (i as { keys?: unknown }).keys;
  if (!Array.isArray(keys) || keys.length === 0) return [i];
  return keys.map((key) => {
    const path = [...i.path, String(key)];
    const params: RequestIssueParams = {
      rule: 'R-REQUEST',
      messageKey: 'request.unknownRequestField',
      values: { field: path.map(String).join('.') },
    };
    const issue: z.core.$ZodIssue = {
      code: 'custom',
      path,
      params,
      message: formatMessage(params.messageKey, params.values),
      input: undefined,
    };
    return issue;
  });
}
