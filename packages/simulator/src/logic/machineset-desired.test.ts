import { describe, expect, it } from 'vitest';
import { aMachineDeployment, aMachineSet } from '@dcs/domain/testing';
import {
  ANNOTATION_DESIRED_REPLICAS,
  ANNOTATION_MAX_REPLICAS,
  ANNOTATION_REVISION,
  LABEL_CLUSTER_NAME,
  LABEL_DEPLOYMENT_NAME,
  LABEL_MACHINE_TEMPLATE_HASH,
  LABEL_SET_NAME,
  type MachineDeployment,
} from '@dcs/domain';
import {
  ANNOTATION_REVISION_HISTORY,
  effectiveSelector,
  findNewMachineSet,
  machineSetAnnotations,
  newMachineSet,
  updatedMachineSet,
} from './machineset-desired';
import { ANNOTATION_REFUSE } from '../admission';
import { ANNOTATION_FAIL } from './failures';
import { machineTemplateHash, sameRolloutFields } from './names';
import { seeded } from './random';
import { cloneFromTemplate, desiredMachine, machineLabels } from './machine-desired';

const md = (o: Parameters<typeof aMachineDeployment>[0] = {}): MachineDeployment =>
  aMachineDeployment({ metadata: { name: 'demo-md-0', annotations: { team: 'a' } }, ...o });

describe('MachineSets of a MachineDeployment', () => {
  it('a new set is named <md>-<5 chars>, labelled with the template hash, the deployment and the cluster, owned by the deployment', () => {
    const d = md();
    const ms = newMachineSet(d, [], 3, seeded(1, 'ms'));
    expect(ms.metadata.name).toMatch(/^demo-md-0-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    const hash = ms.metadata.labels?.[LABEL_MACHINE_TEMPLATE_HASH] ?? '';
    expect(hash).toMatch(
      new RegExp(
        `^${machineTemplateHash(ms.spec?.template ?? { spec: { clusterName: '', bootstrap: {}, infrastructureRef: {} } })}-[a-z0-9]{5}$`,
      ),
    );
    expect(ms.metadata.labels?.[LABEL_DEPLOYMENT_NAME]).toBe('demo-md-0');
    expect(ms.spec?.selector.matchLabels?.[LABEL_MACHINE_TEMPLATE_HASH]).toBe(hash);
    expect(ms.spec?.template?.metadata?.labels?.[LABEL_MACHINE_TEMPLATE_HASH]).toBe(hash);
    expect(ms.metadata.ownerReferences?.[0]).toMatchObject({
      kind: 'MachineDeployment',
      name: 'demo-md-0',
      controller: true,
    });
    expect(ms.metadata.annotations).toMatchObject({
      team: 'a',
      [ANNOTATION_REVISION]: '1',
      [ANNOTATION_DESIRED_REPLICAS]: '3',
      [ANNOTATION_MAX_REPLICAS]: '3',
    });
  });

  it("the deployment's annotations are copied to its sets, but not the simulator's hooks (sim.dcs.io/refuse, sim.dcs.io/fail)", () => {
    const d = md({
      metadata: {
        name: 'demo-md-0',
        annotations: {
          team: 'a',
          [ANNOTATION_REFUSE]: 'frozen',
          [ANNOTATION_FAIL]: 'placement-stall',
        },
      },
    });
    const annotations = machineSetAnnotations(d, [], undefined);
    expect(annotations.team).toBe('a');
    expect(Object.keys(annotations).filter((k) => k.startsWith('sim.dcs.io/'))).toEqual([]);
  });

  it('revisions: the new set gets max(old) + 1; a set becoming new again keeps its history', () => {
    const old = aMachineSet({
      metadata: { name: 'a', annotations: { [ANNOTATION_REVISION]: '4' } },
    });
    expect(machineSetAnnotations(md(), [old], undefined)[ANNOTATION_REVISION]).toBe('5');
    const back = aMachineSet({
      metadata: {
        name: 'b',
        annotations: { [ANNOTATION_REVISION]: '2', [ANNOTATION_REVISION_HISTORY]: '1' },
      },
    });
    const a = machineSetAnnotations(md(), [old], back);
    expect(a[ANNOTATION_REVISION]).toBe('5');
    expect(a[ANNOTATION_REVISION_HISTORY]).toBe('1,2');
  });

  it('the webhook defaults apply when the selector is null (the reference YAML)', () => {
    const d = md({ spec: { selector: { matchLabels: null } } });
    expect(effectiveSelector(d)).toEqual({
      [LABEL_DEPLOYMENT_NAME]: 'demo-md-0',
      [LABEL_CLUSTER_NAME]: 'demo',
    });
  });

  it('changing infrastructureRef, bootstrap configRef or version makes a new set; timeouts and labels do not', () => {
    const d = md();
    const ms = newMachineSet(d, [], 3, seeded(1));
    expect(findNewMachineSet(d, [ms])).toBe(ms);
    const t = d.spec?.template;
    if (!t) throw new Error('template');
    const change = (f: (x: NonNullable<typeof t>) => void) => {
      const c = structuredClone(t);
      f(c);
      return sameRolloutFields(t, c);
    };
    expect(change((c) => (c.spec.infrastructureRef.name = 'other'))).toBe(false);
    expect(
      change((c) => {
        if (c.spec.bootstrap.configRef) c.spec.bootstrap.configRef.name = 'other';
      }),
    ).toBe(false);
    expect(change((c) => (c.spec.version = 'v1.34.1'))).toBe(false);
    expect(change((c) => (c.spec.nodeDrainTimeout = '10m'))).toBe(true);
    expect(change((c) => (c.metadata = { labels: { x: 'y' } }))).toBe(true);
    expect(
      change(
        (c) => (c.spec.infrastructureRef.apiVersion = 'infrastructure.cluster.x-k8s.io/v1beta2'),
      ),
    ).toBe(true);
    expect(change((c) => (c.spec.version = '1.33.4'))).toBe(true);
  });

  it('O-RESTART: a set created before an expired rolloutAfter is not new; of two sets of one template the one with more replicas is (MachineSetsByDecreasingReplicas)', () => {
    const d = md();
    const at = (ms: ReturnType<typeof newMachineSet>, t: string, replicas: number) => ({
      ...ms,
      metadata: { ...ms.metadata, creationTimestamp: t },
      spec: ms.spec ? { ...ms.spec, replicas } : ms.spec,
    });
    const old = at(newMachineSet(d, [], 3, seeded(1)), '2026-03-01T09:00:00Z', 3);
    const now = Date.parse('2026-03-01T10:00:00Z');
    if (d.spec) d.spec.rolloutAfter = '2026-03-01T09:30:00Z';
    expect(findNewMachineSet(d, [old], now)).toBeUndefined();
    // Before the time, the set is still the new one.
    expect(findNewMachineSet(d, [old], Date.parse('2026-03-01T09:20:00Z'))).toBe(old);
    // The restart's set (created after the time) takes over; once it has all the replicas, a
    // later restart scheduled for the future leaves it the new one, not the old set at 0.
    const fresh = at(newMachineSet(d, [old], 1, seeded(2)), '2026-03-01T09:40:00Z', 1);
    expect(findNewMachineSet(d, [old, fresh], now)).toBe(fresh);
    const done = [at(old, '2026-03-01T09:00:00Z', 0), at(fresh, '2026-03-01T09:40:00Z', 3)];
    if (d.spec) d.spec.rolloutAfter = '2026-03-02T00:00:00Z';
    expect(findNewMachineSet(d, done, now)?.metadata.name).toBe(fresh.metadata.name);
  });

  it('in-place changes (timeouts, deletePolicy, annotations) update the set without a rollout', () => {
    const d = md();
    const ms = newMachineSet(d, [], 3, seeded(1));
    expect(updatedMachineSet(d, ms, [])).toBeUndefined();
    const d2 = structuredClone(d);
    if (d2.spec?.template) d2.spec.template.spec.nodeDrainTimeout = '10m';
    if (d2.spec?.strategy?.rollingUpdate) d2.spec.strategy.rollingUpdate.deletePolicy = 'Oldest';
    const u = updatedMachineSet(d2, ms, []);
    expect(u?.spec?.template?.spec.nodeDrainTimeout).toBe('10m');
    expect(u?.spec?.deletePolicy).toBe('Oldest');
    expect(findNewMachineSet(d2, [ms])).toBe(ms);
  });
});

describe('Machines of a MachineSet', () => {
  it('are named <set>-<5 chars>, labelled with set, deployment and cluster, owned by the set, with the finalizer', () => {
    const ms = newMachineSet(md(), [], 3, seeded(1));
    ms.metadata.uid = 'ms-uid';
    const m = desiredMachine(ms, seeded(2));
    expect(m.metadata.name).toMatch(new RegExp(`^${ms.metadata.name ?? ''}-[a-z0-9]{5}$`));
    expect(m.metadata.labels).toMatchObject({
      [LABEL_SET_NAME]: ms.metadata.name,
      [LABEL_DEPLOYMENT_NAME]: 'demo-md-0',
      [LABEL_CLUSTER_NAME]: 'demo',
    });
    expect(m.metadata.ownerReferences).toEqual([
      {
        apiVersion: 'cluster.x-k8s.io/v1beta1',
        kind: 'MachineSet',
        name: ms.metadata.name,
        uid: 'ms-uid',
        controller: true,
        blockOwnerDeletion: true,
      },
    ]);
    expect(m.metadata.finalizers).toEqual(['machine.cluster.x-k8s.io']);
    expect(machineLabels(ms)[LABEL_MACHINE_TEMPLATE_HASH]).toBe(
      ms.metadata.labels?.[LABEL_MACHINE_TEMPLATE_HASH],
    );
  });

  it('infrastructure and bootstrap objects are cloned from the templates like Cluster API does', () => {
    const clone = cloneFromTemplate({
      template: {
        apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1',
        kind: 'DCSMachineTemplate',
        metadata: { name: 'tpl' },
        spec: { template: { metadata: { labels: { a: 'b' } }, spec: { vmTemplateName: 'vm' } } },
      },
      name: 'm1',
      namespace: 'ns',
      clusterName: 'c',
      labels: { x: 'y' },
      annotations: {},
      owner: { apiVersion: 'cluster.x-k8s.io/v1beta1', kind: 'MachineSet', name: 'ms', uid: 'u' },
    });
    expect(clone).toEqual({
      apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1',
      kind: 'DCSMachine',
      metadata: {
        name: 'm1',
        namespace: 'ns',
        labels: { a: 'b', x: 'y', [LABEL_CLUSTER_NAME]: 'c' },
        annotations: {
          'cluster.x-k8s.io/cloned-from-name': 'tpl',
          'cluster.x-k8s.io/cloned-from-groupkind':
            'DCSMachineTemplate.infrastructure.cluster.x-k8s.io',
        },
        ownerReferences: [
          { apiVersion: 'cluster.x-k8s.io/v1beta1', kind: 'MachineSet', name: 'ms', uid: 'u' },
        ],
      },
      spec: { vmTemplateName: 'vm' },
    });
  });
});

describe('sameJson', () => {
  it('agrees with canonical JSON: key order and undefined or null members do not matter', async () => {
    const { sameJson, canonicalJson } = await import('./names');
    const cases: [unknown, unknown][] = [
      [
        { a: 1, b: [1, { c: 2 }] },
        { b: [1, { c: 2 }], a: 1 },
      ],
      [{ a: 1, b: undefined }, { a: 1 }],
      [{ a: null }, {}],
      [{ a: 1 }, { a: 2 }],
      [
        [1, 2],
        [2, 1],
      ],
      [{ a: [] }, { a: {} }],
      ['x', 'x'],
      [undefined, null],
    ];
    for (const [x, y] of cases) expect(sameJson(x, y)).toBe(canonicalJson(x) === canonicalJson(y));
  });
});
