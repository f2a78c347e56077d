import { describe, it } from 'vitest';
import type { IntOrString } from '../schemas/meta';
import { aMachineDeployment, aMachineTemplate, anIpEntry, anIpPool } from '../testing';
import type { RuleIssue } from './issue';
import { expectIssues } from './test-support';
import { webhookRules } from './webhook';

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

const S = 'spec.strategy.rollingUpdate';
const md = (maxSurge: IntOrString, maxUnavailable: IntOrString) =>
  aMachineDeployment({
    spec: { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge, maxUnavailable } } },
  });

describe('admission: MachineDeployment', () => {
  const check = webhookRules.MachineDeployment;
  table('R-MD-2', [
    {
      name: 'admits maxSurge 0 with maxUnavailable 1',
      run: () => check(md(0, 1), undefined),
      expected: [],
    },
    {
      name: 'admits "0%" and "0%" (resolved to maxUnavailable 1)',
      run: () => check(md('0%', '0%'), undefined),
      expected: [],
    },
    {
      name: 'denies maxSurge 0 with maxUnavailable 0',
      run: () => check(md(0, 0), undefined),
      expected: [`error R-MD-2 ${S}.maxUnavailable md.bothZero`],
    },
    {
      name: 'denies a bare numeric string on update',
      run: () => check(md('1', 0), md(1, 0)),
      expected: [`error R-MD-2 ${S}.maxSurge md.intOrPercent.notPercent`],
    },
    {
      name: 'admits a deployment without a strategy (Cluster API defaults it)',
      run: () => {
        const { strategy: _s, ...spec } = md(1, 0).spec ?? {
          clusterName: 'demo',
          template: { spec: { clusterName: 'demo', bootstrap: {}, infrastructureRef: {} } },
        };
        return check({ ...md(1, 0), spec }, undefined);
      },
      expected: [],
    },
  ]);
});

describe('admission: DCSIpHostnamePool', () => {
  const check = webhookRules.DCSIpHostnamePool;
  const data = {
    slot: 1,
    quantityGB: 100,
    datastoreClusterName: 'ds-cluster-1',
    path: '/data',
    format: 'xfs',
  };
  const old = anIpPool();
  const withEntries = (entries: ReturnType<typeof anIpEntry>[]) => ({
    ...old,
    spec: { pool: entries },
  });
  table('R-DISK-2', [
    { name: 'admits any pool on create', run: () => check(old, undefined), expected: [] },
    {
      name: 'admits an appended disk',
      run: () =>
        check(
          withEntries([
            anIpEntry(1, { persistentDisk: [...(anIpEntry(1).persistentDisk ?? []), data] }),
            anIpEntry(2),
            anIpEntry(3),
          ]),
          old,
        ),
      expected: [],
    },
    {
      name: 'denies a removed disk of a kept entry',
      run: () =>
        check(withEntries([anIpEntry(1), anIpEntry(2, { persistentDisk: [] }), anIpEntry(3)]), old),
      expected: ['error R-DISK-2 spec.pool.1.persistentDisk disk.removed'],
    },
    {
      name: 'admits removing a whole entry (R-POOL-6 is the console’s)',
      run: () => check(withEntries([anIpEntry(1), anIpEntry(3)]), old),
      expected: [],
    },
  ]);
  table('R-DISK-3', [
    {
      name: 'denies a changed format, options or pciType',
      run: () =>
        check(
          withEntries([
            anIpEntry(1, {
              persistentDisk: [
                {
                  slot: 0,
                  quantityGB: 40,
                  datastoreClusterName: 'ds-cluster-1',
                  path: '/var/cpaas',
                  format: 'ext4',
                  options: 'noatime',
                },
              ],
            }),
            anIpEntry(2),
            anIpEntry(3),
          ]),
          old,
        ),
      expected: [
        'error R-DISK-3 spec.pool.0.persistentDisk.0.format disk.immutableChanged',
        'error R-DISK-3 spec.pool.0.persistentDisk.0.options disk.immutableChanged',
      ],
    },
    {
      name: 'admits a changed isThin with a warning',
      run: () =>
        check(
          withEntries([
            anIpEntry(1, {
              persistentDisk: (anIpEntry(1).persistentDisk ?? []).map((d) => ({
                ...d,
                isThin: true,
              })),
            }),
            anIpEntry(2),
            anIpEntry(3),
          ]),
          old,
        ),
      expected: ['warning R-DISK-3 spec.pool.0.persistentDisk.0.isThin disk.isThinChanged'],
    },
    {
      name: 'leaves size changes to the console (R-DISK-4 is not enforced here)',
      run: () =>
        check(
          withEntries([
            anIpEntry(1, {
              persistentDisk: (anIpEntry(1).persistentDisk ?? []).map((d) => ({
                ...d,
                quantityGB: 80,
              })),
            }),
            anIpEntry(2),
            anIpEntry(3),
          ]),
          old,
        ),
      expected: [],
    },
  ]);
});

describe('admission: DCSMachineTemplate', () => {
  const check = webhookRules.DCSMachineTemplate;
  const old = aMachineTemplate();
  table('R-TPL-4', [
    { name: 'admits any template on create', run: () => check(old, undefined), expected: [] },
    {
      name: 'admits an update of metadata only',
      run: () => check({ ...old, metadata: { ...old.metadata, labels: { a: 'b' } } }, old),
      expected: [],
    },
    {
      name: 'denies a change of the template spec',
      run: () =>
        check(
          aMachineTemplate({
            spec: {
              template: { spec: { vmConfig: { dcsMachineMemorySpec: { quantity: 16384 } } } },
            },
          }),
          old,
        ),
      expected: [
        'error R-TPL-4 spec.template.spec.vmConfig.dcsMachineMemorySpec.quantity tpl.specImmutable',
      ],
    },
  ]);
});
