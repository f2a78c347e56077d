import { describe, expect, it } from 'vitest';
import { ServedVersions, servedVersionsOf } from './api-versions';
import { KubeApiError } from './errors';
import type { KubeClient } from './rest';

/** A discovery endpoint whose answers a test changes, as a Cluster API upgrade does. */
function discovery(served: Record<string, string[] | 'down'>) {
  const asked: string[] = [];
  const client: KubeClient = {
    request(_method, path) {
      asked.push(path);
      const group = path.replace(/^\/apis\//, '');
      const versions = served[group];
      if (versions === 'down') return Promise.reject(new Error('connect ECONNREFUSED'));
      if (!versions) return Promise.reject(new KubeApiError(404, 'NotFound', 'not found'));
      return Promise.resolve({
        status: 200,
        body: {
          kind: 'APIGroup',
          name: group,
          versions: versions.map((version) => ({ groupVersion: `${group}/${version}`, version })),
        },
      });
    },
  };
  return { client, asked, served };
}

const GROUPS = [
  'cluster.x-k8s.io',
  'controlplane.cluster.x-k8s.io',
  'bootstrap.cluster.x-k8s.io',
] as const;

describe('ServedVersions (issue 23)', () => {
  it('speaks the hub version until discovery answers, and keeps it when a group is not served', async () => {
    const d = discovery({});
    const versions = new ServedVersions(d.client);
    expect(versions.choice['cluster.x-k8s.io']).toBe('v1beta1');
    await versions.refresh();
    expect(versions.choice['cluster.x-k8s.io']).toBe('v1beta1');
    expect(d.asked.sort()).toEqual(GROUPS.map((g) => `/apis/${g}`).sort());
    versions.stop();
  });

  it('tells listeners once when a served version it can speak appears or goes', async () => {
    const d = discovery(Object.fromEntries(GROUPS.map((g) => [g, ['v1beta1']])));
    const versions = new ServedVersions(d.client);
    const heard: string[] = [];
    versions.onChange((c, p) =>
      heard.push(`${p['cluster.x-k8s.io'] ?? ''}->${c['cluster.x-k8s.io'] ?? ''}`),
    );
    await versions.refresh();
    await versions.refresh();
    expect(heard).toEqual([]);
    // A version it cannot speak (yet) changes nothing; one it can would be chosen first.
    d.served['cluster.x-k8s.io'] = ['v1beta1', 'v9'];
    await versions.refresh();
    expect(heard).toEqual([]);
    versions.stop();
  });

  it('keeps the last choice while discovery fails, and reports the failure per group', async () => {
    const d = discovery(Object.fromEntries(GROUPS.map((g) => [g, 'down' as const])));
    const errors: string[] = [];
    const versions = new ServedVersions(d.client, { onError: (_e, g) => errors.push(g) });
    await versions.refresh();
    expect(versions.choice['bootstrap.cluster.x-k8s.io']).toBe('v1beta1');
    expect(errors.sort()).toEqual([...GROUPS].sort());
    versions.stop();
  });

  it('servedVersionsOf: undefined for a group the server does not serve, [] for an odd answer', async () => {
    expect(await servedVersionsOf(discovery({}).client, 'cluster.x-k8s.io')).toBeUndefined();
    const odd: KubeClient = { request: () => Promise.resolve({ status: 200, body: 'x' }) };
    expect(await servedVersionsOf(odd, 'cluster.x-k8s.io')).toEqual([]);
  });
});
