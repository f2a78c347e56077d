import { describe, expect, it } from 'vitest';
import { anIpEntry } from '../testing';
import { NOW, provisioning, worker } from './fixtures';
import { machineView } from './machine';
import { MachineViewMemo } from './machine-memo';

const later = (ms: number) => new Date(NOW.getTime() + ms);

describe('MachineViewMemo', () => {
  it('reuses the view while the machine, its DCSMachine and the options are the same objects and values', () => {
    const memo = new MachineViewMemo();
    const { machine, dcsMachine } = worker('demo-md-0-abc12-m1', { entry: 1 });
    const first = memo.view(machine, dcsMachine, NOW, { upToDate: true });
    expect(first).toEqual(machineView(machine, dcsMachine, NOW, { upToDate: true }));
    expect(memo.view(machine, dcsMachine, later(1_000), { upToDate: true })).toBe(first);
  });

  it('builds afresh when the Machine or the DCSMachine is replaced (an update) or an option changes', () => {
    const memo = new MachineViewMemo();
    const { machine, dcsMachine } = worker('demo-md-0-abc12-m1', { entry: 1 });
    const first = memo.view(machine, dcsMachine, NOW, { upToDate: true });

    const updated = { ...machine, status: { ...machine.status, phase: 'Deleting' } };
    expect(memo.view(updated, dcsMachine, NOW, { upToDate: true }).phase).toBe('Deleting');

    const dcsUpdated = { ...dcsMachine, metadata: { ...dcsMachine.metadata, name: 'other' } };
    expect(memo.view(machine, dcsUpdated, NOW, { upToDate: true }).dcsMachineName).toBe('other');

    const stale = memo.view(machine, dcsMachine, NOW, { upToDate: false });
    expect(stale).not.toBe(first);
    expect(stale.upToDate).toBe(false);
    const hostname = memo.view(machine, dcsMachine, NOW, { ipPoolEntry: anIpEntry(2) });
    expect(hostname).toEqual(machineView(machine, dcsMachine, NOW, { ipPoolEntry: anIpEntry(2) }));
  });

  it('T-1: a remembered view is not reused past the diagnosis deadline the clock alone reaches', () => {
    const memo = new MachineViewMemo();
    const { machine, dcsMachine } = provisioning(worker('demo-md-0-abc12-m1'), {
      since: NOW.toISOString(),
    });
    const options = { stuckAfterMs: 60_000 };
    const fresh = memo.view(machine, dcsMachine, NOW, options);
    expect(fresh.diagnosis).toBeUndefined();
    expect(memo.view(machine, dcsMachine, later(59_000), options)).toBe(fresh);
    const overdue = memo.view(machine, dcsMachine, later(61_000), options);
    expect(overdue).toEqual(machineView(machine, dcsMachine, later(61_000), options));
    expect(overdue.diagnosis?.code).toBeDefined();
  });
});
