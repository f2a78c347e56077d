import { englishOutsideGlossary } from '@dcs/domain';
import { describe, expect, it } from 'vitest';
import { HEALTH_CHECK_TEXTS } from './health-check';
import { fill } from './locale';

/** The dialogs' own catalog is held to the console catalogs' rules (i18n/catalogs.test.ts). */
describe('a pool’s health-check texts (issue 26 item 1)', () => {
  it('have the same keys in both languages, none empty', () => {
    expect(Object.keys(HEALTH_CHECK_TEXTS['zh-CN']).sort()).toEqual(
      Object.keys(HEALTH_CHECK_TEXTS.en).sort(),
    );
    for (const text of Object.values(HEALTH_CHECK_TEXTS['zh-CN'])) expect(text.trim()).not.toBe('');
  });

  it('in Chinese have only glossary terms in English', () => {
    const offenders = Object.entries(HEALTH_CHECK_TEXTS['zh-CN'])
      .map(([key, text]) => [key, englishOutsideGlossary(text)] as const)
      .filter(([, words]) => words.length > 0);
    expect(offenders).toEqual([]);
  });

  it('in English put no bare count before a plural noun, and fill to plain text', () => {
    const bare =
      /\{\w+\} (?:extra )?(?:machines|entries|replicas|problems|nodes|disks|NICs|pools)\b/;
    for (const [key, text] of Object.entries(HEALTH_CHECK_TEXTS.en)) {
      expect(bare.test(text), key).toBe(false);
      const params = Object.fromEntries([...text.matchAll(/\{(\w+)/g)].map((m) => [m[1] ?? '', 1]));
      expect(fill(text, params, 'en'), key).not.toMatch(/[{}#]/);
    }
  });

  it('the check would catch an untranslated word', () => {
    expect(englishOutsideGlossary('Health check {name}')).toEqual(['Health', 'check']);
  });
});
