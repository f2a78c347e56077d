import { describe, expect, it } from 'vitest';
import {
  changedPaths,
  overlapping,
  overlaps,
  poolEntriesTouched,
  poolEntryClash,
  withResourceVersion,
  writtenPaths,
} from './conflict';

describe('conflict judgement', () => {
  it('finds the fields another change touched, status and bookkeeping left out', () => {
    const base = { metadata: { resourceVersion: '1', labels: { a: '1' } }, spec: { replicas: 3 } };
    const theirs = {
      metadata: { resourceVersion: '2', labels: { a: '2' } },
      spec: { replicas: 3 },
      status: { x: 1 },
    };
    expect(changedPaths(base, theirs)).toEqual(['/metadata/labels/a']);
  });

  it('leaves out the conversion-data annotation, which every status write of a v1beta2-stored object rewrites', () => {
    const at = (data: string) => ({
      metadata: { annotations: { 'cluster.x-k8s.io/conversion-data': data, team: 'a' } },
    });
    expect(changedPaths(at('{"status":{"x":1}}'), at('{"status":{"x":2}}'))).toEqual([]);
    expect(
      changedPaths(at('{}'), {
        metadata: { annotations: { 'cluster.x-k8s.io/conversion-data': '{}', team: 'b' } },
      }),
    ).toEqual(['/metadata/annotations/team']);
  });

  it('judges overlap by containment of pointers', () => {
    expect(overlaps('/spec/replicas', '/spec/replicas')).toBe(true);
    expect(overlaps('/spec', '/spec/replicas')).toBe(true);
    expect(overlaps('/spec/replicas', '/spec/replicasX')).toBe(false);
    expect(overlapping(['/metadata/labels/a'], ['/spec/replicas'])).toEqual([]);
  });

  it('reads the paths a step writes: JSON patch ops without tests, merge patch leaves', () => {
    expect(
      writtenPaths({
        verb: 'patch',
        kind: 'MachineDeployment',
        namespace: 'n',
        name: 'md',
        description: { messageKey: 'plan.step.scale', params: {}, message: '' },
        patch: {
          type: 'json',
          ops: [
            { op: 'test', path: '/metadata/resourceVersion', value: '1' },
            { op: 'replace', path: '/spec/replicas', value: 4 },
          ],
        },
      }),
    ).toEqual(['/spec/replicas']);
    expect(
      writtenPaths({
        verb: 'patch',
        kind: 'Machine',
        namespace: 'n',
        name: 'm',
        description: { messageKey: 'plan.step.markMachine', params: {}, message: '' },
        patch: {
          type: 'merge',
          doc: {
            metadata: {
              resourceVersion: '7',
              annotations: { 'cluster.x-k8s.io/delete-machine': 'true' },
            },
          },
        },
      }),
    ).toEqual(['/metadata/annotations/cluster.x-k8s.io~1delete-machine']);
  });

  it('replaces a resourceVersion at a dotted path, also under keys containing dots', () => {
    expect(withResourceVersion({ resourceVersion: '1', x: 1 }, 'resourceVersion', '2')).toEqual({
      resourceVersion: '2',
      x: 1,
    });
    expect(
      withResourceVersion({ ipPool: { resourceVersion: '1' } }, 'ipPool.resourceVersion', '5'),
    ).toEqual({
      ipPool: { resourceVersion: '5' },
    });
    expect(
      withResourceVersion(
        { machineResourceVersions: { 'm.1': '3' } },
        'machineResourceVersions.m.1',
        '9',
      ),
    ).toEqual({ machineResourceVersions: { 'm.1': '9' } });
  });

  it('R-POOL-4: an edit of an entry someone else changed or removed meanwhile is a clash', () => {
    const touched = poolEntriesTouched({
      remove: ['10.0.0.5'],
      update: [{ ip: '10.0.0.7' }, { ip: 7 }, null],
      append: [{ ip: '10.0.0.9' }],
    });
    expect(touched).toEqual(['10.0.0.5', '10.0.0.7']);
    expect(poolEntryClash(touched, { changed: ['10.0.0.7'], removed: [] })).toEqual(['10.0.0.7']);
    expect(poolEntryClash(touched, { changed: [], removed: ['10.0.0.5'] })).toEqual(['10.0.0.5']);
    // Their appends and edits of other entries merge cleanly.
    expect(poolEntryClash(touched, { changed: ['10.0.0.6'], removed: ['10.0.0.8'] })).toEqual([]);
    expect(poolEntriesTouched({ replicas: 3 })).toEqual([]);
    expect(poolEntriesTouched(null)).toEqual([]);
  });
});
