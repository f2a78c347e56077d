import { describe, expect, it } from 'vitest';
import {
  LOCALES,
  formatMessage,
  isMessageKey,
  localizeMessage,
  messages,
  placeholdersOf,
} from './messages';

describe('the rules’ message catalog', () => {
  const keys = Object.keys(messages);

  it('has texts in every locale for every key', () => {
    expect(keys.length).toBeGreaterThan(0);
    for (const key of keys) {
      if (!isMessageKey(key)) throw new Error(key);
      for (const locale of LOCALES) {
        expect(messages[key][locale].trim(), `${key} ${locale}`).not.toBe('');
      }
    }
  });

  it('uses the same placeholders in English and Chinese', () => {
    for (const key of keys) {
      if (!isMessageKey(key)) throw new Error(key);
      const { en, 'zh-CN': zh } = messages[key];
      expect([...placeholdersOf(zh)].sort(), key).toEqual([...placeholdersOf(en)].sort());
    }
  });

  it('writes Chinese in Chinese: every zh-CN text has Han characters', () => {
    for (const key of keys) {
      if (!isMessageKey(key)) throw new Error(key);
      expect(messages[key]['zh-CN'], key).toMatch(/\p{Script=Han}/u);
    }
  });

  it('keeps its keys apart from the views’ catalog (view.*)', () => {
    expect(keys.filter((k) => k.startsWith('view.'))).toEqual([]);
  });

  it('fills placeholders, leaving unknown ones visible', () => {
    expect(formatMessage('md.versionUnchanged', { version: 'v1.33.4' })).toBe(
      'The pool already runs Kubernetes v1.33.4: there is nothing to upgrade.',
    );
    expect(formatMessage('md.versionUnchanged', { version: 'v1.33.4' }, 'zh-CN')).toBe(
      '该节点池已经运行 Kubernetes v1.33.4：无需升级。',
    );
    expect(formatMessage('md.versionUnchanged')).toContain('{version}');
    expect(placeholdersOf('{a} and {b} and {a}')).toEqual(['a', 'b']);
  });

  it('localizes an issue from the wire, falling back to its English message', () => {
    const params = { version: 'v1.34.1' };
    expect(
      localizeMessage({ messageKey: 'md.versionUnchanged', params, message: 'x' }, 'zh-CN'),
    ).toBe('该节点池已经运行 Kubernetes v1.34.1：无需升级。');
    expect(
      localizeMessage({ messageKey: 'no.such.key', params, message: 'as sent' }, 'zh-CN'),
    ).toBe('as sent');
  });
});
