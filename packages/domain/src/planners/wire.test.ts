import { describe, expect, it } from 'vitest';
import { capiConvertible, fromHub, toHub } from '../conversion';
import {
  CreatePoolRequestSchema,
  DeletePoolRequestSchema,
  EditStrategyRequestSchema,
} from '../requests';
import {
  aBootstrapTemplate,
  aCluster,
  aCreatePoolRequest,
  aKubeadmControlPlane,
  aMachine,
  aMachineDeployment,
  aMachineTemplate,
  anIpPool,
  aValidationContext,
} from '../testing';
import { planCreatePool } from './create-pool';
import { planDeletePool } from './delete-pool';
import { planEditStrategy } from './edit-strategy';
import { planPause } from './pause';
import { planAutoscale } from './autoscale';
import { planRestart } from './restart';
import { applyStep } from './objects';
import type { KubeObject, Plan } from './plan';
import { planScale } from './scale';
import { planUpdateBootstrap } from './upgrade';
import { jsonPatchBetween, planForVersions } from './wire';
import { applyJsonPatch } from './json-patch';

/**
 * Issue 23, phase 2: a plan made against the hub, sent to a cluster serving v1beta2. For each
 * real planner: the cluster's objects are v1beta2 (`wire`), the console's are their hub view
 * (`toHub`, conversion data included, as a v1beta1 client of v1.14 is served them); the plan is
 * made on the hub and re-expressed by `planForVersions`; applying the wire plan to the wire
 * objects must give the conversion of applying the hub plan to the hub objects, step by step,
 * undo included.
 */

const ctx = aValidationContext();
const V2 = () => 'v1beta2';
const k = (o: { kind: string; metadata: { namespace?: string; name?: string } }) =>
  `${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name ?? ''}`;

/** The cluster's objects in v1beta2, and the console's hub view of them. */
function world(hubBuilt: readonly KubeObject[]) {
  const wire = hubBuilt.map((o) =>
    capiConvertible(o.apiVersion, o.kind) ? fromHub(o, 'v1beta2') : o,
  );
  const hub = wire.map((o) => toHub(o));
  return { wire, hub };
}

/** Plays the hub plan on hub objects and the wire plan on wire objects, comparing as it goes. */
function checkPlan(plan: Plan, hub: readonly KubeObject[], wire: readonly KubeObject[]): Plan {
  const sent = planForVersions(plan, V2, hub);
  expect(sent.steps).toHaveLength(plan.steps.length);
  const hubState = new Map(hub.map((o) => [k(o), o]));
  const wireState = new Map(wire.map((o) => [k(o), o]));
  plan.steps.forEach((step, i) => {
    const wireStep = sent.steps[i];
    if (!wireStep) throw new Error(`no wire step ${String(i)}`);
    const id = `${step.kind}/${step.namespace}/${step.name}`;
    const hubAfter = applyStep(hubState.get(id), step);
    const wireAfter = applyStep(wireState.get(id), wireStep);
    if (hubAfter) hubState.set(id, hubAfter);
    else hubState.delete(id);
    if (wireAfter) wireState.set(id, wireAfter);
    else wireState.delete(id);
    const expected =
      hubAfter && capiConvertible(hubAfter.apiVersion, hubAfter.kind)
        ? fromHub(hubAfter, 'v1beta2')
        : hubAfter;
    expect(wireAfter, `step ${String(i)} ${step.verb} ${id}`).toEqual(expected);
    // The undo, played on what the step left.
    if (
      step.verb === 'patch' &&
      wireStep.verb === 'patch' &&
      step.undo &&
      wireStep.undo &&
      hubAfter &&
      wireAfter
    ) {
      const hubUndone = applyStep(hubAfter, step.undo);
      const wireUndone = applyStep(wireAfter, wireStep.undo);
      expect(wireUndone, `undo of step ${String(i)}`).toEqual(
        hubUndone && fromHub(hubUndone, 'v1beta2'),
      );
    }
    if (
      capiConvertible(
        `${step.kind === 'KubeadmConfigTemplate' ? 'bootstrap.' : ''}cluster.x-k8s.io/v1beta2`,
        step.kind,
      )
    ) {
      expect(sent.kubectl[i]).toMatch(/v1beta2/u);
    }
  });
  expect(planForVersions(plan, () => 'v1beta1', hub)).toBe(plan);
  return sent;
}

describe('planForVersions over the real planners (v1beta2 served)', () => {
  it('O-CREATE-POOL: the bootstrap template and MachineDeployment are created in v1beta2', () => {
    const { hub, wire } = world([]);
    const plan = planCreatePool(CreatePoolRequestSchema.parse(aCreatePoolRequest()), {}, ctx);
    const sent = checkPlan(plan, hub, wire);
    const md = sent.steps.find((s) => s.kind === 'MachineDeployment');
    expect(md?.verb === 'create' && md.body.apiVersion).toBe('cluster.x-k8s.io/v1beta2');
    const diff = sent.diffs.find((d) => d.kind === 'MachineDeployment');
    expect(diff?.after?.apiVersion).toBe('cluster.x-k8s.io/v1beta2');
  });

  it('O-SCALE-UP: the replicas patch, the same path in both versions', () => {
    const { hub, wire } = world([aMachineDeployment({ metadata: { resourceVersion: '10' } })]);
    const md = hub[0] as Parameters<typeof planScale>[1]['machineDeployment'];
    const plan = planScale({ replicas: 5, resourceVersion: '10' }, { machineDeployment: md }, ctx);
    const sent = checkPlan(plan, hub, wire);
    const step = sent.steps[0];
    expect(step?.verb === 'patch' && step.patch.type === 'json' && step.patch.ops).toEqual([
      { op: 'test', path: '/metadata/resourceVersion', value: '10' },
      { op: 'test', path: '/spec/replicas', value: 3 },
      { op: 'replace', path: '/spec/replicas', value: 5 },
    ]);
  });

  it('O-EDIT-STRATEGY: strategy and timeouts re-expressed as rollout and deletion seconds, with tests of the v1beta2 values', () => {
    const { hub, wire } = world([aMachineDeployment({ metadata: { resourceVersion: '10' } })]);
    const md = hub[0] as Parameters<typeof planEditStrategy>[1]['machineDeployment'];
    const plan = planEditStrategy(
      EditStrategyRequestSchema.parse({
        resourceVersion: '10',
        maxUnavailable: 2,
        nodeDrainTimeout: '10m',
        nodeVolumeDetachTimeout: null,
      }),
      { machineDeployment: md },
      ctx,
    );
    const sent = checkPlan(plan, hub, wire);
    const step = sent.steps[0];
    const ops = step?.verb === 'patch' && step.patch.type === 'json' ? step.patch.ops : [];
    expect(ops.map((o) => `${o.op} ${o.path}`)).toEqual(
      expect.arrayContaining([
        'test /metadata/resourceVersion',
        'replace /spec/rollout/strategy/rollingUpdate/maxUnavailable',
        'replace /spec/template/spec/deletion/nodeDrainTimeoutSeconds',
      ]),
    );
    expect(
      ops.some((o) => o.path.includes('/strategy/rollingUpdate/maxUnavailable') && o.op === 'test'),
    ).toBe(true);
    expect(JSON.stringify(ops)).not.toContain('nodeDrainTimeout"');
    expect(sent.kubectl[0]).toContain('machinedeployments.v1beta2.cluster.x-k8s.io demo-md-0');
  });

  it('O-PAUSE / O-RESUME: spec.paused and the paused annotation mean the same in v1beta2, and are sent so', () => {
    const { hub, wire } = world([
      aCluster({ metadata: { resourceVersion: '4' } }),
      aMachineDeployment({ metadata: { resourceVersion: '10' } }),
    ]);
    const cluster = hub[0] as Parameters<typeof planPause>[1]['target'];
    const pause = checkPlan(
      planPause({ resourceVersion: '4', paused: true }, { target: cluster }, ctx),
      hub,
      wire,
    );
    const ops = (p: Plan) => {
      const step = p.steps[0];
      return step?.verb === 'patch' && step.patch.type === 'json' ? step.patch.ops : [];
    };
    expect(ops(pause).filter((o) => o.op !== 'test')).toEqual([
      { op: 'add', path: '/spec/paused', value: true },
    ]);
    expect(pause.kubectl[0]).toContain('clusters.v1beta2.cluster.x-k8s.io demo');
    const md = hub[1] as Parameters<typeof planPause>[1]['target'];
    const poolPause = checkPlan(
      planPause({ resourceVersion: '10', paused: true }, { target: md }, ctx),
      hub,
      wire,
    );
    expect(ops(poolPause).filter((o) => o.op !== 'test')).toEqual([
      // The builder's deployment has no annotations: the map is added with the one key.
      { op: 'add', path: '/metadata/annotations', value: { 'cluster.x-k8s.io/paused': 'true' } },
    ]);
    // Resumed: spec.paused removed, on a v1beta2 cluster too.
    const paused = world([
      aCluster({ metadata: { resourceVersion: '5' }, spec: { paused: true } }),
    ]);
    const resume = checkPlan(
      planPause(
        { resourceVersion: '5', paused: false },
        { target: paused.hub[0] as Parameters<typeof planPause>[1]['target'] },
        ctx,
      ),
      paused.hub,
      paused.wire,
    );
    expect(ops(resume).filter((o) => o.op !== 'test')).toEqual([
      { op: 'remove', path: '/spec/paused' },
    ]);
  });

  it('O-AUTOSCALE / O-AUTOSCALE-REMOVE: the bound annotations are the same keys in v1beta2, replicas moved in the same patch, and sent so', () => {
    const { hub, wire } = world([
      aMachineDeployment({ metadata: { resourceVersion: '10' }, spec: { replicas: 1 } }),
    ]);
    const md = hub[0] as Parameters<typeof planAutoscale>[1]['machineDeployment'];
    const set = checkPlan(
      planAutoscale(
        { resourceVersion: '10', minSize: 2, maxSize: 3, replicas: 2 },
        { machineDeployment: md },
        ctx,
      ),
      hub,
      wire,
    );
    const ops = (p: Plan) => {
      const step = p.steps[0];
      return step?.verb === 'patch' && step.patch.type === 'json' ? step.patch.ops : [];
    };
    const MIN = 'cluster.x-k8s.io/cluster-api-autoscaler-node-group-min-size';
    const MAX = 'cluster.x-k8s.io/cluster-api-autoscaler-node-group-max-size';
    expect(planForVersions(set, V2, hub).kubectl[0]).toContain(
      'machinedeployments.v1beta2.cluster.x-k8s.io demo-md-0',
    );
    const sent = planForVersions(set, V2, hub);
    expect(ops(sent).filter((o) => o.op !== 'test')).toEqual([
      // The builder's deployment has no annotations (conversion data aside): the map is added.
      ...ops(set).filter((o) => o.op !== 'test'),
    ]);
    const annotated = world([
      aMachineDeployment({
        metadata: { resourceVersion: '11', annotations: { [MIN]: '2', [MAX]: '3', team: 'a' } },
      }),
    ]);
    const removal = checkPlan(
      planAutoscale(
        { resourceVersion: '11', minSize: null, maxSize: null },
        {
          machineDeployment: annotated.hub[0] as Parameters<
            typeof planAutoscale
          >[1]['machineDeployment'],
        },
        ctx,
      ),
      annotated.hub,
      annotated.wire,
    );
    // The wire plan (checkPlan's answer) removes the two keys and keeps the other annotation.
    expect(
      ops(removal)
        .filter((o) => o.op === 'remove')
        .map((o) => o.path),
    ).toEqual([
      '/metadata/annotations/cluster.x-k8s.io~1cluster-api-autoscaler-node-group-min-size',
      '/metadata/annotations/cluster.x-k8s.io~1cluster-api-autoscaler-node-group-max-size',
    ]);
  });

  it('O-RESTART: rolloutAfter of a MachineDeployment and of a KubeadmControlPlane is sent as v1beta2’s spec.rollout.after, added or replaced; the undo restores it', () => {
    const now = new Date('2026-03-01T10:00:00Z');
    const ops = (p: Plan) => {
      const step = p.steps[0];
      return step?.verb === 'patch' && step.patch.type === 'json' ? step.patch.ops : [];
    };
    const { hub, wire } = world([
      aMachineDeployment({ metadata: { resourceVersion: '10' } }),
      aKubeadmControlPlane({ metadata: { resourceVersion: '11' } }),
    ]);
    const md = hub[0] as Parameters<typeof planRestart>[1]['target'];
    const kcp = hub[1] as Parameters<typeof planRestart>[1]['target'];
    const pool = checkPlan(
      planRestart({ resourceVersion: '10' }, { target: md, machines: [] }, ctx, now),
      hub,
      wire,
    );
    expect(ops(pool).filter((o) => o.op !== 'test')).toEqual([
      // The builder's v1beta2 deployment already has spec.rollout (its strategy).
      { op: 'add', path: '/spec/rollout/after', value: '2026-03-01T10:00:00Z' },
    ]);
    expect(pool.kubectl[0]).toContain('machinedeployments.v1beta2.cluster.x-k8s.io demo-md-0');
    const cp = checkPlan(
      planRestart({ resourceVersion: '11' }, { target: kcp, machines: [] }, ctx, now),
      hub,
      wire,
    );
    // The builder's control plane has no rollout block in v1beta2 yet: it is added with the time.
    expect(ops(cp).filter((o) => o.op !== 'test')).toEqual([
      { op: 'add', path: '/spec/rollout', value: { after: '2026-03-01T10:00:00Z' } },
    ]);
    expect(cp.kubectl[0]).toContain('kubeadmcontrolplanes.v1beta2.controlplane.cluster.x-k8s.io');
    // A time already set is tested (at its v1beta2 path) and replaced.
    const set = world([
      aMachineDeployment({
        metadata: { resourceVersion: '12' },
        spec: { rolloutAfter: '2026-03-05T00:00:00Z' },
      }),
    ]);
    const again = checkPlan(
      planRestart(
        { resourceVersion: '12', at: '2026-03-04T00:00:00Z' },
        { target: set.hub[0] as Parameters<typeof planRestart>[1]['target'], machines: [] },
        ctx,
        now,
      ),
      set.hub,
      set.wire,
    );
    expect(ops(again)).toEqual(
      expect.arrayContaining([
        { op: 'test', path: '/spec/rollout/after', value: '2026-03-05T00:00:00Z' },
        { op: 'replace', path: '/spec/rollout/after', value: '2026-03-04T00:00:00Z' },
      ]),
    );
  });

  it('O-UPDATE-BOOTSTRAP: a new bootstrap template, the configRef switched in v1beta2 terms', () => {
    const kct = aBootstrapTemplate();
    const { hub, wire } = world([aMachineDeployment({ metadata: { resourceVersion: '10' } }), kct]);
    const base = kct.spec?.template.spec ?? {};
    const spec = {
      ...structuredClone(base),
      preKubeadmCommands: [...(base.preKubeadmCommands ?? []), 'echo hi'],
    };
    const plan = planUpdateBootstrap(
      {
        operation: 'bootstrap',
        resourceVersion: '10',
        bootstrap: { name: 'demo-md-0-kct-r2', spec },
      },
      {
        machineDeployment: hub[0] as Parameters<typeof planUpdateBootstrap>[1]['machineDeployment'],
        bootstrapTemplate: hub[1] as Parameters<typeof planUpdateBootstrap>[1]['bootstrapTemplate'],
      },
      ctx,
    );
    expect(plan.issues.filter((i) => i.severity === 'error')).toEqual([]);
    const sent = checkPlan(plan, hub, wire);
    const patch = sent.steps.find((s) => s.verb === 'patch');
    expect(JSON.stringify(patch)).toContain('/spec/template/spec/bootstrap/configRef/name');
  });

  it('O-DELETE-POOL: deletes unchanged; the hub plan of a pool with machines', () => {
    const built = [
      aMachineDeployment({ metadata: { resourceVersion: '10', uid: 'md-uid-0' } }),
      aMachine({ metadata: { name: 'demo-md-0-abc12-m1' } }),
      aKubeadmControlPlane(),
      aBootstrapTemplate({ metadata: { uid: 'kct-uid' } }),
    ];
    const { hub, wire } = world(built);
    const plan = planDeletePool(
      DeletePoolRequestSchema.parse({ resourceVersion: '10', removeBootstrapTemplate: true }),
      {
        machineDeployment: hub[0] as never,
        machines: [hub[1]] as never,
        machineDeployments: [hub[0]] as never,
        kubeadmControlPlanes: [hub[2]] as never,
        machineTemplate: aMachineTemplate({ metadata: { uid: 'mt-uid' } }),
        bootstrapTemplate: hub[3] as never,
        ipPool: anIpPool({ metadata: { uid: 'pool-uid' } }),
      },
      ctx,
    );
    checkPlan(plan, [...hub], wire);
  });
});

describe('jsonPatchBetween', () => {
  it('gives the ops that turn one document into the other', () => {
    const a = { x: { y: 1, z: [1, 2] }, gone: true, 'a/b': 1 };
    const b = { x: { y: 2, z: [1] }, added: { deep: 1 }, 'a/b': 2 };
    const ops = jsonPatchBetween(a, b);
    expect(ops).toEqual([
      { op: 'replace', path: '/x/y', value: 2 },
      { op: 'replace', path: '/x/z', value: [1] },
      { op: 'remove', path: '/gone' },
      { op: 'replace', path: '/a~1b', value: 2 },
      { op: 'add', path: '/added', value: { deep: 1 } },
    ]);
    expect(applyJsonPatch(a, ops)).toEqual(b);
  });
});
