import { describe, expect, it } from 'vitest';
import { CreatePoolRequestSchema } from '../requests';
import type { DCSMachineSpec, IpPoolEntry } from '../schemas/dcs';
import { aCreatePoolRequest, aMachineTemplate, aValidationContext, anIpEntry } from '../testing';
import type { RuleIssue } from './issue';
import {
  validateCreatePool,
  validatePatchIpPool,
  validateScale,
  validateUpgrade,
} from './validators';

/**
 * Issue 11: R-TPL-2 "mounted twice" (a mount point both in the machine template and as a pool
 * persistent disk) is one rule applied the same way on every path that brings a template and
 * entries together: create pool (new or existing IP pool), scale-up's appended entries, IP-pool
 * append and edit, infrastructure upgrade. The pool `legacy-ip` is used by `legacy`, whose
 * template still mounts /var/cpaas (R-DISK-5 legacy layout); a stale template of an earlier
 * version that does not mount it names the same pool and sorts first.
 */

const base = aMachineTemplate().spec?.template.spec;
if (!base) throw new Error('the builder has a spec');
const legacySpec: DCSMachineSpec = {
  ...structuredClone(base),
  ipHostPoolRef: { name: 'legacy-ip' },
  vmConfig: {
    ...base.vmConfig,
    dcsMachineDiskSpec: [
      ...(base.vmConfig?.dcsMachineDiskSpec ?? []),
      { quantity: 40, datastoreClusterName: 'ds-cluster-1', path: '/var/cpaas', format: 'xfs' },
    ],
  },
};
const staleSpec: DCSMachineSpec = {
  ...structuredClone(base),
  ipHostPoolRef: { name: 'legacy-ip' },
};
const { ipHostPoolRef: _ref, ...legacyInput } = legacySpec;

const plain = (n: number): IpPoolEntry => {
  const { persistentDisk: _d, ...e } = anIpEntry(n, {
    ip: `10.0.5.${String(10 + n)}`,
    gateway: '10.0.5.1',
    hostname: `legacy-${String(n)}`,
    machineName: `legacy-vm-${String(n)}`,
  });
  return e;
};
/** An entry with a /var/cpaas persistent disk (the builder's default disk). */
const withCpaas = (n: number): IpPoolEntry => ({
  ...plain(n),
  persistentDisk: anIpEntry(n).persistentDisk ?? [],
});

const ctx = aValidationContext({
  namesInUse: {
    machineDeployments: ['legacy'],
    machineTemplates: ['aaa-stale-tpl', 'legacy-tpl'],
    bootstrapTemplates: ['demo-md-0-kct'],
    ipPools: ['legacy-ip'],
  },
  ipPools: [
    {
      name: 'legacy-ip',
      resourceVersion: '7',
      entries: [1, 2].map(plain),
      claims: [],
      consumers: [
        { deployment: 'legacy', replicas: 2, maxSurge: 0, machineTemplate: 'legacy-tpl' },
      ],
    },
  ],
  machineTemplates: [
    { name: 'aaa-stale-tpl', spec: staleSpec },
    { name: 'legacy-tpl', spec: legacySpec },
  ],
});

const twice = (issues: readonly RuleIssue[]) =>
  issues
    .filter((i) => i.messageKey === 'disk.mountedTwice')
    .map((i) => `${i.severity} ${i.rule} ${i.path}`);

const legacyPool = {
  name: 'legacy',
  replicas: 2,
  ipPoolName: 'legacy-ip',
  maxSurge: 0,
  machineTemplateName: 'legacy-tpl',
};

describe('R-TPL-2: a mount in the template and as a persistent disk is refused on every path', () => {
  it('R-TPL-2: O-CREATE-POOL with a new IP pool whose entries mount what the new template mounts', () => {
    const req = CreatePoolRequestSchema.parse(
      aCreatePoolRequest({
        replicas: 1,
        machineTemplate: { mode: 'new', name: 'n-tpl', spec: legacyInput },
        ipPool: { mode: 'new', name: 'n-ip', entries: [withCpaas(7)] },
      }),
    );
    expect(twice(validateCreatePool(req, ctx))).toEqual([
      'error R-TPL-2 ipPool.entries.0.persistentDisk.0.path',
    ]);
  });

  it('R-TPL-2: O-CREATE-POOL on an existing IP pool: appended entries against its users’ templates too', () => {
    const req = CreatePoolRequestSchema.parse(
      aCreatePoolRequest({
        replicas: 1,
        ipPool: {
          mode: 'existing',
          name: 'legacy-ip',
          resourceVersion: '7',
          append: [withCpaas(3)],
        },
      }),
    );
    expect(twice(validateCreatePool(req, ctx))).toEqual([
      'error R-TPL-2 ipPool.append.0.persistentDisk.0.path',
    ]);
  });

  it('R-TPL-2: O-SCALE-UP with entries appended to the pool', () => {
    const issues = validateScale(
      {
        replicas: 3,
        resourceVersion: '1',
        ipPoolAppend: { name: 'legacy-ip', resourceVersion: '7', entries: [withCpaas(3)] },
      },
      legacyPool,
      ctx,
    );
    expect(twice(issues)).toEqual(['error R-TPL-2 ipPoolAppend.entries.0.persistentDisk.0.path']);
  });

  it('R-TPL-2: IP-pool edit, an appended entry (against the template in use, not a stale one)', () => {
    const issues = validatePatchIpPool(
      'legacy-ip',
      { resourceVersion: '7', append: [withCpaas(3)], remove: [], update: [] },
      ctx,
    );
    expect(twice(issues)).toEqual(['error R-TPL-2 append.0.persistentDisk.0.path']);
  });

  it('R-TPL-2: IP-pool edit, a persistent disk added to an existing entry', () => {
    const issues = validatePatchIpPool(
      'legacy-ip',
      {
        resourceVersion: '7',
        append: [],
        remove: [],
        update: [{ ip: '10.0.5.12', persistentDisk: anIpEntry(2).persistentDisk ?? [] }],
      },
      ctx,
    );
    expect(twice(issues)).toEqual(['error R-TPL-2 update.0.persistentDisk.0.path']);
  });

  it('R-TPL-2: O-UPGRADE-INFRA to a template that mounts what the pool’s entries mount', () => {
    const withDisks = {
      ...ctx,
      ipPools: ctx.ipPools.map((p) => ({ ...p, entries: [1, 2].map(withCpaas) })),
    };
    const issues = validateUpgrade(
      {
        operation: 'infrastructure',
        resourceVersion: '1',
        machineTemplate: { name: 'legacy-tpl-r2', spec: legacyInput },
      },
      {
        ...legacyPool,
        version: 'v1.33.4',
        machineTemplateName: 'aaa-stale-tpl',
        bootstrapTemplateName: 'demo-md-0-kct',
        maxUnavailable: 1,
      },
      withDisks,
    );
    // One per entry of the pool, each naming its entry, at the template's disk.
    expect(
      issues.filter((i) => i.messageKey === 'disk.mountedTwice').map((i) => [i.path, i.params.ip]),
    ).toEqual([
      ['machineTemplate.spec.vmConfig.dcsMachineDiskSpec.3.path', '10.0.5.11'],
      ['machineTemplate.spec.vmConfig.dcsMachineDiskSpec.3.path', '10.0.5.12'],
    ]);
  });

  it('R-TPL-2: no issue where the template and the entries mount different paths', () => {
    const clean = { ...ctx, machineTemplates: [{ name: 'legacy-tpl', spec: staleSpec }] };
    const issues = validatePatchIpPool(
      'legacy-ip',
      { resourceVersion: '7', append: [withCpaas(3)], remove: [], update: [] },
      clean,
    );
    expect(twice(issues)).toEqual([]);
  });
});
