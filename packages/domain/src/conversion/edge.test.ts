import { aMachineDeployment, anIpPool } from '../testing/builders';
import { describe, expect, it } from 'vitest';
import { asHub, asServed } from './edge';
import { convertCapiObject } from './index';

describe('the edge of the one model (issue 23)', () => {
  const md = aMachineDeployment({ spec: { strategy: { rollingUpdate: { maxSurge: 2 } } } });
  const v1beta2 = convertCapiObject(md, 'cluster.x-k8s.io/v1beta2');

  it('a v1beta2 object arrives as the hub; a hub or non-Cluster API object passes uncopied', () => {
    expect((v1beta2 as { spec: { rollout?: unknown } }).spec.rollout).toBeDefined();
    const hub = asHub(v1beta2);
    expect(hub.apiVersion).toBe('cluster.x-k8s.io/v1beta1');
    expect(hub.spec?.strategy?.rollingUpdate?.maxSurge).toBe(2);
    expect(asHub(md)).toBe(md);
    const pool = anIpPool();
    expect(asHub(pool)).toBe(pool);
    expect(asHub(null)).toBeNull();
  });

  it('a hub object is shown in the version the cluster serves, and round-trips', () => {
    const served = asServed(md, { 'cluster.x-k8s.io': 'v1beta2' });
    expect(served.apiVersion).toBe('cluster.x-k8s.io/v1beta2');
    expect(asHub(served)).toEqual(
      asHub(asServed(asHub(served), { 'cluster.x-k8s.io': 'v1beta2' })),
    );
    expect(asServed(md, { 'cluster.x-k8s.io': 'v1beta1' })).toBe(md);
    expect(asServed(md, {})).toBe(md);
  });
});
