import {
  aCluster,
  aDCSMachine,
  aKubeadmControlPlane,
  aMachine,
  aMachineDeployment,
  aMachineSet,
  aMachineTemplate,
  anIpPool,
  aBootstrapTemplate,
  controlPlaneLabels,
} from '@dcs/domain/testing';
import { describe, expect, it } from 'vitest';
import { FakeCluster } from '../../test/fakes/fake-source';
import { fullViewsOf } from '../../test/fakes/full-views';
import { ObjectCache } from '../cache/object-cache';
import { frameOf, frameOfJson } from '../stream/events';
import { changeJson } from './cluster-model';
import { ModelRegistry } from './model-registry';

const NOW = new Date('2026-01-01T01:00:00Z');

function setup() {
  const fake = new FakeCluster();
  const cache = new ObjectCache(fake.factory, []);
  cache.start();
  const registry = new ModelRegistry(cache, { context: () => ({ versions: [] }), now: () => NOW });
  return { fake, cache, registry };
}

function seed(fake: FakeCluster) {
  fake.put(aCluster(), aKubeadmControlPlane());
  fake.put(
    aMachineTemplate({ metadata: { name: 'demo-control-plane-template' } }),
    aMachineTemplate(),
    aBootstrapTemplate(),
    anIpPool({ entries: 6 }),
    aMachineDeployment(),
    aMachineSet(),
  );
  for (let i = 0; i < 3; i++) {
    const name = `demo-md-0-abc12-m${i}`;
    fake.put(
      aMachine({ metadata: { name } }),
      aDCSMachine({ metadata: { name }, status: { networkConfig: { ip: `10.0.1.${11 + i}` } } }),
    );
    const cp = `demo-control-plane-c${i}`;
    fake.put(aMachine({ metadata: { name: cp, labels: controlPlaneLabels() } }));
  }
}

/** What domain's full grouping says, for comparison with the incrementally kept model. */
const fullViews = (cache: ObjectCache) =>
  fullViewsOf(cache, { namespace: 'cpaas-system', name: 'demo' }, { versions: [], now: NOW });

describe('ClusterModel', () => {
  it('builds the control-plane pool first, then worker pools, with their machines', () => {
    const { fake, registry } = setup();
    seed(fake);
    const model = registry.get('cpaas-system', 'demo');
    model.refresh();
    expect(model.pools().map((p) => p.id)).toEqual(['control-plane', 'demo-md-0']);
    expect(model.machinesOf('demo-md-0')).toHaveLength(3);
    expect(model.machinesOf('control-plane')).toHaveLength(3);
    expect(model.ipPools().map((p) => p.name)).toEqual(['demo-worker-pool']);
  });

  it('rebuilds only the affected pool on machine churn, matching the full grouping', () => {
    const { fake, cache, registry } = setup();
    seed(fake);
    const model = registry.get('cpaas-system', 'demo');
    model.refresh();
    fake.put(
      aMachine({
        metadata: { name: 'demo-md-0-abc12-m1' },
        status: { phase: 'Provisioning', nodeRef: undefined },
      }),
    );
    const changes = model.refresh();
    expect(changes.map((c) => `${c.type} ${c.kind} ${c.id}`)).toEqual([
      'upsert pool demo-md-0',
      'upsert machine demo-md-0-abc12-m1',
    ]);
    const full = fullViews(cache);
    expect(model.pools()).toEqual(full?.pools);
    expect(model.machines()).toEqual(full?.machines);
    expect(model.cluster()).toEqual(full?.cluster);
  });

  it("counts a machine's event in its pool's card without walking the pool, whatever its size", () => {
    const countedByAnEvent = (size: number) => {
      const { fake, cache, registry } = setup();
      seed(fake);
      for (let i = 3; i < size; i++)
        fake.put(aMachine({ metadata: { name: `demo-md-0-abc12-m${i}` } }));
      const model = registry.get('cpaas-system', 'demo');
      model.refresh();
      // The pool's first partial refresh builds its tally from its machines.
      fake.put(
        aMachine({ metadata: { name: 'demo-md-0-abc12-m0' }, status: { phase: 'Provisioning' } }),
      );
      model.refresh();
      const [rebuilds, counted] = [model.fullRebuilds, model.machinesCounted];
      fake.put(
        aMachine({ metadata: { name: 'demo-md-0-abc12-m1' }, status: { phase: 'Provisioning' } }),
      );
      const changes = model.refresh();
      const full = fullViews(cache);
      expect(model.pools()).toEqual(full?.pools);
      expect(model.machines()).toEqual(full?.machines);
      return {
        changes: changes.map((c) => `${c.type} ${c.kind} ${c.id}`),
        rebuilds: model.fullRebuilds - rebuilds,
        counted: model.machinesCounted - counted,
      };
    };
    const expected = {
      changes: ['upsert pool demo-md-0', 'upsert machine demo-md-0-abc12-m1'],
      rebuilds: 0,
      counted: 2,
    };
    expect(countedByAnEvent(3)).toEqual(expected);
    expect(countedByAnEvent(300)).toEqual(expected);
  });

  it("sends each change as JSON.stringify of it, the view's JSON made once", () => {
    const { fake, registry } = setup();
    seed(fake);
    const model = registry.get('cpaas-system', 'demo');
    const first = model.refresh();
    fake.put(
      aMachine({ metadata: { name: 'demo-md-0-abc12-m1' }, status: { phase: 'Provisioning' } }),
    );
    fake.remove(aMachine({ metadata: { name: 'demo-md-0-abc12-m2' } }));
    const changes = [...first, ...model.refresh()];
    expect(changes.some((c) => c.type === 'delete')).toBe(true);
    for (const c of changes) expect(changeJson(c)).toBe(JSON.stringify(c));
    const [one] = changes;
    expect(one && frameOfJson('E-1', changeJson(one))).toBe(one && frameOf('E-1', one));
  });

  it('follows a claim change of a DCSMachine into the IP pool and the pool showing its usage', () => {
    const { fake, cache, registry } = setup();
    seed(fake);
    const model = registry.get('cpaas-system', 'demo');
    model.refresh();
    fake.put(
      aDCSMachine({
        metadata: { name: 'demo-md-0-abc12-m2' },
        status: { networkConfig: { ip: '10.0.1.15' } },
      }),
    );
    const kinds = model.refresh().map((c) => `${c.kind} ${c.id}`);
    expect(kinds).toContain('ipPool demo-worker-pool');
    const full = fullViews(cache);
    expect(model.ipPools()).toEqual(full?.ipPools);
    expect(model.pools()).toEqual(full?.pools);
  });

  it('a MachineHealthCheck’s status write rebuilds only the pool it selects (its card line), matching the full grouping', () => {
    const { fake, cache, registry } = setup();
    seed(fake);
    fake.put(
      aMachineDeployment({ metadata: { name: 'demo-md-1' } }),
      aMachineSet({
        metadata: {
          name: 'demo-md-1-xyz98',
          labels: { 'cluster.x-k8s.io/deployment-name': 'demo-md-1' },
        },
      }),
    );
    const model = registry.get('cpaas-system', 'demo');
    model.refresh();
    expect(model.pool('demo-md-0')?.healthCheck).toBeUndefined();
    const mhc = (currentHealthy: number) => ({
      apiVersion: 'cluster.x-k8s.io/v1beta1',
      kind: 'MachineHealthCheck' as const,
      metadata: { name: 'demo-md-0-mhc', namespace: 'cpaas-system', resourceVersion: '1' },
      spec: {
        clusterName: 'demo',
        selector: { matchLabels: { 'cluster.x-k8s.io/deployment-name': 'demo-md-0' } },
      },
      status: { expectedMachines: 3, currentHealthy },
    });
    const rebuilds = model.fullRebuilds;
    fake.put(mhc(3));
    expect(model.refresh().map((c) => `${c.type} ${c.kind} ${c.id}`)).toEqual([
      'upsert pool demo-md-0',
    ]);
    expect(model.pool('demo-md-0')?.healthCheck).toEqual({
      name: 'demo-md-0-mhc',
      expectedMachines: 3,
      currentHealthy: 3,
      held: false,
    });
    fake.put(mhc(2));
    expect(model.refresh().map((c) => `${c.type} ${c.kind} ${c.id}`)).toEqual([
      'upsert pool demo-md-0',
    ]);
    expect(model.pool('demo-md-0')?.healthCheck?.currentHealthy).toBe(2);
    expect(model.pool('demo-md-1')?.healthCheck).toBeUndefined();
    // Not the whole cluster: a health check's every status write is a pool's event.
    expect(model.fullRebuilds).toBe(rebuilds);
    expect(model.pools()).toEqual(fullViews(cache)?.pools);
  });

  it('drops the views of a deleted machine and pool', () => {
    const { fake, registry } = setup();
    seed(fake);
    const model = registry.get('cpaas-system', 'demo');
    model.refresh();
    fake.remove(aMachine({ metadata: { name: 'demo-md-0-abc12-m0' } }));
    expect(model.refresh()).toContainEqual({
      type: 'delete',
      kind: 'machine',
      id: 'demo-md-0-abc12-m0',
    });
    fake.remove(aMachineDeployment());
    const changes = model.refresh();
    expect(changes).toContainEqual({ type: 'delete', kind: 'pool', id: 'demo-md-0' });
    expect(model.pools().map((p) => p.id)).toEqual(['control-plane']);
  });

  it('says when a cluster does not exist', () => {
    const { registry } = setup();
    const model = registry.get('cpaas-system', 'nope');
    model.refresh();
    expect(model.exists()).toBe(false);
  });
});
