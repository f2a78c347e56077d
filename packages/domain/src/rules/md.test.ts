import { describe, expect, it } from 'vitest';
import { resolveFenceposts } from '../intstr';
import type { IntOrString } from '../schemas/meta';
import { aValidationContext } from '../testing';
import type { RuleIssue } from './issue';
import {
  checkControlPlaneVersionChange,
  checkMachineResourceVersions,
  checkMaxSurgeWithPersistentDisks,
  checkNewObjectName,
  checkObjectExists,
  checkPoolName,
  checkRolloutStrategy,
  checkTargetedScaleDown,
  checkVersionOffered,
  checkVersionSkew,
  checkVmTemplateCarriesVersion,
  checkWorkerVersionChange,
  type TargetedScaleDownPool,
} from './md';
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

describe('R-MD-2 maxSurge and maxUnavailable, as Cluster API', () => {
  const cases: [IntOrString, IntOrString, string[]][] = [
    [1, 0, []],
    [0, 1, []],
    [2, 1, []],
    ['25%', '25%', []],
    ['0%', '0%', []],
    [0, '0%', []],
    ['0%', 0, []],
    [0, 0, ['error R-MD-2 strategy.maxUnavailable md.bothZero']],
    ['1', 0, ['error R-MD-2 strategy.maxSurge md.intOrPercent.notPercent']],
    [1, '1', ['error R-MD-2 strategy.maxUnavailable md.intOrPercent.notPercent']],
    [
      '0',
      '0',
      [
        'error R-MD-2 strategy.maxSurge md.intOrPercent.notPercent',
        'error R-MD-2 strategy.maxUnavailable md.intOrPercent.notPercent',
      ],
    ],
    [-1, 1, ['error R-MD-2 strategy.maxSurge md.intOrPercent.negative']],
    [1, '-10%', ['error R-MD-2 strategy.maxUnavailable md.intOrPercent.negative']],
    ['1.5%', 1, ['error R-MD-2 strategy.maxSurge md.intOrPercent.badPercent']],
    [1.5, 1, ['error R-MD-2 strategy.maxSurge md.intOrPercent.notInteger']],
    ['', 1, ['error R-MD-2 strategy.maxSurge md.intOrPercent.notPercent']],
  ];
  for (const [maxSurge, maxUnavailable, expected] of cases) {
    const verdict = expected.length ? 'rejects' : 'accepts';
    it(`R-MD-2: ${verdict} maxSurge ${JSON.stringify(maxSurge)} with maxUnavailable ${JSON.stringify(maxUnavailable)}`, () => {
      expectIssues(checkRolloutStrategy({ maxSurge, maxUnavailable }, 'strategy'), expected);
    });
  }

  it('R-MD-2: accepts "0%" and "0%", resolved as Cluster API does to maxUnavailable 1', () => {
    expect(checkRolloutStrategy({ maxSurge: '0%', maxUnavailable: '0%' }, 's')).toEqual([]);
    expect(resolveFenceposts('0%', '0%', 3)).toEqual({ maxSurge: 0, maxUnavailable: 1 });
  });

  it('R-MD-2: accepts an unset strategy (Cluster API defaults it)', () => {
    expect(checkRolloutStrategy({}, 's')).toEqual([]);
    expect(checkRolloutStrategy({ maxUnavailable: 0 }, 's')).toEqual([]);
  });

  it('R-MD-2: rejects maxSurge 0 with maxUnavailable unset (defaulted to 0)', () => {
    expectIssues(checkRolloutStrategy({ maxSurge: 0 }, 'strategy'), [
      'error R-MD-2 strategy.maxUnavailable md.bothZero',
    ]);
  });

  it('R-MD-2: says how to write a bare numeric string', () => {
    const [issue] = checkRolloutStrategy({ maxSurge: '1', maxUnavailable: 0 }, 'strategy');
    expect(issue?.message).toBe(
      'maxSurge "1" is a string but not a percentage: write an integer such as 1, or a percentage such as "25%".',
    );
  });
});

describe('R-MD-3 maxSurge 0 with persistent disks', () => {
  table('R-MD-3', [
    {
      name: 'accepts maxSurge 0 on a pool with persistent disks',
      run: () => checkMaxSurgeWithPersistentDisks(0, 3, true, 'strategy.maxSurge'),
      expected: [],
    },
    {
      name: 'accepts "0%" on a pool with persistent disks',
      run: () => checkMaxSurgeWithPersistentDisks('0%', 3, true, 'strategy.maxSurge'),
      expected: [],
    },
    {
      name: 'rejects maxSurge 1 on a pool with persistent disks',
      run: () => checkMaxSurgeWithPersistentDisks(1, 3, true, 'strategy.maxSurge'),
      expected: ['error R-MD-3 strategy.maxSurge md.maxSurgeWithDisks'],
    },
    {
      name: 'rejects a percentage that rounds up to one machine',
      run: () => checkMaxSurgeWithPersistentDisks('10%', 3, true, 'strategy.maxSurge'),
      expected: ['error R-MD-3 strategy.maxSurge md.maxSurgeWithDisks'],
    },
    {
      name: 'rejects an unset maxSurge (Cluster API’s default is 1)',
      run: () => checkMaxSurgeWithPersistentDisks(undefined, 3, true, 'strategy.maxSurge'),
      expected: ['error R-MD-3 strategy.maxSurge md.maxSurgeWithDisks'],
    },
    {
      name: 'accepts any maxSurge without persistent disks',
      run: () => checkMaxSurgeWithPersistentDisks(2, 3, false, 'strategy.maxSurge'),
      expected: [],
    },
    {
      name: 'warns before a rollout when the strategy is not edited here',
      run: () => checkMaxSurgeWithPersistentDisks(1, 3, true, '', 'warning'),
      expected: ['warning R-MD-3  md.rolloutSurgeWithDisks'],
    },
  ]);
});

describe('R-MD-4 versions', () => {
  const cp = (controlPlaneVersion: string | undefined) =>
    aValidationContext({ controlPlaneVersion });
  table('R-MD-4', [
    {
      name: 'accepts a version of the catalog',
      run: () => checkVersionOffered('v1.33.4', ctx, 'version'),
      expected: [],
    },
    {
      name: 'accepts a version written without the v',
      run: () => checkVersionOffered('1.33.4', ctx, 'version'),
      expected: [],
    },
    {
      name: 'rejects a version the catalog does not offer',
      run: () => checkVersionOffered('v1.36.0', ctx, 'version'),
      expected: ['error R-MD-4 version md.versionNotInCatalog'],
    },
    {
      name: 'rejects what is not a version',
      run: () => checkVersionOffered('latest', ctx, 'version'),
      expected: ['error R-MD-4 version md.versionInvalid'],
    },
    {
      name: 'warns when the catalog is empty',
      run: () => checkVersionOffered('v1.33.4', aValidationContext({ versions: [] }), 'version'),
      expected: ['warning R-MD-4 version md.catalogEmpty'],
    },
    {
      name: 'accepts the VM template the catalog names',
      run: () => checkVmTemplateCarriesVersion('v1.33.4', 'alauda-os-k8s-v1.33.4', ctx, 'vm'),
      expected: [],
    },
    {
      name: 'rejects a VM template that carries another version',
      run: () => checkVmTemplateCarriesVersion('v1.34.1', 'alauda-os-k8s-v1.33.4', ctx, 'vm'),
      expected: ['error R-MD-4 vm md.vmTemplateCarriesOther'],
    },
    {
      name: 'rejects a VM template the catalog does not name for the version',
      run: () => checkVmTemplateCarriesVersion('v1.33.4', 'my-own-template', ctx, 'vm'),
      expected: ['error R-MD-4 vm md.vmTemplateMismatch'],
    },
    {
      name: 'accepts workers at the control plane’s version',
      run: () => checkVersionSkew('v1.33.4', cp('v1.33.4'), 'version'),
      expected: [],
    },
    {
      name: 'accepts a newer patch of the control plane’s minor',
      run: () => checkVersionSkew('v1.33.9', cp('v1.33.4'), 'version'),
      expected: [],
    },
    {
      name: 'accepts workers three minors older',
      run: () => checkVersionSkew('v1.30.0', cp('v1.33.4'), 'version'),
      expected: [],
    },
    {
      name: 'rejects workers four minors older',
      run: () => checkVersionSkew('v1.29.0', cp('v1.33.4'), 'version'),
      expected: ['error R-MD-4 version md.tooOldForControlPlane'],
    },
    {
      name: 'rejects workers newer than the control plane',
      run: () => checkVersionSkew('v1.34.1', cp('v1.33.4'), 'version'),
      expected: ['error R-MD-4 version md.newerThanControlPlane'],
    },
    {
      name: 'warns when the control plane’s version is unknown',
      run: () => checkVersionSkew('v1.33.4', cp(undefined), 'version'),
      expected: ['warning R-MD-4 version md.controlPlaneUnknown'],
    },
    {
      name: 'accepts a worker upgrade',
      run: () => checkWorkerVersionChange('v1.33.4', 'v1.34.1', 'version'),
      expected: [],
    },
    {
      name: 'warns about a worker downgrade',
      run: () => checkWorkerVersionChange('v1.34.1', 'v1.33.4', 'version'),
      expected: ['warning R-MD-4 version md.workerDowngrade'],
    },
    {
      name: 'warns that the same version upgrades nothing',
      run: () => checkWorkerVersionChange('v1.33.4', '1.33.4', 'version'),
      expected: ['warning R-MD-4 version md.versionUnchanged'],
    },
    {
      name: 'accepts a control plane upgrade to the next minor',
      run: () => checkControlPlaneVersionChange('v1.33.4', 'v1.34.1', 'version'),
      expected: [],
    },
    {
      name: 'rejects a control plane upgrade that skips a minor',
      run: () => checkControlPlaneVersionChange('v1.33.4', 'v1.35.0', 'version'),
      expected: ['error R-MD-4 version md.controlPlaneSkipsMinor'],
    },
    {
      name: 'rejects a control plane downgrade',
      run: () => checkControlPlaneVersionChange('v1.34.1', 'v1.33.4', 'version'),
      expected: ['error R-MD-4 version md.controlPlaneDowngrade'],
    },
  ]);
});

describe('R-MD-5 names', () => {
  table('R-MD-5', [
    {
      name: 'accepts a free name with the cluster prefix',
      run: () => checkPoolName('demo-md-1', ctx, 'name'),
      expected: [],
    },
    {
      name: 'rejects the reserved control-plane id',
      run: () => checkPoolName('control-plane', ctx, 'name'),
      expected: ['error R-MD-5 name name.reserved'],
    },
    {
      name: 'rejects a name taken in the namespace',
      run: () => checkPoolName('demo-md-0', ctx, 'name'),
      expected: ['error R-MD-5 name name.inUse'],
    },
    {
      name: 'rejects upper case',
      run: () => checkPoolName('Demo-md-1', ctx, 'name'),
      expected: ['error R-MD-5 name name.poolInvalid'],
    },
    {
      name: 'rejects a dot (the name is also a label value)',
      run: () => checkPoolName('demo.md', ctx, 'name'),
      expected: ['error R-MD-5 name name.poolInvalid'],
    },
    {
      name: 'rejects more than 63 characters',
      run: () => checkPoolName(`demo-${'x'.repeat(59)}`, ctx, 'name'),
      expected: ['error R-MD-5 name name.poolInvalid'],
    },
    {
      name: 'recommends the <cluster>- prefix',
      run: () => checkPoolName('workers', ctx, 'name'),
      expected: ['warning R-MD-5 name name.prefixRecommended'],
    },
    {
      name: 'accepts a free template name',
      run: () =>
        checkNewObjectName('DCSMachineTemplate', 'demo-md-1-template', ctx, 'machineTemplate.name'),
      expected: [],
    },
    {
      name: 'rejects a template name taken in the namespace',
      run: () =>
        checkNewObjectName('DCSMachineTemplate', 'demo-md-0-template', ctx, 'machineTemplate.name'),
      expected: ['error R-MD-5 machineTemplate.name name.inUse'],
    },
    {
      name: 'rejects a taken bootstrap template and IP pool name',
      run: () => [
        ...checkNewObjectName('KubeadmConfigTemplate', 'demo-md-0-kct', ctx, 'bootstrap.name'),
        ...checkNewObjectName('DCSIpHostnamePool', 'demo-worker-pool', ctx, 'ipPool.name'),
      ],
      expected: ['error R-MD-5 bootstrap.name name.inUse', 'error R-MD-5 ipPool.name name.inUse'],
    },
    {
      name: 'rejects an invalid object name',
      run: () => checkNewObjectName('DCSIpHostnamePool', 'pool_1', ctx, 'ipPool.name'),
      expected: ['error R-MD-5 ipPool.name name.invalid'],
    },
    {
      name: 'rejects an existing object that is not there',
      run: () => checkObjectExists('DCSMachineTemplate', 'nope', ctx, 'machineTemplate.name'),
      expected: ['error R-MD-5 machineTemplate.name name.notFound'],
    },
  ]);

  it('R-MD-5: suggests the prefixed name', () => {
    const [issue] = checkPoolName('workers', ctx, 'name');
    expect(issue?.params.example).toBe('demo-workers');
  });
});

describe('R-MD-6 targeted scale-down', () => {
  const machines = ['m1', 'm2', 'm3', 'm4', 'm5'].map((name) => ({ name, deleting: false }));
  const pool = (o: Partial<TargetedScaleDownPool> = {}): TargetedScaleDownPool => ({
    name: 'demo-md-0',
    replicas: 5,
    machines,
    rolloutInProgress: false,
    ...o,
  });
  table('R-MD-6', [
    {
      name: 'accepts machines of a steady pool',
      run: () => checkTargetedScaleDown(['m2', 'm4'], pool()),
      expected: [],
    },
    {
      name: 'accepts deleting every machine',
      run: () => checkTargetedScaleDown(['m1', 'm2', 'm3', 'm4', 'm5'], pool()),
      expected: [],
    },
    {
      name: 'rejects a machine of another pool',
      run: () => checkTargetedScaleDown(['m2', 'other-1'], pool()),
      expected: ['error R-MD-6 deleteMachines.1 md.deleteNotInPool'],
    },
    {
      name: 'rejects a machine named twice (replicas would drop by one too many)',
      run: () => checkTargetedScaleDown(['m2', 'm2'], pool()),
      expected: ['error R-MD-6 deleteMachines.1 md.deleteDuplicate'],
    },
    {
      name: 'rejects a machine already being deleted',
      run: () =>
        checkTargetedScaleDown(
          ['m1'],
          pool({
            replicas: 4,
            machines: machines.map((m) => ({ ...m, deleting: m.name === 'm1' })),
          }),
        ),
      expected: ['error R-MD-6 deleteMachines.0 md.deleteAlreadyDeleting'],
    },
    {
      name: 'rejects more machines than replicas',
      run: () =>
        checkTargetedScaleDown(
          ['m1', 'm2', 'm3'],
          pool({ replicas: 2, machines: machines.slice(0, 2) }),
        ),
      expected: [
        'error R-MD-6 deleteMachines.2 md.deleteNotInPool',
        'error R-MD-6 deleteMachines md.deleteMoreThanReplicas',
      ],
    },
    {
      name: 'rejects during a rolling update',
      run: () => checkTargetedScaleDown(['m1'], pool({ rolloutInProgress: true })),
      expected: ['error R-MD-6 deleteMachines md.deleteDuringRollout'],
    },
    {
      name: 'rejects while the pool is still scaling',
      run: () => checkTargetedScaleDown(['m1'], pool({ replicas: 6 })),
      expected: ['error R-MD-6 deleteMachines md.deleteWhileScaling'],
    },
    {
      name: 'accepts a resourceVersion for each machine',
      run: () => checkMachineResourceVersions(['m1', 'm2'], { m1: '10', m2: '11' }),
      expected: [],
    },
    {
      name: 'rejects a machine without the resourceVersion the user saw',
      run: () => checkMachineResourceVersions(['m1', 'm2'], { m1: '10' }),
      expected: ['error R-MD-6 machineResourceVersions md.deleteResourceVersionMissing'],
    },
  ]);
});
