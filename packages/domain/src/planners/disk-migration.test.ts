import { describe, expect, it } from 'vitest';
import type { DCSMachineTemplate } from '../schemas/dcs';
import {
  aMachineDeployment,
  aMachineTemplate,
  anIpEntry,
  anIpPool,
  aValidationContext,
} from '../testing';
import { planDiskMigration, type DiskMigrationPlan } from './disk-migration';

/** The older document's layout: the template mounts /var/cpaas; the entries have no disk yet. */
function legacyTemplate(): DCSMachineTemplate {
  const t = aMachineTemplate();
  const vm = t.spec?.template.spec.vmConfig;
  if (vm)
    vm.dcsMachineDiskSpec = [
      ...(vm.dcsMachineDiskSpec ?? []),
      { quantity: 60, datastoreClusterName: 'ds-legacy', path: '/var/cpaas', format: 'xfs' },
    ];
  return t;
}
const bareEntries = [1, 2, 3].map((n) => ({ ...anIpEntry(n), persistentDisk: [] }));
const legacyCtx = aValidationContext({
  ipPools: aValidationContext().ipPools.map((p) => ({ ...p, entries: bareEntries })),
});
const legacyPool = () => {
  const p = anIpPool({ metadata: { resourceVersion: '1' } });
  if (p.spec) p.spec.pool = bareEntries.map((e) => ({ ...e }));
  return p;
};
const md = (maxSurge: number) =>
  aMachineDeployment({
    metadata: { resourceVersion: '10' },
    spec: { strategy: { rollingUpdate: { maxSurge, maxUnavailable: 1 } } },
  });
const step = (p: DiskMigrationPlan, id: string) => p.steps.find((s) => s.id === id);

describe('planDiskMigration (R-DISK-5)', () => {
  it('R-DISK-5: a legacy pool gets the steps in order, each with its operation and kubectl: provider, maxSurge 0, disks, new template', () => {
    const p = planDiskMigration(
      { machineDeployment: md(1), machineTemplate: legacyTemplate(), ipPool: legacyPool() },
      legacyCtx,
    );
    expect(p.legacy).toBe(true);
    expect(p.applies).toBe(false);
    expect(p.steps.map((s) => [s.id, s.status, s.operation])).toEqual([
      ['provider', 'done', undefined],
      ['maxSurge', 'todo', 'O-EDIT-STRATEGY'],
      ['appendDisks', 'blocked', 'O-EDIT-IP-POOL'],
      ['switchTemplate', 'blocked', 'O-UPGRADE-INFRA'],
      ['verify', 'blocked', undefined],
    ]);
    // R-MD-3: the very patch O-EDIT-STRATEGY would send.
    expect(step(p, 'maxSurge')?.kubectl[0]).toMatch(
      /kubectl patch machinedeployment demo-md-0 .*"path":"\/spec\/strategy\/rollingUpdate\/maxSurge","value":0/,
    );
    // R-POOL-4: a JSON patch that appends a /var/cpaas disk with the legacy disk's size and datastore.
    const append = step(p, 'appendDisks');
    expect(append?.kubectl[0]).toMatch(
      /kubectl patch dcsiphostnamepool demo-worker-pool .*--type json/,
    );
    expect(append?.kubectl[0]).toContain('"path":"/var/cpaas"');
    expect(append?.kubectl[0]).toContain('"quantityGB":60');
    expect(append?.kubectl[0]).toContain('"datastoreClusterName":"ds-legacy"');
    expect(append?.unsettled.map((m) => m.messageKey)).toEqual([
      'plan.migration.unsettled.bothDisks',
    ]);
    // R-TPL-4: a new template without /var/cpaas, then the switch: what happens to the data is said.
    const sw = step(p, 'switchTemplate');
    expect(sw?.kubectl).toHaveLength(2);
    expect(sw?.kubectl[0]).toMatch(/^kubectl create -f - /);
    expect(sw?.kubectl[0]).not.toContain('/var/cpaas');
    expect(sw?.kubectl[0]).toContain('demo-md-0-template-r2');
    expect(sw?.effects.map((m) => m.messageKey)).toContain('plan.migration.dataOnReplacedVm');
    expect(sw?.unsettled.map((m) => m.messageKey)).toEqual([
      'plan.migration.unsettled.data',
      'plan.migration.unsettled.reuse',
    ]);
  });

  it('R-DISK-5 with R-MD-3 and R-POOL-4: once maxSurge is 0 and every entry has its disk, the template switch is next and passes the rules', () => {
    const pool = anIpPool({ metadata: { resourceVersion: '1' } }); // entries carry /var/cpaas
    const p = planDiskMigration(
      { machineDeployment: md(0), machineTemplate: legacyTemplate(), ipPool: pool },
      aValidationContext(),
    );
    expect(p.steps.map((s) => s.status)).toEqual(['done', 'done', 'done', 'todo', 'blocked']);
    expect(step(p, 'switchTemplate')?.issues.filter((i) => i.severity === 'error')).toEqual([]);
  });

  it('R-DISK-5 with R-VER-2: below provider 1.0.16 the layout is not legacy and every step waits for the provider', () => {
    const p = planDiskMigration(
      { machineDeployment: md(1), machineTemplate: legacyTemplate(), ipPool: legacyPool() },
      { ...legacyCtx, providerVersion: '1.0.13' },
    );
    expect(p.legacy).toBe(false);
    // The provider step says what is to do, never "1.0.13 is at least 1.0.16".
    expect(step(p, 'provider')?.title.messageKey).toBe('plan.migration.providerTooOld');
    expect(step(p, 'provider')?.title.message).toMatch(
      /^Upgrade the DCS provider from 1\.0\.13 to 1\.0\.16 or later/,
    );
    expect(p.steps.map((s) => s.status)).toEqual([
      'todo',
      'blocked',
      'blocked',
      'blocked',
      'blocked',
    ]);
  });

  it('R-DISK-5: a pool already on persistent disks has nothing left but the checks', () => {
    const p = planDiskMigration(
      {
        machineDeployment: md(0),
        machineTemplate: aMachineTemplate(),
        ipPool: anIpPool({ metadata: { resourceVersion: '1' } }),
      },
      aValidationContext(),
    );
    expect(p.legacy).toBe(false);
    expect(p.steps.map((s) => s.status)).toEqual(['done', 'done', 'done', 'done', 'todo']);
  });
});
