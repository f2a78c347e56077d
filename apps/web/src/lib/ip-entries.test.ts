import { anIpEntry } from '@dcs/domain/testing';
import { describe, expect, it } from 'vitest';
import { nextIp, suggestEntries } from './ip-entries';

describe('IP entry suggestions (R-POOL-2: unique ip, hostname, machineName)', () => {
  it('suggests the address after the highest one, skipping taken ones', () => {
    expect(nextIp(['10.0.1.11', '10.0.1.13', '10.0.1.12'])).toBe('10.0.1.14');
    expect(nextIp([])).toBeUndefined();
    expect(nextIp(['10.0.1.254'])).toBeUndefined();
  });
  it('copies the last entry’s network and disks, numbering names on', () => {
    const existing = [anIpEntry(1), anIpEntry(2)];
    const [a, b] = suggestEntries(existing, 2);
    expect(a?.ip).toBe('10.0.1.13');
    expect(b?.ip).toBe('10.0.1.14');
    expect(a?.hostname).toBe('worker-node-3');
    expect(b?.machineName).toBe('worker-vm-4');
    expect(a?.persistentDisk).toEqual(existing[1]?.persistentDisk);
    expect(a?.persistentDisk).not.toBe(existing[1]?.persistentDisk);
  });
});
