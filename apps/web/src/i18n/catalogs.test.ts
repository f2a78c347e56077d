import { englishOutsideGlossary, messages as ruleMessages } from '@dcs/domain';
import { describe, expect, it } from 'vitest';
import { en } from './en';
import { formatAge } from './format';
import { zhCN } from './zh-CN';

describe('the Chinese catalogs (issue: Chinese, complete)', () => {
  it('the console’s catalogs have the same keys in both languages', () => {
    expect(Object.keys(zhCN).sort()).toEqual(Object.keys(en).sort());
    for (const [key, text] of Object.entries(zhCN)) expect(text.trim(), key).not.toBe('');
  });

  it('every console text in Chinese has only glossary terms in English', () => {
    const offenders = Object.entries(zhCN)
      .map(([key, text]) => [key, englishOutsideGlossary(text)] as const)
      .filter(([, words]) => words.length > 0);
    expect(offenders).toEqual([]);
  });

  it('every rule and plan message in Chinese has only glossary terms in English', () => {
    const offenders = Object.entries(ruleMessages)
      .map(([key, text]) => [key, englishOutsideGlossary(text['zh-CN'])] as const)
      .filter(([, words]) => words.length > 0);
    expect(offenders).toEqual([]);
  });

  it('the check finds an untranslated word and lets values through', () => {
    expect(englishOutsideGlossary('Scale {name}')).toEqual(['Scale']);
    expect(englishOutsideGlossary('扩缩容 {name}：5m，/var/cpaas（R-MD-3），machine')).toEqual([]);
    // An operation id is a value, as a rule id: a plan's heading names its operation.
    expect(englishOutsideGlossary('计划 O-SCALE-DOWN-TARGETED')).toEqual([]);
    expect(englishOutsideGlossary('O-Scale')).toEqual(['O-Scale']);
  });

  it('ages are compact in both languages: 45s / 45秒, 12m / 12分钟', () => {
    const now = Date.parse('2026-12-01T10:00:00Z');
    const ago = (s: number) => new Date(now - s * 1000).toISOString();
    expect(formatAge(ago(45), now, 'en')).toBe('45s');
    expect(formatAge(ago(12 * 60), now, 'en')).toBe('12m');
    expect(formatAge(ago(3 * 3600), now, 'en')).toBe('3h');
    expect(formatAge(ago(5 * 86400), now, 'en')).toBe('5d');
    expect(formatAge(ago(45), now, 'zh-CN')).toBe('45秒');
    expect(formatAge(ago(12 * 60), now, 'zh-CN')).toBe('12分钟');
  });
});
