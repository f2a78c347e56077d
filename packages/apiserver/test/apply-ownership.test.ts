/* eslint-disable @typescript-eslint/no-non-null-assertion, @typescript-eslint/no-unsafe-member-access -- fixtures are known to be set; responses are JSON from the wire */
import { describe, expect, it } from 'vitest';
import { serverSideApply, trackUpdate } from '../src/patch/apply';
import { resolveKind } from '../src/registry';
import { ApiError } from '../src/status';
import type { KubeObject } from '../src/types';
import { widgetKind } from './support/kinds';
import { W, startTestServer } from './support/server';

/**
 * Field ownership of server-side apply, case by case as structured-merge-diff's own tests have
 * it (merge/multiple_appliers_test.go: two appliers of the same value share it, one dropping it
 * leaves it to the other; merge/conflict_test.go and fieldmanager's conflict message; force
 * takes the conflicting fields only; merge/set_test.go and key_test.go for set and map lists),
 * and kube-apiserver's NewConflictError for the wording.
 */

const schema = resolveKind(widgetKind).schema;
const V = 'example.com/v1';

function widget(spec: Record<string, unknown>): KubeObject {
  return { apiVersion: V, kind: 'Widget', metadata: { name: 'w', namespace: 'default' }, spec };
}

const apply = (
  live: KubeObject | undefined,
  spec: Record<string, unknown>,
  manager: string,
  force = false,
) =>
  structuredClone(serverSideApply(live, widget(spec), { manager, force, apiVersion: V, schema }));

/** Each manager's owned spec fields, as `color`, `parts[name="a"].count`, `tags[="x"]`. */
function owners(o: KubeObject): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const e of o.metadata.managedFields ?? []) {
    const paths: string[] = [];
    const walk = (node: unknown, at: string) => {
      const entries = Object.entries((node ?? {}) as Record<string, unknown>);
      if (entries.length === 0) paths.push(at);
      for (const [k, v] of entries) {
        if (k === '.') continue;
        const seg = k.startsWith('f:')
          ? `${at ? '.' : ''}${k.slice(2)}`
          : k.startsWith('k:')
            ? `[${k.slice(2)}]`
            : `[=${k.slice(2)}]`;
        walk(v, at + seg);
      }
    };
    walk((e.fieldsV1 as Record<string, unknown>)['f:spec'], '');
    out[`${String(e.manager)}/${String(e.operation)}`] = paths.filter(Boolean).sort();
  }
  return out;
}

function conflictOf(f: () => unknown): ApiError {
  try {
    f();
  } catch (e) {
    if (e instanceof ApiError) return e;
    throw e;
  }
  throw new Error('no conflict');
}

describe('server-side apply ownership (structured-merge-diff)', () => {
  it('two appliers of the same value share the field, without a conflict', () => {
    const a = apply(undefined, { color: 'red', size: 1 }, 'alice');
    const b = apply(a, { color: 'red' }, 'bob');
    expect(owners(b)).toEqual({ 'alice/Apply': ['color', 'size'], 'bob/Apply': ['color'] });
  });

  it('a shared field one applier stops applying stays, owned by the other alone', () => {
    const a = apply(undefined, { color: 'red', size: 1 }, 'alice');
    const b = apply(a, { color: 'red' }, 'bob');
    const c = apply(b, { size: 1 }, 'alice');
    expect(c.spec).toEqual({ color: 'red', size: 1 });
    expect(owners(c)).toEqual({ 'alice/Apply': ['size'], 'bob/Apply': ['color'] });
    // …and goes once its last applier stops applying it.
    const d = apply(c, { size: 2 }, 'bob', true);
    expect(d.spec).toEqual({ size: 2 });
  });

  it('a different value is a conflict; force takes that field only, the rest stays shared', () => {
    const a = apply(undefined, { color: 'red', size: 1 }, 'alice');
    const e = conflictOf(() => apply(a, { color: 'blue', size: 1 }, 'bob'));
    expect(e.code).toBe(409);
    expect(e.message).toBe('Apply failed with 1 conflict: conflict with "alice": .spec.color');
    expect(e.details?.causes).toEqual([
      { reason: 'FieldManagerConflict', message: 'conflict with "alice"', field: '.spec.color' },
    ]);
    const forced = apply(a, { color: 'blue', size: 1 }, 'bob', true);
    expect(forced.spec).toEqual({ color: 'blue', size: 1 });
    expect(owners(forced)).toEqual({ 'alice/Apply': ['size'], 'bob/Apply': ['color', 'size'] });
  });

  it('several conflicts are grouped by manager, in name order, one field a line', () => {
    let o = apply(undefined, { color: 'red' }, 'zed');
    o = apply(o, { size: 1 }, 'amy');
    o = apply(o, { size: 1, surge: 1 }, 'amy');
    const e = conflictOf(() => apply(o, { color: 'blue', size: 2, surge: 3 }, 'bob'));
    expect(e.message).toBe(
      'Apply failed with 3 conflicts: conflicts with "amy":\n- .spec.size\n- .spec.surge\nconflicts with "zed":\n- .spec.color',
    );
  });

  it('conflicts with an updater name its version and time; the updater loses the field to force', () => {
    const created = widget({ color: 'red' });
    trackUpdate(undefined, created, { manager: 'kubectl-edit', apiVersion: V, schema });
    const time = String(created.metadata.managedFields![0]!.time);
    const e = conflictOf(() => apply(created, { color: 'blue' }, 'bob'));
    expect(e.message).toBe(
      `Apply failed with 1 conflict: conflict with "kubectl-edit" using ${V} at ${time}: .spec.color`,
    );
    expect(owners(apply(created, { color: 'blue' }, 'bob', true))).toEqual({
      'bob/Apply': ['color'],
    });
  });

  it('a map list (list-map-keys) is owned item by item; a set list value by value', () => {
    const a = apply(undefined, { parts: [{ name: 'a', count: 1 }], tags: ['x'] }, 'alice');
    const b = apply(a, { parts: [{ name: 'b', count: 2 }], tags: ['y'] }, 'bob');
    expect(b.spec).toEqual({
      parts: [
        { name: 'a', count: 1 },
        { name: 'b', count: 2 },
      ],
      tags: ['x', 'y'],
    });
    const c = apply(b, { tags: ['x'] }, 'alice');
    // alice's part "a" goes with her configuration; bob's item and value stay.
    expect(c.spec).toEqual({ parts: [{ name: 'b', count: 2 }], tags: ['x', 'y'] });
  });
});

describe('server-side apply over HTTP', () => {
  it('records a second applier of the same value (a change of ownership alone is a write), and skips a repeat', async () => {
    const t = await startTestServer();
    try {
      const path = (m: string) => `${W}/shared?fieldManager=${m}`;
      const body = { ...widget({ color: 'red' }), metadata: { name: 'shared' } };
      const opts = { body, contentType: 'application/apply-patch+yaml' };
      const first = await t.api('PATCH', path('alice'), opts);
      const second = await t.api('PATCH', path('bob'), opts);
      const managersOf = (o: { metadata: KubeObject['metadata'] }) =>
        (o.metadata.managedFields ?? []).map((e) => e.manager);
      expect(managersOf(second.body as KubeObject)).toEqual(['alice', 'bob']);
      expect(second.body.metadata.resourceVersion).not.toBe(first.body.metadata.resourceVersion);
      const again = await t.api('PATCH', path('bob'), opts);
      expect(again.body.metadata.resourceVersion).toBe(second.body.metadata.resourceVersion);
    } finally {
      await t.server.close();
    }
  });
});
