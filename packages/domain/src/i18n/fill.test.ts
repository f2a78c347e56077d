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

  it("writes numbers as they are, or through the caller's formatter (`#` and placeholders)", () => {
    // A rule's message quotes the value as typed: 3000000000, not 3,000,000,000.
    expect(fillMessage(entries, { n: 3000, pool: 1200 }, 'en')).toBe('Add 3000 entries to 1200');
    const grouped = (n: number) => n.toLocaleString('en-US');
    expect(fillMessage(entries, { n: 3000, pool: 'p-1200' }, 'en', grouped)).toBe(
      'Add 3,000 entries to p-1200',
    );
    // The plural form is chosen by the number, not by its written form.
    expect(fillMessage(entries, { n: 1, pool: 1200 }, 'en', grouped)).toBe('Add 1 entry to 1,200');
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
