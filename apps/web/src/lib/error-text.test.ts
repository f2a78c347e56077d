import { formatMessage, type RuleIssue } from '@dcs/domain';
import { describe, expect, it } from 'vitest';
import { en, type MessageKey } from '../i18n/en';
import { fill } from '../i18n/locale';
import { localizerFor } from '../i18n/localize';
import { ENGLISH } from '../i18n/packs';
import { zhCNPack } from '../i18n/pack-zh-CN';
import { zhCN } from '../i18n/zh-CN';
import { ApiError } from './api-client';
import { errorText } from './error-text';

const inLanguage = (locale: 'en' | 'zh-CN') => {
  const dict = locale === 'en' ? en : zhCN;
  return [
    (key: MessageKey, params?: Record<string, string | number>) => fill(dict[key], params, locale),
    localizerFor(locale, locale === 'en' ? ENGLISH : zhCNPack),
  ] as const;
};

const detail = (o: Partial<RuleIssue>): RuleIssue => ({
  rule: 'R-API',
  path: '',
  severity: 'error',
  messageKey: 'bff.api.refused',
  params: {},
  message: 'as the server said',
  ...o,
});

describe('errorText: the BFF’s errors in the user’s language', () => {
  it('R-POOL-1: a 422’s rule details come from domain’s catalog (English as sent), its code from the console’s texts', () => {
    const params = { pool: 'p', entries: 1, demand: 3, missing: 2 };
    const e = new ApiError(
      422,
      'Invalid',
      'IP pool p has 1 entry …',
      [
        // As domain makes every RuleIssue: `message` is the English text, filled in.
        detail({
          rule: 'R-POOL-1',
          messageKey: 'pool.demandExceedsEntries',
          params,
          message: formatMessage('pool.demandExceedsEntries', params, 'en'),
        }),
        detail({ severity: 'warning', messageKey: 'pool.surgeExceedsEntries' }),
      ],
      {},
    );
    const zh = errorText(e, ...inLanguage('zh-CN'));
    expect(zh.title).toBe(zhCN['error.code.Invalid']);
    expect(zh.details).toEqual([formatMessage('pool.demandExceedsEntries', params, 'zh-CN')]);
    expect(errorText(e, ...inLanguage('en')).details[0]).toContain('has 1 entry,');
  });

  it('localizes the BFF’s own detail keys, and keeps the API server’s words as sent', () => {
    const e = new ApiError(
      403,
      'Forbidden',
      'alice may not patch machinedeployments in cpaas-system',
      [
        detail({
          rule: 'R-AUTH',
          messageKey: 'bff.auth.denied',
          params: { verb: 'patch', kind: 'machinedeployments', namespace: 'cpaas-system' },
        }),
        detail({ message: 'admission webhook denied the request' }),
      ],
      {},
    );
    expect(errorText(e, ...inLanguage('zh-CN'))).toEqual({
      title: '您的权限不允许此操作。',
      details: [
        '不允许：在命名空间 cpaas-system 中对 machinedeployments 执行 patch。',
        'admission webhook denied the request',
      ],
    });
  });

  it('falls back to the server’s message for a code the console does not know', () => {
    const e = new ApiError(418, 'Teapot', 'I am a teapot', [], {});
    expect(errorText(e, ...inLanguage('zh-CN'))).toEqual({ title: 'I am a teapot', details: [] });
    expect(errorText(new Error('Failed to fetch'), ...inLanguage('en')).title).toBe(
      'Failed to fetch',
    );
  });

  it('has a text in both languages for every code the BFF answers with', () => {
    const codes = [
      'BadRequest',
      'Unauthorized',
      'Forbidden',
      'NotFound',
      'Conflict',
      'Invalid',
      'UpstreamError',
      'ControlPlanePool',
      'WrongOperation',
      'LocalMode',
      'TooManyStreams',
      'TooManyRequests',
      'PayloadTooLarge',
      'InternalError',
    ];
    for (const code of codes) {
      const e = new ApiError(400, code, 'server words', [], {});
      expect(errorText(e, ...inLanguage('en')).title, code).not.toBe('server words');
      expect(errorText(e, ...inLanguage('zh-CN')).title, code).toMatch(/\p{Script=Han}/u);
    }
  });
});
