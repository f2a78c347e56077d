import { describe, expect, it } from 'vitest';
import { LABEL_CLUSTER_NAME, LABEL_DEPLOYMENT_NAME, LABEL_SET_NAME } from '../labels';
import type { AnyObject, V1Beta2Condition } from '../schemas/meta';
import {
  aCluster,
  aDCSCluster,
  aDCSMachine,
  aKubeadmControlPlane,
  aMachine,
  aMachineDeployment,
  aMachineSet,
  controlPlaneLabels,
  BOOTSTRAP_API,
} from '../testing';
import {
  buildObjectTree,
  formatParagraph,
  humanDuration,
  renderObjectTree,
  showsConditionsOf,
  treeRowName,
  type ObjectTreeNode,
  type ObjectTreeObjects,
  type ObjectTreeOptions,
} from './object-tree';

/**
 * The object tree of `clusterctl describe cluster` (v1.14) on the console's hub model. Fixture:
 * cluster `prod` with a control plane of 3 and two pools (2 and 3 machines), one of whose
 * machines is failing (its VM could not be created).
 */

const AT = '2026-01-01T00:00:00Z';
const NOW = new Date('2026-01-01T01:00:00Z');
const minutes = (m: number) => new Date(Date.parse(AT) + m * 60_000).toISOString();

const c = (type: string, status: 'True' | 'False' | 'Unknown', reason: string, extra = {}) =>
  ({
    type,
    status,
    reason,
    lastTransitionTime: AT,
    observedGeneration: 1,
    ...extra,
  }) as V1Beta2Condition;

const healthyMachineConditions = (at: string) => [
  c('Available', 'True', 'Available', { lastTransitionTime: at }),
  c('Ready', 'True', 'Ready', { lastTransitionTime: at }),
  c('UpToDate', 'True', 'UpToDate', { lastTransitionTime: at }),
  c('BootstrapConfigReady', 'True', 'Ready'),
  c('InfrastructureReady', 'True', 'Ready'),
  c('NodeHealthy', 'True', 'NodeHealthy'),
  c('Deleting', 'False', 'NotDeleting'),
];

const FAILURE =
  '* InfrastructureReady: DCS refused to create the VM: the datastore cluster ds-cluster-1 has 12 GiB free, the disks need 200 GiB';

function fixture(): ObjectTreeObjects {
  const cluster = aCluster({
    metadata: { name: 'prod' },
    spec: {
      controlPlaneRef: { name: 'prod-control-plane' },
      infrastructureRef: { name: 'prod' },
    },
    status: {
      v1beta2: {
        conditions: [c('Available', 'True', 'Available', { lastTransitionTime: minutes(20) })],
        controlPlane: {
          desiredReplicas: 3,
          replicas: 3,
          readyReplicas: 3,
          availableReplicas: 3,
          upToDateReplicas: 3,
        },
        workers: {
          desiredReplicas: 5,
          replicas: 5,
          readyReplicas: 4,
          availableReplicas: 4,
          upToDateReplicas: 5,
        },
      },
    },
  });
  const infrastructure = aDCSCluster({
    metadata: { name: 'prod' },
    status: { conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: AT }] },
  } as never);
  const controlPlane = aKubeadmControlPlane({
    metadata: { name: 'prod-control-plane', labels: { [LABEL_CLUSTER_NAME]: 'prod' } },
    status: {
      v1beta2: {
        conditions: [c('Available', 'True', 'Available', { lastTransitionTime: minutes(15) })],
        readyReplicas: 3,
        availableReplicas: 3,
        upToDateReplicas: 3,
      },
    },
  });
  const cpMachines = [1, 2, 3].map((i) =>
    aMachine({
      metadata: { name: `prod-control-plane-cp${i}`, labels: controlPlaneLabels('prod') },
      spec: { clusterName: 'prod' },
      status: { v1beta2: { conditions: healthyMachineConditions(minutes(10 + i)) } },
    }),
  );
  const pool = (md: string, replicas: number, ready: number) => {
    const deployment = aMachineDeployment({
      metadata: { name: md },
      spec: { clusterName: 'prod', replicas },
      status: {
        replicas,
        v1beta2: {
          conditions: [
            ready >= replicas - 1
              ? c('Available', 'True', 'Available', { lastTransitionTime: minutes(30) })
              : c('Available', 'False', 'NotAvailable'),
          ],
          readyReplicas: ready,
          availableReplicas: ready,
          upToDateReplicas: replicas,
        },
      },
    });
    const set = aMachineSet({
      metadata: {
        name: `${md}-7d9f8`,
        labels: { [LABEL_DEPLOYMENT_NAME]: md, [LABEL_CLUSTER_NAME]: 'prod' },
        ownerReferences: [
          {
            apiVersion: 'cluster.x-k8s.io/v1beta1',
            kind: 'MachineDeployment',
            name: md,
            uid: deployment.metadata.uid ?? '',
            controller: true,
          },
        ],
      },
      spec: { clusterName: 'prod', replicas },
      status: {
        replicas,
        v1beta2: { readyReplicas: ready, availableReplicas: ready, upToDateReplicas: replicas },
      },
    });
    return { deployment, set };
  };
  const a = pool('prod-md-a', 2, 2);
  const b = pool('prod-md-b', 3, 2);
  const worker = (set: AnyObject, md: string, name: string) =>
    aMachine({
      metadata: {
        name,
        labels: {
          [LABEL_CLUSTER_NAME]: 'prod',
          [LABEL_DEPLOYMENT_NAME]: md,
          [LABEL_SET_NAME]: set.metadata.name ?? '',
        },
        ownerReferences: [
          {
            apiVersion: 'cluster.x-k8s.io/v1beta1',
            kind: 'MachineSet',
            name: set.metadata.name ?? '',
            uid: set.metadata.uid ?? '',
            controller: true,
          },
        ],
      },
      spec: { clusterName: 'prod' },
      status: { v1beta2: { conditions: healthyMachineConditions(minutes(25)) } },
    });
  const workers = [
    worker(a.set, 'prod-md-a', 'prod-md-a-7d9f8-k2x4p'),
    worker(a.set, 'prod-md-a', 'prod-md-a-7d9f8-q8w3n'),
    worker(b.set, 'prod-md-b', 'prod-md-b-7d9f8-a1b2c'),
    worker(b.set, 'prod-md-b', 'prod-md-b-7d9f8-d3e4f'),
  ];
  const failing = worker(b.set, 'prod-md-b', 'prod-md-b-7d9f8-zz9yx');
  failing.status = {
    phase: 'Provisioning',
    v1beta2: {
      conditions: [
        c('Available', 'False', 'NotReady', { lastTransitionTime: minutes(50) }),
        c('Ready', 'False', 'NotReady', { lastTransitionTime: minutes(50), message: FAILURE }),
        c('UpToDate', 'True', 'UpToDate', { lastTransitionTime: minutes(50) }),
        c('InfrastructureReady', 'False', 'VMProvisionFailed', {
          lastTransitionTime: minutes(50),
          message: FAILURE.slice('* InfrastructureReady: '.length),
        }),
        c('NodeHealthy', 'Unknown', 'WaitingForNode', { lastTransitionTime: minutes(50) }),
      ],
    },
  };
  const machines = [...cpMachines, ...workers, failing];
  const dcsMachines = machines.map((m) =>
    aDCSMachine({
      metadata: { name: m.metadata.name ?? '' },
      status:
        m === failing
          ? {
              ready: false,
              conditions: [
                {
                  type: 'Ready',
                  status: 'False',
                  severity: 'Error',
                  reason: 'VMProvisionFailed',
                  message: 'the datastore cluster ds-cluster-1 has 12 GiB free',
                  lastTransitionTime: minutes(50),
                },
              ],
            }
          : { conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: minutes(5) }] },
    } as never),
  );
  const bootstrapConfigs = machines.map((m): AnyObject => ({
    apiVersion: BOOTSTRAP_API,
    kind: 'KubeadmConfig',
    metadata: { name: m.metadata.name ?? '', namespace: 'cpaas-system' },
    status: {
      ready: true,
      conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: minutes(5) }],
      v1beta2: { conditions: [c('Ready', 'True', 'Ready', { lastTransitionTime: minutes(5) })] },
    },
  }));
  return {
    cluster,
    infrastructure,
    controlPlane,
    machineDeployments: [b.deployment, a.deployment],
    machineSets: [a.set, b.set],
    machines: [...machines].reverse(),
    machineInfrastructure: dcsMachines,
    bootstrapConfigs,
  };
}

const render = (options: ObjectTreeOptions = {}, objects = fixture()) =>
  renderObjectTree(buildObjectTree(objects, options), NOW).text;

const names = (node: ObjectTreeNode, depth = 0): string[] => [
  `${'  '.repeat(depth)}${treeRowName(node)}`,
  ...node.children.flatMap((c) => names(c, depth + 1)),
];

describe('buildObjectTree (clusterctl describe cluster)', () => {
  it('groups machines whose Available, Ready and UpToDate agree; a failing one stands alone with its infrastructure', () => {
    const tree = buildObjectTree(fixture());
    expect(tree.conditions).toBe('v1beta2');
    expect(names(tree.root)).toEqual([
      'Cluster/prod',
      '  ClusterInfrastructure - DCSCluster/prod',
      '  ControlPlane - KubeadmControlPlane/prod-control-plane',
      '    3 Machines...',
      '  Workers',
      '    MachineDeployment/prod-md-a',
      '      2 Machines...',
      '    MachineDeployment/prod-md-b',
      '      2 Machines...',
      '      Machine/prod-md-b-7d9f8-zz9yx',
      '        MachineInfrastructure - DCSMachine/prod-md-b-7d9f8-zz9yx',
    ]);
    const cp = tree.root.children[1]?.children[0];
    expect(cp?.group?.items).toEqual([
      'prod-control-plane-cp1',
      'prod-control-plane-cp2',
      'prod-control-plane-cp3',
    ]);
    // The group's Ready: the earliest transition, no message (upstream's createGroupNode).
    expect(cp?.condition).toMatchObject({
      type: 'Ready',
      status: 'True',
      lastTransitionTime: minutes(11),
    });
    expect(cp?.condition?.message).toBeUndefined();
    expect(cp).toMatchObject({ available: '3', ready: '3', upToDate: '3' });
  });

  it('prints the layout of clusterctl describe cluster, v1beta2 columns, messages wrapped', () => {
    expect(render()).toBe(
      [
        'NAME                                                              REPLICAS  AVAILABLE  READY  UP TO DATE  STATUS           REASON             SINCE  MESSAGE',
        'Cluster/prod                                                      8/8       7          7      8           Available: True  Available          40m',
        '├─ClusterInfrastructure - DCSCluster/prod                                                                 Ready: True      NoReasonReported   60m',
        '├─ControlPlane - KubeadmControlPlane/prod-control-plane           3/3       3          3      3           Available: True  Available          45m',
        '│ └─3 Machines...                                                           3          3      3           Ready: True      Ready              49m    See prod-control-plane-cp1, prod-control-plane-cp2, ...',
        '└─Workers',
        '  ├─MachineDeployment/prod-md-a                                   2/2       2          2      2           Available: True  Available          30m',
        '  │ └─2 Machines...                                                         2          2      2           Ready: True      Ready              35m    See prod-md-a-7d9f8-k2x4p, prod-md-a-7d9f8-q8w3n',
        '  └─MachineDeployment/prod-md-b                                   3/3       2          2      3           Available: True  Available          30m',
        '    ├─2 Machines...                                                         2          2      2           Ready: True      Ready              35m    See prod-md-b-7d9f8-a1b2c, prod-md-b-7d9f8-d3e4f',
        '    └─Machine/prod-md-b-7d9f8-zz9yx                               1         0          0      1           Ready: False     NotReady           10m    * InfrastructureReady: DCS refused to create the VM: the datastore cluster ds-cluster-1 has 12 GiB',
        '      │                                                                                                                                                free, the disks need 200 GiB',
        '      └─MachineInfrastructure - DCSMachine/prod-md-b-7d9f8-zz9yx                                          Ready: False     VMProvisionFailed  10m    the datastore cluster ds-cluster-1 has 12 GiB free',
        '',
      ].join('\n'),
    );
  });

  it('--grouping=false gives every machine its line, and shows their infrastructure only where it says something new', () => {
    const tree = buildObjectTree(fixture(), { grouping: false });
    const lines = names(tree.root);
    expect(lines.filter((l) => l.trim().startsWith('Machine/'))).toHaveLength(8);
    expect(lines.some((l) => l.includes('Machines...'))).toBe(false);
    // Ready infrastructure and bootstrap objects echo their machine: hidden without --echo.
    expect(lines.filter((l) => l.includes('MachineInfrastructure'))).toEqual([
      '        MachineInfrastructure - DCSMachine/prod-md-b-7d9f8-zz9yx',
    ]);
    const echoed = names(buildObjectTree(fixture(), { grouping: false, echo: true }).root);
    expect(echoed.filter((l) => l.includes('MachineInfrastructure'))).toHaveLength(8);
    expect(echoed.filter((l) => l.includes('BootstrapConfig - KubeadmConfig/'))).toHaveLength(8);
  });

  it('--show-machinesets puts the MachineSet between the deployment and its machines, grouping under the set', () => {
    const lines = names(buildObjectTree(fixture(), { showMachineSets: true }).root);
    expect(lines.slice(5)).toEqual([
      '    MachineDeployment/prod-md-a',
      '      MachineSet/prod-md-a-7d9f8',
      '        2 Machines...',
      '    MachineDeployment/prod-md-b',
      '      MachineSet/prod-md-b-7d9f8',
      '        2 Machines...',
      '        Machine/prod-md-b-7d9f8-zz9yx',
      '          MachineInfrastructure - DCSMachine/prod-md-b-7d9f8-zz9yx',
    ]);
    expect(render({ showMachineSets: true })).toContain(
      '  │ └─MachineSet/prod-md-a-7d9f8                                    2/2       2          2      2\n',
    );
  });

  it('--show-conditions Machine/name lists that machine’s conditions under its line, as clusterctl indents them', () => {
    const text = render({ showConditions: 'Machine/prod-md-b-7d9f8-zz9yx' });
    const lines = text.split('\n');
    const at = lines.findIndex((l) => l.startsWith('    └─Machine/prod-md-b-7d9f8-zz9yx'));
    // Its own line loses the status columns; the conditions follow, 10 spaces in, then the child.
    expect(lines[at]).toBe(
      '    └─Machine/prod-md-b-7d9f8-zz9yx                               1         0          0      1',
    );
    expect(lines[at + 1]).toMatch(/^ {6}│ {11}├─Available +False +NotReady +10m$/);
    expect(lines[at + 2]).toMatch(
      /^ {6}│ {11}├─Ready +False +NotReady +10m +\* InfrastructureReady/,
    );
    expect(lines[at + 3]).toMatch(/^ {6}│ {11}│ +free, the disks need 200 GiB$/);
    expect(lines[at + 4]).toMatch(/^ {6}│ {11}├─UpToDate +True +UpToDate +10m$/);
    expect(lines[at + 5]).toMatch(
      /^ {6}│ {11}├─InfrastructureReady +False +VMProvisionFailed +10m +DCS refused/,
    );
    expect(lines[at + 6]).toMatch(/^ {6}│ {11}│ +GiB$/);
    expect(lines[at + 7]).toMatch(/^ {6}│ {11}└─NodeHealthy +Unknown +WaitingForNode +10m$/);
    expect(lines[at + 8]).toMatch(/^ {6}└─MachineInfrastructure - DCSMachine/);
  });

  it('--show-conditions by kind and "all" name objects case-insensitively, plural or not', () => {
    expect(showsConditionsOf('KubeadmControlPlane', 'KubeadmControlPlane', 'x')).toBe(true);
    expect(showsConditionsOf('machines', 'Machine', 'x')).toBe(true);
    expect(showsConditionsOf(' Machine/m1 , Cluster', 'Machine', 'm1')).toBe(true);
    expect(showsConditionsOf('Machine/m1', 'Machine', 'm2')).toBe(false);
    expect(showsConditionsOf('all', 'DCSMachine', 'x')).toBe(true);
    expect(showsConditionsOf('', 'Cluster', 'x')).toBe(false);
    const tree = buildObjectTree(fixture(), { showConditions: 'all' });
    expect(tree.root.conditions?.map((x) => x.type)).toEqual(['Available']);
    expect(tree.root.children[1]?.conditions?.map((x) => x.type)).toEqual(['Available']);
  });

  it('v1beta1 mode (a cluster before v1.9): READY SEVERITY REASON columns from the old conditions', () => {
    const objects = fixture();
    const failing = objects.machines.find((m) => m.metadata.name === 'prod-md-b-7d9f8-zz9yx');
    if (!failing?.status) throw new Error('fixture');
    failing.status.conditions = [
      {
        type: 'Ready',
        status: 'False',
        severity: 'Error',
        reason: 'VMProvisionFailed',
        message: 'x'.repeat(120),
        lastTransitionTime: minutes(50),
      },
      { type: 'BootstrapReady', status: 'True', lastTransitionTime: minutes(50) },
    ];
    const text = render(
      { conditions: 'v1beta1', showConditions: 'Machine/prod-md-b-7d9f8-zz9yx' },
      objects,
    );
    const lines = text.split('\n');
    expect(lines[0]).toMatch(/^NAME +READY +SEVERITY +REASON +SINCE +MESSAGE$/);
    expect(lines[1]).toMatch(/^Cluster\/prod +True +60m$/);
    const at = lines.findIndex((l) => l.includes('Machine/prod-md-b-7d9f8-zz9yx'));
    expect(lines[at]).toMatch(/False +Error +VMProvisionFailed +10m +x{100} \.\.\.$/);
    // The other conditions (Ready is on the object's line), by type.
    expect(lines[at + 1]).toMatch(/^ {18}└─BootstrapReady +True +10m$/);
    // The DCSMachine's Ready says what the machine's does: an echo, not shown.
    expect(text).not.toContain('MachineInfrastructure - DCSMachine/prod-md-b-7d9f8-zz9yx');
  });

  it('picks v1beta2 when the Cluster carries v1beta2 conditions, v1beta1 otherwise', () => {
    const objects = fixture();
    expect(buildObjectTree(objects).conditions).toBe('v1beta2');
    delete objects.cluster.status?.v1beta2;
    expect(buildObjectTree(objects).conditions).toBe('v1beta1');
  });

  it('marks deleting objects and puts machines no pool owns under Workers › Other', () => {
    const objects = fixture();
    const orphan = aMachine({
      metadata: { name: 'prod-stray', labels: { [LABEL_CLUSTER_NAME]: 'prod' } },
      spec: { clusterName: 'prod' },
    });
    const deleting = objects.machines.find((m) => m.metadata.name === 'prod-md-a-7d9f8-q8w3n');
    if (!deleting) throw new Error('fixture');
    deleting.metadata.deletionTimestamp = minutes(55);
    const lines = names(
      buildObjectTree({ ...objects, machines: [...objects.machines, orphan] }, { grouping: false })
        .root,
    );
    expect(lines).toContain('      !! DELETED !! Machine/prod-md-a-7d9f8-q8w3n');
    expect(lines.slice(-2)).toEqual(['    Other', '      Machine/prod-stray']);
  });

  it('links the control plane and pools to their pool pages, machines to their machine pages', () => {
    const tree = buildObjectTree(fixture(), { grouping: false });
    const all: ObjectTreeNode[] = [];
    const walk = (n: ObjectTreeNode) => {
      all.push(n);
      n.children.forEach(walk);
    };
    walk(tree.root);
    const link = (id: string) => all.find((n) => n.id === id)?.link;
    expect(link('KubeadmControlPlane/prod-control-plane')).toEqual({ pool: 'control-plane' });
    expect(link('MachineDeployment/prod-md-b')).toEqual({ pool: 'prod-md-b' });
    expect(link('Machine/prod-md-b-7d9f8-zz9yx')).toEqual({ machine: 'prod-md-b-7d9f8-zz9yx' });
    expect(link('Cluster/prod')).toBeUndefined();
  });

  it('falls back to the Cluster API labels for objects without a controller ownerReference', () => {
    const objects = fixture();
    for (const o of [...objects.machineSets, ...objects.machines])
      delete o.metadata.ownerReferences;
    expect(names(buildObjectTree(objects).root)).toEqual(names(buildObjectTree(fixture()).root));
  });
});

describe('renderObjectTree: the tree glyphs (upstream Test_TreePrefix)', () => {
  const node = (name: string, children: ObjectTreeNode[] = [], extra = {}): ObjectTreeNode => ({
    id: `Object/${name}`,
    kind: 'Object',
    name,
    children,
    ...extra,
  });
  const text = (root: ObjectTreeNode) =>
    renderObjectTree({ conditions: 'v1beta2', options: {} as never, root }, NOW).rows.map((r) =>
      (r.prefix + r.name).trimEnd(),
    );

  it('first level and second level children', () => {
    expect(
      text(
        node('root', [
          node('child1', [node('child1.1'), node('child1.2')]),
          node('child2', [node('child2.1'), node('child2.2')]),
        ]),
      ),
    ).toEqual([
      'Object/root',
      '├─Object/child1',
      '│ ├─Object/child1.1',
      '│ └─Object/child1.2',
      '└─Object/child2',
      '  ├─Object/child2.1',
      '  └─Object/child2.2',
    ]);
  });

  it('conditions of an object with and without children', () => {
    const conds = (p: string) => [
      { type: `${p}.1`, status: 'True' as const },
      { type: `${p}.2`, status: 'True' as const },
    ];
    expect(
      text(
        node('root', [
          node('child1', [], { conditions: conds('C1') }),
          node('child2', [], { conditions: conds('C2') }),
        ]),
      ),
    ).toEqual([
      'Object/root',
      '├─Object/child1',
      '│             ├─C1.1',
      '│             └─C1.2',
      '└─Object/child2',
      '              ├─C2.1',
      '              └─C2.2',
    ]);
    expect(
      text(
        node('root', [
          node('child1', [node('child1.1')], { conditions: conds('C1') }),
          node('child2', [node('child2.1')], { conditions: conds('C2') }),
        ]),
      ),
    ).toEqual([
      'Object/root',
      '├─Object/child1',
      '│ │           ├─C1.1',
      '│ │           └─C1.2',
      '│ └─Object/child1.1',
      '└─Object/child2',
      '  │           ├─C2.1',
      '  │           └─C2.2',
      '  └─Object/child2.1',
    ]);
  });

  it('a message’s second line carries the ancestors’ pipes (upstream Test_V1Beta2TreePrefix)', () => {
    const failing = {
      condition: {
        type: 'Available',
        status: 'False' as const,
        reason: 'NotAvailable',
        message: 'first line\nsecond line',
      },
    };
    const ok = { condition: { type: 'Available', status: 'True' as const, reason: 'Available' } };
    const rows = renderObjectTree(
      {
        conditions: 'v1beta2',
        options: {} as never,
        root: node(
          'root',
          [
            node(
              'child1',
              [node('child2', [node('child3', [node('child4', [], failing)], failing)], failing)],
              ok,
            ),
            node('child5', [], failing),
          ],
          ok,
        ),
      },
      NOW,
    ).rows.map((r) => (r.type === 'more' ? `${r.prefix}|${r.cells[7]}` : r.prefix + r.name));
    expect(rows).toEqual([
      'Object/root',
      '├─Object/child1',
      '│ └─Object/child2',
      '│   │ |second line',
      '│   └─Object/child3',
      '│     │ |second line',
      '│     └─Object/child4',
      '│       |second line',
      '└─Object/child5',
      '  |second line',
    ]);
  });
});

describe('humanDuration and formatParagraph (Kubernetes’ and clusterctl’s)', () => {
  it.each([
    [0, '0s'],
    [-1500, '0s'],
    [-3000, '<invalid>'],
    [119_000, '119s'],
    [120_000, '2m'],
    [150_000, '2m30s'],
    [10 * 60_000, '10m'],
    [179 * 60_000, '179m'],
    [3 * 3600_000, '3h'],
    [3 * 3600_000 + 5 * 60_000, '3h5m'],
    [8 * 3600_000, '8h'],
    [47 * 3600_000, '47h'],
    [48 * 3600_000, '2d'],
    [50 * 3600_000, '2d2h'],
    [8 * 86400_000, '8d'],
    [2 * 365 * 86400_000, '2y'],
    [(2 * 365 + 3) * 86400_000, '2y3d'],
    [9 * 365 * 86400_000, '9y'],
  ])('%d ms is %s', (ms, text) => {
    expect(humanDuration(ms)).toBe(text);
  });

  it('wraps at 100 characters, keeps line breaks and indents bullets’ continuations', () => {
    const long = `* MachineDeployment prod-md-b: ${'word '.repeat(30).trim()}`;
    const lines = formatParagraph(`${long}\n  * nested`).split('\n');
    expect(lines.every((l) => l.length <= 100)).toBe(true);
    expect(lines[1]).toMatch(/^ {2}word/);
    expect(lines.at(-1)).toBe('  * nested');
    expect(formatParagraph('')).toBe('');
  });
});
