import { describe, expect, it } from 'vitest';
import { anIpEntry } from '@dcs/domain/testing';
import { chooseEntry, noFreeEntryMessage, poolUsage } from './ippool';
import {
  APPENDED_DISK_MESSAGE,
  attachAppended,
  attachForNewVm,
  detachForDeletedVm,
  volumeNameFor,
} from './disks';

const entries = [1, 2, 3].map((n) => anIpEntry(n));

describe('IP claims (R-POOL-1)', () => {
  it('takes the first free entry in pool order', () => {
    expect(chooseEntry(entries, new Set(['10.0.1.11']), [])?.ip).toBe('10.0.1.12');
  });

  it('prefers an entry whose persistent volume waits detached, so the disk follows its IP slot (R-MD-3)', () => {
    const volumes = [{ ip: '10.0.1.13', slot: 0, phase: 'Detached', volumeName: 'v' }];
    expect(chooseEntry(entries, new Set(['10.0.1.11']), volumes)?.ip).toBe('10.0.1.13');
  });

  it('R-POOL-1: none free, nothing claimed, and the message says why', () => {
    const claimed = new Set(entries.map((e) => e.ip));
    expect(chooseEntry(entries, claimed, [])).toBeUndefined();
    const usage = poolUsage(entries, claimed);
    expect(usage).toEqual({ total: 3, claimed: 3, free: 0 });
    expect(noFreeEntryMessage('p', usage)).toMatch(
      /no free entry \(3 entries, 3 claimed\).*R-POOL-1/,
    );
  });
});

describe('persistent disks (R-DISK-1, R-DISK-6, O-UPGRADE-INFRA)', () => {
  const entry = anIpEntry(1);

  it('creates the volume the first time (ip, slot) is used, attached and mounted', () => {
    const { records, changes } = attachForNewVm('pool', [], entry, 'vm-a');
    expect(records).toEqual([
      {
        ip: '10.0.1.11',
        slot: 0,
        volumeName: volumeNameFor('pool', '10.0.1.11', 0),
        machineName: 'vm-a',
        phase: 'Attached',
        mounted: true,
      },
    ]);
    expect(changes.map((c) => c.type)).toEqual(['created', 'attached']);
  });

  it('detaches it from the deleted VM and attaches the same volume to the replacement', () => {
    const first = attachForNewVm('pool', [], entry, 'vm-a').records;
    const detached = detachForDeletedVm(first, '10.0.1.11');
    expect(detached.records[0]).toMatchObject({ phase: 'Detached', mounted: false });
    expect(detached.records[0]?.machineName).toBeUndefined();
    expect(detached.changes).toEqual([
      {
        type: 'detached',
        ip: '10.0.1.11',
        slot: 0,
        volumeName: first[0]?.volumeName,
        machineName: 'vm-a',
      },
    ]);
    const again = attachForNewVm('pool', detached.records, entry, 'vm-b');
    expect(again.changes.map((c) => c.type)).toEqual(['attached']);
    expect(again.records[0]).toMatchObject({
      volumeName: first[0]?.volumeName,
      machineName: 'vm-b',
      phase: 'Attached',
    });
  });

  it("R-DISK-6: a disk appended to a running VM's entry is attached but not mounted", () => {
    const first = attachForNewVm('pool', [], entry, 'vm-a').records;
    const grown = {
      ...entry,
      persistentDisk: [...(entry.persistentDisk ?? []), { slot: 1, quantityGB: 20, path: '/data' }],
    };
    const { records, changes } = attachAppended('pool', first, grown, 'vm-a');
    expect(records[1]).toMatchObject({
      slot: 1,
      phase: 'Attached',
      mounted: false,
      message: APPENDED_DISK_MESSAGE,
    });
    expect(changes.map((c) => c.type)).toEqual(['created', 'attached']);
    // On replacement the new VM formats and mounts it.
    const replaced = attachForNewVm(
      'pool',
      detachForDeletedVm(records, entry.ip).records,
      grown,
      'vm-b',
    ).records;
    expect(replaced.every((r) => r.mounted && r.message === undefined)).toBe(true);
  });
});
