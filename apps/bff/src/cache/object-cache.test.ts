import { safeParseObject } from '@dcs/domain';
import {
  aBootstrapTemplate,
  aCluster,
  aDCSMachine,
  aKubeadmControlPlane,
  aMachine,
  aMachineDeployment,
  aMachineSet,
  aMachineTemplate,
  anIpPool,
  aProviderDeployment,
  aVersionsCatalog,
} from '@dcs/domain/testing';
import { describe, expect, it } from 'vitest';
import { FakeCluster } from '../../test/fakes/fake-source';
import { ObjectCache } from './object-cache';
import type { CachedKind } from './watched-kinds';

const samples: [CachedKind, { metadata: { name?: string; namespace?: string } }][] = [
  ['Cluster', aCluster()],
  ['KubeadmControlPlane', aKubeadmControlPlane()],
  ['MachineDeployment', aMachineDeployment()],
  ['MachineSet', aMachineSet()],
  ['Machine', aMachine()],
  ['DCSMachine', aDCSMachine()],
  ['DCSMachineTemplate', aMachineTemplate()],
  ['KubeadmConfigTemplate', aBootstrapTemplate()],
  ['DCSIpHostnamePool', anIpPool()],
  ['ConfigMap', aVersionsCatalog()],
  ['Deployment', aProviderDeployment('1.0.16')],
];

describe('ObjectCache', () => {
  it('keeps the wire object itself: what the schemas accept they return unchanged', () => {
    for (const [kind, raw] of samples) {
      const withUnknown = { ...raw, extra: { kept: true } };
      const parsed = safeParseObject(kind, withUnknown);
      expect(parsed.success, kind).toBe(true);
      if (parsed.success) expect(parsed.data, kind).toEqual(withUnknown);
    }
    const fake = new FakeCluster();
    const cache = new ObjectCache(fake.factory, []);
    cache.start();
    const [sent] = fake.put(aMachine());
    const stored = cache.stores.Machine.get(
      sent?.metadata.namespace ?? '',
      sent?.metadata.name ?? '',
    );
    // The very object the source delivered, not a copy.
    expect(stored).toBe(sent);
  });

  it('keeps an object that fails its schema out', () => {
    const fake = new FakeCluster();
    const cache = new ObjectCache(fake.factory, []);
    cache.start();
    fake.put({ ...aMachine(), spec: { clusterName: 42 } } as unknown as ReturnType<
      typeof aMachine
    >);
    expect(cache.stores.Machine.size).toBe(0);
  });
});
