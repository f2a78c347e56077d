import { englishOutsideGlossary } from '@dcs/domain';
import { describe, expect, it } from 'vitest';
import { AUTOSCALE_TEXTS } from './autoscale';
import { DELETION_TEXTS } from './deletion';
import { HEALTH_CHECK_TEXTS } from './health-check';
import { fill } from './locale';

/**
 * The catalogs that travel with a feature's dialogs (out of the first load) are held to the
 * console catalogs' rules (i18n/catalogs.test.ts). A new one is added to this list.
 */
const FEATURE_TEXTS = {
  'the cluster autoscaler (issue 26 item 2)': AUTOSCALE_TEXTS,
  'a pool’s health check (issue 26 item 1)': HEALTH_CHECK_TEXTS,
  'a machine’s deletion (issue 26 item 6)': DELETION_TEXTS,
};

describe.each(Object.entries(FEATURE_TEXTS))('the texts of %s', (_, texts) => {
  const zh: Record<string, string> = texts['zh-CN'];
  const en: Record<string, string> = texts.en;

  it('have the same keys in both languages, none empty', () => {
    expect(Object.keys(zh).sort()).toEqual(Object.keys(en).sort());
    for (const text of Object.values(zh)) expect(text.trim()).not.toBe('');
  });

  it('in Chinese have only glossary terms in English', () => {
    const offenders = Object.entries(zh)
      .map(([key, text]) => [key, englishOutsideGlossary(text)] as const)
      .filter(([, words]) => words.length > 0);
    expect(offenders).toEqual([]);
  });

  it('in English put no bare count before a plural noun, and fill to plain text', () => {
    const bare =
      /\{\w+\} (?:extra )?(?:machines|entries|replicas|problems|nodes|disks|NICs|pools)\b/;
    for (const [key, text] of Object.entries(en)) {
      expect(bare.test(text), key).toBe(false);
      const params = Object.fromEntries([...text.matchAll(/\{(\w+)/g)].map((m) => [m[1] ?? '', 1]));
      expect(fill(text, params, 'en'), key).not.toMatch(/[{}#]/);
    }
  });
});

it('the glossary check would catch an untranslated word', () => {
  expect(englishOutsideGlossary('Autoscaling {name}')).toEqual(['Autoscaling']);
  expect(englishOutsideGlossary('Health check {name}')).toEqual(['Health', 'check']);
});
