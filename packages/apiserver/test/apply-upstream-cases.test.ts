/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-explicit-any -- fixtures are known to be set; responses are JSON from the wire */
import { afterEach, describe, expect, it } from 'vitest';
import { serverSideApply, trackUpdate } from '../src/patch/apply';
import { resolveKind } from '../src/registry';
import { ApiError } from '../src/status';
import type { KindRegistration, KubeObject } from '../src/types';
import { widgetKind } from './support/kinds';
import { startTestServer, type TestServer } from './support/server';

/**
 * Server-side apply cases taken from upstream's tests (each `it` names the one it follows):
 * structured-merge-diff's TestAtomicMap and TestGranularMap (`x-kubernetes-map-type`), and
 * kube-apiserver's field manager tests for objects without managed fields (skipnonapplied_test.go
 * TestUpdateBeforeFirstApply and TestNoUpdateBeforeFirstApply; fieldmanager_test.go
 * TestResetManagedFieldsEmptyList, TestResetManagedFieldsEmptyItem,
 * TestNoTrackManagedFieldsForClientSideApply and TestUpdateViaSubresources).
 */

const V = 'example.com/v1';

/** A widget kind whose spec has an atomic map, a granular map and an atomic struct. */
const gadgetKind: KindRegistration = {
  ...widgetKind,
  kind: 'Gadget',
  plural: 'gadgets',
  singular: 'gadget',
  shortNames: [],
  printerColumns: [],
  selectableFields: [],
  openAPIV3Schema: {
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        properties: {
          atomicMap: {
            type: 'object',
            additionalProperties: { type: 'string' },
            'x-kubernetes-map-type': 'atomic',
          },
          granularMap: {
            type: 'object',
            additionalProperties: { type: 'string' },
            'x-kubernetes-map-type': 'granular',
          },
          selector: {
            type: 'object',
            'x-kubernetes-map-type': 'atomic',
            properties: {
              matchLabels: { type: 'object', additionalProperties: { type: 'string' } },
            },
          },
          size: { type: 'integer' },
        },
      },
      status: { type: 'object', properties: { phase: { type: 'string' } } },
    },
  },
};
const schema = resolveKind(gadgetKind).schema;

function gadget(spec: Record<string, unknown>): KubeObject {
  return { apiVersion: V, kind: 'Gadget', metadata: { name: 'g', namespace: 'default' }, spec };
}

const apply = (
  live: KubeObject | undefined,
  spec: Record<string, unknown>,
  manager: string,
  force = false,
) =>
  structuredClone(serverSideApply(live, gadget(spec), { manager, force, apiVersion: V, schema }));

/** Each manager's field set under spec, as FieldsV1. */
function specFields(o: KubeObject): Record<string, unknown> {
  return Object.fromEntries(
    (o.metadata.managedFields ?? []).map((e) => [
      `${String(e.manager)}/${String(e.operation)}`,
      (e.fieldsV1 as Record<string, unknown>)['f:spec'],
    ]),
  );
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

describe('x-kubernetes-map-type (structured-merge-diff TestAtomicMap, TestGranularMap)', () => {
  it('TestAtomicMap "atomic replace": a re-apply replaces the map whole; the map is one field', () => {
    const a = apply(undefined, { atomicMap: { name: 'a' } }, 'first');
    const b = apply(a, { atomicMap: { id: 'two' } }, 'first');
    expect(b.spec).toEqual({ atomicMap: { id: 'two' } });
    expect(specFields(b)).toEqual({ 'first/Apply': { 'f:atomicMap': {} } });
  });

  it('TestAtomicMap "conflict": another value of one key conflicts on the whole map', () => {
    const a = apply(undefined, { atomicMap: { name: 'a', value: 'one' } }, 'first');
    const e = conflictOf(() => apply(a, { atomicMap: { name: 'a', value: 'two' } }, 'second'));
    expect(e.code).toBe(409);
    expect(e.message).toBe('Apply failed with 1 conflict: conflict with "first": .spec.atomicMap');
    // Forced, the second applier takes the map (all of it) from the first.
    const forced = apply(a, { atomicMap: { value: 'two' } }, 'second', true);
    expect(forced.spec).toEqual({ atomicMap: { value: 'two' } });
    expect(specFields(forced)).toEqual({ 'second/Apply': { 'f:atomicMap': {} } });
  });

  it('TestAtomicMap "co-ownership": two appliers of the same map share it, then conflict on it', () => {
    const a = apply(undefined, { atomicMap: { name: 'a', value: 'one' } }, 'first');
    const b = apply(a, { atomicMap: { name: 'a', value: 'one' } }, 'second');
    expect(specFields(b)).toEqual({
      'first/Apply': { 'f:atomicMap': {} },
      'second/Apply': { 'f:atomicMap': {} },
    });
    const e = conflictOf(() => apply(b, { atomicMap: { name: 'a', value: 'two' } }, 'first'));
    expect(e.message).toBe('Apply failed with 1 conflict: conflict with "second": .spec.atomicMap');
  });

  it('TestGranularMap: a granular map is owned key by key; a key no longer applied goes', () => {
    const a = apply(undefined, { granularMap: { name: 'a' } }, 'first');
    expect(specFields(a)).toEqual({ 'first/Apply': { 'f:granularMap': { 'f:name': {} } } });
    const b = apply(a, { granularMap: { id: 'two' } }, 'first');
    expect(b.spec).toEqual({ granularMap: { id: 'two' } });
    // Two appliers of different keys of a granular map do not conflict (they would on an atomic one).
    const c = apply(b, { granularMap: { other: 'x' } }, 'second');
    expect(c.spec).toEqual({ granularMap: { id: 'two', other: 'x' } });
    const d = conflictOf(() =>
      apply(
        apply(undefined, { atomicMap: { id: 'two' } }, 'first'),
        { atomicMap: { id: 'two', other: 'x' } },
        'second',
      ),
    );
    expect(d.message).toBe('Apply failed with 1 conflict: conflict with "first": .spec.atomicMap');
  });

  it('an atomic struct (a label selector, as Cluster API marks it) is one field too', () => {
    const a = apply(undefined, { selector: { matchLabels: { pool: 'a', tier: 'x' } } }, 'first');
    expect(specFields(a)).toEqual({ 'first/Apply': { 'f:selector': {} } });
    const b = apply(a, { selector: { matchLabels: { pool: 'b' } } }, 'first');
    expect(b.spec).toEqual({ selector: { matchLabels: { pool: 'b' } } });
  });

  it('an update that changes one key of an atomic map takes the whole map from its applier', () => {
    const a = apply(undefined, { atomicMap: { name: 'a', value: 'one' }, size: 1 }, 'first');
    const next = structuredClone(a);
    (next.spec as any).atomicMap.value = 'two';
    trackUpdate(a, next, { manager: 'kubectl-edit', apiVersion: V, schema });
    expect(specFields(next)).toEqual({
      'first/Apply': { 'f:size': {} },
      'kubectl-edit/Update': { 'f:atomicMap': {} },
    });
  });
});

describe('managed fields of an object without them (kube-apiserver skipnonapplied, fieldmanager tests)', () => {
  let t: TestServer;
  afterEach(async () => {
    await t.server.close();
  });
  const G = '/apis/example.com/v1/namespaces/default/gadgets';
  const APPLY = 'application/apply-patch+yaml';
  const MERGE = 'application/merge-patch+json';
  const managers = (o: any): string[] =>
    ((o.metadata.managedFields ?? []) as any[]).map((e) => `${e.manager}/${e.operation}`);

  async function created(): Promise<void> {
    t = await startTestServer({ kinds: [gadgetKind] });
    const res = await t.api('POST', `${G}?fieldManager=creator`, {
      body: {
        ...gadget({ size: 1 }),
        metadata: { name: 'g', labels: { app: 'my-nginx' } },
      },
    });
    expect(res.status).toBe(201);
    expect(managers(res.body)).toEqual(['creator/Update']);
  }

  it('TestResetManagedFieldsEmptyList / EmptyItem: an update sending [] or [{}] clears them', async () => {
    await created();
    const put = await t.api('GET', `${G}/g`);
    const replaced = await t.api('PUT', `${G}/g?fieldManager=update_manager`, {
      body: { ...put.body, metadata: { ...put.body.metadata, managedFields: [] } },
    });
    expect(replaced.status).toBe(200);
    expect(replaced.body.metadata.managedFields).toBeUndefined();
    // The documented way: a merge patch of [{}] (after an apply gives it managed fields again).
    await t.api('PATCH', `${G}/g?fieldManager=fieldmanager_test_apply&force=true`, {
      body: gadget({ size: 1 }),
      contentType: APPLY,
    });
    const patched = await t.api('PATCH', `${G}/g?fieldManager=update_manager`, {
      body: { metadata: { managedFields: [{}] } },
      contentType: MERGE,
    });
    expect(patched.status).toBe(200);
    expect(patched.body.metadata.managedFields).toBeUndefined();
  });

  it('TestNoTrackManagedFieldsForClientSideApply: once cleared, updates are not tracked', async () => {
    await created();
    await t.api('PATCH', `${G}/g`, {
      body: { metadata: { managedFields: [{}] } },
      contentType: MERGE,
    });
    const upd = await t.api('PATCH', `${G}/g?fieldManager=fieldmanager_test_update`, {
      body: { metadata: { labels: { app: 'my-nginx-2' } }, spec: { size: 2 } },
      contentType: MERGE,
    });
    expect(upd.status).toBe(200);
    expect(upd.body.spec.size).toBe(2);
    expect(upd.body.metadata.managedFields).toBeUndefined();
  });

  it('TestUpdateBeforeFirstApply: the first apply conflicts with "before-first-apply", which keeps what it is not forced out of', async () => {
    await created();
    await t.api('PATCH', `${G}/g`, {
      body: { metadata: { managedFields: [] } },
      contentType: MERGE,
    });
    const body = {
      ...gadget({ size: 1 }),
      metadata: { name: 'g', labels: { app: 'nginx' } },
    };
    const path = (force: boolean) =>
      `${G}/g?fieldManager=fieldmanager_test_apply${force ? '&force=true' : ''}`;
    const conflict = await t.api('PATCH', path(false), { body, contentType: APPLY });
    expect(conflict.status).toBe(409);
    expect(conflict.body.details.causes).toHaveLength(1);
    expect(conflict.body.details.causes[0].field).toBe('.metadata.labels.app');
    expect(conflict.body.details.causes[0].message).toContain('before-first-apply');
    expect(conflict.body.message).toMatch(
      /^Apply failed with 1 conflict: conflict with "before-first-apply" using example\.com\/v1 at \S+: \.metadata\.labels\.app$/,
    );
    const forced = await t.api('PATCH', path(true), { body, contentType: APPLY });
    expect(forced.status).toBe(200);
    // Appliers sort before updaters, as upstream encodes them.
    expect(managers(forced.body)).toEqual([
      'fieldmanager_test_apply/Apply',
      'before-first-apply/Update',
    ]);
    const before = forced.body.metadata.managedFields[1];
    // It keeps spec.size, applied with the value it has (shared), and loses the label.
    expect(before.fieldsV1).toEqual({ 'f:spec': { 'f:size': {} } });
  });

  it('TestNoUpdateBeforeFirstApply: an apply that creates the object has its applier only', async () => {
    t = await startTestServer({ kinds: [gadgetKind] });
    const res = await t.api('PATCH', `${G}/g?fieldManager=fieldmanager_test_apply`, {
      body: { ...gadget({ size: 1 }), metadata: { name: 'g', labels: { app: 'nginx' } } },
      contentType: APPLY,
    });
    expect(res.status).toBe(201);
    expect(managers(res.body)).toEqual(['fieldmanager_test_apply/Apply']);
  });

  it('an update sending managed fields that decode replaces them (managed fields can be written)', async () => {
    await created();
    const entry = {
      manager: 'someone',
      operation: 'Apply',
      apiVersion: V,
      fieldsType: 'FieldsV1',
      fieldsV1: { 'f:spec': { 'f:size': {} } },
    };
    const res = await t.api('PATCH', `${G}/g?fieldManager=patcher`, {
      body: { metadata: { managedFields: [entry] } },
      contentType: MERGE,
    });
    expect(res.status).toBe(200);
    expect(managers(res.body)).toEqual(['someone/Apply']);
    // An apply of another size now conflicts with "someone".
    const conflict = await t.api('PATCH', `${G}/g?fieldManager=other`, {
      body: gadget({ size: 9 }),
      contentType: APPLY,
    });
    expect(conflict.body.message).toBe(
      'Apply failed with 1 conflict: conflict with "someone": .spec.size',
    );
  });

  it('TestUpdateViaSubresources: managed fields sent to a subresource are neither written nor reset', async () => {
    await created();
    const got = await t.api('GET', `${G}/g`);
    const res = await t.api('PUT', `${G}/g/status?fieldManager=status_writer`, {
      body: {
        ...got.body,
        metadata: { ...got.body.metadata, managedFields: [] },
        status: { phase: 'Ready' },
      },
    });
    expect(res.status).toBe(200);
    expect(managers(res.body)).toEqual(['creator/Update', 'status_writer/Update']);
  });
});
