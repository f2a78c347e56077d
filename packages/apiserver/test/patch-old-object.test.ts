/**
 * A patch parses the stored object once and builds on a copy of that parse (issue 14: parsing
 * was the largest cost of a write). What the write compares against and what admission sees as
 * oldObject must still be the object as stored, untouched by the patch, by decoding (defaults,
 * pruning) and by a mutating hook, for every patch type and for the status subresource.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { AdmissionHook, KubeObject, PatchType } from '../src/index';
import { startTestServer, widget, type TestServer } from './support/server';

let t: TestServer | undefined;
afterEach(async () => {
  await t?.server.close();
  t = undefined;
});

const ref = { apiVersion: 'example.com/v1', kind: 'Widget', name: 'w', namespace: 'default' };

describe('a patch leaves the object as stored to the write and to admission', () => {
  const cases: { type: PatchType; patch: unknown; subresource?: 'status' }[] = [
    // Removes spec.size, which the schema defaults back: decoding changes the result in place.
    {
      type: 'merge',
      patch: { spec: { size: null, tags: ['b'] }, metadata: { labels: { l: 'x' } } },
    },
    // Touches metadata only: the hook's change of spec lands in a subtree the patch shares.
    { type: 'merge', patch: { metadata: { labels: { l: 'y' } } } },
    { type: 'merge', patch: { status: { phase: 'Running' } }, subresource: 'status' },
    { type: 'json', patch: [{ op: 'replace', path: '/spec/color', value: 'blue' }] },
  ];
  for (const c of cases) {
    it(`${c.type} patch${c.subresource ? ' of status' : ''}: oldObject is the stored object`, async () => {
      const seen: { old: unknown; object: unknown }[] = [];
      let calls = 0;
      const hooks: AdmissionHook[] = [
        {
          name: 'mutate.example.com',
          match: {
            kinds: [{ group: 'example.com', kind: 'Widget' }],
            operations: ['UPDATE'],
            subresources: ['status'],
          },
          // A mutating hook changes the new object, including subtrees the patch did not touch.
          mutate: (req) => {
            const o = req.object as KubeObject & { spec: { extra?: unknown } };
            calls++;
            o.metadata.annotations = { ...o.metadata.annotations, mutated: String(calls) };
            o.spec.extra = { by: 'hook', calls };
          },
        },
        {
          name: 'observe.example.com',
          match: {
            kinds: [{ group: 'example.com', kind: 'Widget' }],
            operations: ['UPDATE'],
            subresources: ['status'],
          },
          validate: (req) => {
            seen.push({
              old: JSON.parse(JSON.stringify(req.oldObject)),
              object: JSON.parse(JSON.stringify(req.object)),
            });
            return { allowed: true };
          },
        },
      ];
      t = await startTestServer({ admission: hooks });
      await t.server.client.create(
        widget('w', { color: 'red', size: 3, tags: ['a'] }, { namespace: 'default' }),
      );
      await t.server.client.patch(
        ref,
        'merge',
        { status: { phase: 'Pending' } },
        { subresource: 'status' },
      );
      const before = t.server.client.get(ref);
      seen.length = 0;
      await t.server.client.patch(
        ref,
        c.type,
        c.patch,
        c.subresource ? { subresource: c.subresource } : {},
      );
      expect(seen).toHaveLength(1);
      // oldObject is exactly what a reader got before the patch.
      expect(seen[0]?.old).toEqual(before);
      // And the write happened: the new object differs from the old one.
      expect(seen[0]?.object).not.toEqual(before);
    });
  }
});
