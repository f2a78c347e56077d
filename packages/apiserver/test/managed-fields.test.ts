/* eslint-disable @typescript-eslint/no-non-null-assertion -- fixtures are known to be set */
import { describe, expect, it } from 'vitest';
import { trackUpdate } from '../src/patch/apply';
import { fieldSet, leafPaths, toFieldsV1 } from '../src/patch/managed-fields';
import { resolveKind } from '../src/registry';
import type { KubeObject } from '../src/types';
import { widgetKind } from './support/kinds';

const schema = resolveKind(widgetKind).schema;

function widget(spec: Record<string, unknown>, meta: Record<string, unknown> = {}): KubeObject {
  return {
    apiVersion: 'example.com/v1',
    kind: 'Widget',
    metadata: { name: 'w', namespace: 'default', uid: 'u', ...meta },
    spec,
  };
}

describe('managed fields', () => {
  it('builds the field set of an object in one walk, as the leaf paths would', () => {
    const objects = [
      widget({ color: 'red', size: 2 }),
      widget(
        {
          color: 'red',
          tags: ['a', 'b'],
          parts: [{ name: 'x', count: 1 }, { name: 'y' }, { name: 'x', count: 2 }],
          extra: { deep: { er: [1, 2] }, empty: {} },
        },
        {
          labels: { a: 'b' },
          annotations: { c: 'd' },
          finalizers: ['f'],
          ownerReferences: [{ uid: 'o', kind: 'K', name: 'n', apiVersion: 'v1' }],
          resourceVersion: '3',
        },
      ),
      widget({ tags: [], parts: [], extra: {} }, { labels: {} }),
      { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'only-name' } },
    ];
    for (const obj of objects)
      expect(fieldSet(obj, schema)).toStrictEqual(toFieldsV1(leafPaths(obj, schema)));
  });

  it('keeps ownership right whether an update touches its own fields or takes others over', () => {
    const opts = (manager: string) => ({ manager, apiVersion: 'example.com/v1', schema });
    const step = (old: KubeObject | undefined, spec: Record<string, unknown>, manager: string) => {
      const next = widget(spec);
      if (old) next.metadata.managedFields = old.metadata.managedFields;
      trackUpdate(old, next, opts(manager));
      return structuredClone(next);
    };
    const owners = (o: KubeObject) =>
      Object.fromEntries(
        (o.metadata.managedFields ?? []).map((e) => [
          e.manager as string,
          Object.keys((e.fieldsV1 as { 'f:spec'?: object })['f:spec'] ?? {}),
        ]),
      );
    const created = step(undefined, { color: 'red', size: 1 }, 'a');
    expect(owners(created)).toEqual({ a: ['f:color', 'f:size'] });
    // a changes what it owns: the entry stays as it was but for its time
    const own = step(created, { color: 'green', size: 1 }, 'a');
    const timeless = (o: KubeObject) => o.metadata.managedFields?.map(({ time: _, ...e }) => e);
    expect(timeless(own)).toEqual(timeless(created));
    // b changes a field a owns: b takes it over
    const taken = step(own, { color: 'blue', size: 1 }, 'b');
    expect(owners(taken)).toEqual({ a: ['f:size'], b: ['f:color'] });
    const mine = step(taken, { color: 'blue', size: 2 }, 'a');
    expect(owners(mine)).toEqual({ a: ['f:size'], b: ['f:color'] });
    // a takes color back; b owned nothing else, so its entry goes
    const back = step(mine, { color: 'red', size: 2 }, 'a');
    expect(owners(back)).toEqual({ a: ['f:size', 'f:color'] });
    expect(back.metadata.managedFields![0]!.manager).toBe('a');
  });
});
