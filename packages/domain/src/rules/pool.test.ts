import { describe, expect, it } from 'vitest';
import type { IpPoolEntry } from '../schemas/dcs';
import { aValidationContext, anIpEntry } from '../testing';
import type { IpPoolContext, ValidationContext } from './context';
import type { RuleIssue } from './issue';
import {
  checkAddressing,
  checkClaimedEntriesKept,
  checkEntriesPreserved,
  checkEntryRemovals,
  checkNicEditOfClaimedEntry,
  checkPoolDemand,
  checkReplicasFitPool,
  mergePersistentDisks,
  poolCapacity,
  poolEntriesAfterEdit,
  replicaRoom,
  validateNic,
  validatePoolEntries,
  type PoolDemand,
  type PoolEditIntent,
} from './pool';
import { expectIssues } from './test-support';

interface Case {
  name: string;
  run: () => RuleIssue[];
  expected: string[];
}

function table(rule: string, cases: readonly Case[]) {
  for (const c of cases) {
    it(`${rule}: ${c.name}`, () => {
      expectIssues(c.run(), c.expected);
    });
  }
}

const ctx = aValidationContext();
const demoPool = (o: Partial<IpPoolContext> = {}): IpPoolContext => ({
  name: 'demo-worker-pool',
  resourceVersion: '1',
  entries: [1, 2, 3].map((n) => anIpEntry(n)),
  claims: [1, 2, 3].map((n) => ({ ip: `10.0.1.${10 + n}`, machine: `demo-md-0-abc12-m${n}` })),
  consumers: [{ deployment: 'demo-md-0', replicas: 3, maxSurge: 0 }],
  ...o,
});
const demand = (replicas: number, maxSurge: PoolDemand['maxSurge']): PoolDemand => ({
  deployment: 'demo-md-0',
  replicas,
  maxSurge,
});
/** Entries of a fresh pool that no other pool of the context holds (10.0.1.21 …). */
const fresh = (...ns: number[]) => ns.map((n) => anIpEntry(n + 10));
const entriesCheck = (entries: IpPoolEntry[], c: ValidationContext = ctx) =>
  validatePoolEntries(entries, c, 'entries', {});

describe('R-POOL-1 demand against entries', () => {
  table('R-POOL-1', [
    {
      name: 'accepts demand equal to entries with maxSurge 0',
      run: () => checkPoolDemand('p', 3, [demand(3, 0)], 'replicas'),
      expected: [],
    },
    {
      name: 'rejects demand above entries (surplus machines would wait without an address)',
      run: () => checkPoolDemand('p', 3, [demand(4, 0)], 'replicas'),
      expected: ['error R-POOL-1 replicas pool.demandExceedsEntries'],
    },
    {
      name: 'sums the replicas of every deployment naming the pool',
      run: () =>
        checkPoolDemand('p', 3, [demand(2, 0), { ...demand(2, 0), deployment: 'b' }], 'remove'),
      expected: ['error R-POOL-1 remove pool.demandExceedsEntries'],
    },
    {
      name: 'warns when demand plus resolved maxSurge exceeds entries',
      run: () => checkPoolDemand('p', 3, [demand(3, 1)], 'replicas'),
      expected: ['warning R-POOL-1 replicas pool.surgeExceedsEntries'],
    },
    {
      name: 'resolves a percentage maxSurge rounding up (50% of 3 is 2)',
      run: () => checkPoolDemand('p', 4, [demand(3, '50%')], ''),
      expected: ['warning R-POOL-1  pool.surgeExceedsEntries'],
    },
    {
      name: 'counts an unset maxSurge as Cluster API’s default 1',
      run: () => checkPoolDemand('p', 3, [demand(3, undefined)], ''),
      expected: ['warning R-POOL-1  pool.surgeExceedsEntries'],
    },
    {
      name: 'accepts headroom for the surge',
      run: () => checkPoolDemand('p', 4, [demand(3, 1)], ''),
      expected: [],
    },
  ]);

  it('R-POOL-1: forms show free = entries − claimed', () => {
    expect(poolCapacity(demoPool())).toEqual({
      entries: 3,
      demand: 3,
      surge: 0,
      claimed: 3,
      free: 0,
    });
    const partly = demoPool({
      entries: [1, 2, 3, 4].map((n) => anIpEntry(n)),
      claims: [
        { ip: '10.0.1.11', machine: 'm1' },
        { ip: '10.9.9.9', machine: 'elsewhere' },
      ],
    });
    expect(poolCapacity(partly)).toMatchObject({ entries: 4, claimed: 1, free: 3 });
  });

  it('R-POOL-1: the message gives the figures and the fix', () => {
    const [issue] = checkPoolDemand('demo-worker-pool', 3, [demand(5, 0)], 'replicas');
    expect(issue?.message).toBe(
      'IP pool demo-worker-pool has 3 entries, but the MachineDeployments using it need 5 (the sum of their replicas): 2 machines would wait without an address. Add at least 2 entries to the pool, or lower replicas.',
    );
    expect(issue?.params).toEqual({ pool: 'demo-worker-pool', entries: 3, demand: 5, missing: 2 });
  });
});

describe('R-MD-1 replicas against the pool', () => {
  const fit = (
    replicas: number,
    entryCount: number,
    used: number,
    maxSurge: PoolDemand['maxSurge'] = 0,
  ) =>
    checkReplicasFitPool({
      poolName: 'p',
      entryCount,
      used,
      deployment: { deployment: 'new', replicas, maxSurge },
      others: used ? [demand(used, 0)] : [],
      path: 'replicas',
      surgePath: 'strategy.maxSurge',
    });
  table('R-MD-1', [
    { name: 'accepts replicas that fit the free entries', run: () => fit(3, 6, 3), expected: [] },
    {
      name: 'rejects replicas beyond the free entries',
      run: () => fit(4, 6, 3),
      expected: ['error R-MD-1 replicas md.replicasExceedPool'],
    },
    {
      name: 'rejects any replica on a fully used pool',
      run: () => fit(1, 3, 3),
      expected: ['error R-MD-1 replicas md.replicasExceedPool'],
    },
    {
      name: 'accepts 0 replicas on a full pool',
      run: () => fit(0, 3, 3),
      expected: [],
    },
    {
      name: 'puts the rolling-update headroom warning (R-POOL-1) on maxSurge',
      run: () => fit(3, 6, 3, 1),
      expected: ['warning R-POOL-1 strategy.maxSurge pool.surgeExceedsEntries'],
    },
  ]);
});

describe('R-POOL-2 uniqueness', () => {
  table('R-POOL-2', [
    {
      name: 'accepts distinct ip, hostname and machineName',
      run: () => entriesCheck(fresh(1, 2, 3)),
      expected: [],
    },
    {
      name: 'rejects a duplicate ip, on the later entry',
      run: () => entriesCheck([...fresh(1, 2), anIpEntry(11, { hostname: 'x', machineName: 'y' })]),
      expected: ['error R-POOL-2 entries.2.ip pool.duplicate'],
    },
    {
      name: 'rejects a duplicate hostname',
      run: () => entriesCheck([...fresh(1), anIpEntry(12, { hostname: 'worker-node-11' })]),
      expected: ['error R-POOL-2 entries.1.hostname pool.duplicate'],
    },
    {
      name: 'rejects a duplicate machineName',
      run: () => entriesCheck([...fresh(1), anIpEntry(12, { machineName: 'worker-vm-11' })]),
      expected: ['error R-POOL-2 entries.1.machineName pool.duplicate'],
    },
    {
      name: 'does not count entries without hostname or machineName as colliding',
      run: () => entriesCheck(fresh(1, 2).map(({ hostname: _h, machineName: _m, ...e }) => e)),
      expected: [],
    },
    {
      name: 'rejects a collision with an entry already in the pool',
      run: () =>
        validatePoolEntries([anIpEntry(4, { hostname: 'worker-node-1' })], ctx, 'append', {
          poolName: 'demo-worker-pool',
          existing: demoPool().entries,
        }),
      expected: ['error R-POOL-2 append.0.hostname pool.duplicateOfExisting'],
    },
    {
      name: 'rejects an ip that another pool of the namespace holds',
      run: () => entriesCheck([anIpEntry(1, { hostname: 'h', machineName: 'm' })]),
      expected: ['error R-POOL-2 entries.0.ip pool.ipInOtherPool'],
    },
    {
      name: 'does not compare a pool with itself',
      run: () =>
        validatePoolEntries([anIpEntry(4)], ctx, 'append', { poolName: 'demo-worker-pool' }),
      expected: [],
    },
  ]);
});

describe('R-POOL-3 field formats', () => {
  const one = (o: Parameters<typeof anIpEntry>[1], newEntries = true) =>
    validatePoolEntries([anIpEntry(11, o)], ctx, 'entries', { newEntries });
  table('R-POOL-3', [
    { name: 'accepts a well-formed entry', run: () => one({}), expected: [] },
    {
      name: 'rejects an ip with an octet above 255',
      run: () => one({ ip: '10.0.1.256' }),
      expected: ['error R-POOL-3 entries.0.ip pool.ipInvalid'],
    },
    {
      name: 'rejects an ip with a leading zero (octal to some parsers)',
      run: () => one({ ip: '10.0.1.021' }),
      expected: ['error R-POOL-3 entries.0.ip pool.ipInvalid'],
    },
    {
      name: 'rejects an ip with three octets',
      run: () => one({ ip: '10.0.1' }),
      expected: ['error R-POOL-3 entries.0.ip pool.ipInvalid'],
    },
    {
      name: 'rejects the network address as ip',
      run: () => one({ ip: '10.0.1.0' }),
      expected: ['error R-POOL-3 entries.0.ip pool.ipNotHostAddress'],
    },
    {
      name: 'rejects the broadcast address as ip',
      run: () => one({ ip: '10.0.1.255' }),
      expected: ['error R-POOL-3 entries.0.ip pool.ipNotHostAddress'],
    },
    {
      name: 'accepts mask 0 and 32',
      run: () => [...one({ mask: '0' }), ...one({ mask: '32', gateway: '10.0.1.21' })],
      expected: ['warning R-POOL-3 entries.0.gateway pool.gatewayIsOwnIp'],
    },
    {
      name: 'rejects mask 33',
      run: () => one({ mask: '33' }),
      expected: ['error R-POOL-3 entries.0.mask pool.maskInvalid'],
    },
    {
      name: 'rejects a non-numeric mask',
      run: () => one({ mask: '/24' }),
      expected: ['error R-POOL-3 entries.0.mask pool.maskInvalid'],
    },
    {
      name: 'rejects a non-contiguous dotted netmask',
      run: () => one({ mask: '255.255.0.255' }, false),
      expected: ['error R-POOL-3 entries.0.mask pool.maskInvalid'],
    },
    {
      name: 'rejects a dotted netmask on a new entry, suggesting the prefix',
      run: () => one({ mask: '255.255.255.0' }),
      expected: ['error R-POOL-3 entries.0.mask pool.maskDottedOnNewEntry'],
    },
    {
      name: 'keeps a dotted netmask on an existing entry',
      run: () => one({ mask: '255.255.255.0' }, false),
      expected: [],
    },
    {
      name: 'rejects a gateway that is not IPv4',
      run: () => one({ gateway: 'router' }),
      expected: ['error R-POOL-3 entries.0.gateway pool.gatewayInvalid'],
    },
    {
      name: 'requires a gateway',
      run: () => one({ gateway: '' }),
      expected: ['error R-POOL-3 entries.0.gateway pool.gatewayRequired'],
    },
    {
      name: 'warns when the gateway is outside the subnet',
      run: () => one({ gateway: '10.0.2.1' }),
      expected: ['warning R-POOL-3 entries.0.gateway pool.gatewayOutsideSubnet'],
    },
    {
      name: 'accepts that gateway in a /16',
      run: () => one({ gateway: '10.0.2.1', mask: '16' }),
      expected: [],
    },
    {
      name: 'accepts the gateway in a subnet given by a dotted netmask',
      run: () => one({ gateway: '10.0.2.1', mask: '255.255.0.0' }, false),
      expected: [],
    },
    {
      name: 'accepts several comma-separated dns servers',
      run: () => one({ dns: '10.0.0.2, 10.0.0.3,8.8.8.8' }),
      expected: [],
    },
    {
      name: 'rejects dns separated by semicolons',
      run: () => one({ dns: '10.0.0.2;10.0.0.3' }),
      expected: ['error R-POOL-3 entries.0.dns pool.dnsInvalid'],
    },
    {
      name: 'rejects an empty item in the dns list',
      run: () => one({ dns: '10.0.0.2,' }),
      expected: ['error R-POOL-3 entries.0.dns pool.dnsInvalid'],
    },
    { name: 'treats an empty dns as not set', run: () => one({ dns: '' }), expected: [] },
    {
      name: 'rejects a hostname that is not a DNS-1123 label',
      run: () => one({ hostname: 'Worker_1' }),
      expected: ['error R-POOL-3 entries.0.hostname pool.hostnameInvalid'],
    },
    {
      name: 'rejects a persistent disk without size or with a relative path',
      run: () => one({ persistentDisk: [{ slot: 0, quantityGB: 0, path: 'var/cpaas' }] }),
      expected: [
        'error R-POOL-3 entries.0.persistentDisk.0.quantityGB disk.quantityInvalid',
        'error R-POOL-3 entries.0.persistentDisk.0.path disk.pathInvalid',
      ],
    },
    {
      name: 'checks the formats of an extra NIC too',
      run: () =>
        one({
          additionNic: [
            { ip: '192.168.9.300', mask: '24', dvSwitchName: 'dvs-2', portGroupName: 'pg-storage' },
          ],
        }),
      expected: ['error R-POOL-3 entries.0.additionNic.0.ip pool.ipInvalid'],
    },
  ]);

  it('R-POOL-3: suggests the prefix length for a dotted netmask', () => {
    const [issue] = checkAddressing({ mask: '255.255.240.0' }, 'e', { newEntry: true });
    expect(issue?.params).toEqual({ value: '255.255.240.0', prefix: 20 });
    expect(issue?.message).toContain('Write 20.');
  });
});

describe('R-POOL-4 edits never lose an entry', () => {
  const base = [
    anIpEntry(1),
    anIpEntry(2, {
      persistentDisk: [
        {
          slot: 0,
          quantityGB: 40,
          datastoreClusterName: 'ds',
          path: '/var/cpaas',
          format: 'xfs',
          isThin: true,
        },
      ],
    }),
    { ...anIpEntry(3), futureField: { kept: true } },
  ];
  const intent: PoolEditIntent = {
    append: [anIpEntry(4)],
    remove: ['10.0.1.11'],
    update: [
      {
        ip: '10.0.1.13',
        additionNic: [{ dvSwitchName: 'dvs', portGroupName: 'pg', ip: '192.168.0.13', mask: '24' }],
      },
    ],
  };
  const after = poolEntriesAfterEdit(base, intent);
  const [, two, three, four] = base.concat(anIpEntry(4));
  if (!two || !three || !four) throw new Error('fixture');

  table('R-POOL-4', [
    {
      name: 'accepts exactly the intended edit',
      run: () => checkEntriesPreserved(base, after, 'spec.pool', intent),
      expected: [],
    },
    {
      name: 'accepts the same entries in another order',
      run: () => checkEntriesPreserved(base, [...after].reverse(), 'spec.pool', intent),
      expected: [],
    },
    {
      name: 'accepts an append-only edit',
      run: () =>
        checkEntriesPreserved(base, [...base, anIpEntry(4)], 'spec.pool', {
          append: [anIpEntry(4)],
        }),
      expected: [],
    },
    {
      name: 'reports an entry lost by a blind replacement of spec.pool',
      run: () =>
        checkEntriesPreserved(base, [anIpEntry(4)], 'spec.pool', { append: [anIpEntry(4)] }),
      expected: [
        'error R-POOL-4 spec.pool pool.entryLost',
        'error R-POOL-4 spec.pool pool.entryLost',
        'error R-POOL-4 spec.pool pool.entryLost',
      ],
    },
    {
      name: 'reports a persistentDisk block that was not carried over',
      run: () =>
        checkEntriesPreserved(
          base,
          [base[0] ?? two, { ...two, persistentDisk: [] }, three],
          'spec.pool',
        ),
      expected: ['error R-POOL-4 spec.pool.1.persistentDisk pool.diskLost'],
    },
    {
      name: 'reports an isThin dropped from a persistentDisk block',
      run: () =>
        checkEntriesPreserved(
          base,
          [
            base[0] ?? two,
            { ...two, persistentDisk: two.persistentDisk?.map(({ isThin: _t, ...d }) => d) },
            three,
          ],
          'spec.pool',
        ),
      expected: ['error R-POOL-4 spec.pool.1.persistentDisk.0.isThin pool.diskAltered'],
    },
    {
      name: 'reports a field of an existing entry altered',
      run: () =>
        checkEntriesPreserved(
          base,
          [base[0] ?? two, { ...two, gateway: '10.0.1.254' }, three],
          'spec.pool',
        ),
      expected: ['error R-POOL-4 spec.pool.1.gateway pool.entryAltered'],
    },
    {
      name: 'reports a field this project does not know that was dropped',
      run: () => checkEntriesPreserved(base, [base[0] ?? two, two, anIpEntry(3)], 'spec.pool'),
      expected: ['error R-POOL-4 spec.pool.2.futureField pool.entryAltered'],
    },
    {
      name: 'reports an entry nobody asked for',
      run: () => checkEntriesPreserved(base, [...base, four], 'spec.pool'),
      expected: ['error R-POOL-4 spec.pool.3 pool.entryUnexpected'],
    },
    {
      name: 'reports a persistent disk nobody asked for',
      run: () =>
        checkEntriesPreserved(
          base,
          [
            base[0] ?? two,
            two,
            {
              ...three,
              persistentDisk: [...(three.persistentDisk ?? []), { slot: 1, quantityGB: 10 }],
            },
          ],
          'spec.pool',
        ),
      expected: ['error R-POOL-4 spec.pool.2.persistentDisk.1 pool.diskUnexpected'],
    },
    {
      name: 'treats an empty additionNic list as an absent one',
      run: () =>
        checkEntriesPreserved(
          base,
          [{ ...anIpEntry(1), additionNic: [] }, two, three],
          'spec.pool',
        ),
      expected: [],
    },
  ]);

  it('R-POOL-4: a disk update merges by slot, keeping what it leaves out (R-DISK-2)', () => {
    const merged = mergePersistentDisks(two.persistentDisk ?? [], [
      { slot: 0, quantityGB: 80 },
      { slot: 1, quantityGB: 10, path: '/data' },
    ]);
    expect(merged).toEqual([
      {
        slot: 0,
        quantityGB: 80,
        datastoreClusterName: 'ds',
        path: '/var/cpaas',
        format: 'xfs',
        isThin: true,
      },
      { slot: 1, quantityGB: 10, path: '/data' },
    ]);
  });
});

describe('R-POOL-5 claimed entries stay', () => {
  const pool = demoPool({ entries: [1, 2, 3, 4].map((n) => anIpEntry(n)) });
  table('R-POOL-5', [
    {
      name: 'rejects removing an entry a live machine claimed',
      run: () => checkEntryRemovals(['10.0.1.12'], pool, 'remove'),
      expected: ['error R-POOL-5 remove.0 pool.claimedEntryRemoved'],
    },
    {
      name: 'rejects a write that drops a claimed entry',
      run: () =>
        checkClaimedEntriesKept(pool.entries, pool.entries.slice(1), pool.claims, 'spec.pool'),
      expected: ['error R-POOL-5 spec.pool pool.claimedEntryRemoved'],
    },
    {
      name: 'rejects changing the ip of a claimed entry',
      run: () =>
        checkClaimedEntriesKept(
          pool.entries,
          pool.entries.map((e) => (e.ip === '10.0.1.11' ? { ...e, ip: '10.0.1.99' } : e)),
          pool.claims,
          'spec.pool',
        ),
      expected: ['error R-POOL-5 spec.pool pool.claimedEntryRemoved'],
    },
    {
      name: 'accepts a write that drops only an unclaimed entry',
      run: () =>
        checkClaimedEntriesKept(pool.entries, pool.entries.slice(0, 3), pool.claims, 'spec.pool'),
      expected: [],
    },
  ]);
});

describe('R-POOL-6 removing an unclaimed entry', () => {
  const pool = demoPool({
    entries: [
      ...[1, 2, 3].map((n) => anIpEntry(n)),
      anIpEntry(4),
      anIpEntry(5, { persistentDisk: [] }),
    ],
  });
  table('R-POOL-6', [
    {
      name: 'warns that the volumes of its persistent disks stay on DCS',
      run: () => checkEntryRemovals(['10.0.1.14'], pool, 'remove'),
      expected: ['warning R-POOL-6 remove.0 pool.removedEntryVolumesStay'],
    },
    {
      name: 'removes an entry without persistent disks silently',
      run: () => checkEntryRemovals(['10.0.1.15'], pool, 'remove'),
      expected: [],
    },
    {
      name: 'reports an ip the pool does not hold (R-POOL-4)',
      run: () => checkEntryRemovals(['10.0.1.99'], pool, 'remove'),
      expected: ['error R-POOL-4 remove.0 pool.entryNotFound'],
    },
  ]);
});

describe('R-NIC-1 extra NICs', () => {
  const nic = {
    ip: '192.168.9.11',
    mask: '24',
    dvSwitchName: 'dvs-storage',
    portGroupName: 'pg-storage',
  };
  const inventory = aValidationContext({
    dcsInventory: {
      dvSwitches: [{ name: 'dvs-storage', portGroups: ['pg-storage', 'pg-backup'] }],
    },
  });
  table('R-NIC-1', [
    {
      name: 'accepts a NIC with switch, port group, ip and mask',
      run: () => validateNic(nic, ctx, 'nic'),
      expected: [],
    },
    {
      name: 'requires dvSwitchName',
      run: () => validateNic({ ...nic, dvSwitchName: '' }, ctx, 'nic'),
      expected: ['error R-NIC-1 nic.dvSwitchName nic.dvSwitchRequired'],
    },
    {
      name: 'requires portGroupName',
      run: () => validateNic({ ...nic, portGroupName: undefined }, ctx, 'nic'),
      expected: ['error R-NIC-1 nic.portGroupName nic.portGroupRequired'],
    },
    {
      name: 'recommends ip and mask',
      run: () =>
        validateNic({ dvSwitchName: 'dvs-storage', portGroupName: 'pg-storage' }, ctx, 'nic'),
      expected: [
        'warning R-NIC-1 nic.ip nic.ipRecommended',
        'warning R-NIC-1 nic.mask nic.maskRecommended',
      ],
    },
    {
      name: 'warns about a gateway on an extra NIC (the default route stays primary)',
      run: () => validateNic({ ...nic, gateway: '192.168.9.1' }, ctx, 'nic'),
      expected: ['warning R-NIC-1 nic.gateway nic.gatewaySet'],
    },
    {
      name: 'accepts a port group of the switch when the inventory is known',
      run: () => validateNic(nic, inventory, 'nic'),
      expected: [],
    },
    {
      name: 'rejects a port group of another switch when the inventory is known',
      run: () => validateNic({ ...nic, portGroupName: 'pg-mgmt' }, inventory, 'nic'),
      expected: ['error R-NIC-1 nic.portGroupName net.portGroupNotInSwitch'],
    },
    {
      name: 'rejects an unknown switch when the inventory is known',
      run: () => validateNic({ ...nic, dvSwitchName: 'dvs-9' }, inventory, 'nic'),
      expected: ['error R-NIC-1 nic.portGroupName net.dvSwitchUnknown'],
    },
  ]);
});

describe('R-NIC-2 NICs of claimed entries', () => {
  const nics = [{ ip: '192.168.9.11', mask: '24', dvSwitchName: 'dvs', portGroupName: 'pg' }];
  const claims = demoPool().claims;
  table('R-NIC-2', [
    {
      name: 'warns that a running VM keeps its NICs when a claimed entry’s NICs change',
      run: () => checkNicEditOfClaimedEntry(anIpEntry(1), nics, claims, 'update.0.additionNic'),
      expected: ['warning R-NIC-2 update.0.additionNic nic.claimedEntryNotHotUpdated'],
    },
    {
      name: 'says nothing for an unclaimed entry',
      run: () => checkNicEditOfClaimedEntry(anIpEntry(4), nics, claims, 'update.0.additionNic'),
      expected: [],
    },
    {
      name: 'says nothing when the NICs do not change',
      run: () => checkNicEditOfClaimedEntry(anIpEntry(1, { additionNic: nics }), nics, claims, 'x'),
      expected: [],
    },
  ]);
});

describe('replicaRoom (R-POOL-1, R-MD-1): one derivation for the scale form and its rule', () => {
  it('counts the deployment’s own claimed entries as room for it, not as free', () => {
    const pool = aValidationContext().ipPools[0];
    if (!pool) throw new Error('no pool');
    expect(replicaRoom(pool, 'demo-md-0')).toEqual({
      entries: 3,
      free: 0,
      heldByOthers: 0,
      room: 3,
    });
    expect(replicaRoom(pool, 'demo-md-0', 2)).toEqual({
      entries: 5,
      free: 2,
      heldByOthers: 0,
      room: 5,
    });
    const shared = {
      ...pool,
      consumers: [...pool.consumers, { deployment: 'demo-md-9', replicas: 1, maxSurge: 0 }],
    };
    expect(replicaRoom(shared, 'demo-md-0')).toMatchObject({ heldByOthers: 1, room: 2 });
  });
});
