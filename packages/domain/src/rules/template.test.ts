import { describe, expect, it } from 'vitest';
import type { MachineTemplateSpecInput } from '../requests';
import type { DiskSpec } from '../schemas/dcs';
import { aMachineTemplate, aValidationContext } from '../testing';
import type { RuleIssue } from './issue';
import {
  checkNewTemplateName,
  checkTemplateChanged,
  checkTemplateSpecImmutable,
  validateMachineTemplateSpec,
} from './template';
import { expectIssues } from './test-support';

function table(
  rule: string,
  cases: readonly { name: string; run: () => RuleIssue[]; expected: string[] }[],
) {
  for (const c of cases) {
    it(`${rule}: ${c.name}`, () => {
      expectIssues(c.run(), c.expected);
    });
  }
}

const ctx = aValidationContext();
const template = aMachineTemplate();
const { ipHostPoolRef: _ref, ...spec } = template.spec?.template.spec ?? {
  vmTemplateName: '',
  ipHostPoolRef: { name: '' },
};
const disks = spec.vmConfig?.dcsMachineDiskSpec ?? [];
const [system, kubelet, containerd] = disks;
if (!system || !kubelet || !containerd) throw new Error('fixture');

const withDisks = (d: DiskSpec[]): MachineTemplateSpecInput => ({
  ...spec,
  vmConfig: { ...spec.vmConfig, dcsMachineDiskSpec: d },
});
const check = (s: MachineTemplateSpecInput, c = ctx) =>
  validateMachineTemplateSpec(s, c, 'machineTemplate.spec');
const D = 'machineTemplate.spec.vmConfig.dcsMachineDiskSpec';

describe('R-TPL-1 the system disk', () => {
  table('R-TPL-1', [
    {
      name: 'accepts one system disk of quantity 0 (the VM template’s size)',
      run: () => check(spec),
      expected: [],
    },
    {
      name: 'accepts a sized system disk',
      run: () => check(withDisks([{ ...system, quantity: 80 }, kubelet, containerd])),
      expected: [],
    },
    {
      name: 'rejects no system disk',
      run: () => check(withDisks([kubelet, containerd])),
      expected: [`error R-TPL-1 ${D} tpl.systemDiskMissing`],
    },
    {
      name: 'rejects two system disks',
      run: () => check(withDisks([system, { ...system }, kubelet, containerd])),
      expected: [`error R-TPL-1 ${D}.1.systemVolume tpl.systemDiskMultiple`],
    },
    {
      name: 'rejects quantity 0 on a data disk',
      run: () => check(withDisks([system, { ...kubelet, quantity: 0 }, containerd])),
      expected: [`error R-TPL-1 ${D}.1.quantity tpl.dataDiskQuantityZero`],
    },
    {
      name: 'rejects a negative quantity',
      run: () => check(withDisks([{ ...system, quantity: -1 }, kubelet, containerd])),
      expected: [`error R-TPL-1 ${D}.0.quantity tpl.diskQuantityInvalid`],
    },
  ]);
});

describe('R-TPL-2 mounts', () => {
  table('R-TPL-2', [
    {
      name: 'accepts extra disks',
      run: () =>
        check(
          withDisks([
            system,
            kubelet,
            containerd,
            { quantity: 200, datastoreClusterName: 'ds', path: '/data', format: 'xfs' },
          ]),
        ),
      expected: [],
    },
    {
      name: 'requires /var/lib/kubelet',
      run: () => check(withDisks([system, containerd])),
      expected: [`error R-TPL-2 ${D} tpl.mountRequired`],
    },
    {
      name: 'requires /var/lib/containerd',
      run: () => check(withDisks([system, kubelet])),
      expected: [`error R-TPL-2 ${D} tpl.mountRequired`],
    },
    {
      name: 'rejects a path mounted twice (a trailing slash is the same path)',
      run: () =>
        check(withDisks([system, kubelet, containerd, { ...kubelet, path: '/var/lib/kubelet/' }])),
      expected: [`error R-TPL-2 ${D}.3.path tpl.mountDuplicate`],
    },
    {
      name: 'rejects a relative mount path',
      run: () => check(withDisks([system, kubelet, containerd, { quantity: 10, path: 'data' }])),
      expected: [`error R-TPL-2 ${D}.3.path tpl.mountPathInvalid`],
    },
    {
      name: 'reports both missing mounts when vmConfig is absent',
      run: () => check({ ...spec, vmConfig: undefined }),
      expected: [
        `error R-TPL-1 ${D} tpl.systemDiskMissing`,
        `error R-TPL-2 ${D} tpl.mountRequired`,
        `error R-TPL-2 ${D} tpl.mountRequired`,
      ],
    },
  ]);
});

describe('R-TPL-3 placement and network', () => {
  const inventory = aValidationContext({
    dcsInventory: { dvSwitches: [{ name: 'dvs-1', portGroups: ['pg-1'] }] },
  });
  const vm = (o: NonNullable<MachineTemplateSpecInput['vmConfig']>) => ({
    ...spec,
    vmConfig: { ...spec.vmConfig, ...o },
  });
  table('R-TPL-3', [
    {
      name: 'accepts location folder and resource cluster',
      run: () => check({ ...spec, resource: { type: 'cluster', name: 'c1' } }),
      expected: [],
    },
    {
      name: 'accepts resource host',
      run: () => check({ ...spec, resource: { type: 'host', name: 'h1' } }),
      expected: [],
    },
    {
      name: 'accepts neither location nor resource',
      run: () => check({ ...spec, location: undefined }),
      expected: [],
    },
    {
      name: 'rejects a location type other than folder',
      run: () => check({ ...spec, location: { type: 'datacenter', name: 'dc' } }),
      expected: ['error R-TPL-3 machineTemplate.spec.location.type tpl.placementTypeInvalid'],
    },
    {
      name: 'requires the location name',
      run: () => check({ ...spec, location: { type: 'folder' } }),
      expected: ['error R-TPL-3 machineTemplate.spec.location.name tpl.placementNameRequired'],
    },
    {
      name: 'requires the resource type',
      run: () => check({ ...spec, resource: { name: 'c1' } }),
      expected: ['error R-TPL-3 machineTemplate.spec.resource.type tpl.placementTypeRequired'],
    },
    {
      name: 'rejects a resource type other than cluster or host',
      run: () => check({ ...spec, resource: { type: 'pool', name: 'p' } }),
      expected: ['error R-TPL-3 machineTemplate.spec.resource.type tpl.placementTypeInvalid'],
    },
    {
      name: 'requires the VM template',
      run: () => check({ ...spec, vmTemplateName: ' ' }),
      expected: ['error R-TPL-3 machineTemplate.spec.vmTemplateName tpl.vmTemplateRequired'],
    },
    {
      name: 'warns about a port group without its switch',
      run: () => check(vm({ portGroupName: 'pg-1' })),
      expected: [
        'warning R-TPL-3 machineTemplate.spec.vmConfig.dvSwitchName tpl.portGroupWithoutSwitch',
      ],
    },
    {
      name: 'accepts a port group of its switch',
      run: () => check(vm({ dvSwitchName: 'dvs-1', portGroupName: 'pg-1' }), inventory),
      expected: [],
    },
    {
      name: 'rejects a port group that does not belong to the switch',
      run: () => check(vm({ dvSwitchName: 'dvs-1', portGroupName: 'pg-2' }), inventory),
      expected: [
        'error R-TPL-3 machineTemplate.spec.vmConfig.portGroupName net.portGroupNotInSwitch',
      ],
    },
    {
      name: 'rejects 0 CPUs and 0 MB of memory',
      run: () =>
        check(vm({ dcsMachineCpuSpec: { quantity: 0 }, dcsMachineMemorySpec: { quantity: 0 } })),
      expected: [
        'error R-TPL-3 machineTemplate.spec.vmConfig.dcsMachineCpuSpec.quantity tpl.cpuInvalid',
        'error R-TPL-3 machineTemplate.spec.vmConfig.dcsMachineMemorySpec.quantity tpl.memoryInvalid',
      ],
    },
  ]);
});

describe('R-TPL-4 templates are immutable', () => {
  const bigger = { ...spec, vmConfig: { ...spec.vmConfig, dcsMachineCpuSpec: { quantity: 8 } } };
  table('R-TPL-4', [
    {
      name: 'accepts a new template name',
      run: () => checkNewTemplateName('demo-md-0-template-2', ctx, 'machineTemplate.name'),
      expected: [],
    },
    {
      name: 'rejects a change under the name of an existing template',
      run: () => checkNewTemplateName('demo-md-0-template', ctx, 'machineTemplate.name'),
      expected: ['error R-TPL-4 machineTemplate.name tpl.nameInUse'],
    },
    {
      name: 'accepts a copy with a change',
      run: () => checkTemplateChanged(spec, bigger, 'machineTemplate.spec'),
      expected: [],
    },
    {
      name: 'warns that an unchanged copy rolls every machine for nothing',
      run: () => checkTemplateChanged(spec, { ...spec }, 'machineTemplate.spec'),
      expected: ['warning R-TPL-4 machineTemplate.spec tpl.unchanged'],
    },
    {
      name: 'the API server rejects any change of the template spec, field by field',
      run: () =>
        checkTemplateSpecImmutable(
          { template: { spec } },
          { template: { spec: { ...bigger, vmTemplateName: 'other' } } },
        ),
      expected: [
        'error R-TPL-4 spec.template.spec.vmTemplateName tpl.specImmutable',
        'error R-TPL-4 spec.template.spec.vmConfig.dcsMachineCpuSpec.quantity tpl.specImmutable',
      ],
    },
    {
      name: 'the API server accepts an identical spec',
      run: () =>
        checkTemplateSpecImmutable({ template: { spec } }, { template: { spec: { ...spec } } }),
      expected: [],
    },
  ]);
});

describe('R-MD-4 the VM template carries the version', () => {
  table('R-MD-4', [
    {
      name: 'accepts the catalog’s VM template for the version',
      run: () =>
        validateMachineTemplateSpec(spec, ctx, 'machineTemplate.spec', { version: 'v1.33.4' }),
      expected: [],
    },
    {
      name: 'rejects a VM template of another version',
      run: () =>
        validateMachineTemplateSpec(spec, ctx, 'machineTemplate.spec', { version: 'v1.34.1' }),
      expected: ['error R-MD-4 machineTemplate.spec.vmTemplateName md.vmTemplateCarriesOther'],
    },
  ]);

  it('R-MD-4: names the VM template to choose', () => {
    const [issue] = validateMachineTemplateSpec(spec, ctx, 's', { version: 'v1.34.1' });
    expect(issue?.params).toMatchObject({ expected: 'alauda-os-k8s-v1.34.1', carried: 'v1.33.4' });
  });
});
