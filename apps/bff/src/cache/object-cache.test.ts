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

describe('ObjectCache.useVersions (issue 23: Cluster API upgraded under a running console)', () => {
  const CAPI = 'cluster.x-k8s.io';

  it('moves each watch of the group to the new version without a change event, then follows the new watch only', async () => {
    const fake = new FakeCluster();
    const cache = new ObjectCache(fake.factory, [], {}, { [CAPI]: 'v1beta1' });
    cache.start();
    const [machine] = fake.put(aMachine());
    const changes: string[] = [];
    cache.subscribe((c) => changes.push(`${c.type} ${c.kind}`));

    await cache.useVersions({ [CAPI]: 'v1beta2' });

    const machines = cache.watchedVersions().filter((w) => w.kind === 'Machine');
    expect(machines.map((w) => w.version)).toEqual(['v1beta2']);
    // The DCS kinds keep their own group's version.
    expect(cache.watchedVersions().find((w) => w.kind === 'DCSMachine')?.version).toBe('v1beta1');
    const old = fake.sources.find(
      (s) => s.spec.plural === 'machines' && s.spec.version === 'v1beta1',
    );
    expect(old?.stopped).toBe(true);
    expect(changes).toEqual([]);
    expect(
      cache.stores.Machine.get(machine?.metadata.namespace ?? '', machine?.metadata.name ?? ''),
    ).toBeDefined();
    expect(cache.watchCount).toBe(fake.sources.filter((s) => !s.stopped).length);

    fake.put({ ...aMachine(), metadata: { ...aMachine().metadata } });
    expect(changes).toEqual(['update Machine']);
  });

  it('deletes what the list in the new version no longer has', async () => {
    const fake = new FakeCluster();
    const cache = new ObjectCache(fake.factory, [], {}, { [CAPI]: 'v1beta1' });
    cache.start();
    const [gone] = fake.put(aMachine({ metadata: { name: 'gone' } }));
    fake.put(aMachine({ metadata: { name: 'kept' } }));
    const changes: string[] = [];
    cache.subscribe((c) => changes.push(`${c.type} ${c.object.metadata.name ?? ''}`));
    // Deleted while no watch saw it (between the old watch's last event and the new list).
    const old = fake.sources.find((s) => s.spec.plural === 'machines');
    old?.items.delete(`${gone?.metadata.namespace ?? ''}/gone`);

    await cache.useVersions({ [CAPI]: 'v1beta2' });

    expect(changes).toEqual(['delete gone']);
    expect(cache.stores.Machine.list().map((m) => m.metadata.name)).toEqual(['kept']);
  });

  it('does nothing for a version it already speaks, and keeps the same watch count', async () => {
    const fake = new FakeCluster();
    const cache = new ObjectCache(fake.factory, ['a', 'b'], {}, { [CAPI]: 'v1beta1' });
    cache.start();
    const before = fake.sources.length;
    await cache.useVersions({ [CAPI]: 'v1beta1' });
    expect(fake.sources.length).toBe(before);
    await cache.useVersions({ [CAPI]: 'v1beta2' });
    expect(cache.watchCount).toBe(before);
    expect(fake.sources.filter((s) => !s.stopped).length).toBe(before);
  });
});
