import { describe, expect, it } from 'vitest';
import { aMachine } from '../testing';
import { conditionView, v1beta2ConditionView } from './conditions';
import { machineView, type MachineView } from './machine';
import {
  emptyMachineQuery,
  hasUnhealthyCondition,
  isEmptyMachineQuery,
  machineQueryMatcher,
  sortMachines,
  unhealthyConditionTypes,
  type MachineSort,
} from './machine-find';

/** Issue 26 item 8: finding machines in a big cluster (the machines tables' filter and sort). */

const NOW = new Date('2026-01-01T01:00:00Z');
// A machine with neither Node nor address: each test gives those it reads.
const base: MachineView = machineView(aMachine(), undefined, NOW);
delete base.ip;
delete base.nodeName;
const vm = (name: string, o: Partial<MachineView> = {}): MachineView => ({
  ...base,
  id: name,
  name,
  ...o,
});
const ready = (status: 'True' | 'False' | 'Unknown') =>
  conditionView({ type: 'Ready', status, ...(status === 'False' ? { severity: 'Error' } : {}) });
const names = (ms: readonly MachineView[]) => ms.map((m) => m.name);

describe('a condition not in its healthy state', () => {
  it('is a Cluster API condition False or Unknown (Ready=False, NodeHealthy=Unknown)', () => {
    expect(hasUnhealthyCondition(vm('a', { conditions: [ready('False')] }), 'Ready')).toBe(true);
    expect(hasUnhealthyCondition(vm('a', { conditions: [ready('Unknown')] }), 'Ready')).toBe(true);
    expect(hasUnhealthyCondition(vm('a', { conditions: [ready('True')] }), 'Ready')).toBe(false);
    // A False of severity Info (a step in progress) is not healthy either.
    const info = conditionView({ type: 'Ready', status: 'False', severity: 'Info' });
    expect(hasUnhealthyCondition(vm('a', { conditions: [info] }), 'Ready')).toBe(true);
  });
  it('is v1beta2’s Deleting True (its False is the healthy state), and a DCSMachine’s too', () => {
    const deleting = (status: 'True' | 'False') =>
      v1beta2ConditionView({ type: 'Deleting', status, reason: 'DrainingNode' }, undefined);
    expect(
      hasUnhealthyCondition(vm('a', { v1beta2Conditions: [deleting('True')] }), 'Deleting'),
    ).toBe(true);
    expect(
      hasUnhealthyCondition(vm('a', { v1beta2Conditions: [deleting('False')] }), 'Deleting'),
    ).toBe(false);
    const vmProvisioned = conditionView({
      type: 'VMProvisioned',
      status: 'False',
      severity: 'Warning',
    });
    expect(
      hasUnhealthyCondition(
        vm('a', { infrastructureConditions: [vmProvisioned] }),
        'VMProvisioned',
      ),
    ).toBe(true);
  });
  it('lists the types some machine has unhealthy, sorted, once each', () => {
    const nodeHealthy = conditionView({ type: 'NodeHealthy', status: 'Unknown' });
    expect(
      unhealthyConditionTypes([
        vm('a', { conditions: [ready('False'), nodeHealthy] }),
        vm('b', { conditions: [ready('False')] }),
        vm('c'),
      ]),
    ).toEqual(['NodeHealthy', 'Ready']);
    expect(unhealthyConditionTypes([vm('c')])).toEqual([]);
  });
});

describe('the filter fields (phase, condition, name, node, IP)', () => {
  const ms = [
    vm('demo-md-0-a', { phase: 'Running', nodeName: 'node-a', ip: '10.0.1.11' }),
    vm('demo-md-0-b', {
      phase: 'Failed',
      nodeName: 'node-b',
      ip: '10.0.2.12',
      conditions: [ready('False')],
    }),
    vm('demo-md-1-c', { phase: 'Provisioning', ip: '10.0.1.13' }),
  ];
  const keep = (q: Partial<typeof emptyMachineQuery>) =>
    names(ms.filter(machineQueryMatcher({ ...emptyMachineQuery, ...q })));

  it('keeps every machine without a field', () => {
    expect(isEmptyMachineQuery(emptyMachineQuery)).toBe(true);
    expect(isEmptyMachineQuery({ ...emptyMachineQuery, name: '  ' })).toBe(true);
    expect(keep({})).toEqual(names(ms));
  });
  it('keeps any of several phases', () => {
    expect(keep({ phases: ['Failed', 'Provisioning'] })).toEqual(['demo-md-0-b', 'demo-md-1-c']);
    expect(isEmptyMachineQuery({ ...emptyMachineQuery, phases: ['Running'] })).toBe(false);
  });
  it('keeps the machines with the condition unhealthy', () => {
    expect(keep({ condition: 'Ready' })).toEqual(['demo-md-0-b']);
    expect(keep({ condition: 'NodeHealthy' })).toEqual([]);
  });
  it('matches name, node and IP each alone, case-insensitive; the fields combine', () => {
    expect(keep({ name: 'MD-1' })).toEqual(['demo-md-1-c']);
    // The node field reads the Node's name only: a machine without a Node never matches.
    expect(keep({ node: 'node-' })).toEqual(['demo-md-0-a', 'demo-md-0-b']);
    expect(keep({ ip: '10.0.1.' })).toEqual(['demo-md-0-a', 'demo-md-1-c']);
    expect(keep({ ip: '10.0.1.', name: 'md-0' })).toEqual(['demo-md-0-a']);
    expect(keep({ name: 'node-a' })).toEqual([]);
  });
});

describe('sorting machines', () => {
  const ms = [
    vm('a', {
      phase: 'Running',
      createdAt: '2026-01-01T00:00:02Z',
      ip: '10.0.1.9',
      nodeName: 'n-2',
      version: 'v1.33.4',
    }),
    vm('b', {
      phase: 'Failed',
      createdAt: '2026-01-01T00:00:01Z',
      ip: '10.0.1.10',
      version: 'v1.9.0',
    }),
    vm('c', {
      phase: 'Pending',
      createdAt: '2026-01-01T00:00:03Z',
      ip: '10.0.1.10',
      nodeName: 'n-1',
      version: 'v1.33.4',
    }),
    vm('d', {
      phase: 'Running',
      createdAt: '2026-01-01T00:00:02Z',
      nodeName: 'n-1',
      version: 'v1.33.10',
    }),
  ];
  const by = (key: MachineSort['key'], dir: MachineSort['dir'] = 'asc') =>
    names(sortMachines(ms, { key, dir }));

  it('returns the list itself in its own order (by name)', () => {
    expect(sortMachines(ms, { key: 'name', dir: 'asc' })).toBe(ms);
    expect(by('name', 'desc')).toEqual(['d', 'c', 'b', 'a']);
  });
  it('sorts phases in the order of a machine’s life, stable among equals', () => {
    expect(by('phase')).toEqual(['c', 'a', 'd', 'b']);
    // Descending reverses the phases, not the ties: they stay by name.
    expect(by('phase', 'desc')).toEqual(['b', 'a', 'd', 'c']);
  });
  it('sorts by age, youngest first ascending', () => {
    expect(by('age')).toEqual(['c', 'a', 'd', 'b']);
    expect(by('age', 'desc')).toEqual(['b', 'a', 'd', 'c']);
  });
  it('sorts IPs and versions by their numbers; machines without one go last either way', () => {
    expect(by('ip')).toEqual(['a', 'b', 'c', 'd']);
    expect(by('ip', 'desc')).toEqual(['b', 'c', 'a', 'd']);
    expect(by('version')).toEqual(['b', 'a', 'c', 'd']);
    expect(by('node')).toEqual(['c', 'd', 'a', 'b']);
    expect(by('node', 'desc')).toEqual(['a', 'c', 'd', 'b']);
  });
  it('sorts 20,000 machines cheaply (time printed, not asserted)', () => {
    const phases = ['Running', 'Provisioning', 'Failed', 'Deleting'];
    const big = Array.from({ length: 20_000 }, (_, i) =>
      vm(`pool-${String(i % 200).padStart(3, '0')}-m${String(i).padStart(5, '0')}`, {
        phase: phases[i % 4] ?? 'Running',
        ip: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
        nodeName: `node-${(i * 7919) % 20_000}`,
        createdAt: new Date(Date.UTC(2026, 0, 1) + ((i * 104729) % 86_400) * 1000).toISOString(),
      }),
    ).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const times: string[] = [];
    for (const key of ['name', 'phase', 'age', 'node', 'ip', 'version'] as const) {
      const start = performance.now();
      const sorted = sortMachines(big, { key, dir: 'desc' });
      times.push(`${key} ${(performance.now() - start).toFixed(1)} ms`);
      expect(sorted).toHaveLength(20_000);
    }
    // A stream batch: the same views (their padded IPs and versions remembered), sorted again.
    const again = performance.now();
    sortMachines([...big], { key: 'ip', dir: 'desc' });
    times.push(`ip again ${(performance.now() - again).toFixed(1)} ms`);
    const start = performance.now();
    expect(sortMachines(big, { key: 'name', dir: 'asc' })).toBe(big);
    times.push(`name asc (the list's own order) ${(performance.now() - start).toFixed(2)} ms`);
    console.log(`sortMachines, 20,000 machines, descending: ${times.join(', ')}`);
  });
});
