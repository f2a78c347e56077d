/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-member-access -- responses are arbitrary JSON from the wire */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, readWatch, startTestServer, type TestServer } from './support/server';

/**
 * Issue 25, item 13: Events expire one `eventTtlMs` after their last write, as kube-apiserver's
 * do after `--event-ttl`; before, every Event ever recorded stayed in memory. The server's clock
 * is a fake one moved by the test; `expireEvents` runs the sweep the timer runs.
 */

const HOUR = 60 * 60 * 1000;
let now = Date.parse('2026-01-01T10:00:00Z');
let t: TestServer;
beforeAll(async () => {
  // The periodic sweep stays out of the way (a day): the test sweeps when it moves the clock.
  t = await startTestServer({ now: () => now, eventSweepIntervalMs: 24 * HOUR });
});
afterAll(async () => {
  await t.server.close();
});

const CORE = '/api/v1/namespaces/cpaas-system/events';
const V1 = '/apis/events.k8s.io/v1/namespaces/cpaas-system/events';
const coreEvent = (name: string) => ({
  apiVersion: 'v1',
  kind: 'Event',
  metadata: { name },
  involvedObject: { kind: 'Machine', name: 'm-1', namespace: 'cpaas-system' },
  reason: 'Created',
  message: 'created',
  type: 'Normal',
});
const v1Event = (name: string) => ({
  apiVersion: 'events.k8s.io/v1',
  kind: 'Event',
  metadata: { name },
  eventTime: '2026-01-01T10:00:00.000000Z',
  reportingController: 'dcs.io/node-pool-console',
  reportingInstance: 'bff-0',
  action: 'O-SCALE-UP',
  reason: 'Applied',
  type: 'Normal',
  regarding: { kind: 'MachineDeployment', name: 'pool', namespace: 'cpaas-system' },
});
const names = async (path: string) =>
  ((await t.api('GET', path)).body.items as any[]).map((e) => e.metadata.name as string).sort();

describe('Event TTL (kube-apiserver --event-ttl, default 1h)', () => {
  it('deletes Events of both APIs one hour after their last write, and keeps what was rewritten since', async () => {
    expect((await t.api('POST', CORE, { body: coreEvent('old') })).status).toBe(201);
    expect((await t.api('POST', V1, { body: v1Event('old-v1') })).status).toBe(201);
    expect((await t.api('POST', CORE, { body: coreEvent('touched') })).status).toBe(201);
    now += 40 * 60 * 1000;
    expect((await t.api('POST', CORE, { body: coreEvent('young') })).status).toBe(201);
    // A rewrite (a repeated Event's count going up) renews the lease.
    const touched = await t.api('PATCH', `${CORE}/touched`, {
      contentType: 'application/merge-patch+json',
      body: { count: 2 },
    });
    expect(touched.status).toBe(200);
    expect(t.server.expireEvents()).toBe(0);

    const rv = String(t.server.resourceVersion);
    now += 20 * 60 * 1000; // 60 minutes after the first three were written
    expect(t.server.expireEvents()).toBe(2);
    // Watchers see them go (replayed from the resourceVersion before the sweep).
    const seen = await readWatch(
      `${t.server.url}${CORE}?watch=1&resourceVersion=${rv}`,
      ADMIN,
      (ev) => ev.length >= 2,
    );
    const seenEvents = seen.events as { type: string; object: { metadata: { name: string } } }[];
    expect(seenEvents.map((e) => [e.type, e.object.metadata.name]).sort()).toEqual([
      ['DELETED', 'old'],
      ['DELETED', 'old-v1'],
    ]);
    expect(await names(CORE)).toEqual(['touched', 'young']);
    expect(await names(V1)).toEqual(['touched', 'young']);

    now += 40 * 60 * 1000;
    expect(t.server.expireEvents()).toBe(2);
    expect(await names(CORE)).toEqual([]);
  });

  it('leaves every other kind alone', async () => {
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'stays' } };
    expect(
      (await t.api('POST', '/api/v1/namespaces/cpaas-system/configmaps', { body: cm })).status,
    ).toBe(201);
    now += 2 * HOUR;
    t.server.expireEvents();
    expect((await t.api('GET', '/api/v1/namespaces/cpaas-system/configmaps/stays')).status).toBe(
      200,
    );
  });

  it('keeps Events forever with eventTtlMs 0', async () => {
    const keep = await startTestServer({ now: () => now, eventTtlMs: 0 });
    try {
      await keep.api('POST', CORE, { body: coreEvent('forever') });
      now += 1000 * HOUR;
      expect(keep.server.expireEvents()).toBe(0);
      expect((await keep.api('GET', `${CORE}/forever`)).status).toBe(200);
    } finally {
      await keep.server.close();
    }
  });
});
