import { describe, expect, it } from 'vitest';
import { validatePoolEntries } from '../rules/pool';
import { anIpEntry, aValidationContext } from '../testing';
import { MAX_SUGGESTED_ENTRIES, suggestEntries, suggestionCount } from './suggest';

const withNic = (n: number) =>
  anIpEntry(n, {
    additionNic: [
      {
        ip: `192.168.0.${10 + n}`,
        mask: '24',
        dvSwitchName: 'dvs-storage',
        portGroupName: 'pg-storage',
      },
    ],
  });

describe('suggested IP pool entries follow this pool’s own pattern (O-SCALE-UP, R-POOL-2, R-NIC-1)', () => {
  it('O-SCALE-UP: suggested entries keep the pool’s extra NIC, with the next address of its network', () => {
    const [a, b] = suggestEntries([withNic(1), withNic(2)], 2);
    expect(a?.additionNic).toEqual([
      { ip: '192.168.0.13', mask: '24', dvSwitchName: 'dvs-storage', portGroupName: 'pg-storage' },
    ]);
    expect(b?.additionNic?.[0]?.ip).toBe('192.168.0.14');
    expect(a?.persistentDisk?.[0]?.path).toBe('/var/cpaas');
    expect([a?.ip, b?.ip]).toEqual(['10.0.1.13', '10.0.1.14']);
  });

  it('R-NIC-1: never an extra NIC with ip "" — without an address to continue, no ip at all', () => {
    const entry = anIpEntry(1, {
      additionNic: [{ dvSwitchName: 'dvs-storage', portGroupName: 'pg-storage', ip: '' }],
    });
    const [s] = suggestEntries([entry], 1);
    expect(s?.additionNic).toEqual([{ dvSwitchName: 'dvs-storage', portGroupName: 'pg-storage' }]);
  });

  it('a pool without entries gets nothing from elsewhere: no NIC, no disk, no gateway', () => {
    const [s] = suggestEntries([], 1, { takenIps: ['10.0.1.11'] });
    expect(s).toEqual({ ip: '', mask: '24', gateway: '' });
  });

  it('R-POOL-2: hostnames, machine names and addresses never collide, even after a removal', () => {
    // Entry 2 of 3 was removed: "n + 1" would suggest worker-node-3 again.
    const pool = [anIpEntry(1), anIpEntry(3)];
    const [s] = suggestEntries(pool, 1, { takenIps: ['10.0.1.14'] });
    expect(s?.hostname).toBe('worker-node-4');
    expect(s?.machineName).toBe('worker-vm-4');
    expect(s?.ip).toBe('10.0.1.15');
    const issues = validatePoolEntries(
      suggestEntries(pool, 3, { takenIps: ['10.0.1.14'] }),
      aValidationContext({ ipPools: [] }),
      'append',
      { existing: pool },
    );
    expect(issues.filter((i) => i.rule === 'R-POOL-2')).toEqual([]);
  });

  it('R-DISK-3: isThin is not copied into a suggestion', () => {
    const entry = anIpEntry(1, {
      persistentDisk: [{ slot: 0, quantityGB: 40, path: '/var/cpaas', isThin: true }],
    });
    expect(suggestEntries([entry], 1)[0]?.persistentDisk).toEqual([
      { slot: 0, quantityGB: 40, path: '/var/cpaas' },
    ]);
  });

  it('addresses continue after the highest of the network in use, and stop at .254', () => {
    // The pool's last entry is not its highest address; another pool holds one above both.
    const pool = [anIpEntry(1), anIpEntry(3), anIpEntry(2)];
    expect(suggestEntries(pool, 1)[0]?.ip).toBe('10.0.1.14');
    const high = [anIpEntry(1, { ip: '10.0.1.251' })];
    const ips = suggestEntries(high, 3, { takenIps: ['10.0.1.253', '10.0.2.40'] }).map((e) => e.ip);
    expect(ips).toEqual(['10.0.1.254', '', '']);
    expect(suggestEntries([anIpEntry(1, { ip: '10.0.1.255' })], 1)[0]?.ip).toBe('');
  });

  it('an extra NIC on the primary network never takes the address just suggested for the entry', () => {
    const sameNet = anIpEntry(1, { additionNic: [{ ip: '10.0.1.50', mask: '24' }] });
    const suggested = suggestEntries([sameNet], 3);
    const addresses = suggested.flatMap((e) => [e.ip, ...(e.additionNic ?? []).map((n) => n.ip)]);
    expect(new Set(addresses).size).toBe(6);
    expect(addresses).not.toContain(sameNet.ip);
    expect(addresses).not.toContain('10.0.1.50');
  });

  it('a count typed by the user is bounded: at most MAX_SUGGESTED_ENTRIES, none for nonsense', () => {
    // 20,000 looked through every address again for each entry: the page froze for minutes.
    const many = suggestEntries([withNic(1)], 20_000);
    expect(many).toHaveLength(MAX_SUGGESTED_ENTRIES);
    expect(new Set(many.map((e) => e.hostname)).size).toBe(MAX_SUGGESTED_ENTRIES);
    // The /24 ends: the rest come without an address for the user to give, never a wrong one.
    expect(many.filter((e) => e.ip !== '')).toHaveLength(254 - 11);
    expect(many.at(-1)?.ip).toBe('');
    for (const n of [-1, Number.NaN, Number.POSITIVE_INFINITY, 2.7])
      expect(suggestEntries([withNic(1)], n)).toHaveLength(suggestionCount(n));
    expect([-1, Number.NaN, Number.POSITIVE_INFINITY, 2.7].map(suggestionCount)).toEqual([
      0, 0, 0, 2,
    ]);
  });
});
