import { describe, expect, it } from 'vitest';
import { formatViewMessage, viewMessages, type ViewMessageKey } from './messages';
import { placeholdersOf } from '../i18n/messages';

const placeholders = (text: string) => placeholdersOf(text).sort();

describe('view messages', () => {
  it('has English and Chinese for every key, with the same placeholders', () => {
    for (const [key, texts] of Object.entries(viewMessages)) {
      expect(texts.en, key).not.toBe('');
      expect(texts['zh-CN'], key).not.toBe('');
      expect(placeholders(texts['zh-CN']), key).toEqual(placeholders(texts.en));
    }
  });

  it('keys start with view. so they merge with the rules catalog without collision', () => {
    for (const key of Object.keys(viewMessages)) expect(key).toMatch(/^view\./);
  });

  it('fills in placeholders, in either language, and keeps unknown ones visible', () => {
    const key: ViewMessageKey = 'view.diagnosis.waitingForIp';
    expect(formatViewMessage(key, { machine: 'm-1', pool: 'p' })).toBe(
      'Machine m-1 is waiting for a free entry in IP-hostname pool p: every entry is claimed.',
    );
    expect(formatViewMessage(key, { machine: 'm-1', pool: 'p' }, 'zh-CN')).toContain('m-1');
    expect(formatViewMessage(key, {})).toContain('{machine}');
  });
});
