/* eslint-disable @typescript-eslint/no-non-null-assertion -- fixtures are known to be set */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { deepEqual } from '../src/json';
import { trackUpdate, trackUpdateByPathSets } from '../src/patch/apply';
import { changedPaths, fieldSet, leafPaths, toFieldsV1 } from '../src/patch/managed-fields';
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

  describe('shortcuts of an update', () => {
    beforeEach(() => {
      vi.useFakeTimers({ now: new Date('2026-12-02T10:00:00Z') });
    });
    afterEach(() => {
      vi.useRealTimers();
    });

    // A small deterministic generator (no dependency): the seed is printed on failure.
    const random = (seed: number) => () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };

    it('records what the general case records, for random updates by several managers', () => {
      const seed = 14;
      const rnd = random(seed);
      const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)] as T;
      const randomWidget = (): KubeObject => {
        const spec: Record<string, unknown> = { color: pick(['red', 'green', 'blue']) };
        if (rnd() < 0.6) spec.size = Math.floor(rnd() * 4);
        if (rnd() < 0.5) spec.tags = ['a', 'b', 'c'].filter(() => rnd() < 0.6);
        if (rnd() < 0.6)
          spec.parts = ['x', 'y', 'z']
            .filter(() => rnd() < 0.6)
            .map((name) => (rnd() < 0.5 ? { name, count: Math.floor(rnd() * 3) } : { name }));
        if (rnd() < 0.3) spec.extra = rnd() < 0.5 ? { deep: { er: [1] } } : { other: 'v' };
        const labels = rnd() < 0.5 ? { a: pick(['1', '2']) } : undefined;
        const obj = widget(spec, labels ? { labels } : {});
        if (rnd() < 0.5) obj.status = { phase: pick(['Pending', 'Running']) };
        return obj;
      };
      let shortcuts = 0; // updates that kept other entries as they were
      for (let run = 0; run < 200; run++) {
        let current = randomWidget();
        trackUpdate(undefined, current, {
          manager: 'creator',
          apiVersion: 'example.com/v1',
          schema,
        });
        for (let step = 0; step < 8; step++) {
          const manager = pick(['creator', 'a', 'b']);
          const subresource = pick([undefined, 'status']);
          const o = {
            manager,
            apiVersion: 'example.com/v1',
            schema,
            ...(subresource ? { subresource } : {}),
          };
          const next = randomWidget();
          next.metadata.managedFields = current.metadata.managedFields;
          const reference = structuredClone(next);
          trackUpdate(current, next, o);
          const strip = (x: KubeObject) => ({
            ...x,
            metadata: { ...x.metadata, managedFields: undefined },
          });
          const changed = changedPaths(strip(current), strip(reference), schema);
          trackUpdateByPathSets(current, reference, changed, o);
          // A shortcut keeps the entries it does not change (the general case writes all anew).
          const before = current.metadata.managedFields ?? [];
          if ((next.metadata.managedFields ?? []).some((e) => before.includes(e))) shortcuts++;
          if (!deepEqual(next.metadata.managedFields, reference.metadata.managedFields)) {
            expect({ seed, run, step, got: next.metadata.managedFields }).toEqual({
              seed,
              run,
              step,
              got: reference.metadata.managedFields,
            });
          }
          current = structuredClone(next);
        }
      }
      expect(shortcuts).toBeGreaterThan(50);
    });
  });
});
