/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-assignment -- responses are arbitrary JSON from the wire */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, VIEWER, readWatch, startTestServer, type TestServer } from './support/server';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.server.close();
});

const EV = '/apis/events.k8s.io/v1/namespaces/cpaas-system/events';
const event = (name: string, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'events.k8s.io/v1',
  kind: 'Event',
  metadata: { name },
  eventTime: '2026-01-01T10:02:00.000000Z',
  reportingController: 'dcs.io/node-pool-console',
  reportingInstance: 'bff-0',
  action: 'O-SCALE-UP',
  reason: 'Applied',
  type: 'Normal',
  regarding: { kind: 'MachineDeployment', name: 'dev-west-full', namespace: 'cpaas-system' },
  note: 'alice scaled dev-west-full 4 → 6',
  ...extra,
});

describe('events.k8s.io/v1 Events (served as upstream serves them, for the console’s audit)', () => {
  it('is discovered, created, listed by field selector and read by the view role', async () => {
    const gv = await t.api('GET', '/apis/events.k8s.io/v1');
    expect(gv.status).toBe(200);
    expect(gv.body.resources).toContainEqual(
      expect.objectContaining({ name: 'events', kind: 'Event', namespaced: true }),
    );
    expect((await t.api('POST', EV, { body: event('a') })).status).toBe(201);
    expect(
      (await t.api('POST', EV, { body: event('b', { regarding: { kind: 'Machine', name: 'm' } }) }))
        .status,
    ).toBe(201);
    const list = await t.api('GET', `${EV}?fieldSelector=regarding.name%3Ddev-west-full`, {
      token: VIEWER,
    });
    expect(list.status).toBe(200);
    expect(list.body.items.map((e: { metadata: { name: string } }) => e.metadata.name)).toEqual([
      'a',
    ]);
  });

  it('refuses an Event without eventTime, reportingController, reportingInstance, action or reason (422, field named)', async () => {
    for (const field of [
      'eventTime',
      'reportingController',
      'reportingInstance',
      'action',
      'reason',
    ]) {
      const body = Object.fromEntries(
        Object.entries(event(`bad-${field.toLowerCase()}`)).filter(([k]) => k !== field),
      );
      const res = await t.api('POST', EV, { body });
      expect(res.status, field).toBe(422);
      expect(JSON.stringify(res.body.details.causes)).toContain(field);
    }
    const wrongType = await t.api('POST', EV, { body: event('bad-type', { type: 'Info' }) });
    expect(wrongType.status).toBe(422);
  });
});

const CORE = '/api/v1/namespaces/cpaas-system/events';
const coreEvent = (name: string, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'Event',
  metadata: { name },
  involvedObject: { kind: 'Machine', name: 'm-1', namespace: 'cpaas-system', uid: 'u-1' },
  reason: 'SuccessfulSetNodeRef',
  message: 'set nodeRef to node-1',
  type: 'Normal',
  source: { component: 'machine-controller', host: 'h1' },
  firstTimestamp: '2026-01-01T10:00:00Z',
  lastTimestamp: '2026-01-01T10:05:00Z',
  count: 3,
  reportingComponent: 'cluster-api',
  reportingInstance: 'capi-0',
  ...extra,
});

describe('one Event resource through two APIs (issue 12: stored once, converted as upstream converts)', () => {
  it('an Event created through events.k8s.io/v1 is read through core/v1, fields converted, same uid and resourceVersion', async () => {
    const created = await t.api('POST', EV, {
      body: event('conv-v1', {
        series: { count: 2, lastObservedTime: '2026-01-01T10:03:00.000000Z' },
        related: { kind: 'Machine', name: 'm-9', namespace: 'cpaas-system' },
        deprecatedSource: { component: 'old-style' },
        deprecatedFirstTimestamp: '2026-01-01T09:00:00Z',
        deprecatedLastTimestamp: '2026-01-01T10:02:00Z',
        deprecatedCount: 7,
      }),
    });
    expect(created.status).toBe(201);
    expect(created.body.apiVersion).toBe('events.k8s.io/v1');
    const core = await t.api('GET', `${CORE}/conv-v1`, { token: VIEWER });
    expect(core.status).toBe(200);
    expect(core.body).toMatchObject({
      apiVersion: 'v1',
      kind: 'Event',
      metadata: {
        name: 'conv-v1',
        uid: created.body.metadata.uid,
        resourceVersion: created.body.metadata.resourceVersion,
      },
      involvedObject: { kind: 'MachineDeployment', name: 'dev-west-full' },
      message: 'alice scaled dev-west-full 4 → 6',
      reportingComponent: 'dcs.io/node-pool-console',
      reportingInstance: 'bff-0',
      action: 'O-SCALE-UP',
      reason: 'Applied',
      type: 'Normal',
      eventTime: '2026-01-01T10:02:00.000000Z',
      series: { count: 2, lastObservedTime: '2026-01-01T10:03:00.000000Z' },
      related: { kind: 'Machine', name: 'm-9' },
      source: { component: 'old-style' },
      firstTimestamp: '2026-01-01T09:00:00Z',
      lastTimestamp: '2026-01-01T10:02:00Z',
      count: 7,
    });
    for (const v1Only of ['regarding', 'note', 'reportingController', 'deprecatedCount'])
      expect(core.body, v1Only).not.toHaveProperty(v1Only);
    // The core list shows it too, and the events.k8s.io one reads back what was written.
    const list = await t.api('GET', CORE);
    expect(list.body.items.map((e: { metadata: { name: string } }) => e.metadata.name)).toContain(
      'conv-v1',
    );
    const again = await t.api('GET', `${EV}/conv-v1`);
    expect(again.body).toMatchObject({
      regarding: { kind: 'MachineDeployment', name: 'dev-west-full' },
      note: 'alice scaled dev-west-full 4 → 6',
      deprecatedCount: 7,
    });
    expect(again.body).not.toHaveProperty('message');
  });

  it('a core/v1 Event is listed through events.k8s.io/v1 (field selectors in its own terms) and its name is taken in both', async () => {
    const created = await t.api('POST', CORE, { body: coreEvent('conv-core') });
    expect(created.status).toBe(201);
    const list = await t.api('GET', `${EV}?fieldSelector=regarding.name%3Dm-1`);
    expect(list.status).toBe(200);
    expect(list.body.items).toHaveLength(1);
    expect(list.body.items[0]).toMatchObject({
      apiVersion: 'events.k8s.io/v1',
      kind: 'Event',
      metadata: { name: 'conv-core', uid: created.body.metadata.uid },
      regarding: { kind: 'Machine', name: 'm-1', uid: 'u-1' },
      note: 'set nodeRef to node-1',
      reportingController: 'cluster-api',
      deprecatedSource: { component: 'machine-controller', host: 'h1' },
      deprecatedFirstTimestamp: '2026-01-01T10:00:00Z',
      deprecatedLastTimestamp: '2026-01-01T10:05:00Z',
      deprecatedCount: 3,
    });
    // One resource: the same name through the other API already exists.
    const twin = await t.api('POST', EV, { body: event('conv-core') });
    expect(twin.status).toBe(409);
    expect(twin.body.reason).toBe('AlreadyExists');
  });

  it('watches through either API see writes through the other, in resourceVersion order', async () => {
    const start = await t.api('GET', CORE);
    const rv = start.body.metadata.resourceVersion as string;
    const coreWatch = readWatch(
      `${t.server.url}${CORE}?watch=1&resourceVersion=${rv}`,
      ADMIN,
      (ev) => ev.length >= 3,
    );
    const v1Watch = readWatch(
      `${t.server.url}${EV}?watch=1&resourceVersion=${rv}`,
      ADMIN,
      (ev) => ev.length >= 3,
    );
    expect((await t.api('POST', EV, { body: event('conv-watch') })).status).toBe(201);
    const patched = await t.api('PATCH', `${CORE}/conv-watch`, {
      body: { message: 'changed through core/v1' },
      contentType: 'application/merge-patch+json',
    });
    expect(patched.status).toBe(200);
    expect((await t.api('DELETE', `${EV}/conv-watch`)).status).toBe(200);
    const seen = (events: any[]) =>
      events.map((e) => `${e.type} ${e.object.apiVersion} ${e.object.metadata.resourceVersion}`);
    const [core, v1] = await Promise.all([coreWatch, v1Watch]);
    const rvs = core.events.map((e) => e.object.metadata.resourceVersion as string);
    expect(Number(rvs[0])).toBeLessThan(Number(rvs[1]));
    expect(seen(core.events)).toEqual([
      `ADDED v1 ${String(rvs[0])}`,
      `MODIFIED v1 ${String(rvs[1])}`,
      `DELETED v1 ${String(rvs[2])}`,
    ]);
    expect(seen(v1.events)).toEqual([
      `ADDED events.k8s.io/v1 ${String(rvs[0])}`,
      `MODIFIED events.k8s.io/v1 ${String(rvs[1])}`,
      `DELETED events.k8s.io/v1 ${String(rvs[2])}`,
    ]);
    expect(v1.events[1].object.note).toBe('changed through core/v1');
    expect(core.events[0].object.message).toBe('alice scaled dev-west-full 4 → 6');
  });
});

describe('readers own what they get', () => {
  it('changing an object got or listed through either Event API changes nothing stored (views are converted once and shared)', async () => {
    const created = await t.server.client.create({
      ...event('owned'),
      metadata: { name: 'owned', namespace: 'cpaas-system' },
    });
    const ref = { kind: 'Event', namespace: 'cpaas-system', name: 'owned' };
    for (const apiVersion of ['events.k8s.io/v1', 'v1']) {
      const got = t.server.client.get({ ...ref, apiVersion });
      if (!got) throw new Error(`no Event through ${apiVersion}`);
      got.reason = 'Mutated';
      (got.metadata.labels ??= {}).x = 'y';
      for (const listed of t.server.client.list(apiVersion, 'Event', 'cpaas-system'))
        listed.type = 'Warning';
      created.note = 'mutated';
    }
    for (const apiVersion of ['events.k8s.io/v1', 'v1']) {
      const again = t.server.client.get({ ...ref, apiVersion });
      expect(again?.reason, apiVersion).toBe('Applied');
      expect(again?.type, apiVersion).toBe('Normal');
      expect(again?.metadata.labels, apiVersion).toBeUndefined();
    }
    const http = await t.api('GET', `${EV}/owned`);
    expect(http.body).toMatchObject({
      reason: 'Applied',
      type: 'Normal',
      note: 'alice scaled dev-west-full 4 → 6',
    });
  });
});
