import {
  CreatePoolRequestSchema,
  defaultBootstrapSpec,
  planCreatePool,
  planDeleteMachines,
  planScale,
  type Plan,
} from '@dcs/domain';
import { aMachine, aMachineDeployment, anIpEntry, aValidationContext } from '@dcs/domain/testing';
import { describe, expect, it } from 'vitest';
import { FakeKube } from '../../test/fakes/fake-kube';
import { dependentSteps, dryRunPlan, executePlan } from './executor';

const ctx = aValidationContext();
const templateSpec = {
  vmTemplateName: 'alauda-os-k8s-v1.33.4',
  vmConfig: {
    dcsMachineCpuSpec: { quantity: 4 },
    dcsMachineMemorySpec: { quantity: 8192 },
    dcsMachineDiskSpec: [
      { quantity: 0, datastoreClusterName: 'ds-1', systemVolume: true },
      { quantity: 100, datastoreClusterName: 'ds-1', path: '/var/lib/kubelet', format: 'xfs' },
      { quantity: 100, datastoreClusterName: 'ds-1', path: '/var/lib/containerd', format: 'xfs' },
    ],
  },
};

function createPoolPlan() {
  const req = CreatePoolRequestSchema.parse({
    name: 'demo-md-1',
    replicas: 3,
    version: 'v1.33.4',
    machineTemplate: { mode: 'new', name: 'demo-md-1-template', spec: templateSpec },
    bootstrap: {
      mode: 'new',
      name: 'demo-md-1-kct',
      spec: defaultBootstrapSpec({ version: 'v1.33.4', sshAuthorizedKeys: ['ssh-ed25519 AAAA k'] }),
    },
    ipPool: { mode: 'new', name: 'demo-md-1-ippool', entries: [4, 5, 6].map((n) => anIpEntry(n)) },
    strategy: { maxSurge: 0, maxUnavailable: 1 },
  });
  return planCreatePool(req, {}, ctx);
}

describe('executePlan', () => {
  it('O-CREATE-POOL: dry-runs every step before the first write, then creates in order', async () => {
    const kube = new FakeKube();
    const plan = createPoolPlan();
    const result = await executePlan(plan, kube);
    expect(result.ok).toBe(true);
    const firstWrite = kube.requests.findIndex((r) => !r.dryRun);
    expect(kube.requests.slice(0, firstWrite).every((r) => r.dryRun)).toBe(true);
    expect(firstWrite).toBe(plan.steps.length);
    expect(kube.writes().map((w) => w.path.split('/').slice(-1)[0])).toEqual([
      'dcsiphostnamepools',
      'dcsmachinetemplates',
      'kubeadmconfigtemplates',
      'machinedeployments',
    ]);
    // What was written is what the plan previewed.
    expect(kube.writes().map((w) => w.body)).toEqual(
      plan.steps.map((s) => (s.verb === 'create' ? s.body : undefined)),
    );
  });

  it('O-CREATE-POOL leaves nothing behind when a later step fails', async () => {
    const kube = new FakeKube();
    kube.failNext({
      method: 'POST',
      kind: 'MachineDeployment',
      status: 500,
      reason: 'InternalError',
      message: 'boom',
      dryRun: false,
    });
    const result = await executePlan(createPoolPlan(), kube);
    expect(result.ok).toBe(false);
    expect(result.failedStep).toBe(3);
    expect(result.rolledBack).toBe(true);
    expect(result.steps.map((s) => s.status)).toEqual(['undone', 'undone', 'undone', 'failed']);
    expect(kube.objects.size).toBe(0);
  });

  it('writes nothing when the server refuses a step in the dry run', async () => {
    const kube = new FakeKube();
    kube.failNext({
      method: 'POST',
      kind: 'MachineDeployment',
      status: 422,
      reason: 'Invalid',
      message: 'R-MD-2',
      dryRun: true,
    });
    const result = await executePlan(createPoolPlan(), kube);
    expect(result.ok).toBe(false);
    expect(result.error?.phase).toBe('dry-run');
    expect(kube.writes()).toHaveLength(0);
    // Issue 25: nothing ran, so nothing was rolled back.
    expect(result.untouched).toBe(true);
    expect(result.rolledBack).toBe(false);
    expect(result.steps.map((s) => s.status)).toEqual(['not-run', 'not-run', 'not-run', 'failed']);
  });

  it('a refused first write is untouched, not rolled back; a later failure is rolled back', async () => {
    const first = new FakeKube();
    first.failNext({
      method: 'POST',
      kind: 'DCSIpHostnamePool',
      status: 403,
      reason: 'Forbidden',
      message: 'exceeded quota',
      dryRun: false,
    });
    const refused = await executePlan(createPoolPlan(), first);
    expect(refused).toMatchObject({ ok: false, failedStep: 0, untouched: true, rolledBack: false });
    expect(first.objects.size).toBe(0);

    const later = new FakeKube();
    later.failNext({
      method: 'POST',
      kind: 'KubeadmConfigTemplate',
      status: 403,
      reason: 'Forbidden',
      message: 'exceeded quota',
      dryRun: false,
    });
    const undone = await executePlan(createPoolPlan(), later);
    expect(undone).toMatchObject({ ok: false, failedStep: 2, untouched: false, rolledBack: true });
  });

  it('O-SCALE-DOWN-TARGETED: a changed replica count is a conflict, and the marks are removed again', async () => {
    const kube = new FakeKube();
    const md = kube.put('MachineDeployment', aMachineDeployment());
    const m1 = kube.put('Machine', aMachine({ metadata: { name: 'm1' } }));
    const mdSeen = md.metadata.resourceVersion ?? '';
    const plan = planDeleteMachines(
      {
        deleteMachines: ['m1'],
        resourceVersion: mdSeen,
        machineResourceVersions: { m1: m1.metadata.resourceVersion ?? '' },
      },
      {
        machineDeployment: aMachineDeployment({ metadata: { resourceVersion: mdSeen } }),
        machines: [
          aMachine({ metadata: { name: 'm1', resourceVersion: m1.metadata.resourceVersion } }),
        ],
      },
      ctx,
    );
    expect(dependentSteps(plan.steps)).toEqual([false, false]);
    // Someone else scales the pool between our dry run and our write.
    kube.failNext({
      method: 'PATCH',
      kind: 'MachineDeployment',
      status: 409,
      reason: 'Conflict',
      message: 'the object has been modified',
      dryRun: false,
    });
    const result = await executePlan(plan, kube);
    expect(result.ok).toBe(false);
    expect(result.conflict).toBe(true);
    expect(result.steps.map((s) => s.status)).toEqual(['undone', 'failed']);
    const annotations =
      (
        kube.get('Machine', 'cpaas-system', 'm1')?.metadata as {
          annotations?: Record<string, string>;
        }
      ).annotations ?? {};
    expect(annotations['cluster.x-k8s.io/delete-machine']).toBeUndefined();
  });

  it('marks steps that touch an object written earlier as dependent (dry-run just before their write)', () => {
    const plan = createPoolPlan();
    expect(dependentSteps(plan.steps)).toEqual([false, false, false, false]);
    const twice = [...plan.steps, plan.steps[0]].filter((s) => s !== undefined);
    expect(dependentSteps(twice).at(-1)).toBe(true);
  });

  describe('a JSON patch refused with 422 (kube-apiserver’s answer to a failed `test` op)', () => {
    function scalePlan(kube: FakeKube) {
      const md = kube.put('MachineDeployment', aMachineDeployment());
      const seen = md.metadata.resourceVersion ?? '';
      return planScale(
        { replicas: 4, resourceVersion: seen },
        { machineDeployment: aMachineDeployment({ metadata: { resourceVersion: seen } }) },
        ctx,
      );
    }

    it('is a conflict when the object changed since the plan (its test ops no longer hold)', async () => {
      const kube = new FakeKube();
      const plan = scalePlan(kube);
      // Someone else changes the pool between the plan and the write.
      kube.put('MachineDeployment', aMachineDeployment({ metadata: { labels: { team: 'b' } } }));
      const result = await executePlan(plan, kube);
      expect(result.ok).toBe(false);
      expect(result.error).toMatchObject({ status: 422, phase: 'dry-run' });
      expect(result.conflict).toBe(true);
      expect(kube.writes()).toHaveLength(0);
    });

    it('is not a conflict when the patch still applies to the object (the server refused its content)', async () => {
      const kube = new FakeKube();
      const plan = scalePlan(kube);
      kube.failNext({
        method: 'PATCH',
        kind: 'MachineDeployment',
        status: 422,
        reason: 'Invalid',
        message: 'MachineDeployment.cluster.x-k8s.io "demo-md-0" is invalid: spec.replicas',
        dryRun: true,
      });
      const result = await executePlan(plan, kube);
      expect(result.ok).toBe(false);
      expect(result.conflict).toBe(false);
    });
  });
});

describe('dryRunPlan (what Preview shows, and Apply runs first)', () => {
  it('asks the server about every step with dryRun=All, in order, and writes nothing', async () => {
    const kube = new FakeKube();
    const plan = createPoolPlan();
    const verdict = await dryRunPlan(plan, kube);
    expect(verdict.ok).toBe(true);
    expect(verdict.steps.map((v) => [v.index, v.status, v.sequence])).toEqual(
      plan.steps.map((_s, i) => [i, 'accepted', 'in-order']),
    );
    expect(kube.requests.map((r) => r.dryRun)).toEqual(plan.steps.map(() => true));
    expect(kube.writes()).toHaveLength(0);
  });

  it('gives each refused step the server’s Status, its causes by rule and field, and goes on judging the others', async () => {
    const kube = new FakeKube();
    kube.failNext({
      method: 'POST',
      kind: 'DCSMachineTemplate',
      status: 422,
      reason: 'Invalid',
      message: 'DCSMachineTemplate "demo-md-1-template" is invalid',
      dryRun: true,
      causes: [
        {
          reason: 'FieldValueInvalid',
          field: 'spec.template.spec.vmConfig.dcsMachineCpuSpec.quantity',
          message: 'must be at least 1',
        },
      ],
    });
    kube.failNext({
      method: 'POST',
      kind: 'MachineDeployment',
      status: 422,
      reason: 'Invalid',
      message: 'admission webhook denied the request: R-MD-2: both 0',
      dryRun: true,
      causes: [{ reason: 'R-MD-2', field: 'spec.strategy', message: 'R-MD-2: both 0' }],
    });
    const verdict = await dryRunPlan(createPoolPlan(), kube);
    expect(verdict.ok).toBe(false);
    expect(verdict.steps.map((v) => v.status)).toEqual([
      'accepted',
      'refused',
      'accepted',
      'refused',
    ]);
    expect(verdict.steps[1]).toMatchObject({
      error: { status: 422, reason: 'Invalid' },
      issues: [
        {
          rule: 'R-API',
          path: 'spec.template.spec.vmConfig.dcsMachineCpuSpec.quantity',
          message: 'must be at least 1',
          severity: 'error',
        },
      ],
    });
    expect(verdict.steps[3]?.issues).toMatchObject([{ rule: 'R-MD-2', path: 'spec.strategy' }]);
    expect(kube.writes()).toHaveLength(0);
  });

  it('judges alone, and says so, a step on an object an earlier step writes; a refusal there is not final', async () => {
    const kube = new FakeKube();
    const base = createPoolPlan();
    const create = base.steps[1];
    if (create?.verb !== 'create') throw new Error('step 2 creates the machine template');
    // A create, then a patch of the very object it creates: a dry run cannot carry the create
    // over, so the patch is judged alone (404: the object does not exist yet).
    const plan: Plan = {
      ...base,
      steps: [
        create,
        {
          verb: 'patch',
          kind: create.kind,
          namespace: create.namespace,
          name: create.name,
          patch: { type: 'merge', doc: { metadata: { labels: { a: 'b' } } } },
          description: create.description,
        },
      ],
    };
    const verdict = await dryRunPlan(plan, kube);
    expect(verdict.ok).toBe(true);
    expect(verdict.steps[0]).toMatchObject({ status: 'accepted', sequence: 'in-order' });
    expect(verdict.steps[1]).toMatchObject({
      status: 'unjudged',
      sequence: 'alone',
      after: [0],
      error: { status: 404 },
      note: { messageKey: 'plan.verdict.notYetCreated', params: { step: 1 } },
    });
    // Apply writes the create, then judges the patch just before its own write.
    const result = await executePlan(plan, kube);
    expect(result.ok).toBe(true);
    expect(kube.writes().map((w) => w.method)).toEqual(['POST', 'PATCH']);
  });

  it('Apply refuses, before any write, exactly what Preview showed refused', async () => {
    const kube = new FakeKube();
    const refuse = () => {
      kube.failNext({
        method: 'POST',
        kind: 'KubeadmConfigTemplate',
        status: 403,
        reason: 'Forbidden',
        message: 'admission webhook denied the request',
        dryRun: true,
      });
    };
    const plan = createPoolPlan();
    refuse();
    const verdict = await dryRunPlan(plan, kube);
    refuse();
    const result = await executePlan(plan, kube);
    expect(result.ok).toBe(false);
    expect(result.failedStep).toBe(verdict.steps.findIndex((v) => v.status === 'refused'));
    expect(result.verdict).toEqual(verdict);
    expect(result.error).toMatchObject({ status: 403, phase: 'dry-run' });
    expect(kube.writes()).toHaveLength(0);
  });
});
