import { describe, expect, it } from 'vitest';
import type {
  CreatePoolRequest,
  MachineTemplateSpecInput,
  PatchIpPoolRequest,
  UpgradeRequest,
} from '../requests';
import type { KubeadmConfigSpec } from '../schemas/bootstrap';
import {
  KUBELET_PATCH_1_35,
  aBootstrapTemplate,
  aMachineTemplate,
  aValidationContext,
  anIpEntry,
} from '../testing';
import type { IpPoolContext, ValidationContext } from './context';
import { expectIssues } from './test-support';
import {
  validateCreateIpPool,
  validateCreatePool,
  validateDeleteMachines,
  validatePatchIpPool,
  validateScale,
  validateUpgrade,
  type UpgradePool,
} from './validators';

const ctx = aValidationContext();
const { ipHostPoolRef: _ref, ...templateSpec } = aMachineTemplate().spec?.template.spec ?? {
  vmTemplateName: '',
  ipHostPoolRef: { name: '' },
};
const bootstrapSpec: KubeadmConfigSpec = aBootstrapTemplate().spec?.template.spec ?? {};
const withVmTemplate = (vmTemplateName: string): MachineTemplateSpecInput => ({
  ...templateSpec,
  vmTemplateName,
});

/** A valid O-CREATE-POOL request in the default context: demo-md-1 on a new 3-entry IP pool. */
function aCreatePoolRequest(o: Partial<CreatePoolRequest> = {}): CreatePoolRequest {
  return {
    name: 'demo-md-1',
    replicas: 3,
    version: 'v1.33.4',
    machineTemplate: { mode: 'new', name: 'demo-md-1-template', spec: templateSpec },
    bootstrap: { mode: 'new', name: 'demo-md-1-kct', spec: bootstrapSpec },
    ipPool: { mode: 'new', name: 'demo-md-1-pool', entries: [11, 12, 13].map((n) => anIpEntry(n)) },
    strategy: { maxSurge: 0, maxUnavailable: 1 },
    ...o,
  };
}

describe('validateCreatePool (O-CREATE-POOL)', () => {
  const cases: {
    name: string;
    req: CreatePoolRequest;
    c?: ValidationContext;
    expected: string[];
  }[] = [
    {
      name: 'R-MD-5: accepts a new pool with its own IP pool, templates and bootstrap',
      req: aCreatePoolRequest(),
      expected: [],
    },
    {
      name: 'R-MD-5: rejects names already taken in the namespace',
      req: aCreatePoolRequest({
        name: 'demo-md-0',
        machineTemplate: { mode: 'new', name: 'demo-md-0-template', spec: templateSpec },
        bootstrap: { mode: 'new', name: 'demo-md-0-kct', spec: bootstrapSpec },
        ipPool: {
          mode: 'new',
          name: 'demo-worker-pool',
          entries: [11, 12, 13].map((n) => anIpEntry(n)),
        },
      }),
      expected: [
        'error R-MD-5 name name.inUse',
        'error R-MD-5 ipPool.name name.inUse',
        'error R-MD-5 machineTemplate.name name.inUse',
        'error R-MD-5 bootstrap.name name.inUse',
      ],
    },
    {
      name: 'R-MD-1: rejects more replicas than the new pool has entries',
      req: aCreatePoolRequest({ replicas: 4 }),
      expected: ['error R-MD-1 replicas md.replicasExceedPool'],
    },
    {
      name: 'R-MD-1: rejects any replica on an existing pool whose entries are all used',
      req: aCreatePoolRequest({
        machineTemplate: { mode: 'existing', name: 'demo-md-0-template' },
        ipPool: { mode: 'existing', name: 'demo-worker-pool', resourceVersion: '1', append: [] },
      }),
      expected: ['error R-MD-1 replicas md.replicasExceedPool'],
    },
    {
      name: 'R-POOL-1: accepts an existing pool extended in the same operation',
      req: aCreatePoolRequest({
        machineTemplate: { mode: 'existing', name: 'demo-md-0-template' },
        ipPool: {
          mode: 'existing',
          name: 'demo-worker-pool',
          resourceVersion: '1',
          append: [4, 5, 6].map((n) => anIpEntry(n)),
        },
      }),
      expected: [],
    },
    {
      name: 'R-POOL-1: rejects an existing template that takes addresses from another pool',
      req: aCreatePoolRequest({
        machineTemplate: { mode: 'existing', name: 'demo-md-0-template' },
      }),
      expected: ['error R-POOL-1 ipPool.name pool.templateUsesOtherPool'],
    },
    {
      name: 'R-POOL-2: rejects appended entries that collide with the pool',
      req: aCreatePoolRequest({
        machineTemplate: { mode: 'existing', name: 'demo-md-0-template' },
        ipPool: {
          mode: 'existing',
          name: 'demo-worker-pool',
          resourceVersion: '1',
          append: [anIpEntry(3), anIpEntry(4), anIpEntry(5)],
        },
      }),
      expected: [
        'error R-POOL-2 ipPool.append.0.ip pool.duplicateOfExisting',
        'error R-POOL-2 ipPool.append.0.hostname pool.duplicateOfExisting',
        'error R-POOL-2 ipPool.append.0.machineName pool.duplicateOfExisting',
      ],
    },
    {
      name: 'R-MD-3: rejects maxSurge 1 on a pool with persistent disks (and R-POOL-1 warns of the surge)',
      req: aCreatePoolRequest({ strategy: { maxSurge: 1, maxUnavailable: 0 } }),
      expected: [
        'warning R-POOL-1 strategy.maxSurge pool.surgeExceedsEntries',
        'error R-MD-3 strategy.maxSurge md.maxSurgeWithDisks',
      ],
    },
    {
      name: 'R-MD-2: rejects maxSurge 0 with maxUnavailable 0',
      req: aCreatePoolRequest({ strategy: { maxSurge: 0, maxUnavailable: 0 } }),
      expected: ['error R-MD-2 strategy.maxUnavailable md.bothZero'],
    },
    {
      name: 'R-MD-2: rejects a bare numeric string',
      req: aCreatePoolRequest({ strategy: { maxSurge: 0, maxUnavailable: '1' } }),
      expected: ['error R-MD-2 strategy.maxUnavailable md.intOrPercent.notPercent'],
    },
    {
      name: 'R-MD-2: accepts "0%" and "0%"',
      req: aCreatePoolRequest({ strategy: { maxSurge: '0%', maxUnavailable: '0%' } }),
      expected: [],
    },
    {
      name: 'R-MD-4: rejects a version newer than the control plane whose VM template does not match',
      req: aCreatePoolRequest({ version: 'v1.35.0' }),
      expected: [
        'error R-MD-4 version md.newerThanControlPlane',
        'error R-MD-4 machineTemplate.spec.vmTemplateName md.vmTemplateCarriesOther',
        'error R-BOOT-1 bootstrap.spec.files.0.content boot.neverVerifyMissing',
      ],
    },
    {
      name: 'R-BOOT-1: accepts 1.35 with the VM template and kubelet patch of 1.35',
      req: aCreatePoolRequest({
        version: 'v1.35.0',
        machineTemplate: {
          mode: 'new',
          name: 'demo-md-1-template',
          spec: withVmTemplate('alauda-os-k8s-v1.35.0'),
        },
        bootstrap: {
          mode: 'new',
          name: 'demo-md-1-kct',
          spec: {
            ...bootstrapSpec,
            files: bootstrapSpec.files?.map((f) => ({ ...f, content: KUBELET_PATCH_1_35 })),
          },
        },
      }),
      c: aValidationContext({ controlPlaneVersion: 'v1.35.0' }),
      expected: [],
    },
    {
      name: 'R-BOOT-1: checks an existing bootstrap template against the version, at the field that chose it',
      req: aCreatePoolRequest({
        version: 'v1.35.0',
        machineTemplate: {
          mode: 'new',
          name: 'demo-md-1-template',
          spec: withVmTemplate('alauda-os-k8s-v1.35.0'),
        },
        bootstrap: { mode: 'existing', name: 'demo-md-0-kct' },
      }),
      c: aValidationContext({ controlPlaneVersion: 'v1.35.0' }),
      expected: ['error R-BOOT-1 bootstrap.name boot.neverVerifyMissing'],
    },
    {
      name: 'R-DISK-5: rejects new entries without /var/cpaas when the template does not mount it',
      req: aCreatePoolRequest({
        ipPool: {
          mode: 'new',
          name: 'demo-md-1-pool',
          entries: [11, 12, 13].map((n) => anIpEntry(n, { persistentDisk: [] })),
        },
      }),
      expected: [
        'error R-DISK-5 ipPool.entries.0.persistentDisk disk.cpaasMissing',
        'error R-DISK-5 ipPool.entries.1.persistentDisk disk.cpaasMissing',
        'error R-DISK-5 ipPool.entries.2.persistentDisk disk.cpaasMissing',
      ],
    },
    {
      name: 'R-VER-2: rejects pool persistent disks with provider 1.0.15, and requires /var/cpaas in the template (R-TPL-2)',
      req: aCreatePoolRequest({
        ipPool: { mode: 'new', name: 'demo-md-1-pool', entries: [anIpEntry(11)] },
        replicas: 1,
      }),
      c: aValidationContext({ providerVersion: '1.0.15' }),
      expected: [
        'error R-VER-2 ipPool.entries.0.persistentDisk version.persistentDisksUnsupported',
        'error R-TPL-2 machineTemplate.spec.vmConfig.dcsMachineDiskSpec tpl.cpaasRequiredInTemplate',
      ],
    },
    {
      name: 'R-VER-1: rejects the web workflow below provider 1.0.13',
      req: aCreatePoolRequest({
        ipPool: {
          mode: 'new',
          name: 'demo-md-1-pool',
          entries: [11, 12, 13].map((n) => anIpEntry(n, { persistentDisk: [] })),
        },
      }),
      c: aValidationContext({ providerVersion: '1.0.12' }),
      expected: [
        'error R-VER-1  version.webWorkflowUnsupported',
        'error R-TPL-2 machineTemplate.spec.vmConfig.dcsMachineDiskSpec tpl.cpaasRequiredInTemplate',
      ],
    },
    {
      name: 'R-MD-5: rejects existing templates and pools that are not there',
      req: aCreatePoolRequest({
        machineTemplate: { mode: 'existing', name: 'nope-template' },
        bootstrap: { mode: 'existing', name: 'nope-kct' },
        ipPool: { mode: 'existing', name: 'nope-pool', resourceVersion: '1', append: [] },
      }),
      expected: [
        'error R-MD-5 ipPool.name name.notFound',
        'error R-MD-5 machineTemplate.name name.notFound',
        'error R-MD-5 bootstrap.name name.notFound',
      ],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      expectIssues(validateCreatePool(c.req, c.c ?? ctx), c.expected);
    });
  }
});

describe('validateScale (O-SCALE-UP, O-SCALE-DOWN-RANDOM)', () => {
  const md = {
    name: 'demo-md-0',
    replicas: 3,
    ipPoolName: 'demo-worker-pool',
    maxSurge: 0,
    machineTemplateName: 'demo-md-0-template',
  };
  const append = (...ns: number[]) => ({
    name: 'demo-worker-pool',
    resourceVersion: '1',
    entries: ns.map((n) => anIpEntry(n)),
  });
  const cases: { name: string; run: () => ReturnType<typeof validateScale>; expected: string[] }[] =
    [
      {
        name: 'R-MD-1: rejects scaling up a pool with no free entry',
        run: () => validateScale({ replicas: 4, resourceVersion: '1' }, md, ctx),
        expected: ['error R-MD-1 replicas md.replicasExceedPool'],
      },
      {
        name: 'R-POOL-1: accepts scaling up with the pool extended first',
        run: () =>
          validateScale({ replicas: 5, resourceVersion: '1', ipPoolAppend: append(4, 5) }, md, ctx),
        expected: [],
      },
      {
        name: 'R-MD-1: never blocks scaling down',
        run: () =>
          validateScale(
            { replicas: 1, resourceVersion: '1' },
            md,
            aValidationContext({ ipPools: [] }),
          ),
        expected: [],
      },
      {
        name: 'R-POOL-1: rejects entries appended to a pool the deployment does not use',
        run: () =>
          validateScale(
            {
              replicas: 3,
              resourceVersion: '1',
              ipPoolAppend: { ...append(4), name: 'other-pool' },
            },
            md,
            ctx,
          ),
        expected: ['error R-POOL-1 ipPoolAppend.name pool.appendToOtherPool'],
      },
      {
        name: 'R-POOL-1: warns when the pool cannot be found to check',
        run: () =>
          validateScale({ replicas: 4, resourceVersion: '1' }, { ...md, ipPoolName: 'gone' }, ctx),
        expected: ['warning R-POOL-1 replicas pool.capacityUnknown'],
      },
      {
        name: 'R-DISK-5: rejects an appended entry without /var/cpaas when the pool carries it',
        run: () =>
          validateScale(
            {
              replicas: 4,
              resourceVersion: '1',
              ipPoolAppend: { ...append(), entries: [anIpEntry(4, { persistentDisk: [] })] },
            },
            md,
            ctx,
          ),
        expected: ['error R-DISK-5 ipPoolAppend.entries.0.persistentDisk disk.cpaasMissing'],
      },
      {
        name: 'R-POOL-3: checks appended entries',
        run: () =>
          validateScale(
            {
              replicas: 4,
              resourceVersion: '1',
              ipPoolAppend: { ...append(), entries: [anIpEntry(4, { mask: '255.255.255.0' })] },
            },
            md,
            ctx,
          ),
        expected: ['error R-POOL-3 ipPoolAppend.entries.0.mask pool.maskDottedOnNewEntry'],
      },
    ];
  for (const c of cases) {
    it(c.name, () => {
      expectIssues(c.run(), c.expected);
    });
  }
});

describe('validateDeleteMachines (O-SCALE-DOWN-TARGETED)', () => {
  const pool = {
    name: 'demo-md-0',
    replicas: 3,
    machines: ['m1', 'm2', 'm3'].map((name) => ({ name, deleting: false })),
    rolloutInProgress: false,
  };
  it('R-MD-6: accepts the selected machines of a steady pool', () => {
    expectIssues(
      validateDeleteMachines(
        { deleteMachines: ['m2'], resourceVersion: '1', machineResourceVersions: { m2: '7' } },
        pool,
        ctx,
      ),
      [],
    );
  });
  it('R-MD-6: rejects during a rolling update and without the machine’s resourceVersion', () => {
    expectIssues(
      validateDeleteMachines(
        { deleteMachines: ['m2'], resourceVersion: '1', machineResourceVersions: {} },
        { ...pool, rolloutInProgress: true },
        ctx,
      ),
      [
        'error R-MD-6 deleteMachines md.deleteDuringRollout',
        'error R-MD-6 machineResourceVersions md.deleteResourceVersionMissing',
      ],
    );
  });
});

describe('validateUpgrade (O-UPGRADE-INFRA, O-UPGRADE-K8S, O-UPDATE-BOOTSTRAP, O-UPGRADE-CP)', () => {
  const worker: UpgradePool = {
    name: 'demo-md-0',
    version: 'v1.33.4',
    machineTemplateName: 'demo-md-0-template',
    bootstrapTemplateName: 'demo-md-0-kct',
    ipPoolName: 'demo-worker-pool',
    replicas: 3,
    maxSurge: 0,
    maxUnavailable: 1,
  };
  const controlPlane: UpgradePool = {
    ...worker,
    name: 'control-plane',
    machineTemplateName: 'demo-control-plane-template',
    bootstrapTemplateName: undefined,
    ipPoolName: undefined,
    maxSurge: undefined,
  };
  const bigger = {
    ...templateSpec,
    vmConfig: { ...templateSpec.vmConfig, dcsMachineCpuSpec: { quantity: 8 } },
  };
  const infra = (name: string, spec: MachineTemplateSpecInput): UpgradeRequest => ({
    operation: 'infrastructure',
    resourceVersion: '1',
    machineTemplate: { name, spec },
  });
  const k8s = (version: string, vm: string, bootstrap?: KubeadmConfigSpec): UpgradeRequest => ({
    operation: 'kubernetes',
    resourceVersion: '1',
    version,
    machineTemplate: { name: `demo-md-0-template-${version}`, spec: withVmTemplate(vm) },
    ...(bootstrap ? { bootstrap: { name: `demo-md-0-kct-${version}`, spec: bootstrap } } : {}),
  });
  const patch135 = {
    ...bootstrapSpec,
    files: bootstrapSpec.files?.map((f) => ({ ...f, content: KUBELET_PATCH_1_35 })),
  };
  const cp = (v: string) => aValidationContext({ controlPlaneVersion: v });
  const cases: {
    name: string;
    req: UpgradeRequest;
    pool?: UpgradePool;
    c?: ValidationContext;
    expected: string[];
  }[] = [
    {
      name: 'R-TPL-4: accepts a new template under a new name',
      req: infra('demo-md-0-template-2', bigger),
      expected: [],
    },
    {
      name: 'R-TPL-4: rejects a new template under a taken name',
      req: infra('demo-md-0-template', bigger),
      expected: ['error R-TPL-4 machineTemplate.name tpl.nameInUse'],
    },
    {
      name: 'R-TPL-4: warns that an identical template rolls for nothing',
      req: infra('demo-md-0-template-2', templateSpec),
      expected: ['warning R-TPL-4 machineTemplate.spec tpl.unchanged'],
    },
    {
      name: 'R-MD-4: rejects an infrastructure upgrade to a VM template of another version',
      req: infra('demo-md-0-template-2', withVmTemplate('alauda-os-k8s-v1.34.1')),
      expected: ['error R-MD-4 machineTemplate.spec.vmTemplateName md.vmTemplateCarriesOther'],
    },
    {
      name: 'R-DISK-5: rejects a template that stops mounting /var/cpaas while the pool entries lack it',
      req: infra('demo-md-0-template-2', bigger),
      c: aValidationContext({
        ipPools: ctx.ipPools.map((p): IpPoolContext => ({
          ...p,
          entries: p.entries.map((e) => ({ ...e, persistentDisk: [] })),
        })),
      }),
      expected: [
        'error R-DISK-5 machineTemplate.spec.vmConfig.dcsMachineDiskSpec disk.cpaasMissing',
        'error R-DISK-5 machineTemplate.spec.vmConfig.dcsMachineDiskSpec disk.cpaasMissing',
        'error R-DISK-5 machineTemplate.spec.vmConfig.dcsMachineDiskSpec disk.cpaasMissing',
      ],
    },
    {
      name: 'R-MD-3: warns before a rollout that would surge on a pool with persistent disks (R-POOL-1 too)',
      req: infra('demo-md-0-template-2', bigger),
      pool: { ...worker, maxSurge: 1 },
      expected: [
        'warning R-MD-3  md.rolloutSurgeWithDisks',
        'warning R-POOL-1  pool.surgeExceedsEntries',
      ],
    },
    {
      name: 'R-MD-4: accepts workers following the control plane to 1.34',
      req: k8s('v1.34.1', 'alauda-os-k8s-v1.34.1'),
      c: cp('v1.34.1'),
      expected: [],
    },
    {
      name: 'R-MD-4: rejects workers newer than the control plane',
      req: k8s('v1.34.1', 'alauda-os-k8s-v1.34.1'),
      expected: ['error R-MD-4 version md.newerThanControlPlane'],
    },
    {
      name: 'R-BOOT-1: rejects 1.35 with the pool’s bootstrap template that lacks NeverVerify',
      req: k8s('v1.35.0', 'alauda-os-k8s-v1.35.0'),
      c: cp('v1.35.0'),
      expected: ['error R-BOOT-1 bootstrap boot.currentTemplateIncompatible'],
    },
    {
      name: 'R-BOOT-1: accepts 1.35 with a new bootstrap template',
      req: k8s('v1.35.0', 'alauda-os-k8s-v1.35.0', patch135),
      c: cp('v1.35.0'),
      expected: [],
    },
    {
      name: 'R-BOOT-3: rejects a bootstrap clone under a taken name',
      req: {
        operation: 'bootstrap',
        resourceVersion: '1',
        bootstrap: {
          name: 'demo-md-0-kct',
          spec: { ...bootstrapSpec, postKubeadmCommands: ['true'] },
        },
      },
      expected: ['error R-BOOT-3 bootstrap.name boot.nameInUse'],
    },
    {
      name: 'R-BOOT-3: warns that an identical bootstrap template rolls for nothing',
      req: {
        operation: 'bootstrap',
        resourceVersion: '1',
        bootstrap: { name: 'demo-md-0-kct-2', spec: bootstrapSpec },
      },
      expected: ['warning R-BOOT-3 bootstrap.spec boot.unchanged'],
    },
    {
      name: 'R-BOOT-2: rejects a clone that edits the provider’s tokens',
      req: {
        operation: 'bootstrap',
        resourceVersion: '1',
        bootstrap: {
          name: 'demo-md-0-kct-2',
          spec: {
            ...bootstrapSpec,
            joinConfiguration: {
              ...bootstrapSpec.joinConfiguration,
              nodeRegistration: {
                kubeletExtraArgs: { 'node-ip': 'NODE_IP', 'provider-id': 'provider_id' },
              },
            },
          },
        },
      },
      expected: [
        'error R-BOOT-2 bootstrap.spec.joinConfiguration.nodeRegistration.kubeletExtraArgs.provider-id boot.tokenAltered',
      ],
    },
    {
      name: 'R-MD-4: accepts a control plane upgrade to the next minor',
      req: {
        operation: 'control-plane',
        resourceVersion: '1',
        version: 'v1.34.1',
        machineTemplate: {
          name: 'demo-control-plane-template-v1.34.1',
          spec: withVmTemplate('alauda-os-k8s-v1.34.1'),
        },
      },
      pool: controlPlane,
      expected: [],
    },
    {
      name: 'R-MD-4: rejects a control plane upgrade that skips a minor',
      req: {
        operation: 'control-plane',
        resourceVersion: '1',
        version: 'v1.35.0',
        machineTemplate: {
          name: 'demo-control-plane-template-v1.35.0',
          spec: withVmTemplate('alauda-os-k8s-v1.35.0'),
        },
      },
      pool: controlPlane,
      expected: ['error R-MD-4 version md.controlPlaneSkipsMinor'],
    },
    {
      name: 'R-MD-5: rejects a worker operation on the control-plane pool',
      req: infra('x-template', bigger),
      pool: controlPlane,
      expected: ['error R-MD-5 operation md.operationNotForPool'],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      expectIssues(validateUpgrade(c.req, c.pool ?? worker, c.c ?? ctx), c.expected);
    });
  }
});

describe('validateCreateIpPool', () => {
  it('R-POOL-3: accepts a new pool with valid entries', () => {
    expectIssues(
      validateCreateIpPool({ name: 'demo-md-1-pool', entries: [anIpEntry(11)] }, ctx),
      [],
    );
  });
  it('R-MD-5: rejects a taken name, and R-POOL-2 an ip held by another pool', () => {
    expectIssues(
      validateCreateIpPool(
        {
          name: 'demo-worker-pool',
          entries: [anIpEntry(11), anIpEntry(1, { hostname: 'h', machineName: 'm' })],
        },
        ctx,
      ),
      ['error R-MD-5 name name.inUse', 'error R-POOL-2 entries.1.ip pool.ipInOtherPool'],
    );
  });
});

describe('validatePatchIpPool', () => {
  /** demo-worker-pool with a fourth, unclaimed entry; demo-md-0 uses it with maxSurge 0. */
  const pool: IpPoolContext = {
    ...ctx.ipPools[0],
    name: 'demo-worker-pool',
    resourceVersion: '1',
    entries: [1, 2, 3, 4].map((n) => anIpEntry(n)),
    claims: ctx.ipPools[0]?.claims ?? [],
    consumers: [{ deployment: 'demo-md-0', replicas: 3, maxSurge: 0 }],
  };
  const c4 = (o: Partial<IpPoolContext> = {}, v: Partial<ValidationContext> = {}) =>
    aValidationContext({ ipPools: [{ ...pool, ...o }], ...v });
  const patch = (o: Partial<PatchIpPoolRequest>): PatchIpPoolRequest => ({
    resourceVersion: '1',
    append: [],
    remove: [],
    update: [],
    ...o,
  });
  const cpaas = anIpEntry(1).persistentDisk ?? [];
  const data = {
    slot: 1,
    quantityGB: 100,
    datastoreClusterName: 'ds-cluster-1',
    path: '/data',
    format: 'xfs',
  };
  const nic = { ip: '192.168.9.11', mask: '24', dvSwitchName: 'dvs', portGroupName: 'pg' };
  const cases: {
    name: string;
    req: PatchIpPoolRequest;
    c?: ValidationContext;
    expected: string[];
  }[] = [
    { name: 'R-POOL-4: accepts an append', req: patch({ append: [anIpEntry(5)] }), expected: [] },
    {
      name: 'R-POOL-6: warns that the volumes of a removed unclaimed entry stay on DCS',
      req: patch({ remove: ['10.0.1.14'] }),
      expected: ['warning R-POOL-6 remove.0 pool.removedEntryVolumesStay'],
    },
    {
      name: 'R-POOL-5: rejects removing a claimed entry',
      req: patch({ remove: ['10.0.1.11'] }),
      expected: ['error R-POOL-5 remove.0 pool.claimedEntryRemoved'],
    },
    {
      name: 'R-POOL-1: rejects a removal that leaves fewer entries than replicas',
      req: patch({ remove: ['10.0.1.14'] }),
      c: c4({ claims: [], consumers: [{ deployment: 'demo-md-0', replicas: 4, maxSurge: 0 }] }),
      expected: [
        'warning R-POOL-6 remove.0 pool.removedEntryVolumesStay',
        'error R-POOL-1 remove pool.demandExceedsEntries',
      ],
    },
    {
      name: 'R-POOL-4: rejects edits of entries the pool does not hold, or removed and updated at once',
      req: patch({
        remove: ['10.0.1.14'],
        update: [
          { ip: '10.0.1.99', additionNic: [] },
          { ip: '10.0.1.14', additionNic: [] },
        ],
      }),
      expected: [
        'warning R-POOL-6 remove.0 pool.removedEntryVolumesStay',
        'error R-POOL-4 update.0.ip pool.entryNotFound',
        'error R-POOL-4 update.1.ip pool.updateOfRemovedEntry',
      ],
    },
    {
      name: 'R-NIC-2: warns that a claimed entry’s running VM keeps its NICs',
      req: patch({ update: [{ ip: '10.0.1.11', additionNic: [nic] }] }),
      expected: ['warning R-NIC-2 update.0.additionNic nic.claimedEntryNotHotUpdated'],
    },
    {
      name: 'R-NIC-1: checks the NICs of an update',
      req: patch({ update: [{ ip: '10.0.1.14', additionNic: [{ ...nic, portGroupName: '' }] }] }),
      expected: ['error R-NIC-1 update.0.additionNic.0.portGroupName nic.portGroupRequired'],
    },
    {
      name: 'R-DISK-6: says a disk appended to a claimed entry waits for the VM’s replacement',
      req: patch({ update: [{ ip: '10.0.1.11', persistentDisk: [...cpaas, data] }] }),
      expected: ['warning R-DISK-6 update.0.persistentDisk.1 disk.appendedToRunningVm'],
    },
    {
      name: 'R-DISK-2: a disk the update leaves out is kept, not removed',
      req: patch({ update: [{ ip: '10.0.1.14', persistentDisk: [data] }] }),
      expected: [],
    },
    {
      name: 'R-DISK-3: rejects a changed format',
      req: patch({
        update: [
          { ip: '10.0.1.14', persistentDisk: [{ slot: 0, quantityGB: 40, format: 'ext4' }] },
        ],
      }),
      expected: ['error R-DISK-3 update.0.persistentDisk.0.format disk.immutableChanged'],
    },
    {
      name: 'R-DISK-4: says a size change affects rolling updates',
      req: patch({ update: [{ ip: '10.0.1.14', persistentDisk: [{ slot: 0, quantityGB: 80 }] }] }),
      expected: ['warning R-DISK-4 update.0.persistentDisk.0.quantityGB disk.rollingChange'],
    },
    {
      name: 'R-VER-2: rejects persistent disks with provider 1.0.15',
      req: patch({ update: [{ ip: '10.0.1.14', persistentDisk: [data] }] }),
      c: c4({}, { providerVersion: '1.0.15' }),
      expected: ['error R-VER-2 update.0.persistentDisk version.persistentDisksUnsupported'],
    },
    {
      name: 'R-MD-3: warns when disks are added while a deployment of the pool surges',
      req: patch({ append: [anIpEntry(5)] }),
      c: c4({ consumers: [{ deployment: 'demo-md-0', replicas: 3, maxSurge: 1 }] }),
      expected: ['warning R-MD-3  md.consumerSurgeWithDisks'],
    },
    {
      name: 'R-POOL-4: rejects an address listed twice among the removals, said once however often it repeats',
      req: patch({ remove: ['10.0.1.14', '10.0.1.14', '10.0.1.14', '10.0.1.14'] }),
      expected: [
        'warning R-POOL-6 remove.0 pool.removedEntryVolumesStay',
        'error R-POOL-4 remove.1 pool.removedTwice',
      ],
    },
    {
      name: 'R-POOL-4: an entry updated twice is said once however often it repeats',
      req: patch({
        update: [1, 2, 3].map(() => ({ ip: '10.0.1.14', set: { hostname: 'renamed' } })),
      }),
      expected: ['error R-POOL-4 update.1.ip pool.updatedTwice'],
    },
    {
      name: 'R-POOL-2: two unclaimed entries may swap their hostnames in one edit (each judged by what the other becomes)',
      req: patch({
        update: [
          { ip: '10.0.1.14', set: { hostname: 'worker-node-5' } },
          { ip: '10.0.1.15', set: { hostname: 'worker-node-4' } },
        ],
      }),
      c: c4({ entries: [1, 2, 3, 4, 5].map((n) => anIpEntry(n)) }),
      expected: [],
    },
    {
      name: 'R-POOL-2: two edits that give two entries the same hostname are refused at the second',
      req: patch({
        update: [
          { ip: '10.0.1.14', set: { hostname: 'spare' } },
          { ip: '10.0.1.15', set: { hostname: 'spare' } },
        ],
      }),
      c: c4({ entries: [1, 2, 3, 4, 5].map((n) => anIpEntry(n)) }),
      expected: ['error R-POOL-2 update.1.set.hostname pool.duplicate'],
    },
    {
      name: 'R-POOL-2: an edited hostname that an untouched entry holds is refused at the update’s set',
      req: patch({ update: [{ ip: '10.0.1.14', set: { hostname: 'worker-node-1' } }] }),
      expected: ['error R-POOL-2 update.0.set.hostname pool.duplicateOfExisting'],
    },
    {
      name: 'R-POOL-4: rejects a pool that is not there',
      req: patch({}),
      c: aValidationContext({ ipPools: [] }),
      expected: ['error R-POOL-4  pool.notFound'],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      expectIssues(validatePatchIpPool('demo-worker-pool', c.req, c.c ?? c4()), c.expected);
    });
  }

  it('R-POOL-6: the removal warning names the entry and its slots', () => {
    const [issue] = validatePatchIpPool('demo-worker-pool', patch({ remove: ['10.0.1.14'] }), c4());
    expect(issue?.params).toEqual({ ip: '10.0.1.14', slots: '0' });
  });
});
