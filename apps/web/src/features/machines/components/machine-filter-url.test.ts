import { describe, expect, it } from 'vitest';
import { emptyFilter, type MachineFilter } from './machine-filter';
import { filterFromSearch, filterToSearch, MAX_FIELD } from './machine-filter-url';

/** Issue 26 item 8: a machines table's filter in the address, so that a link shares the view. */

const full: MachineFilter = {
  text: 'worker 1',
  pool: 'demo-md-0',
  problemsOnly: true,
  machineSet: 'demo-md-0-abc12',
  phases: ['Running', 'Failed'],
  condition: 'NodeHealthy',
  name: 'md-0',
  node: 'node-7',
  ip: '10.0.1.',
  sort: { key: 'age', dir: 'desc' },
};

describe('the machines filter in the address', () => {
  it('round-trips every field', () => {
    const search = filterToSearch(full).toString();
    expect(filterFromSearch(search)).toEqual(full);
    expect(filterFromSearch(`?${search}`)).toEqual(full);
    expect(search).toContain('phase=Running&phase=Failed');
    expect(search).toContain('sort=-age');
  });
  it('round-trips each field alone, and writes nothing for the default view', () => {
    expect(filterToSearch(emptyFilter).toString()).toBe('');
    expect(filterFromSearch('')).toEqual(emptyFilter);
    const alone: Partial<MachineFilter>[] = [
      { text: 'a&b=c?#' },
      { pool: 'control-plane' },
      { problemsOnly: true },
      { machineSet: 'x-1' },
      { phases: ['Deleting'] },
      { condition: 'Ready' },
      { name: '名字' },
      { node: 'n' },
      { ip: 'fd00::1' },
      { sort: { key: 'ip', dir: 'asc' } },
      { sort: { key: 'name', dir: 'desc' } },
    ];
    for (const part of alone) {
      const f = { ...emptyFilter, ...part };
      expect(filterFromSearch(filterToSearch(f))).toEqual(f);
    }
  });
  it('keeps the address’s other parameters, and replaces its filter', () => {
    const base = new URLSearchParams('tab=x&phase=Pending&sort=ip');
    expect(filterToSearch({ ...emptyFilter, condition: 'Ready' }, base).toString()).toBe(
      'tab=x&cond=Ready',
    );
  });
  it('ignores unknown or malformed values, field by field, and never throws', () => {
    const f = filterFromSearch(
      '?phase=Running&phase=Bogus&phase=Running&cond=Ready%3DFalse&pool=Not_A_Name' +
        '&set=-x&problems=yes&sort=-colour&name=ok',
    );
    expect(f).toEqual({ ...emptyFilter, phases: ['Running'], name: 'ok' });
    expect(filterFromSearch('?sort=-').sort).toEqual(emptyFilter.sort);
    expect(filterFromSearch('?sort=--age').sort).toEqual(emptyFilter.sort);
    for (const junk of ['%', '?%E0%A4%A', '&&==&', '?q', '?phase', '\u0000', '?sort=__proto__'])
      expect(() => filterFromSearch(junk)).not.toThrow();
  });
  it('bounds lengths: a value past the limit is ignored, read or written', () => {
    const long = 'a'.repeat(MAX_FIELD + 1);
    expect(filterFromSearch(`?q=${long}&name=${long}&node=${long}&ip=${long}`)).toEqual(
      emptyFilter,
    );
    expect(filterFromSearch(`?q=${'a'.repeat(MAX_FIELD)}`).text).toHaveLength(MAX_FIELD);
    expect(filterFromSearch(`?cond=${'A'.repeat(129)}`).condition).toBe('');
    expect(filterToSearch({ ...emptyFilter, text: long }).toString()).toBe('');
  });
  it('keeps __proto__, constructor and prototype inert', () => {
    const f = filterFromSearch(
      '?__proto__=x&__proto__[polluted]=1&constructor=y&prototype=z&constructor.prototype.polluted=1',
    );
    expect(f).toEqual(emptyFilter);
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
    // As values they are plain strings of the fields that take any text.
    const asValues = { ...emptyFilter, text: '__proto__', name: 'constructor', node: 'prototype' };
    expect(filterFromSearch(filterToSearch(asValues))).toEqual(asValues);
    expect(Object.getPrototypeOf(filterFromSearch('?q=__proto__'))).toBe(Object.prototype);
  });
});
