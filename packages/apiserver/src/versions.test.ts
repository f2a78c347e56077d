import { describe, expect, it } from 'vitest';
import type { MultiVersionKindRegistration } from './types';
import { compareVersionPriority } from './version-priority';
import { defaultDeprecationWarning } from './versions';

describe('compareVersionPriority', () => {
  // The example order in the doc comment of k8s.io/apimachinery/pkg/version's
  // CompareKubeAwareVersionStrings.
  it('orders versions as kube-apiserver lists them', () => {
    const expected = [
      'v10',
      'v2',
      'v1',
      'v11beta2',
      'v10beta3',
      'v3beta1',
      'v12alpha1',
      'v11alpha2',
      'foo1',
      'foo10',
    ];
    const shuffled = [...expected].reverse();
    expect(shuffled.sort(compareVersionPriority)).toEqual(expected);
    expect(['v1beta1', 'v1beta2'].sort(compareVersionPriority)).toEqual(['v1beta2', 'v1beta1']);
  });
});

describe('defaultDeprecationWarning', () => {
  const reg = (
    versions: MultiVersionKindRegistration['versions'],
  ): MultiVersionKindRegistration => ({
    group: 'cluster.x-k8s.io',
    kind: 'Machine',
    plural: 'machines',
    scope: 'Namespaced',
    versions,
  });
  const v = (name: string, extra: { served?: boolean; deprecated?: boolean } = {}) => ({
    name,
    served: extra.served ?? true,
    storage: false,
    ...(extra.deprecated ? { deprecated: true } : {}),
  });
  // The rule of apiextensions-apiserver's defaultDeprecationWarning (customresource_handler.go).
  it('names the newest served, non-deprecated version after the deprecated one', () => {
    expect(
      defaultDeprecationWarning(reg([v('v1beta1', { deprecated: true }), v('v1beta2')]), 'v1beta1'),
    ).toBe('cluster.x-k8s.io/v1beta1 Machine is deprecated; use cluster.x-k8s.io/v1beta2 Machine');
    expect(
      defaultDeprecationWarning(
        reg([
          v('v1alpha1', { deprecated: true }),
          v('v1beta1'),
          v('v1'),
          v('v2', { served: false }),
        ]),
        'v1alpha1',
      ),
    ).toBe('cluster.x-k8s.io/v1alpha1 Machine is deprecated; use cluster.x-k8s.io/v1 Machine');
    // Nothing newer served and not deprecated: no suggestion (an older version is not one).
    expect(
      defaultDeprecationWarning(
        reg([v('v1alpha1'), v('v1beta1', { deprecated: true })]),
        'v1beta1',
      ),
    ).toBe('cluster.x-k8s.io/v1beta1 Machine is deprecated');
  });
});
