import { describe, expect, it } from 'vitest';
import { viewMessages } from '@dcs/domain';
import { en, type MessageKey } from './en';
import { fill } from './locale';
import { zhCN } from './zh-CN';

describe('count-bearing texts (Intl.PluralRules)', () => {
  it('says “1 entry” and “2 entries” in English', () => {
    expect(fill(en['create.suggestEntries'], { n: 1 }, 'en')).toBe(
      "Suggest 1 entry like this cluster's pools, on free addresses",
    );
    expect(fill(en['create.suggestEntries'], { n: 2 }, 'en')).toBe(
      "Suggest 2 entries like this cluster's pools, on free addresses",
    );
    expect(fill(en['scale.extendIpPool'], { n: 1 }, 'en')).toBe('Extend IP pool by 1 entry');
    expect(fill(en['create.errorCount'], { count: 1 }, 'en')).toMatch(/^1 problem to fix/);
    expect(fill(en['create.errorCount'], { count: 0 }, 'en')).toMatch(/^0 problems to fix/);
    expect(fill(en['deleteMachines.explain'], { count: 1, from: 3, to: 2 }, 'en')).toMatch(
      /^This machine is marked/,
    );
  });

  it('writes counts grouped by the locale, in the plural and out of it (20,003 machines)', () => {
    const counts = { shown: 20003, total: 20003, selected: 1500 };
    expect(fill(en['nodes.count'], counts, 'en')).toBe('20,003 of 20,003 machines, 1,500 selected');
    expect(fill(zhCN['nodes.count'], counts, 'zh-CN')).toBe(
      '共 20,003 台 machine，显示 20,003 台，已选 1,500 台',
    );
    expect(fill(en['scale.extendIpPool'], { n: 1000 }, 'en')).toBe(
      'Extend IP pool by 1,000 entries',
    );
    // Text params stay as given (a name, a version, a size already written by its caller).
    expect(fill(en['pool.ipUsage'], { name: 'p-1000', used: 1000, total: 1024 }, 'en')).toBe(
      'p-1000: 1,000/1,024 used',
    );
  });

  it('leaves Chinese, which has no plural forms, as written', () => {
    expect(fill(zhCN['scale.extendIpPool'], { n: 1 }, 'zh-CN')).not.toMatch(/plural|#/);
  });

  it('every English text with a plural fills to plain text for 1 and for 2', () => {
    for (const key of Object.keys(en) as MessageKey[]) {
      if (!en[key].includes(', plural,')) continue;
      const params = Object.fromEntries(
        [...en[key].matchAll(/\{(\w+)/g)].map((m) => [m[1] ?? '', 1]),
      );
      for (const n of [1, 2]) {
        const text = fill(
          en[key],
          Object.fromEntries(Object.keys(params).map((p) => [p, n])),
          'en',
        );
        expect(text, key).not.toMatch(/[{}#]/);
      }
    }
  });
});

describe('no English text puts a bare count before a plural noun', () => {
  // "{n} machines" reads "1 machines" for one: such a count needs `{n, plural, …}`.
  const bare = /\{\w+\} (?:extra )?(?:machines|entries|replicas|problems|nodes|disks|NICs|pools)\b/;
  it('in the console’s own texts and in domain’s view texts', () => {
    const texts: [string, string][] = [
      ...Object.entries(en),
      ...Object.entries(viewMessages).map(([k, v]): [string, string] => [k, v.en]),
    ];
    expect(texts.filter(([, text]) => bare.test(text)).map(([key]) => key)).toEqual([]);
  });
});
