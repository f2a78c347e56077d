import { describe, expect, it } from 'vitest';
import { aMachineView, demoClusterViews } from '../../test/fixtures';
import { parseStreamEvent, type StreamEvent } from '@dcs/domain';
import { applyToList, collectChanges, compareMachines, comparePools } from './reducer';

describe('stream reducer', () => {
  const a = aMachineView('m-a');
  const b = aMachineView('m-b');
  const c = aMachineView('m-c');

  it('keeps the last event of each object in a batch', () => {
    const b2 = { ...b, phase: 'Deleting' };
    const events: StreamEvent[] = [
      { type: 'upsert', kind: 'machine', id: 'm-b', view: b },
      { type: 'upsert', kind: 'machine', id: 'm-b', view: b2 },
      { type: 'delete', kind: 'machine', id: 'm-a' },
    ];
    const changes = collectChanges(events);
    expect(changes.machines.get('m-b')).toBe(b2);
    expect(changes.machines.get('m-a')).toBeNull();
    expect(changes.resync).toBe(false);
  });

  it('replaces, removes and adds in one pass, keeping order', () => {
    const list = [a, c];
    const b2 = { ...b };
    const next = applyToList(
      list,
      new Map([
        ['m-a', null],
        ['m-b', b2],
      ]),
      compareMachines,
    );
    expect(next.map((m) => m.id)).toEqual(['m-b', 'm-c']);
    expect(next[1]).toBe(c);
  });

  it('returns the very same list when nothing in it changed', () => {
    const list = [a, b];
    expect(applyToList(list, new Map(), compareMachines)).toBe(list);
    expect(applyToList(list, new Map([['m-a', a]]), compareMachines)).toBe(list);
  });

  it('keeps a filtered list to its members: a machine that changes pool leaves it', () => {
    const other = aMachineView('m-a', { poolId: 'other' });
    const next = applyToList(
      [a, b],
      new Map([
        ['m-a', other],
        ['m-x', aMachineView('m-x', { poolId: 'other' })],
      ]),
      compareMachines,
      (m) => m.poolId === 'demo-md-0',
    );
    expect(next.map((m) => m.id)).toEqual(['m-b']);
  });

  it('orders pools as the route does: control plane first, then workers by name', () => {
    const { pools } = demoClusterViews();
    const [cp, worker] = [
      pools.find((p) => p.kind === 'control-plane'),
      pools.find((p) => p.kind === 'worker'),
    ];
    if (!cp || !worker) throw new Error('demo cluster incomplete');
    const added = { ...worker, id: 'aaa', name: 'aaa' };
    const next = applyToList([cp, worker], new Map([['aaa', added]]), comparePools);
    expect(next.map((p) => p.id)).toEqual([cp.id, 'aaa', worker.id]);
  });

  it('flags a resync', () => {
    expect(collectChanges([{ type: 'resync', reason: 'gap' }]).resync).toBe(true);
  });

  it('parses the wire format and ignores what it does not know', () => {
    expect(parseStreamEvent('{"type":"delete","kind":"pool","id":"p"}')).toEqual({
      type: 'delete',
      kind: 'pool',
      id: 'p',
    });
    expect(parseStreamEvent('{"type":"resync","reason":"gap"}')).toEqual({
      type: 'resync',
      reason: 'gap',
    });
    expect(parseStreamEvent('{"type":"upsert","kind":"node","id":"x","view":{}}')).toBeUndefined();
    expect(parseStreamEvent('not json')).toBeUndefined();
  });
});
