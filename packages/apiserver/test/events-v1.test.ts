/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-call -- responses are arbitrary JSON from the wire */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VIEWER, startTestServer, type TestServer } from './support/server';

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

  it('keeps core/v1 Events apart: a core list does not show events.k8s.io ones', async () => {
    const core = await t.api('GET', '/api/v1/namespaces/cpaas-system/events');
    expect(core.status).toBe(200);
    expect(core.body.items).toEqual([]);
  });
});
