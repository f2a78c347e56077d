import { describe, expect, it } from 'vitest';
import { DeletePoolRequestSchema, type DeletePoolRequest } from '../requests';
import {
  aBootstrapTemplate,
  aKubeadmControlPlane,
  aMachine,
  aMachineDeployment,
  aMachineSet,
  aMachineTemplate,
  anIpPool,
  aValidationContext,
} from '../testing';
import { machinesToDelete, planDeletePool, type DeletePoolCurrent } from './delete-pool';
import { applySteps } from './objects';
import { canExecute, type DeleteStep } from './plan';
import type { MachineHealthCheck } from '../schemas/capi';

const aHealthCheck = (name: string, matchLabels: Record<string, string>): MachineHealthCheck => ({
  apiVersion: 'cluster.x-k8s.io/v1beta1',
  kind: 'MachineHealthCheck',
  metadata: { name, namespace: 'cpaas-system', uid: `${name}-uid`, resourceVersion: '3' },
  spec: { clusterName: 'demo', selector: { matchLabels }, nodeStartupTimeout: '10m0s' },
});

const ctx = aValidationContext();
const md = () => aMachineDeployment({ metadata: { resourceVersion: '10', uid: 'md-uid-0' } });
const machines = () => [
  aMachine({ metadata: { name: 'demo-md-0-abc12-m2' } }),
  aMachine({ metadata: { name: 'demo-md-0-abc12-m1' } }),
  aMachine({ metadata: { name: 'demo-md-0-abc12-m3' } }),
  aMachine({
    metadata: { name: 'demo-md-1-x', labels: { 'cluster.x-k8s.io/deployment-name': 'demo-md-1' } },
  }),
];
const current = (o: Partial<DeletePoolCurrent> = {}): DeletePoolCurrent => ({
  machineDeployment: md(),
  machines: machines(),
  machineDeployments: [md()],
  kubeadmControlPlanes: [aKubeadmControlPlane()],
  machineTemplate: aMachineTemplate({ metadata: { uid: 'mt-uid' } }),
  bootstrapTemplate: aBootstrapTemplate({ metadata: { uid: 'kct-uid' } }),
  ipPool: anIpPool({ metadata: { uid: 'pool-uid' } }),
  ...o,
});
const req = (o: Partial<DeletePoolRequest> = {}) =>
  DeletePoolRequestSchema.parse({ resourceVersion: '10', ...o });
const everything = {
  removeMachineTemplate: true,
  removeBootstrapTemplate: true,
  removeIpPool: true,
};

describe('planDeletePool', () => {
  it('the pool’s own MachineHealthCheck goes with it, right after the MachineDeployment; one that spans other pools, or another cluster’s, stays', () => {
    const own = aHealthCheck('demo-md-0-mhc', {
      'cluster.x-k8s.io/cluster-name': 'demo',
      'cluster.x-k8s.io/deployment-name': 'demo-md-0',
    });
    const clusterWide = aHealthCheck('all-workers', { 'cluster.x-k8s.io/cluster-name': 'demo' });
    const otherPool = aHealthCheck('demo-md-1-mhc', {
      'cluster.x-k8s.io/cluster-name': 'demo',
      'cluster.x-k8s.io/deployment-name': 'demo-md-1',
    });
    const plan = planDeletePool(
      req(everything),
      current({ healthChecks: [clusterWide, otherPool, own] }),
      ctx,
    );
    expect(plan.steps.map((s) => `${s.kind} ${s.name}`).slice(0, 2)).toEqual([
      'MachineDeployment demo-md-0',
      'MachineHealthCheck demo-md-0-mhc',
    ]);
    expect(plan.steps.filter((s) => s.kind === 'MachineHealthCheck')).toHaveLength(1);
    expect(plan.steps[1]).toMatchObject({
      verb: 'delete',
      precondition: { uid: 'demo-md-0-mhc-uid' },
      description: { message: 'Delete MachineHealthCheck demo-md-0-mhc of demo-md-0' },
    });
    expect(plan.steps.at(-1)?.kind).toBe('DCSIpHostnamePool');
    expect(canExecute(plan)).toBe(true);
  });

  it('O-DELETE-POOL: deletes the MachineDeployment in the foreground, guarded by the resourceVersion seen; no undo', () => {
    const plan = planDeletePool(req(), current(), ctx);
    expect(plan.operation).toBe('O-DELETE-POOL');
    expect(plan.steps).toHaveLength(1);
    const step = plan.steps[0] as DeleteStep;
    expect(step).toMatchObject({
      verb: 'delete',
      kind: 'MachineDeployment',
      namespace: 'cpaas-system',
      name: 'demo-md-0',
      precondition: { resourceVersion: '10', uid: 'md-uid-0' },
      propagationPolicy: 'Foreground',
    });
    expect(step.undo).toBeUndefined();
    expect(step.irreversible?.message).toBe(
      'Deleting MachineDeployment demo-md-0 cannot be undone',
    );
    expect(step.description.message).toBe(
      'Delete MachineDeployment demo-md-0; its 3 machines are drained and deleted. This cannot be undone',
    );
    expect(plan.kubectl).toEqual([
      `kubectl delete --raw /apis/cluster.x-k8s.io/v1beta1/namespaces/cpaas-system/machinedeployments/demo-md-0 -f - <<'EOF'
${JSON.stringify(
  {
    apiVersion: 'v1',
    kind: 'DeleteOptions',
    propagationPolicy: 'Foreground',
    preconditions: { uid: 'md-uid-0', resourceVersion: '10' },
  },
  null,
  2,
)}
EOF`,
    ]);
    expect(plan.effects.machinesDeleted).toEqual([
      'demo-md-0-abc12-m1',
      'demo-md-0-abc12-m2',
      'demo-md-0-abc12-m3',
    ]);
    expect(plan.diffs).toEqual([
      expect.objectContaining({ kind: 'MachineDeployment', change: 'delete' }),
    ]);
    expect(plan.issues).toEqual([]);
    expect(canExecute(plan)).toBe(true);
  });

  it('U-5: lists the machines that will be drained and deleted', () => {
    expect(machinesToDelete(md(), machines())).toEqual([
      'demo-md-0-abc12-m1',
      'demo-md-0-abc12-m2',
      'demo-md-0-abc12-m3',
    ]);
  });

  it('O-DELETE-POOL: removes the templates and IP pool that only this pool used, the IP pool once its machines are gone', () => {
    const plan = planDeletePool(req(everything), current(), ctx);
    expect(plan.steps.map((s) => [s.verb, s.kind, s.name])).toEqual([
      ['delete', 'MachineDeployment', 'demo-md-0'],
      ['delete', 'DCSMachineTemplate', 'demo-md-0-template'],
      ['delete', 'KubeadmConfigTemplate', 'demo-md-0-kct'],
      ['delete', 'DCSIpHostnamePool', 'demo-worker-pool'],
    ]);
    // uid, not resourceVersion: the pool's status changes while the machines release their entries.
    expect(plan.steps.slice(1).map((s) => s.precondition)).toEqual([
      { uid: 'mt-uid' },
      { uid: 'kct-uid' },
      { uid: 'pool-uid' },
    ]);
    expect(plan.steps.every((s) => s.verb === 'delete' && !s.undo && s.irreversible)).toBe(true);
    expect(plan.steps.map((s) => s.waitFor)).toEqual([
      undefined,
      undefined,
      undefined,
      {
        kind: 'MachineDeployment',
        namespace: 'cpaas-system',
        name: 'demo-md-0',
        until: 'deleted',
        timeoutSeconds: 3600,
      },
    ]);
    expect(plan.kubectl[3]).toMatch(
      /^kubectl wait --for=delete machinedeployment\/demo-md-0 -n cpaas-system --timeout=3600s && kubectl delete --raw \/apis\/infrastructure\.cluster\.x-k8s\.io\/v1beta1\/namespaces\/cpaas-system\/dcsiphostnamepools\/demo-worker-pool -f - <<'EOF'\n/,
    );
    expect(plan.effects.notes?.map((n) => n.messageKey)).toEqual(['plan.effect.volumesKept']);
    const left = applySteps(
      [md(), current().machineTemplate, current().bootstrapTemplate, current().ipPool].flatMap(
        (o) => (o ? [o] : []),
      ),
      plan.steps,
    );
    expect(left).toEqual([]);
  });

  it('O-DELETE-POOL: keeps what another MachineDeployment still uses, and says who uses it', () => {
    const other = aMachineDeployment({
      metadata: { name: 'demo-md-1' },
      spec: {
        template: {
          spec: {
            infrastructureRef: { name: 'demo-md-0-template' },
            bootstrap: { configRef: { name: 'demo-md-0-kct' } },
          },
        },
      },
    });
    const shared = aValidationContext({
      ipPools: [
        {
          ...(ctx.ipPools[0] ?? { name: '', resourceVersion: '', entries: [], claims: [] }),
          consumers: [
            { deployment: 'demo-md-0', replicas: 3, maxSurge: 0 },
            { deployment: 'demo-md-1', replicas: 3, maxSurge: 0 },
          ],
        },
      ],
    });
    const plan = planDeletePool(
      req(everything),
      current({ machineDeployments: [md(), other] }),
      shared,
    );
    expect(plan.steps.map((s) => s.kind)).toEqual(['MachineDeployment']);
    expect(plan.issues.map((i) => [i.rule, i.severity, i.path, i.message])).toEqual([
      [
        'R-PLAN-IN-USE',
        'warning',
        'removeMachineTemplate',
        'DCSMachineTemplate demo-md-0-template is still used by MachineDeployment demo-md-1: it is kept',
      ],
      [
        'R-PLAN-IN-USE',
        'warning',
        'removeBootstrapTemplate',
        'KubeadmConfigTemplate demo-md-0-kct is still used by MachineDeployment demo-md-1: it is kept',
      ],
      [
        'R-PLAN-IN-USE',
        'warning',
        'removeIpPool',
        'DCSIpHostnamePool demo-worker-pool is still used by MachineDeployment demo-md-1: it is kept',
      ],
    ]);
    expect(canExecute(plan)).toBe(true);
  });

  it('O-DELETE-POOL: a KubeadmControlPlane, another pool’s MachineSet or another pool’s machine count as users', () => {
    const kcp = aKubeadmControlPlane({
      spec: { machineTemplate: { infrastructureRef: { name: 'demo-md-0-template' } } },
    });
    const oldSet = aMachineSet({
      metadata: {
        name: 'demo-md-7-old',
        labels: { 'cluster.x-k8s.io/deployment-name': 'demo-md-7' },
      },
      spec: { template: { spec: { bootstrap: { configRef: { name: 'demo-md-0-kct' } } } } },
    });
    const claimed = aValidationContext({
      ipPools: [
        {
          ...(ctx.ipPools[0] ?? { name: '', resourceVersion: '', entries: [], consumers: [] }),
          claims: [{ ip: '10.0.1.11', machine: 'stray-machine' }],
        },
      ],
    });
    const plan = planDeletePool(
      req(everything),
      current({ kubeadmControlPlanes: [kcp], machineSets: [oldSet] }),
      claimed,
    );
    expect(plan.steps.map((s) => s.kind)).toEqual(['MachineDeployment']);
    expect(plan.issues.map((i) => i.params.users)).toEqual([
      'KubeadmControlPlane demo-control-plane',
      'MachineSet demo-md-7-old',
      // The control plane's template now names the pool too.
      'KubeadmControlPlane demo-control-plane, Machine stray-machine',
    ]);
  });

  it('O-DELETE-POOL: this pool’s own older MachineSets and machines do not keep anything', () => {
    const ownSet = aMachineSet({ metadata: { name: 'demo-md-0-old' } });
    const plan = planDeletePool(req(everything), current({ machineSets: [ownSet] }), ctx);
    expect(plan.steps).toHaveLength(4);
  });

  it('O-DELETE-POOL: also deletes the templates of earlier upgrades that only this pool used, and shows them (issue 25)', () => {
    const mdUid = 'md-uid-0';
    const labelled = (name: string, pool: string, uid: string) =>
      aMachineTemplate({ metadata: { name, uid, labels: { 'dcs.io/node-pool': pool } } });
    // r1: made by an earlier upgrade, labelled for the pool; no MachineSet names it any more.
    const r1 = labelled('demo-md-0-template-r1', 'demo-md-0', 'mt-r1');
    // r0: unlabelled (made before the label), still named by the pool's own old MachineSet.
    const r0 = aMachineTemplate({ metadata: { name: 'demo-md-0-template-r0', uid: 'mt-r0' } });
    // Labelled for this pool but chosen by another pool since: shared, kept.
    const shared = labelled('shared-template', 'demo-md-0', 'mt-shared');
    // Another pool's history: not ours.
    const theirs = labelled('demo-md-1-template-r1', 'demo-md-1', 'mt-theirs');
    const kctR1 = aBootstrapTemplate({
      metadata: {
        name: 'demo-md-0-kct-r1',
        uid: 'kct-r1',
        ownerReferences: [
          {
            apiVersion: 'cluster.x-k8s.io/v1beta1',
            kind: 'MachineDeployment',
            name: 'demo-md-0',
            uid: mdUid,
          },
        ],
      },
    });
    const ownOldSet = aMachineSet({
      metadata: { name: 'demo-md-0-old' },
      spec: {
        template: {
          spec: {
            infrastructureRef: { name: 'demo-md-0-template-r0' },
            bootstrap: { configRef: { name: 'demo-md-0-kct' } },
          },
        },
      },
    });
    const other = aMachineDeployment({
      metadata: { name: 'demo-md-1' },
      spec: {
        template: {
          spec: {
            infrastructureRef: { name: 'shared-template' },
            bootstrap: { configRef: { name: 'demo-md-1-kct' } },
          },
        },
      },
    });
    const now = current();
    const all = {
      machineDeployments: [md(), other],
      machineSets: [ownOldSet],
      machineTemplates: [now.machineTemplate, r1, r0, shared, theirs].flatMap((t) =>
        t ? [t] : [],
      ),
      bootstrapTemplates: [now.bootstrapTemplate, kctR1].flatMap((t) => (t ? [t] : [])),
    };
    const plan = planDeletePool(req(everything), current(all), ctx);
    expect(plan.steps.map((s) => [s.kind, s.name, s.precondition])).toEqual([
      ['MachineDeployment', 'demo-md-0', { resourceVersion: '10', uid: mdUid }],
      ['DCSMachineTemplate', 'demo-md-0-template', { uid: 'mt-uid' }],
      ['KubeadmConfigTemplate', 'demo-md-0-kct', { uid: 'kct-uid' }],
      ['DCSMachineTemplate', 'demo-md-0-template-r0', { uid: 'mt-r0' }],
      ['DCSMachineTemplate', 'demo-md-0-template-r1', { uid: 'mt-r1' }],
      ['KubeadmConfigTemplate', 'demo-md-0-kct-r1', { uid: 'kct-r1' }],
      // The IP pool still goes last, once the machines are gone.
      ['DCSIpHostnamePool', 'demo-worker-pool', { uid: 'pool-uid' }],
    ]);
    expect(plan.steps[4]?.description.message).toBe(
      'Delete machine template demo-md-0-template-r1, left from an earlier revision of demo-md-0 and used by nothing else',
    );
    expect(plan.steps[5]?.description.message).toBe(
      'Delete bootstrap template demo-md-0-kct-r1, left from an earlier revision of demo-md-0 and used by nothing else',
    );
    expect(plan.issues.map((i) => i.message)).toEqual([
      'DCSMachineTemplate shared-template is still used by MachineDeployment demo-md-1: it is kept',
    ]);
    expect(plan.kubectl.filter((k) => k.includes('demo-md-0-template-r1'))).toHaveLength(1);
    const left = applySteps(
      [
        md(),
        ...all.machineTemplates,
        ...all.bootstrapTemplates,
        ...(now.ipPool ? [now.ipPool] : []),
      ],
      plan.steps,
    );
    expect(left.map((o) => o.metadata.name)).toEqual(['shared-template', 'demo-md-1-template-r1']);

    // Not asked to remove templates: none of the history is touched either.
    const kept = planDeletePool(req({ removeIpPool: true }), current(all), ctx);
    expect(kept.steps.map((s) => s.kind)).toEqual(['MachineDeployment', 'DCSIpHostnamePool']);
  });

  it('O-DELETE-POOL: an earlier template another pool’s MachineSet or the control plane still names is kept', () => {
    const r1 = aMachineTemplate({
      metadata: { name: 'demo-md-0-template-r1', labels: { 'dcs.io/node-pool': 'demo-md-0' } },
    });
    const theirSet = aMachineSet({
      metadata: {
        name: 'demo-md-7-a',
        labels: { 'cluster.x-k8s.io/deployment-name': 'demo-md-7' },
      },
      spec: { template: { spec: { infrastructureRef: { name: 'demo-md-0-template-r1' } } } },
    });
    const kcp = aKubeadmControlPlane({
      spec: { machineTemplate: { infrastructureRef: { name: 'demo-md-0-template-r1' } } },
    });
    const plan = planDeletePool(
      req({ removeMachineTemplate: true }),
      current({ machineSets: [theirSet], kubeadmControlPlanes: [kcp], machineTemplates: [r1] }),
      ctx,
    );
    expect(plan.steps.map((s) => s.name)).toEqual(['demo-md-0', 'demo-md-0-template']);
    expect(plan.issues.map((i) => i.params.users)).toEqual([
      'MachineSet demo-md-7-a, KubeadmControlPlane demo-control-plane',
    ]);
  });

  it('O-DELETE-POOL: a MachineDeployment changed since the user confirmed is an error', () => {
    const plan = planDeletePool(req({ resourceVersion: '9' }), current(), ctx);
    expect(plan.issues).toContainEqual(
      expect.objectContaining({ rule: 'R-PLAN-STALE', severity: 'error' }),
    );
    expect(canExecute(plan)).toBe(false);
    expect(() => applySteps([md()], plan.steps)).toThrow(/resourceVersion 10, not 9/);
  });
});
