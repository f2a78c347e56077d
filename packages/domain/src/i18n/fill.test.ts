import { describe, expect, it } from 'vitest';
import { formatViewMessage } from '../views/messages';
import { fillMessage } from './fill';
import { formatMessage, placeholdersOf } from './messages';

describe('fillMessage: placeholders and plurals by Intl.PluralRules', () => {
  const entries = 'Add {n, plural, =0 {no entry} one {# entry} other {# entries}} to {pool}';

  it('chooses the English form by number, an exact form first', () => {
    expect(fillMessage(entries, { n: 0, pool: 'p' }, 'en')).toBe('Add no entry to p');
    expect(fillMessage(entries, { n: 1, pool: 'p' }, 'en')).toBe('Add 1 entry to p');
    expect(fillMessage(entries, { n: 3, pool: 'p' }, 'en')).toBe('Add 3 entries to p');
  });

  it('falls back to `other` for a category the text does not name, and keeps unknown params', () => {
    expect(fillMessage('{n, plural, other {# 个}}', { n: 1 }, 'zh-CN')).toBe('1 个');
    expect(fillMessage(entries, {}, 'en')).toBe(entries);
  });

  it('fills placeholders inside a form, and names plural params as placeholders', () => {
    expect(
      fillMessage(
        '{n, plural, one {# for {pool}} other {# for {pool}s}}',
        { n: 2, pool: 'x' },
        'en',
      ),
    ).toBe('2 for xs');
    expect(placeholdersOf(entries)).toEqual(['n', 'pool']);
  });

  it('gives the rules’ and views’ catalogs English in number (R-TPL-1, T-1)', () => {
    expect(formatMessage('tpl.systemDiskMultiple', { count: 2 }, 'en')).toMatch(/^2 disks have/);
    expect(formatViewMessage('view.problem.vmFailed', { count: 1, machines: 'm-1' }, 'en')).toBe(
      '1 machine failed: m-1',
    );
    expect(formatViewMessage('view.problem.vmFailed', { count: 1, machines: 'm-1' }, 'zh-CN')).toBe(
      '1 个 machine 失败：m-1',
    );
  });
});
