import type { DeniedCheck } from '@dcs/domain';
import { describe, expect, it } from 'vitest';
import { en, type MessageKey } from '../i18n/en';
import { fill, type Locale } from '../i18n/locale';
import { zhCN } from '../i18n/zh-CN';
import { refusalText } from './refusal-text';

const i18nOf = (locale: Locale) => ({
  locale,
  t: (key: MessageKey, params?: Record<string, string | number>) =>
    fill((locale === 'en' ? en : zhCN)[key], params, locale),
});

const refused = (
  resource: string,
  group: string,
  more: Partial<DeniedCheck> = {},
): DeniedCheck => ({
  verb: 'create',
  kind: resource,
  group,
  resource,
  namespace: 'cpaas-system',
  ...more,
});

const createPool = {
  allowed: false as const,
  needs: 'create on machinedeployments',
  denied: [
    refused('dcsmachinetemplates', 'infrastructure.cluster.x-k8s.io'),
    refused('kubeadmconfigtemplates', 'bootstrap.cluster.x-k8s.io'),
    refused('machinedeployments', 'cluster.x-k8s.io'),
  ],
};

describe('refusalText', () => {
  it('names every resource one refusal covers in one sentence, listed in the language', () => {
    expect(refusalText(createPool, i18nOf('en'))).toBe(
      'Not allowed: the API server’s access review refused create on ' +
        'dcsmachinetemplates.infrastructure.cluster.x-k8s.io, ' +
        'kubeadmconfigtemplates.bootstrap.cluster.x-k8s.io, and ' +
        'machinedeployments.cluster.x-k8s.io in namespace cpaas-system.',
    );
    expect(refusalText(createPool, i18nOf('zh-CN'))).toBe(
      '不允许：API 服务器的访问审查拒绝了在命名空间 cpaas-system 中对 ' +
        'dcsmachinetemplates.infrastructure.cluster.x-k8s.io、' +
        'kubeadmconfigtemplates.bootstrap.cluster.x-k8s.io和' +
        'machinedeployments.cluster.x-k8s.io 执行 create。',
    );
  });

  it('keeps refusals of another verb, namespace or reason apart, each with its own reason', () => {
    const text = refusalText(
      {
        allowed: false,
        needs: '',
        denied: [
          refused('machinedeployments', 'cluster.x-k8s.io', { verb: 'patch' }),
          refused('secrets', '', { verb: 'get', reason: 'no RBAC policy matched' }),
          refused('machines', 'cluster.x-k8s.io', { verb: 'patch', namespace: 'other' }),
        ],
      },
      i18nOf('en'),
    );
    expect(text).toBe(
      'Not allowed: the API server’s access review refused patch on machinedeployments.cluster.x-k8s.io in namespace cpaas-system. ' +
        'Not allowed: the API server’s access review refused get on secrets in namespace cpaas-system. Reason given: no RBAC policy matched ' +
        'Not allowed: the API server’s access review refused patch on machines.cluster.x-k8s.io in namespace other.',
    );
  });

  it('says nothing when allowed, and what the action needs when no review was named', () => {
    expect(refusalText({ allowed: true, needs: '' }, i18nOf('en'))).toBeUndefined();
    expect(
      refusalText({ allowed: false, needs: 'create on machinedeployments' }, i18nOf('en')),
    ).toBe(fill(en['access.denied'], { needs: 'create on machinedeployments' }));
  });
});
