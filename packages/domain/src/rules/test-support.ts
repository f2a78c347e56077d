import { expect } from 'vitest';
import { formatMessage, isMessageKey, messages, placeholdersOf } from '../i18n/messages';
import type { RuleIssue } from './issue';

/**
 * Test support for the rules' tables: an issue in one line, `severity rule path messageKey`, so
 * that a table states exactly which issues a case yields, and no more.
 */
export const brief = (issues: readonly RuleIssue[]): string[] =>
  issues.map((i) => `${i.severity} ${i.rule} ${i.path} ${i.messageKey}`);

/**
 * Asserts the issues, and that each has a catalog key, params for every placeholder of both
 * languages, and its English text as `message`.
 */
export function expectIssues(issues: readonly RuleIssue[], expected: readonly string[]): void {
  expect(brief(issues)).toEqual(expected);
  for (const i of issues) {
    const key = i.messageKey;
    if (!isMessageKey(key)) throw new Error(`not in the catalog: ${key}`);
    const needed = [...placeholdersOf(messages[key].en), ...placeholdersOf(messages[key]['zh-CN'])];
    expect(
      needed.filter((p) => !(p in i.params)),
      key,
    ).toEqual([]);
    expect(i.message).toBe(formatMessage(key, i.params, 'en'));
  }
}
