import type { KubeObject } from '../src/kube-object';
import { describe, expect, it } from 'vitest';
import { diffRelist } from '../src/relist-diff';
import { obj } from './helpers';

const map = (...items: KubeObject[]): Map<string, KubeObject> =>
  new Map(items.map((o) => [`${o.metadata?.namespace ?? ''}/${o.metadata?.name ?? ''}`, o]));

describe('diffRelist', () => {
  it('emits DELETED for what vanished, ADDED for what is new, MODIFIED for a new resourceVersion', () => {
    const cached = map(obj('gone', 'a1'), obj('same', 'a2'), obj('changed', 'a3'));
    const fresh = map(obj('same', 'a2'), obj('changed', 'b7'), obj('new', 'b8'));
    const deltas = diffRelist(cached, fresh);
    expect(deltas.map((d) => [d.type, d.object.metadata?.name])).toEqual([
      ['DELETED', 'gone'],
      ['MODIFIED', 'changed'],
      ['ADDED', 'new'],
    ]);
    const deleted = deltas[0];
    expect(deleted?.type === 'DELETED' && deleted.finalStateUnknown).toBe(true);
    const modified = deltas[1];
    expect(modified?.type === 'MODIFIED' && modified.old.metadata?.resourceVersion).toBe('a3');
  });

  it('treats a new uid under the same name as DELETED then ADDED (re-created while away)', () => {
    const deltas = diffRelist(map(obj('m', 'x', { uid: 'u1' })), map(obj('m', 'y', { uid: 'u2' })));
    expect(deltas.map((d) => [d.type, d.object.metadata?.uid])).toEqual([
      ['DELETED', 'u1'],
      ['ADDED', 'u2'],
    ]);
  });

  it('compares resourceVersions for equality only (opaque, never ordered)', () => {
    // "10" < "9" as strings and 10 > 9 as numbers: neither order may matter.
    const deltas = diffRelist(map(obj('m', '10')), map(obj('m', '9')));
    expect(deltas.map((d) => d.type)).toEqual(['MODIFIED']);
    expect(diffRelist(map(obj('m', 'zz')), map(obj('m', 'zz')))).toEqual([]);
  });
});
