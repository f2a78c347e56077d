import { englishOutsideGlossary } from '@dcs/domain';
import { describe, expect, it } from 'vitest';
import { AUTOSCALE_TEXTS } from './autoscale';
import { fill } from './locale';

/** The dialogs' own catalog is held to the console catalogs' rules (i18n/catalogs.test.ts). */
describe('the cluster autoscaler’s texts (issue 26 item 2)', () => {
  it('have the same keys in both languages, none empty', () => {
    expect(Object.keys(AUTOSCALE_TEXTS['zh-CN']).sort()).toEqual(
      Object.keys(AUTOSCALE_TEXTS.en).sort(),
    );
    for (const text of Object.values(AUTOSCALE_TEXTS['zh-CN'])) expect(text.trim()).not.toBe('');
  });

  it('in Chinese have only glossary terms in English', () => {
    const offenders = Object.entries(AUTOSCALE_TEXTS['zh-CN'])
      .map(([key, text]) => [key, englishOutsideGlossary(text)] as const)
      .filter(([, words]) => words.length > 0);
    expect(offenders).toEqual([]);
  });

  it('in English put no bare count before a plural noun, and fill to plain text', () => {
    const bare =
      /\{\w+\} (?:extra )?(?:machines|entries|replicas|problems|nodes|disks|NICs|pools)\b/;
    for (const [key, text] of Object.entries(AUTOSCALE_TEXTS.en)) {
      expect(bare.test(text), key).toBe(false);
      const params = Object.fromEntries([...text.matchAll(/\{(\w+)/g)].map((m) => [m[1] ?? '', 1]));
      expect(fill(text, params, 'en'), key).not.toMatch(/[{}#]/);
    }
  });

  it('the check would catch an untranslated word', () => {
    expect(englishOutsideGlossary('Autoscaling {name}')).toEqual(['Autoscaling']);
  });
});
