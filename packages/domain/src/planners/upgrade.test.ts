import { describe, expect, it } from 'vitest';
import type { UpgradeRequest } from '../requests';
import { KubeadmConfigTemplateSchema, type BootstrapFile } from '../schemas/bootstrap';
import type { DCSMachineSpec } from '../schemas/dcs';
import {
  aBootstrapTemplate,
  aKubeadmControlPlane,
  aMachineDeployment,
  aMachineTemplate,
  aValidationContext,
} from '../testing';
import { KUBELET_PATCH_PATH } from '../labels';
import { imagePullPolicyOf } from '../rules/bootstrap';
import { defaultBootstrapSpec, defaultKubeletPatch } from './bootstrap-defaults';
import { applyJsonPatch, type JsonPatchOp } from './json-patch';
import { applySteps } from './objects';
import { canExecute, type CreateStep, type PatchStep, type Plan } from './plan';
import {
  machineTemplateChanges,
  planUpdateBootstrap,
  planUpgrade,
  planUpgradeControlPlane,
  planUpgradeInfra,
  planUpgradeK8s,
} from './upgrade';

const ctx = aValidationContext();
const md = () => aMachineDeployment({ metadata: { resourceVersion: '10' } });
const template = () =>
  aMachineTemplate({
    metadata: {
      labels: { 'cluster.x-k8s.io/cluster-name': 'demo' },
      annotations: {
        'kubectl.kubernetes.io/last-applied-configuration': '{}',
        'example.com/owner': 'platform',
      },
      ownerReferences: [
        { apiVersion: 'cluster.x-k8s.io/v1beta1', kind: 'Cluster', name: 'demo', uid: 'u-1' },
      ],
      managedFields: [{ manager: 'kubectl' }],
    },
  });
const oldSpec = (): DCSMachineSpec => {
  const s = template().spec?.template.spec;
  if (!s) throw new Error('builder without spec');
  return s;
};
/** The form's edit: the spec without ipHostPoolRef, CPU raised to 8. */
const editedSpec = () => {
  const { ipHostPoolRef: _pool, ...spec } = oldSpec();
  return { ...spec, vmConfig: { ...spec.vmConfig, dcsMachineCpuSpec: { quantity: 8 } } };
};

const createdBody = (plan: Plan, i = 0) => (plan.steps[i] as CreateStep).body;
const ops = (plan: Plan, i: number): JsonPatchOp[] => {
  const s = plan.steps[i];
  return s?.verb === 'patch' && s.patch.type === 'json' ? s.patch.ops : [];
};

describe('planUpgradeInfra', () => {
  const req = (): Extract<UpgradeRequest, { operation: 'infrastructure' }> => ({
    operation: 'infrastructure',
    resourceVersion: '10',
    machineTemplate: { name: 'demo-md-0-template-r2', spec: editedSpec() },
  });

  it('O-UPGRADE-INFRA: creates a new machine template with the changes, then switches infrastructureRef.name (R-TPL-4)', () => {
    const plan = planUpgradeInfra(
      req(),
      { machineDeployment: md(), machineTemplate: template() },
      ctx,
    );
    expect(plan.operation).toBe('O-UPGRADE-INFRA');
    expect(plan.steps.map((s) => [s.verb, s.kind, s.name])).toEqual([
      ['create', 'DCSMachineTemplate', 'demo-md-0-template-r2'],
      ['patch', 'MachineDeployment', 'demo-md-0'],
    ]);
    expect(ops(plan, 1)).toEqual([
      { op: 'test', path: '/metadata/resourceVersion', value: '10' },
      {
        op: 'test',
        path: '/spec/template/spec/infrastructureRef/name',
        value: 'demo-md-0-template',
      },
      {
        op: 'replace',
        path: '/spec/template/spec/infrastructureRef/name',
        value: 'demo-md-0-template-r2',
      },
    ]);
    expect((plan.steps[1] as PatchStep).undo?.patch).toEqual({
      type: 'json',
      ops: [
        {
          op: 'test',
          path: '/spec/template/spec/infrastructureRef/name',
          value: 'demo-md-0-template-r2',
        },
        {
          op: 'replace',
          path: '/spec/template/spec/infrastructureRef/name',
          value: 'demo-md-0-template',
        },
      ],
    });
    expect((plan.steps[0] as CreateStep).undo).toMatchObject({
      verb: 'delete',
      name: 'demo-md-0-template-r2',
    });
    expect(plan.steps.map((s) => s.description.message)).toEqual([
      'Create machine template demo-md-0-template-r2 as a copy of demo-md-0-template with your changes',
      'Point demo-md-0 at machine template demo-md-0-template-r2 (was demo-md-0-template)',
    ]);
    expect(plan.issues.filter((i) => i.severity === 'error')).toEqual([]);
    expect(canExecute(plan)).toBe(true);
  });

  it('O-UPGRADE-INFRA: the copy keeps labels, annotations and the IP pool, never server-owned fields', () => {
    const plan = planUpgradeInfra(
      req(),
      { machineDeployment: md(), machineTemplate: template() },
      ctx,
    );
    expect(createdBody(plan)).toEqual({
      apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1',
      kind: 'DCSMachineTemplate',
      metadata: {
        name: 'demo-md-0-template-r2',
        namespace: 'cpaas-system',
        labels: { 'cluster.x-k8s.io/cluster-name': 'demo', 'dcs.io/node-pool': 'demo-md-0' },
        annotations: { 'example.com/owner': 'platform' },
      },
      spec: {
        template: { spec: { ...editedSpec(), ipHostPoolRef: { name: 'demo-worker-pool' } } },
      },
    });
  });

  it('O-UPGRADE-INFRA: the preview shows the new template against the one it copies', () => {
    const plan = planUpgradeInfra(
      req(),
      { machineDeployment: md(), machineTemplate: template() },
      ctx,
    );
    const diff = plan.diffs[0];
    expect(diff).toMatchObject({
      change: 'create',
      clonedFrom: 'demo-md-0-template',
      name: 'demo-md-0-template-r2',
    });
    expect(diff?.changes).toEqual([
      {
        path: '/metadata/name',
        change: 'replace',
        before: 'demo-md-0-template',
        after: 'demo-md-0-template-r2',
      },
      // The copy is labelled for the pool it is made for (issue 25: delete finds it later).
      { path: '/metadata/labels/dcs.io~1node-pool', change: 'add', after: 'demo-md-0' },
      {
        path: '/spec/template/spec/vmConfig/dcsMachineCpuSpec/quantity',
        change: 'replace',
        before: 4,
        after: 8,
      },
    ]);
    expect(plan.diffs[1]?.changes).toEqual([
      {
        path: '/spec/template/spec/infrastructureRef/name',
        change: 'replace',
        before: 'demo-md-0-template',
        after: 'demo-md-0-template-r2',
      },
    ]);
    expect(
      machineTemplateChanges(oldSpec(), {
        ...editedSpec(),
        ipHostPoolRef: { name: 'demo-worker-pool' },
      }),
    ).toEqual([
      { path: '/vmConfig/dcsMachineCpuSpec/quantity', change: 'replace', before: 4, after: 8 },
    ]);
  });

  it('O-UPGRADE-INFRA: replaces 3 machines, at most 1 at a time, persistent disks moving with them', () => {
    const plan = planUpgradeInfra(
      req(),
      { machineDeployment: md(), machineTemplate: template() },
      ctx,
    );
    expect(plan.effects.rollout).toEqual({ replaces: 3, atATime: 1 });
    expect(plan.effects.notes?.map((n) => n.messageKey)).toEqual([
      'plan.effect.persistentDisksMove',
    ]);
    expect(plan.effects.created).toEqual([
      { kind: 'DCSMachineTemplate', name: 'demo-md-0-template-r2' },
    ]);
  });

  it('O-UPGRADE-INFRA: works from the context when the template object is not given', () => {
    const plan = planUpgradeInfra(req(), { machineDeployment: md() }, ctx);
    expect(createdBody(plan)).toMatchObject({
      metadata: { name: 'demo-md-0-template-r2', namespace: 'cpaas-system' },
      spec: { template: { spec: { ipHostPoolRef: { name: 'demo-worker-pool' } } } },
    });
  });

  it('O-UPGRADE-INFRA: no switch to a template that could not be made', () => {
    const orphan = aMachineDeployment({
      metadata: { resourceVersion: '10' },
      spec: { template: { spec: { infrastructureRef: { name: 'gone-template' } } } },
    });
    const plan = planUpgradeInfra(req(), { machineDeployment: orphan }, ctx);
    expect(plan.steps).toEqual([]);
    expect(plan.issues).toContainEqual(
      expect.objectContaining({ rule: 'R-PLAN-NOT-FOUND', severity: 'error' }),
    );
  });

  it('O-UPGRADE-INFRA: the name of the new template must be free (R-TPL-4), and a stale pool is refused', () => {
    const taken = planUpgradeInfra(
      { ...req(), machineTemplate: { name: 'demo-md-0-template', spec: editedSpec() } },
      { machineDeployment: md(), machineTemplate: template() },
      ctx,
    );
    expect(
      taken.issues.some((i) => i.severity === 'error' && i.path === 'machineTemplate.name'),
    ).toBe(true);
    const stale = planUpgradeInfra(
      { ...req(), resourceVersion: '9' },
      { machineDeployment: md() },
      ctx,
    );
    expect(stale.issues).toContainEqual(
      expect.objectContaining({ rule: 'R-PLAN-STALE', severity: 'error' }),
    );
  });

  it('O-UPGRADE-INFRA: applied in order, the MachineDeployment names a template that exists', () => {
    const plan = planUpgradeInfra(
      req(),
      { machineDeployment: md(), machineTemplate: template() },
      ctx,
    );
    const after = applySteps([md(), template()], plan.steps);
    expect(after.map((o) => `${o.kind}/${o.metadata.name ?? ''}`).sort()).toEqual([
      'DCSMachineTemplate/demo-md-0-template',
      'DCSMachineTemplate/demo-md-0-template-r2',
      'MachineDeployment/demo-md-0',
    ]);
  });
});

describe('planUpdateBootstrap', () => {
  const spec = defaultBootstrapSpec({
    version: 'v1.33.4',
    sshAuthorizedKeys: ['ssh-ed25519 AAAA new'],
  });

  it('O-UPDATE-BOOTSTRAP: copies the bootstrap template with the edits, then switches configRef.name (R-BOOT-3)', () => {
    const plan = planUpdateBootstrap(
      {
        operation: 'bootstrap',
        resourceVersion: '10',
        bootstrap: { name: 'demo-md-0-kct-r2', spec },
      },
      { machineDeployment: md(), bootstrapTemplate: aBootstrapTemplate() },
      ctx,
    );
    expect(plan.operation).toBe('O-UPDATE-BOOTSTRAP');
    expect(plan.steps.map((s) => [s.verb, s.kind, s.name])).toEqual([
      ['create', 'KubeadmConfigTemplate', 'demo-md-0-kct-r2'],
      ['patch', 'MachineDeployment', 'demo-md-0'],
    ]);
    expect(createdBody(plan)).toEqual({
      apiVersion: 'bootstrap.cluster.x-k8s.io/v1beta1',
      kind: 'KubeadmConfigTemplate',
      metadata: {
        name: 'demo-md-0-kct-r2',
        namespace: 'cpaas-system',
        labels: { 'dcs.io/node-pool': 'demo-md-0' },
      },
      spec: { template: { spec } },
    });
    expect(ops(plan, 1)).toEqual([
      { op: 'test', path: '/metadata/resourceVersion', value: '10' },
      { op: 'test', path: '/spec/template/spec/bootstrap/configRef/name', value: 'demo-md-0-kct' },
      {
        op: 'replace',
        path: '/spec/template/spec/bootstrap/configRef/name',
        value: 'demo-md-0-kct-r2',
      },
    ]);
    expect(plan.effects.notes?.map((n) => n.messageKey)).toContain(
      'plan.effect.bootstrapNewMachinesOnly',
    );
    expect(plan.effects.rollout).toEqual({ replaces: 3, atATime: 1 });
    expect(plan.diffs[0]?.clonedFrom).toBe('demo-md-0-kct');
  });
});

describe('planUpgradeK8s', () => {
  const req = (
    o: Partial<Extract<UpgradeRequest, { operation: 'kubernetes' }>> = {},
  ): Extract<UpgradeRequest, { operation: 'kubernetes' }> => ({
    operation: 'kubernetes',
    resourceVersion: '10',
    version: '1.34.1',
    machineTemplate: { name: 'demo-md-0-template-v1-34-1', spec: editedSpec() },
    ...o,
  });
  const cp134 = aValidationContext({ controlPlaneVersion: 'v1.34.1' });

  it('O-UPGRADE-K8S: a machine template on the catalog’s VM template, and ONE patch of template and version', () => {
    const plan = planUpgradeK8s(
      req(),
      { machineDeployment: md(), machineTemplate: template() },
      cp134,
    );
    expect(plan.operation).toBe('O-UPGRADE-K8S');
    expect(plan.steps.map((s) => [s.verb, s.kind, s.name])).toEqual([
      ['create', 'DCSMachineTemplate', 'demo-md-0-template-v1-34-1'],
      ['patch', 'MachineDeployment', 'demo-md-0'],
    ]);
    expect(createdBody(plan)).toMatchObject({
      spec: {
        template: {
          spec: {
            vmTemplateName: 'alauda-os-k8s-v1.34.1',
            vmConfig: { dcsMachineCpuSpec: { quantity: 8 } },
          },
        },
      },
    });
    expect(ops(plan, 1)).toEqual([
      { op: 'test', path: '/metadata/resourceVersion', value: '10' },
      {
        op: 'test',
        path: '/spec/template/spec/infrastructureRef/name',
        value: 'demo-md-0-template',
      },
      {
        op: 'replace',
        path: '/spec/template/spec/infrastructureRef/name',
        value: 'demo-md-0-template-v1-34-1',
      },
      { op: 'test', path: '/spec/template/spec/version', value: 'v1.33.4' },
      { op: 'replace', path: '/spec/template/spec/version', value: 'v1.34.1' },
    ]);
    expect(plan.steps[1]?.description.message).toBe(
      'Upgrade demo-md-0 from v1.33.4 to v1.34.1: machine template demo-md-0-template-v1-34-1, in one change',
    );
    // R-MD-4: the request kept the old VM template; the plan takes the catalog's and says so.
    expect(plan.effects.notes?.map((n) => n.messageKey)).toContain(
      'plan.effect.vmTemplateFromCatalog',
    );
    expect(plan.issues.filter((i) => i.severity === 'error')).toEqual([]);
  });

  it('R-BOOT-1: O-UPGRADE-K8S to 1.35 with a new bootstrap template switches all three in the same patch', () => {
    const cp135 = aValidationContext({ controlPlaneVersion: 'v1.35.0' });
    const bootstrap = {
      name: 'demo-md-0-kct-v1-35',
      spec: defaultBootstrapSpec({ version: 'v1.35.0', sshAuthorizedKeys: ['ssh-ed25519 AAAA k'] }),
    };
    const plan = planUpgradeK8s(
      req({
        version: 'v1.35.0',
        machineTemplate: { name: 'demo-md-0-template-v1-35', spec: editedSpec() },
        bootstrap,
      }),
      {
        machineDeployment: md(),
        machineTemplate: template(),
        bootstrapTemplate: aBootstrapTemplate(),
      },
      cp135,
    );
    expect(plan.steps.map((s) => [s.verb, s.kind, s.name])).toEqual([
      ['create', 'DCSMachineTemplate', 'demo-md-0-template-v1-35'],
      ['create', 'KubeadmConfigTemplate', 'demo-md-0-kct-v1-35'],
      ['patch', 'MachineDeployment', 'demo-md-0'],
    ]);
    expect(ops(plan, 2).map((o) => `${o.op} ${o.path}`)).toEqual([
      'test /metadata/resourceVersion',
      'test /spec/template/spec/infrastructureRef/name',
      'replace /spec/template/spec/infrastructureRef/name',
      'test /spec/template/spec/version',
      'replace /spec/template/spec/version',
      'test /spec/template/spec/bootstrap/configRef/name',
      'replace /spec/template/spec/bootstrap/configRef/name',
    ]);
    expect(plan.steps[2]?.description.message).toBe(
      'Upgrade demo-md-0 from v1.33.4 to v1.35.0: machine template demo-md-0-template-v1-35 and bootstrap template demo-md-0-kct-v1-35, in one change',
    );
    const kct = KubeadmConfigTemplateSchema.parse(createdBody(plan, 1));
    expect(kct.spec?.template.spec?.files?.[0]?.content).toContain(
      '"imagePullCredentialsVerificationPolicy": "NeverVerify"',
    );
    expect(plan.issues.filter((i) => i.severity === 'error')).toEqual([]);
  });

  it('R-BOOT-1: O-UPGRADE-K8S to 1.35 keeping a bootstrap template without the policy is refused by the rules', () => {
    const cp135 = aValidationContext({ controlPlaneVersion: 'v1.35.0' });
    const plan = planUpgradeK8s(
      req({ version: 'v1.35.0' }),
      { machineDeployment: md(), machineTemplate: template() },
      cp135,
    );
    expect(plan.issues.some((i) => i.rule === 'R-BOOT-1' && i.severity === 'error')).toBe(true);
  });
});

describe('planUpgradeControlPlane', () => {
  const cpTemplate = () =>
    aMachineTemplate({
      metadata: { name: 'demo-control-plane-template', resourceVersion: '3' },
      spec: { template: { spec: { ipHostPoolRef: { name: 'demo-cp-pool' } } } },
    });
  const req = (): Extract<UpgradeRequest, { operation: 'control-plane' }> => {
    const { ipHostPoolRef: _p, ...spec } = cpTemplate().spec?.template.spec ?? oldSpec();
    return {
      operation: 'control-plane',
      resourceVersion: '1',
      version: 'v1.34.1',
      machineTemplate: { name: 'demo-control-plane-template-v1-34-1', spec },
    };
  };

  it('O-UPGRADE-CP: a new machine template, then version and infrastructureRef of the KubeadmControlPlane in one patch', () => {
    const plan = planUpgradeControlPlane(
      req(),
      { kubeadmControlPlane: aKubeadmControlPlane(), machineTemplate: cpTemplate() },
      ctx,
    );
    expect(plan.operation).toBe('O-UPGRADE-CP');
    expect(plan.target).toEqual({ kind: 'KubeadmControlPlane', name: 'demo-control-plane' });
    expect(plan.steps.map((s) => [s.verb, s.kind, s.name])).toEqual([
      ['create', 'DCSMachineTemplate', 'demo-control-plane-template-v1-34-1'],
      ['patch', 'KubeadmControlPlane', 'demo-control-plane'],
    ]);
    expect(createdBody(plan)).toMatchObject({
      spec: {
        template: {
          spec: {
            vmTemplateName: 'alauda-os-k8s-v1.34.1',
            ipHostPoolRef: { name: 'demo-cp-pool' },
          },
        },
      },
    });
    expect(ops(plan, 1)).toEqual([
      { op: 'test', path: '/metadata/resourceVersion', value: '1' },
      { op: 'test', path: '/spec/version', value: 'v1.33.4' },
      { op: 'replace', path: '/spec/version', value: 'v1.34.1' },
      {
        op: 'test',
        path: '/spec/machineTemplate/infrastructureRef/name',
        value: 'demo-control-plane-template',
      },
      {
        op: 'replace',
        path: '/spec/machineTemplate/infrastructureRef/name',
        value: 'demo-control-plane-template-v1-34-1',
      },
    ]);
    expect(plan.effects.rollout).toEqual({ replaces: 3, atATime: 1 });
    expect(plan.effects.notes?.map((n) => n.message)).toEqual([
      'The new machine template uses VM template alauda-os-k8s-v1.34.1, which carries Kubernetes v1.34.1 in the versions catalog (R-MD-4), instead of alauda-os-k8s-v1.33.4',
      'Worker pools may follow once the control plane runs v1.34.1 (R-MD-4)',
    ]);
    expect(plan.kubectl[1]).toMatch(
      /^kubectl patch kubeadmcontrolplane demo-control-plane -n cpaas-system --type json -p '\[/,
    );
    expect(plan.issues.filter((i) => i.severity === 'error')).toEqual([]);
  });

  /** A control plane at v1.34.1 whose kubeadm config carries a 1.34 kubelet patch inline. */
  const kcp134 = (
    files: BootstrapFile[] = [
      { path: KUBELET_PATCH_PATH, content: defaultKubeletPatch('v1.34.1') },
    ],
  ) =>
    aKubeadmControlPlane({
      spec: {
        version: 'v1.34.1',
        kubeadmConfigSpec: {
          format: 'ignition',
          files,
          joinConfiguration: { patches: { directory: '/etc/kubernetes/patches' } },
        },
      },
    });
  const to135 = () => ({
    ...req(),
    version: 'v1.35.0',
    machineTemplate: { ...req().machineTemplate, name: 'demo-control-plane-template-v1-35-0' },
  });
  const kubeletPatchOf = (plan: Plan, kcp: ReturnType<typeof kcp134>) => {
    const after = applyJsonPatch(kcp, ops(plan, 1));
    return after.spec?.kubeadmConfigSpec?.files?.find((f) => f.path === KUBELET_PATCH_PATH);
  };

  it('R-BOOT-1, O-UPGRADE-CP: an upgrade to 1.35 sets NeverVerify in the control plane’s kubelet patch, keeping its other settings', () => {
    const kcp = kcp134();
    const plan = planUpgradeControlPlane(
      to135(),
      { kubeadmControlPlane: kcp, machineTemplate: cpTemplate() },
      ctx,
    );
    const patch = kubeletPatchOf(plan, kcp);
    expect(imagePullPolicyOf(patch?.content ?? '')).toBe('NeverVerify');
    expect(JSON.parse(patch?.content ?? '{}')).toMatchObject({ protectKernelDefaults: true });
    expect(plan.effects.notes?.map((n) => n.messageKey)).toContain(
      'plan.effect.controlPlaneKubeletPatch',
    );
    expect(plan.issues.filter((i) => i.severity === 'error')).toEqual([]);
  });

  it('R-BOOT-1, O-UPGRADE-CP: a control plane without a kubelet patch gets one, with the patches directory', () => {
    const kcp = kcp134([]);
    const plan = planUpgradeControlPlane(
      to135(),
      { kubeadmControlPlane: kcp, machineTemplate: cpTemplate() },
      ctx,
    );
    const after = applyJsonPatch(kcp, ops(plan, 1));
    expect(imagePullPolicyOf(kubeletPatchOf(plan, kcp)?.content ?? '')).toBe('NeverVerify');
    expect(after.spec?.kubeadmConfigSpec?.joinConfiguration?.patches?.directory).toBe(
      '/etc/kubernetes/patches',
    );
    expect(plan.issues.filter((i) => i.severity === 'error')).toEqual([]);
  });

  it('R-BOOT-1, O-UPGRADE-CP: a control plane whose kubelet patch file kubeadm is not pointed at (as the demo data’s) gets the patches directory too', () => {
    const kcp = kcp134();
    delete kcp.spec?.kubeadmConfigSpec?.joinConfiguration;
    const plan = planUpgradeControlPlane(
      to135(),
      { kubeadmControlPlane: kcp, machineTemplate: cpTemplate() },
      ctx,
    );
    expect(plan.issues.filter((i) => i.severity === 'error')).toEqual([]);
    const after = applyJsonPatch(kcp, ops(plan, 1));
    expect(after.spec?.kubeadmConfigSpec?.joinConfiguration?.patches?.directory).toBe(
      '/etc/kubernetes/patches',
    );
    expect(imagePullPolicyOf(kubeletPatchOf(plan, kcp)?.content ?? '')).toBe('NeverVerify');
  });

  it('R-BOOT-1, O-UPGRADE-CP: a patch in a Secret the catalog does not name for 1.35 is not written blind: the rule says so', () => {
    const kcp = kcp134([
      {
        path: KUBELET_PATCH_PATH,
        contentFrom: { secret: { name: 'cp-files-1.34', key: 'kubelet-patch.json' } },
      },
    ]);
    const plan = planUpgradeControlPlane(
      to135(),
      { kubeadmControlPlane: kcp, machineTemplate: cpTemplate() },
      aValidationContext({
        bootstrapSecrets: [
          { name: 'cp-files-1.34', data: { 'kubelet-patch.json': defaultKubeletPatch('v1.34.1') } },
        ],
      }),
    );
    expect(plan.issues).toContainEqual(
      expect.objectContaining({ rule: 'R-BOOT-1', severity: 'error', path: 'version' }),
    );
  });

  it('R-BOOT-1, O-UPGRADE-CP: below 1.35 an unpatched control plane is left as it is', () => {
    const plan = planUpgradeControlPlane(
      req(),
      { kubeadmControlPlane: aKubeadmControlPlane(), machineTemplate: cpTemplate() },
      ctx,
    );
    expect(ops(plan, 1).some((o) => o.path.startsWith('/spec/kubeadmConfigSpec'))).toBe(false);
  });

  it('planUpgrade picks the planner of the operation', () => {
    const current = {
      machineDeployment: md(),
      kubeadmControlPlane: aKubeadmControlPlane(),
      machineTemplate: template(),
    };
    expect(planUpgrade(req(), { ...current, machineTemplate: cpTemplate() }, ctx).operation).toBe(
      'O-UPGRADE-CP',
    );
    expect(
      planUpgrade(
        {
          operation: 'infrastructure',
          resourceVersion: '10',
          machineTemplate: { name: 'x-r2', spec: editedSpec() },
        },
        current,
        ctx,
      ).operation,
    ).toBe('O-UPGRADE-INFRA');
  });
});
