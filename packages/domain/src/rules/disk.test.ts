import { describe, expect, it } from 'vitest';
import type { MachineTemplateSpecInput } from '../requests';
import type { PersistentDisk } from '../schemas/dcs';
import { aMachineTemplate, aValidationContext, anIpEntry } from '../testing';
import {
  checkCpaasPlacement,
  checkDiskChanges,
  checkTemplateCpaas,
  usesLegacyDiskLayout,
  type PathedEntry,
} from './disk';
import type { RuleIssue } from './issue';
import { validateEntryDisks } from './pool';
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

const cpaas: PersistentDisk = {
  slot: 0,
  quantityGB: 40,
  datastoreClusterName: 'ds-cluster-1',
  path: '/var/cpaas',
  format: 'xfs',
};
const data: PersistentDisk = {
  slot: 1,
  quantityGB: 100,
  datastoreClusterName: 'ds-cluster-1',
  path: '/data',
  format: 'ext4',
};
const change = (old: PersistentDisk[], now: PersistentDisk[], claimedBy?: string) =>
  checkDiskChanges(old, now, 'update.0.persistentDisk', { ip: '10.0.1.11', claimedBy });

const ctx = aValidationContext();
const oldProvider = aValidationContext({ providerVersion: '1.0.15' });
const { ipHostPoolRef: _ref, ...modern } = aMachineTemplate().spec?.template.spec ?? {
  vmTemplateName: '',
  ipHostPoolRef: { name: '' },
};
const legacy: MachineTemplateSpecInput = {
  ...modern,
  vmConfig: {
    ...modern.vmConfig,
    dcsMachineDiskSpec: [
      ...(modern.vmConfig?.dcsMachineDiskSpec ?? []),
      { quantity: 40, datastoreClusterName: 'ds-cluster-1', path: '/var/cpaas', format: 'xfs' },
    ],
  },
};
const inRequest = (...entries: ReturnType<typeof anIpEntry>[]): PathedEntry[] =>
  entries.map((entry, i) => ({ entry, path: `ipPool.entries.${i}`, inRequest: true }));

describe('R-DISK-1 identity (ip, slot)', () => {
  table('R-DISK-1', [
    {
      name: 'accepts distinct slots on an entry',
      run: () => validateEntryDisks([cpaas, data], '10.0.1.11', 'd'),
      expected: [],
    },
    {
      name: 'rejects a slot used twice on one entry',
      run: () => validateEntryDisks([cpaas, { ...data, slot: 0 }], '10.0.1.11', 'd'),
      expected: ['error R-DISK-1 d.1.slot disk.slotDuplicate'],
    },
    {
      name: 'rejects a negative slot',
      run: () => validateEntryDisks([{ ...cpaas, slot: -1 }], '10.0.1.11', 'd'),
      expected: ['error R-DISK-1 d.0.slot disk.slotInvalid'],
    },
    {
      name: 'lets two entries use the same slot (the ip tells them apart)',
      run: () => [
        ...validateEntryDisks([cpaas], '10.0.1.11', 'a'),
        ...validateEntryDisks([cpaas], '10.0.1.12', 'b'),
      ],
      expected: [],
    },
    {
      name: 'rejects two disks of an entry mounted at one path (R-TPL-2)',
      run: () => validateEntryDisks([cpaas, { ...data, path: '/var/cpaas/' }], '10.0.1.11', 'd'),
      expected: ['error R-TPL-2 d.1.path disk.pathDuplicate'],
    },
  ]);
});

describe('R-DISK-2 append, never remove', () => {
  table('R-DISK-2', [
    { name: 'accepts an appended disk', run: () => change([cpaas], [cpaas, data]), expected: [] },
    {
      name: 'rejects a removed disk',
      run: () => change([cpaas, data], [cpaas]),
      expected: ['error R-DISK-2 update.0.persistentDisk disk.removed'],
    },
    {
      name: 'matches disks by slot, not by position',
      run: () => change([cpaas, data], [data, cpaas]),
      expected: [],
    },
  ]);
});

describe('R-DISK-3 immutable once created', () => {
  table('R-DISK-3', [
    { name: 'accepts an unchanged disk', run: () => change([cpaas], [{ ...cpaas }]), expected: [] },
    {
      name: 'rejects a changed format',
      run: () => change([cpaas], [{ ...cpaas, format: 'ext4' }]),
      expected: ['error R-DISK-3 update.0.persistentDisk.0.format disk.immutableChanged'],
    },
    {
      name: 'rejects changed options',
      run: () => change([cpaas], [{ ...cpaas, options: 'noatime' }]),
      expected: ['error R-DISK-3 update.0.persistentDisk.0.options disk.immutableChanged'],
    },
    {
      name: 'rejects a changed pciType',
      run: () => change([{ ...cpaas, pciType: 'virtio' }], [{ ...cpaas, pciType: 'scsi' }]),
      expected: ['error R-DISK-3 update.0.persistentDisk.0.pciType disk.immutableChanged'],
    },
    {
      name: 'warns that a changed isThin changes nothing for existing volumes',
      run: () => change([cpaas], [{ ...cpaas, isThin: true }]),
      expected: ['warning R-DISK-3 update.0.persistentDisk.0.isThin disk.isThinChanged'],
    },
    {
      name: 'accepts isThin on a new disk (it takes effect at creation)',
      run: () => change([cpaas], [cpaas, { ...data, isThin: true }]),
      expected: [],
    },
  ]);
});

describe('R-DISK-4 changes that affect rolling updates', () => {
  table('R-DISK-4', [
    {
      name: 'says so before a change of quantityGB',
      run: () => change([cpaas], [{ ...cpaas, quantityGB: 80 }]),
      expected: ['warning R-DISK-4 update.0.persistentDisk.0.quantityGB disk.rollingChange'],
    },
    {
      name: 'says so before a change of datastore',
      run: () => change([cpaas], [{ ...cpaas, datastoreClusterName: 'ds-cluster-2' }]),
      expected: [
        'warning R-DISK-4 update.0.persistentDisk.0.datastoreClusterName disk.rollingChange',
      ],
    },
    {
      name: 'says nothing when size and datastore stay',
      run: () => change([cpaas], [cpaas]),
      expected: [],
    },
  ]);

  it('R-DISK-4: names the field and both values', () => {
    const [issue] = change([cpaas], [{ ...cpaas, quantityGB: 80 }]);
    expect(issue?.params).toMatchObject({ field: 'quantityGB', old: 40, new: 80, slot: 0 });
  });
});

describe('R-DISK-5 /var/cpaas and the legacy layout', () => {
  table('R-DISK-5', [
    {
      name: 'accepts a template without /var/cpaas (pool-managed layout)',
      run: () => checkTemplateCpaas(modern, ctx, 'tpl'),
      expected: [],
    },
    {
      name: 'shows a template that mounts /var/cpaas as the legacy layout with provider ≥ 1.0.16',
      run: () => checkTemplateCpaas(legacy, ctx, 'tpl'),
      expected: ['warning R-DISK-5 tpl.vmConfig.dcsMachineDiskSpec.3.path disk.legacyLayout'],
    },
    {
      name: 'keeps /var/cpaas in the template below 1.0.16 without comment',
      run: () => checkTemplateCpaas(legacy, oldProvider, 'tpl'),
      expected: [],
    },
    {
      name: 'requires /var/cpaas in the template below 1.0.16 (R-TPL-2)',
      run: () => checkTemplateCpaas(modern, oldProvider, 'tpl'),
      expected: ['error R-TPL-2 tpl.vmConfig.dcsMachineDiskSpec tpl.cpaasRequiredInTemplate'],
    },
    {
      name: 'accepts every entry carrying /var/cpaas as a persistent disk',
      run: () => checkCpaasPlacement(modern, inRequest(anIpEntry(11), anIpEntry(12)), ctx, 'tpl'),
      expected: [],
    },
    {
      name: 'rejects an entry without /var/cpaas when the template does not mount it',
      run: () =>
        checkCpaasPlacement(
          modern,
          inRequest(anIpEntry(11), anIpEntry(12, { persistentDisk: [] })),
          ctx,
          'tpl',
        ),
      expected: ['error R-DISK-5 ipPool.entries.1.persistentDisk disk.cpaasMissing'],
    },
    {
      name: 'points at the pool field for an entry already in the pool',
      run: () =>
        checkCpaasPlacement(
          modern,
          [{ entry: anIpEntry(1, { persistentDisk: [] }), path: 'ipPool.name', inRequest: false }],
          ctx,
          'tpl',
        ),
      expected: ['error R-DISK-5 ipPool.name disk.cpaasMissing'],
    },
    {
      name: 'accepts entries without persistent disks in the legacy layout',
      run: () =>
        checkCpaasPlacement(legacy, inRequest(anIpEntry(11, { persistentDisk: [] })), ctx, 'tpl'),
      expected: [],
    },
    {
      name: 'rejects /var/cpaas mounted by both the template and an entry (R-TPL-2)',
      run: () => checkCpaasPlacement(legacy, inRequest(anIpEntry(11)), ctx, 'tpl'),
      expected: ['error R-TPL-2 ipPool.entries.0.persistentDisk.0.path disk.mountedTwice'],
    },
    {
      name: 'puts a double mount with an existing entry on the template’s disk',
      run: () =>
        checkCpaasPlacement(
          legacy,
          [{ entry: anIpEntry(1), path: 'ipPool.name', inRequest: false }],
          ctx,
          'tpl',
        ),
      expected: ['error R-TPL-2 tpl.vmConfig.dcsMachineDiskSpec.3.path disk.mountedTwice'],
    },
    {
      name: 'leaves placement to the template below 1.0.16 (R-VER-2 reports the disks)',
      run: () =>
        checkCpaasPlacement(
          modern,
          inRequest(anIpEntry(11, { persistentDisk: [] })),
          oldProvider,
          'tpl',
        ),
      expected: [],
    },
  ]);

  it('R-DISK-5: detects the legacy layout', () => {
    expect(usesLegacyDiskLayout(legacy)).toBe(true);
    expect(usesLegacyDiskLayout(modern)).toBe(false);
  });
});

describe('R-DISK-6 disks appended to running VMs', () => {
  table('R-DISK-6', [
    {
      name: 'says a disk appended to a claimed entry is attached but not formatted or mounted until replacement',
      run: () => change([cpaas], [cpaas, data], 'demo-md-0-abc12-m1'),
      expected: ['warning R-DISK-6 update.0.persistentDisk.1 disk.appendedToRunningVm'],
    },
    {
      name: 'says nothing for an unclaimed entry',
      run: () => change([cpaas], [cpaas, data]),
      expected: [],
    },
  ]);
});
