import { formatMessage, type MessageKey, type MessageParams } from '../i18n/messages';
import type { RuleId, RuleIssue, Severity } from './issue';

/** Builds a RuleIssue, its English `message` filled in from the catalog. */
export function issue(
  rule: RuleId,
  severity: Severity,
  path: string,
  messageKey: MessageKey,
  params: MessageParams = {},
): RuleIssue {
  return { rule, path, severity, messageKey, params, message: formatMessage(messageKey, params) };
}

export const error = (rule: RuleId, path: string, key: MessageKey, params?: MessageParams) =>
  issue(rule, 'error', path, key, params);

export const warning = (rule: RuleId, path: string, key: MessageKey, params?: MessageParams) =>
  issue(rule, 'warning', path, key, params);
