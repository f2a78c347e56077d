import { describe, expect, it } from 'vitest';
import { CreatePoolRequestSchema, type CreatePoolRequestInput } from '../requests';
import { anIpEntry, anIpPool, aValidationContext } from '../testing';
import { defaultBootstrapSpec } from './bootstrap-defaults';
import { planCreatePool } from './create-pool';
import { applyJsonPatch, tryApplyJsonPatch, type JsonPatchOp } from './json-patch';
import { applySteps } from './objects';
import { canExecute, type PatchStep } from './plan';

const ctx = aValidationContext();
const templateSpec = {
  vmTemplateName: 'alauda-os-k8s-v1.33.4',
  location: { type: 'folder', name: 'k8s-workers' },
  vmConfig: {
    dcsMachineCpuSpec: { quantity: 4 },
    dcsMachineMemorySpec: { quantity: 8192 },
    dcsMachineDiskSpec: [
      { quantity: 0, datastoreClusterName: 'ds-cluster-1', systemVolume: true },
      {
        quantity: 100,
        datastoreClusterName: 'ds-cluster-1',
        path: '/var/lib/kubelet',
        format: 'xfs',
      },
      {
        quantity: 100,
        datastoreClusterName: 'ds-cluster-1',
        path: '/var/lib/containerd',
        format: 'xfs',
      },
    ],
  },
};
const bootstrapSpec = defaultBootstrapSpec({
  version: 'v1.33.4',
  sshAuthorizedKeys: ['ssh-ed25519 AAAA k'],
});

function request(o: Partial<CreatePoolRequestInput> = {}) {
  return CreatePoolRequestSchema.parse({
    name: 'demo-md-1',
    replicas: 3,
    version: '1.33.4',
    machineTemplate: { mode: 'new', name: 'demo-md-1-template', spec: templateSpec },
    bootstrap: { mode: 'new', name: 'demo-md-1-kct', spec: bootstrapSpec },
    ipPool: { mode: 'new', name: 'demo-md-1-ippool', entries: [4, 5, 6].map((n) => anIpEntry(n)) },
    strategy: { maxSurge: 0, maxUnavailable: 1 },
    ...o,
  });
}

/** The existing pool of the context, with an extra disk carrying isThin on one entry. */
function existingPool() {
  const pool = anIpPool({
    metadata: { name: 'demo-worker-pool', resourceVersion: '41' },
    entries: 6,
  });
  const entries = pool.spec?.pool ?? [];
  entries[1] = anIpEntry(2, {
    persistentDisk: [
      {
        slot: 0,
        quantityGB: 40,
        datastoreClusterName: 'ds-cluster-1',
        path: '/var/cpaas',
        format: 'xfs',
        isThin: true,
      },
      {
        slot: 1,
        quantityGB: 10,
        datastoreClusterName: 'ds-cluster-2',
        path: '/data',
        format: 'ext4',
        isThin: false,
      },
    ],
    additionNic: [{ ip: '192.168.0.12', mask: '24', dvSwitchName: 'dvs-2', portGroupName: 'pg-2' }],
  });
  return pool;
}

describe('planCreatePool', () => {
  it('O-CREATE-POOL: creates IP pool, machine template, bootstrap template and MachineDeployment in that order', () => {
    const plan = planCreatePool(request(), {}, ctx);
    expect(plan.operation).toBe('O-CREATE-POOL');
    expect(plan.target).toEqual({ kind: 'MachineDeployment', name: 'demo-md-1' });
    expect(plan.steps.map((s) => [s.verb, s.kind, s.namespace, s.name])).toEqual([
      ['create', 'DCSIpHostnamePool', 'cpaas-system', 'demo-md-1-ippool'],
      ['create', 'DCSMachineTemplate', 'cpaas-system', 'demo-md-1-template'],
      ['create', 'KubeadmConfigTemplate', 'cpaas-system', 'demo-md-1-kct'],
      ['create', 'MachineDeployment', 'cpaas-system', 'demo-md-1'],
    ]);
    expect(plan.effects.created).toEqual(plan.steps.map((s) => ({ kind: s.kind, name: s.name })));
    expect(plan.effects.replicas).toEqual({ from: 0, to: 3 });
    expect(plan.issues).toEqual([]);
    expect(canExecute(plan)).toBe(true);
  });

  it('O-CREATE-POOL: each create is undone by a delete of exactly the created object', () => {
    const plan = planCreatePool(request(), {}, ctx);
    for (const step of plan.steps) {
      expect(step.verb).toBe('create');
      if (step.verb !== 'create') continue;
      expect(step.undo).toMatchObject({
        verb: 'delete',
        kind: step.kind,
        namespace: step.namespace,
        name: step.name,
        precondition: { uidFromCreate: true },
      });
      expect(step.undo.description.messageKey).toBe('plan.undo.delete');
    }
    // Rolling back after the last step leaves nothing of the pool behind.
    const made = applySteps([], plan.steps);
    expect(made).toHaveLength(4);
    const undos = plan.steps.flatMap((s) => (s.verb === 'create' ? [s.undo] : [])).reverse();
    expect(applySteps(made, undos)).toEqual([]);
  });

  it('O-CREATE-POOL: the MachineDeployment follows the reference (step 4)', () => {
    const plan = planCreatePool(
      request({ strategy: { maxSurge: 0, maxUnavailable: '25%', deletePolicy: 'Oldest' } }),
      {},
      ctx,
    );
    const md = plan.steps[3];
    expect(md?.verb === 'create' && md.body).toEqual({
      apiVersion: 'cluster.x-k8s.io/v1beta1',
      kind: 'MachineDeployment',
      metadata: {
        name: 'demo-md-1',
        namespace: 'cpaas-system',
        labels: { 'cluster.x-k8s.io/cluster-name': 'demo' },
      },
      spec: {
        clusterName: 'demo',
        replicas: 3,
        selector: {
          matchLabels: {
            'cluster.x-k8s.io/cluster-name': 'demo',
            'cluster.x-k8s.io/deployment-name': 'demo-md-1',
          },
        },
        strategy: {
          type: 'RollingUpdate',
          rollingUpdate: { maxSurge: 0, maxUnavailable: '25%', deletePolicy: 'Oldest' },
        },
        template: {
          metadata: {
            labels: {
              'cluster.x-k8s.io/cluster-name': 'demo',
              'cluster.x-k8s.io/deployment-name': 'demo-md-1',
              'pool.name': 'demo-md-1',
            },
          },
          spec: {
            clusterName: 'demo',
            version: 'v1.33.4',
            nodeDrainTimeout: '1m',
            nodeDeletionTimeout: '5m',
            bootstrap: {
              configRef: {
                apiVersion: 'bootstrap.cluster.x-k8s.io/v1beta1',
                kind: 'KubeadmConfigTemplate',
                name: 'demo-md-1-kct',
                namespace: 'cpaas-system',
              },
            },
            infrastructureRef: {
              apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1',
              kind: 'DCSMachineTemplate',
              name: 'demo-md-1-template',
              namespace: 'cpaas-system',
            },
          },
        },
      },
    });
    if (md?.verb === 'create') expect(md.undo.propagationPolicy).toBe('Foreground');
  });

  it('O-CREATE-POOL: the request timeouts win over the reference defaults', () => {
    const plan = planCreatePool(
      request({ nodeDrainTimeout: '10m', nodeDeletionTimeout: '15m' }),
      {},
      ctx,
    );
    const md = plan.steps[3];
    expect(md?.verb === 'create' && md.body).toMatchObject({
      spec: { template: { spec: { nodeDrainTimeout: '10m', nodeDeletionTimeout: '15m' } } },
    });
  });

  it('O-CREATE-POOL: new templates and pool carry the request, the machine template names the pool', () => {
    const plan = planCreatePool(request(), {}, ctx);
    const [pool, mt, kct] = plan.steps;
    expect(pool?.verb === 'create' && pool.body).toEqual({
      apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1',
      kind: 'DCSIpHostnamePool',
      metadata: {
        name: 'demo-md-1-ippool',
        namespace: 'cpaas-system',
        labels: { 'cluster.x-k8s.io/cluster-name': 'demo' },
      },
      spec: { pool: [4, 5, 6].map((n) => anIpEntry(n)) },
    });
    expect(mt?.verb === 'create' && mt.body).toEqual({
      apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1',
      kind: 'DCSMachineTemplate',
      metadata: {
        name: 'demo-md-1-template',
        namespace: 'cpaas-system',
        // Labelled for the pool: deleting it later finds its templates (issue 25).
        labels: { 'cluster.x-k8s.io/cluster-name': 'demo', 'dcs.io/node-pool': 'demo-md-1' },
      },
      spec: {
        template: { spec: { ...templateSpec, ipHostPoolRef: { name: 'demo-md-1-ippool' } } },
      },
    });
    expect(kct?.verb === 'create' && kct.body).toEqual({
      apiVersion: 'bootstrap.cluster.x-k8s.io/v1beta1',
      kind: 'KubeadmConfigTemplate',
      metadata: {
        name: 'demo-md-1-kct',
        namespace: 'cpaas-system',
        labels: { 'cluster.x-k8s.io/cluster-name': 'demo', 'dcs.io/node-pool': 'demo-md-1' },
      },
      spec: { template: { spec: bootstrapSpec } },
    });
  });

  it('O-CREATE-POOL: kubectl creates each object from a JSON heredoc', () => {
    const plan = planCreatePool(request(), {}, ctx);
    expect(plan.kubectl).toHaveLength(4);
    plan.kubectl.forEach((cmd, i) => {
      const m = /^kubectl create -f - <<'EOF'\n([\s\S]*)\nEOF$/.exec(cmd);
      expect(m).not.toBeNull();
      const step = plan.steps[i];
      expect(JSON.parse(m?.[1] ?? 'null')).toEqual(step?.verb === 'create' ? step.body : undefined);
    });
  });

  it('O-CREATE-POOL: the preview has one create diff per object', () => {
    const plan = planCreatePool(request(), {}, ctx);
    expect(plan.diffs.map((d) => [d.change, d.kind, d.name, d.before === undefined])).toEqual([
      ['create', 'DCSIpHostnamePool', 'demo-md-1-ippool', true],
      ['create', 'DCSMachineTemplate', 'demo-md-1-template', true],
      ['create', 'KubeadmConfigTemplate', 'demo-md-1-kct', true],
      ['create', 'MachineDeployment', 'demo-md-1', true],
    ]);
  });

  describe('with an existing IP pool', () => {
    /** The context's view of the pool matches the object: rv 41, six entries, three claimed. */
    const roomy = aValidationContext({
      ipPools: [
        {
          ...(ctx.ipPools[0] ?? { name: '', claims: [], consumers: [] }),
          resourceVersion: '41',
          entries: existingPool().spec?.pool ?? [],
        },
      ],
    });
    const appended = [
      anIpEntry(7),
      anIpEntry(8, {
        persistentDisk: [{ slot: 0, quantityGB: 40, path: '/var/cpaas', isThin: true }],
      }),
    ];
    const existing = (append = appended, replicas = 2) =>
      request({
        replicas,
        machineTemplate: { mode: 'existing', name: 'demo-md-0-template' },
        bootstrap: { mode: 'existing', name: 'demo-md-0-kct' },
        ipPool: { mode: 'existing', name: 'demo-worker-pool', resourceVersion: '41', append },
      });

    it('R-POOL-4: O-CREATE-POOL appends to an existing pool with a JSON patch that tests its resourceVersion', () => {
      const pool = existingPool();
      const plan = planCreatePool(existing(), { ipPool: pool }, roomy);
      expect(plan.issues.filter((i) => i.severity === 'error')).toEqual([]);
      expect(plan.steps.map((s) => [s.verb, s.kind, s.name])).toEqual([
        ['patch', 'DCSIpHostnamePool', 'demo-worker-pool'],
        ['create', 'MachineDeployment', 'demo-md-1'],
      ]);
      const step = plan.steps[0] as PatchStep;
      expect(step.patch.type).toBe('json');
      const ops = step.patch.type === 'json' ? step.patch.ops : [];
      expect(ops).toEqual<JsonPatchOp[]>([
        { op: 'test', path: '/metadata/resourceVersion', value: '41' },
        { op: 'add', path: '/spec/pool/-', value: appended[0] },
        { op: 'add', path: '/spec/pool/-', value: appended[1] },
      ]);
      expect(step.precondition).toEqual({ resourceVersion: '41', tests: [ops[0]] });
      expect(step.description.message).toBe(
        'Append 2 entries to IP pool demo-worker-pool, keeping its 6 entries',
      );
      expect(plan.kubectl[0]).toBe(
        `kubectl patch dcsiphostnamepool demo-worker-pool -n cpaas-system --type json -p '${JSON.stringify(ops)}'`,
      );
    });

    it('R-POOL-4: appending keeps every existing entry and persistentDisk block byte for byte', () => {
      const pool = existingPool();
      const plan = planCreatePool(existing(), { ipPool: pool }, roomy);
      const [after] = applySteps([pool], plan.steps.slice(0, 1)) as [typeof pool];
      const before = pool.spec?.pool ?? [];
      const now = after.spec?.pool ?? [];
      expect(now).toHaveLength(8);
      before.forEach((e, i) => {
        expect(JSON.stringify(now[i])).toBe(JSON.stringify(e));
      });
      expect(now[1]?.persistentDisk?.map((d) => d.isThin)).toEqual([true, false]);
      expect(now.slice(6).map((e) => e.ip)).toEqual(['10.0.1.17', '10.0.1.18']);
      const diff = plan.diffs[0];
      expect(diff?.change).toBe('update');
      expect(diff?.changes.map((c) => [c.change, c.path])).toEqual([
        ['add', '/spec/pool/6'],
        ['add', '/spec/pool/7'],
      ]);
    });

    it('R-POOL-4: the undo removes exactly the appended entries, tested by ip, last first', () => {
      const pool = existingPool();
      const step = planCreatePool(existing(), { ipPool: pool }, roomy).steps[0] as PatchStep;
      expect(step.undo?.patch).toEqual({
        type: 'json',
        ops: [
          { op: 'test', path: '/spec/pool/7/ip', value: '10.0.1.18' },
          { op: 'remove', path: '/spec/pool/7' },
          { op: 'test', path: '/spec/pool/6/ip', value: '10.0.1.17' },
          { op: 'remove', path: '/spec/pool/6' },
        ],
      });
      const after = applySteps([pool], [step]);
      expect(applySteps(after, step.undo ? [step.undo] : [])).toEqual([pool]);
    });

    it('R-POOL-4: a pool changed since the user saw it gets the appends on its current entries, with a warning', () => {
      // Someone appended an entry after the user loaded rv 41.
      const pool = existingPool();
      pool.metadata.resourceVersion = '42';
      pool.spec?.pool?.push(anIpEntry(9));
      const seenByRules = aValidationContext({
        ipPools: [
          {
            ...(roomy.ipPools[0] ?? { name: '', claims: [], consumers: [] }),
            resourceVersion: '42',
            entries: pool.spec?.pool ?? [],
          },
        ],
      });
      const plan = planCreatePool(existing(), { ipPool: pool }, seenByRules);
      expect(plan.issues).toContainEqual(
        expect.objectContaining({
          rule: 'R-POOL-4',
          severity: 'warning',
          messageKey: 'plan.issue.poolChanged',
          path: 'ipPool.resourceVersion',
        }),
      );
      const step = plan.steps[0] as PatchStep;
      const ops = step.patch.type === 'json' ? step.patch.ops : [];
      expect(ops[0]).toEqual({ op: 'test', path: '/metadata/resourceVersion', value: '42' });
      const [after] = applySteps([pool], [step]) as [typeof pool];
      expect(after.spec?.pool?.map((e) => e.ip)).toEqual([
        ...(pool.spec?.pool ?? []).map((e) => e.ip),
        '10.0.1.17',
        '10.0.1.18',
      ]);
    });

    it('R-POOL-4: the test op fails when the pool changes again before the patch lands', () => {
      const pool = existingPool();
      const step = planCreatePool(existing(), { ipPool: pool }, roomy).steps[0] as PatchStep;
      const newer = { ...pool, metadata: { ...pool.metadata, resourceVersion: '43' } };
      const ops = step.patch.type === 'json' ? step.patch.ops : [];
      const r = tryApplyJsonPatch(newer, ops);
      expect(r.ok ? undefined : r.error.code).toBe('TEST_FAILED');
      expect(() => applySteps([newer], [step])).toThrow(/expected "41", found "43"/);
    });

    it('O-CREATE-POOL: existing templates and a pool with nothing to append add no step', () => {
      const plan = planCreatePool(existing([], 3), {}, roomy);
      expect(plan.steps.map((s) => s.kind)).toEqual(['MachineDeployment']);
      expect(plan.issues).toEqual([]);
    });

    it('R-POOL-1: O-CREATE-POOL refuses an existing machine template that takes addresses from another pool', () => {
      const req = request({
        machineTemplate: { mode: 'existing', name: 'demo-md-0-template' },
        ipPool: {
          mode: 'new',
          name: 'demo-md-1-ippool',
          entries: [4, 5, 6].map((n) => anIpEntry(n)),
        },
      });
      const plan = planCreatePool(req, {}, ctx);
      expect(plan.issues).toContainEqual(
        expect.objectContaining({
          rule: 'R-POOL-1',
          severity: 'error',
          messageKey: 'pool.templateUsesOtherPool',
        }),
      );
    });

    it('O-CREATE-POOL: an existing pool, template or bootstrap template that is not there is an error', () => {
      const req = request({
        machineTemplate: { mode: 'existing', name: 'nope-template' },
        bootstrap: { mode: 'existing', name: 'nope-kct' },
        ipPool: {
          mode: 'existing',
          name: 'nope-pool',
          resourceVersion: '1',
          append: [anIpEntry(4)],
        },
      });
      const plan = planCreatePool(req, {}, ctx);
      const errors = plan.issues.filter((i) => i.severity === 'error').map((i) => i.path);
      expect(errors).toEqual(
        expect.arrayContaining(['ipPool.name', 'machineTemplate.name', 'bootstrap.name']),
      );
      // One report per field: the planner's own "not found" is not repeated after the rule's.
      expect(errors.filter((p) => p === 'ipPool.name')).toHaveLength(1);
    });

    it('O-CREATE-POOL: a pool to append to that the caller did not pass is an error of the planner', () => {
      const plan = planCreatePool(existing(), {}, roomy);
      expect(plan.issues).toContainEqual(
        expect.objectContaining({
          rule: 'R-PLAN-NOT-FOUND',
          severity: 'error',
          path: 'ipPool.name',
        }),
      );
      expect(plan.steps.map((s) => s.kind)).toEqual(['MachineDeployment']);
    });
  });

  it('O-CREATE-POOL: plans are plain JSON', () => {
    const plan = planCreatePool(request(), {}, ctx);
    expect(JSON.parse(JSON.stringify(plan))).toEqual(plan);
    expect(applyJsonPatch(plan, [])).toEqual(plan);
  });
});
