import { expect } from 'vitest';
import { isMessageKey, localizeMessage } from '../i18n/messages';
import type { RuleIssue } from './issue';

/**
 * Test support for the rules' tables: an issue in one line, `severity rule path messageKey`, so
 * that a table states exactly which issues a case yields, and no more.
 */
export const brief = (issues: readonly RuleIssue[]): string[] =>
  issues.map((i) => `${i.severity} ${i.rule} ${i.path} ${i.messageKey}`);

/** Asserts the issues, and that each has a catalog key whose texts have every placeholder filled. */
export function expectIssues(issues: readonly RuleIssue[], expected: readonly string[]): void {
  expect(brief(issues)).toEqual(expected);
  for (const i of issues) {
    expect(isMessageKey(i.messageKey), i.messageKey).toBe(true);
    expect(i.message, i.messageKey).not.toMatch(/\{\w+\}/);
    expect(localizeMessage(i, 'zh-CN'), i.messageKey).not.toMatch(/\{\w+\}/);
  }
}
