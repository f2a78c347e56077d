import { describe, expect, it } from 'vitest';
import { diffObjects } from './diff';
import {
  applyJsonPatch,
  applyMergePatch,
  escapePointerToken,
  invertJsonPatch,
  JsonPatchError,
  parsePointer,
  pointer,
  tryApplyJsonPatch,
  type JsonPatchOp,
} from './json-patch';

const doc = {
  metadata: { resourceVersion: '7', annotations: { 'a/b': 'x', 'c~d': 'y' } },
  spec: { pool: [{ ip: '10.0.1.11' }, { ip: '10.0.1.12' }], replicas: 2 },
};

describe('JSON Pointer (RFC 6901)', () => {
  it('escapes ~ and / in tokens and parses them back', () => {
    expect(escapePointerToken('cluster.x-k8s.io/delete-machine')).toBe(
      'cluster.x-k8s.io~1delete-machine',
    );
    expect(pointer('metadata', 'annotations', 'c~d')).toBe('/metadata/annotations/c~0d');
    expect(parsePointer('/metadata/annotations/a~1b')).toEqual(['metadata', 'annotations', 'a/b']);
    expect(parsePointer('')).toEqual([]);
    expect(() => parsePointer('metadata')).toThrow();
  });
});

describe('applyJsonPatch (RFC 6902)', () => {
  it('adds, removes, replaces, copies and moves without touching its input', () => {
    const input = structuredClone(doc);
    const out = applyJsonPatch(input, [
      { op: 'add', path: '/spec/pool/-', value: { ip: '10.0.1.13' } },
      { op: 'add', path: '/spec/pool/0', value: { ip: '10.0.1.10' } },
      { op: 'remove', path: '/metadata/annotations/a~1b' },
      { op: 'replace', path: '/spec/replicas', value: 4 },
      { op: 'copy', from: '/spec/replicas', path: '/spec/copied' },
      { op: 'move', from: '/spec/copied', path: '/metadata/moved' },
    ]);
    expect(input).toEqual(doc);
    expect(out.spec.pool.map((e) => e.ip)).toEqual([
      '10.0.1.10',
      '10.0.1.11',
      '10.0.1.12',
      '10.0.1.13',
    ]);
    expect(out.metadata.annotations).toEqual({ 'c~d': 'y' });
    expect(out.spec.replicas).toBe(4);
    expect(out).toMatchObject({ metadata: { moved: 4 } });
    expect(out.spec).not.toHaveProperty('copied');
  });

  it('a stale test op fails the whole patch, which changes nothing', () => {
    const r = tryApplyJsonPatch(doc, [
      { op: 'test', path: '/metadata/resourceVersion', value: '6' },
      { op: 'replace', path: '/spec/replicas', value: 9 },
    ]);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.code).toBe('TEST_FAILED');
      expect(r.error.opIndex).toBe(0);
    }
    expect(() =>
      applyJsonPatch(doc, [{ op: 'test', path: '/metadata/resourceVersion', value: '6' }]),
    ).toThrow(JsonPatchError);
  });

  it('test compares structurally, whatever the key order', () => {
    expect(() =>
      applyJsonPatch({ a: { x: 1, y: [1, { z: 2 }] } }, [
        { op: 'test', path: '/a', value: { y: [1, { z: 2 }], x: 1 } },
      ]),
    ).not.toThrow();
    expect(() =>
      applyJsonPatch({ a: [1, 2] }, [{ op: 'test', path: '/a', value: [2, 1] }]),
    ).toThrow();
    expect(() => applyJsonPatch({ a: 1 }, [{ op: 'test', path: '/a', value: '1' }])).toThrow();
  });

  it.each<[string, JsonPatchOp, string]>([
    ['remove of a missing member', { op: 'remove', path: '/spec/nope' }, 'PATH_NOT_FOUND'],
    [
      'replace of a missing member',
      { op: 'replace', path: '/spec/nope', value: 1 },
      'PATH_NOT_FOUND',
    ],
    ['add under a missing parent', { op: 'add', path: '/nope/x', value: 1 }, 'PATH_NOT_FOUND'],
    ['index past the end', { op: 'add', path: '/spec/pool/3', value: 1 }, 'INVALID_INDEX'],
    ['remove at the end index', { op: 'remove', path: '/spec/pool/2' }, 'INVALID_INDEX'],
    ['leading zero', { op: 'remove', path: '/spec/pool/01' }, 'INVALID_INDEX'],
    [
      'test of a missing value',
      { op: 'test', path: '/spec/pool/5/ip', value: 'x' },
      'PATH_NOT_FOUND',
    ],
    ['bad pointer', { op: 'remove', path: 'spec' }, 'INVALID_POINTER'],
  ])('rejects %s', (_title, op, code) => {
    const r = tryApplyJsonPatch(doc, [op]);
    expect(r.ok ? undefined : r.error.code).toBe(code);
  });
});

describe('applyMergePatch (RFC 7386)', () => {
  it('merges maps, deletes with null, and replaces lists whole (why R-POOL-4 forbids it for spec.pool)', () => {
    const out = applyMergePatch(doc, {
      metadata: { annotations: { 'a/b': null, n: 'v' } },
      spec: { pool: [{ ip: '10.0.1.99' }] },
    });
    expect(out.metadata.annotations).toEqual({ 'c~d': 'y', n: 'v' });
    expect(out.spec.pool).toEqual([{ ip: '10.0.1.99' }]);
    expect(doc.spec.pool).toHaveLength(2);
  });
});

describe('invertJsonPatch', () => {
  it('undoes adds, appends, removes and replaces, guarded by tests of the written values', () => {
    const ops: JsonPatchOp[] = [
      { op: 'test', path: '/metadata/resourceVersion', value: '7' },
      { op: 'add', path: '/spec/pool/-', value: { ip: '10.0.1.13' } },
      { op: 'remove', path: '/spec/pool/0' },
      { op: 'replace', path: '/spec/replicas', value: 5 },
      { op: 'add', path: '/metadata/annotations/new', value: 'v' },
      { op: 'add', path: '/metadata/annotations/c~0d', value: 'z' },
    ];
    const after = applyJsonPatch(doc, ops);
    const inverse = invertJsonPatch(doc, ops);
    expect(inverse.filter((o) => o.op === 'test').length).toBeGreaterThan(0);
    expect(applyJsonPatch(after, inverse)).toEqual(doc);
  });

  it('tests an added entry by its identity when asked', () => {
    const ops: JsonPatchOp[] = [
      { op: 'add', path: '/spec/pool/-', value: { ip: '10.0.1.13', mask: '24' } },
    ];
    const inverse = invertJsonPatch(doc, ops, {
      identityOf: (v) => ({ path: '/ip', value: (v as { ip: string }).ip }),
    });
    expect(inverse).toEqual([
      { op: 'test', path: '/spec/pool/2/ip', value: '10.0.1.13' },
      { op: 'remove', path: '/spec/pool/2' },
    ]);
  });

  it('costs time linear in the ops and the object (issue 25, item 6: it copied the object per op)', () => {
    const entry = (i: number) => ({ ip: `10.${i >> 16}.${(i >> 8) & 255}.${i & 255}`, mask: '24' });
    const big = { spec: { pool: Array.from({ length: 10_000 }, (_, i) => entry(i)) } };
    const ops: JsonPatchOp[] = Array.from({ length: 10_000 }, (_, i) => ({
      op: 'add',
      path: '/spec/pool/-',
      value: entry(10_000 + i),
    }));
    const start = performance.now();
    const inverse = invertJsonPatch(big, ops);
    // Linear: tens of ms here; the copy per op took minutes at this size.
    expect(performance.now() - start).toBeLessThan(2_000);
    expect(inverse).toHaveLength(20_000);
    expect(applyJsonPatch(applyJsonPatch(big, ops), inverse)).toEqual(big);
  });

  it('what the undo keeps is not changed by the later ops it undoes', () => {
    const ops: JsonPatchOp[] = [
      { op: 'copy', from: '/spec/pool/0', path: '/spec/pool/-' },
      { op: 'replace', path: '/spec/pool/0/ip', value: '10.9.9.9' },
      { op: 'move', from: '/spec/pool/1', path: '/spec/pool/0' },
      { op: 'add', path: '/spec/pool/0/ip', value: '10.8.8.8' },
    ];
    const after = applyJsonPatch(doc, ops);
    const inverse = invertJsonPatch(doc, ops);
    expect(applyJsonPatch(after, inverse)).toEqual(doc);
    expect(invertJsonPatch(doc, ops)).toEqual(inverse);
  });

  it('the undo fails when someone changed the value meanwhile', () => {
    const ops: JsonPatchOp[] = [{ op: 'replace', path: '/spec/replicas', value: 5 }];
    const inverse = invertJsonPatch(doc, ops);
    const changed = applyJsonPatch(doc, [{ op: 'replace', path: '/spec/replicas', value: 6 }]);
    expect(tryApplyJsonPatch(changed, inverse).ok).toBe(false);
  });
});

describe('diffObjects', () => {
  it('lists added, removed and replaced fields by JSON pointer', () => {
    expect(
      diffObjects(
        { a: 1, b: { c: [1, 2], d: 'x' }, gone: true },
        { a: 2, b: { c: [1, 2, 3], d: 'x' }, added: { y: 1 } },
      ),
    ).toEqual([
      { path: '/a', change: 'replace', before: 1, after: 2 },
      { path: '/b/c/2', change: 'add', after: 3 },
      { path: '/gone', change: 'remove', before: true },
      { path: '/added', change: 'add', after: { y: 1 } },
    ]);
    expect(diffObjects(undefined, { a: 1 })).toEqual([
      { path: '', change: 'add', after: { a: 1 } },
    ]);
    expect(diffObjects({ a: 1 }, { a: 1 })).toEqual([]);
  });
});
