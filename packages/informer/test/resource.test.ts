import { describe, expect, it } from 'vitest';
import { describeResource, resourceKey, resourcePath } from '../src/resource';

describe('resource paths and keys', () => {
  it('builds core, grouped, namespaced and cluster-wide paths', () => {
    expect(resourcePath({ group: '', version: 'v1', plural: 'secrets', namespace: 'a' })).toBe(
      '/api/v1/namespaces/a/secrets',
    );
    expect(
      resourcePath({ group: 'cluster.x-k8s.io', version: 'v1beta1', plural: 'machines' }),
    ).toBe('/apis/cluster.x-k8s.io/v1beta1/machines');
  });

  it('gives one key per (resource, namespace, selectors), and selectors cannot collide', () => {
    const base = { group: 'g', version: 'v1', plural: 'p' };
    expect(resourceKey({ ...base })).toBe(resourceKey({ ...base, namespace: '' }));
    expect(resourceKey({ ...base, labelSelector: 'a=b' })).not.toBe(resourceKey(base));
    expect(resourceKey({ ...base, labelSelector: 'x', fieldSelector: '' })).not.toBe(
      resourceKey({ ...base, labelSelector: '', fieldSelector: 'x' }),
    );
    expect(describeResource({ ...base, namespace: 'n', labelSelector: 'a=b' })).toBe(
      'p.g/v1 -n n -l a=b',
    );
  });
});
